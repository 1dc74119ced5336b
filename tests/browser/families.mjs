// Browser tests for issue 18 items 3, 8 and 11: the "All method families" chart draws the core's
// `families` command (each family at its own default acceptance, the user's own setup, the
// absent families with the core's reasons); the landing page is the core's validated starter
// and each example chip evaluates; the headline carries the validation's held-out error for
// its engine and family. Expected values come from the native CLI on the same config.
// Run from run.mjs (same server, browser and request/console watchers).
import {
  test,
  assert,
  eq,
  cli,
  cliLink,
  cliDecode,
  waitQuiet,
  fragmentOf,
  checkAgainstCli,
  revealCharts,
  showSpeedup,
  samePoints,
  cellsOf,
  sameCells,
  DEEPSEEK_MTP,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

const DEEPSEEK = DEEPSEEK_MTP;
const VICUNA = {
  target: 'vicuna-7b-v1.3',
  hardware: 'a100-80gb-sxm',
  runtime: 'hf-eager',
  method: { family: 'sps', draft: 'vicuna-68m', k: 4 },
  acceptance: { alpha: 0.7 },
};

const cliJson = (command, input) => JSON.parse(cli(['run', command, '-'], JSON.stringify(input)));
// The chart names each family by the core's short label (list methods), never by its id.
const SHORT = new Map(JSON.parse(cli(['list', 'methods'])).map((m) => [m.id, m.short_label]));
const short = (id) => SHORT.get(id) || id;

// A new fragment on the same page is a hash change, not a reload: the chart still shows the
// previous setup's bars until the core answers. So wait (60 s) for as many bars as the core
// gives this setup; on a timeout read what is drawn and let the comparison say what is missing.
async function familiesShown(page, url, config, bars) {
  await page.goto(`${url}#${cliLink(config)}`);
  await waitQuiet(page);
  await revealCharts(page);
  await page
    .waitForFunction(
      (n) => {
        const f = document.querySelector('[data-testid=chart-families]');
        const marks = JSON.parse(f?.dataset.marks || '{}')['Predicted speedup'] || [];
        return f?.dataset.absent !== undefined && marks.length === n;
      },
      bars,
      { timeout: 60000 },
    )
    .catch(() => {});
  return page.$eval('[data-testid=chart-families]', (f) => ({
    points: Number(f.dataset.points),
    bars: JSON.parse(f.dataset.marks || '{}')['Predicted speedup'] || [],
    absent: JSON.parse(f.dataset.absent),
    note: f.querySelector('.chart-note').textContent,
    rows: [...f.querySelectorAll('[data-testid=chart-values] tbody tr')].map((r) =>
      [...r.cells].map((c) => c.textContent),
    ),
  }));
}

export async function familiesTests({ url, newPage }) {
  const page = await newPage();

  for (const [name, config] of [
    ['DeepSeek-V3 MTP on 8×H200', DEEPSEEK],
    ['Vicuna-7B, SpS at α 0.7', VICUNA],
  ]) {
    await test(`families chart (${name}): one bar per core evaluation at its own acceptance, yours first, absent ones with the core's reason`, async () => {
      const core = cliJson('families', config);
      const shown = await familiesShown(page, url, config, 1 + core.families.length);
      const expected = [
        [`yours (${short(core.yours.family)})`, core.yours],
        ...core.families.map((f) => [short(f.family), f]),
      ];
      // The bars drawn: one per family at x = 0, 1, ..., each at the core's speedup.
      samePoints(
        shown.bars,
        expected.map(([, f], i) => [i, f.speedup]),
        'bars',
      );
      eq(shown.rows.length, expected.length, 'table rows');
      expected.forEach(([label, f], i) => {
        eq(shown.rows[i][0], label, `row ${i} family`);
        eq(shown.rows[i][1], showSpeedup(f.speedup), `${label}: speedup`);
        eq(shown.rows[i][2], f.tau.toFixed(2), `${label}: tau`);
        eq(shown.rows[i][6], f.tau_source, `${label}: where tau comes from`);
      });
      eq(
        JSON.stringify(shown.absent),
        JSON.stringify(core.absent.map((a) => a.family)),
        'absent families',
      );
      // Each absent family by the core's short label (list methods), with the core's reason.
      const shortLabel = new Map(
        JSON.parse(cli(['list', 'methods'])).map((m) => [m.id, m.short_label || m.label]),
      );
      for (const a of core.absent)
        assert(
          shown.note.includes(`${shortLabel.get(a.family)} (${a.reason})`),
          `note names ${a.family}: ${a.reason}`,
        );
      // Each family's bar is what eval gives that family with no acceptance: not the user's α.
      for (const f of core.families) {
        const e = cliJson('eval', f.config);
        eq(e.speedup, f.speedup, `${f.family}: eval of its own default`);
      }
    });
  }

  await test("families chart on DeepSeek-V3: MTP at the report's acceptance, no EAGLE bars, no guessed lookup", async () => {
    const core = cliJson('families', DEEPSEEK);
    const shown = await familiesShown(page, url, DEEPSEEK, 1 + core.families.length);
    const labels = shown.rows.map((r) => r[0]);
    eq(JSON.stringify(labels), JSON.stringify([`yours (${short('mtp')})`, short('mtp')]), 'bars');
    samePoints(
      shown.bars,
      [core.yours, ...core.families].map((f, i) => [i, f.speedup]),
      'the two bars drawn',
    );
    eq(shown.rows[1][2], (1 + (0.85 + 0.9) / 2).toFixed(2), 'MTP tau = 1 + 85-90 % midpoint');
    for (const f of ['eagle1', 'eagle2', 'eagle3', 'pld'])
      assert(shown.absent.includes(f), `${f} absent`);
  });

  await test('the landing page opens the validated starter (Llama-3.1-8B, H100, vLLM, EAGLE-3 chain, published acceptance) and it evaluates', async () => {
    await page.goto(`${url}`);
    await waitQuiet(page);
    const ui = JSON.parse(cli(['list', 'ui']));
    const shownConfig = cliDecode(fragmentOf(page.url()));
    const starter = cliJson('normalize', ui.starter);
    eq(JSON.stringify(shownConfig), JSON.stringify(starter), 'the page opens the starter');
    eq(shownConfig.target, 'llama3.1-8b-instruct', 'target');
    eq(shownConfig.hardware, 'h100-sxm', 'GPU');
    eq(shownConfig.method.family, 'eagle3', 'family');
    assert(!('alpha' in shownConfig.acceptance), 'no alpha override');
    const e = cliJson('eval', ui.starter);
    assert(e.engine.validated, 'a validated engine');
    assert(e.tau_source.includes('workloads.json'), `tau from the traces: ${e.tau_source}`);
    await checkAgainstCli(page, 'landing page');
    const error = await page.$('[data-testid=field-error]:not([hidden])');
    eq(error, null, 'no error on the landing page');
    // Each example chip evaluates and fits, on the page as in the CLI.
    const labels = await page.$$eval('#examples [data-example]', (b) =>
      b.map((x) => x.textContent),
    );
    eq(JSON.stringify(labels), JSON.stringify(ui.examples.map((x) => x.label)), 'chips');
    for (let i = 0; i < ui.examples.length; i++) {
      await page.click(`#examples [data-example="${i}"]`);
      await waitQuiet(page);
      await checkAgainstCli(page, `chip ${labels[i]}`);
      const verdict = await page.$eval('#verdict', (v) => v.dataset.state);
      assert(verdict !== 'infeasible', `${labels[i]}: ${verdict}`);
    }
  });

  await test("the headline shows the validation's held-out error for this engine and family, from the core", async () => {
    const ui = JSON.parse(cli(['list', 'ui']));
    await page.goto(`${url}#${cliLink(ui.starter)}`);
    await waitQuiet(page);
    const e = cliJson('eval', ui.starter);
    assert(e.fidelity.rows > 0, 'vLLM EAGLE-3 has held-out rows');
    const shown = await page.$eval('[data-testid=fidelity]', (n) => ({
      hidden: n.hidden,
      text: n.textContent,
      low: Number(n.dataset.low),
      high: Number(n.dataset.high),
      rows: Number(n.dataset.rows),
    }));
    eq(shown.hidden, false, 'shown beside the headline');
    eq(shown.low, e.fidelity.speedup_low, 'band low');
    eq(shown.high, e.fidelity.speedup_high, 'band high');
    eq(shown.rows, e.fidelity.rows, 'rows');
    assert(shown.text.includes(e.fidelity.statement), `statement: ${shown.text}`);
    assert(
      shown.text.startsWith(
        `${e.fidelity.speedup_low.toFixed(2)}–${showSpeedup(e.fidelity.speedup_high)}`,
      ),
      `band text: ${shown.text}`,
    );
  });

  await test("compare: switching B to another family, its acceptance follows the family (the core default), not A's", async () => {
    const ui = JSON.parse(cli(['list', 'ui']));
    const linkA = cliLink(ui.starter);
    await page.goto(`${url}#${linkA}`);
    await waitQuiet(page);
    await page.click('[data-testid=compare-start]');
    await page.waitForFunction((l) => location.hash === `#${l}&compare&${l}`, linkA, {
      timeout: 10000,
    });
    await page.selectOption('#f-family', 'pld');
    await page.waitForFunction(
      () => /method\.family=pld/.test(location.hash.split('&compare&')[0]),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    const [linkB] = fragmentOf(page.url()).split('&compare&');
    const b = cliDecode(linkB);
    // Independently: pld on this target with no acceptance = the vLLM n-gram traces at pld's k.
    const noAcceptance = { ...b };
    delete noAcceptance.acceptance;
    const expected = cliJson('eval', noAcceptance);
    const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (r) =>
      Object.fromEntries(
        r.map((x) => [x.dataset.row, [x.cells[1].textContent, x.cells[2].textContent]]),
      ),
    );
    assert(Object.keys(rows).length > 0, 'the compare table shows no row');
    eq(rows['τ'][1], expected.tau.toFixed(2), "B's tau is pld's own default");
    eq(rows['τ from'][1], expected.tau_source, "B's tau source");
    assert(expected.tau_source.includes('n-gram'), expected.tau_source);
    await page.click('[data-testid=compare-stop]');
  });

  await test('calibrating to a pasted vllm bench serve summary shows measured, predicted before and after, which agree within the stated tolerance', async () => {
    const ui = JSON.parse(cli(['list', 'ui']));
    await page.goto(`${url}#${cliLink(ui.starter)}`);
    await waitQuiet(page);
    const summary =
      'Mean TPOT (ms):                          12.50\nAcceptance length:                       2.40\n';
    await page.evaluate(() => {
      document.querySelector('#measured').open = true;
    });
    await page.selectOption('#m-kind', 'bench_serve');
    await page.fill('#m-text', summary);
    await page.click('#m-go');
    await page.waitForSelector('[data-testid=measured-table]:not([hidden])', { timeout: 60000 });
    await waitQuiet(page);
    const core = cliJson('fit-measured', { config: ui.starter, bench_serve: summary });
    const rows = await page.$$eval('[data-testid=measured-table] tbody tr', (r) =>
      Object.fromEntries(
        r.map((x) => [x.dataset.row, [...x.cells].slice(1).map((c) => Number(c.dataset.value))]),
      ),
    );
    assert(rows.tpot_s && rows.tau, `measured table rows: ${JSON.stringify(Object.keys(rows))}`);
    // Measured by hand: TPOT 12.50 ms = 0.0125 s, tau 2.40.
    eq(rows.tpot_s[0], 0.0125, 'measured TPOT');
    eq(rows.tau[0], 2.4, 'measured tau');
    eq(rows.tpot_s[1], core.before.tpot_s, 'predicted before = core');
    eq(rows.tpot_s[2], core.after.tpot_s, 'predicted after = core');
    // The text of every row the core measured: measured, predicted before and after.
    const shows = [
      ['tau', 'τ', fmt.tau],
      ['tpot_s', 'Time per output token', fmt.seconds],
      ['tokens_per_s', 'Tokens/s (batch)', fmt.rate],
    ].filter(([key]) => core.measured[key] !== undefined);
    sameCells(
      await cellsOf(page, '[data-testid=measured-table] tbody tr'),
      shows.map(([key, label, show]) => [
        label,
        show(core.measured[key]),
        show(core.before[key]),
        show(core.after[key]),
      ]),
      'measured vs predicted',
    );
    const tol = core.tolerance;
    assert(Math.abs(rows.tpot_s[2] - 0.0125) <= tol * 0.0125, `after ${rows.tpot_s[2]} vs 0.0125`);
    assert(Math.abs(rows.tau[2] - 2.4) <= tol * 2.4, `after tau ${rows.tau[2]}`);
    eq(
      await page.$eval('[data-testid=measured-status]', (n) => n.dataset.agree),
      'true',
      'the page says they agree',
    );
    // The calibrated config is applied: the headline is the calibrated evaluation.
    await page.waitForFunction(() => /acceptance\.tau=2\.4/.test(location.hash), null, {
      timeout: 10000,
    });
    await checkAgainstCli(page, 'calibrated config');
  });
}
