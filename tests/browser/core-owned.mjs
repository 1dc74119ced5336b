// Browser tests for what the page takes from the core instead of deciding itself (issues 12 and
// 13): the acceptance forms (tree matrix, Medusa head accuracies) with their definitions, the
// speedup band of a workload's per-request τ spread, the k chart's best point, the families
// chart's published best per family, and the custom model / GPU editors' starting objects. Expected values come from the native CLI, with hand
// checks where a property can be derived independently.
// Run from run.mjs (same server, browser and request/console watchers).
import {
  test,
  assert,
  eq,
  cli,
  cliLink,
  cliEvalLink,
  waitQuiet,
  fragmentOf,
  checkAgainstCli,
  revealCharts,
  showSpeedup,
  marksOf,
  samePoints,
} from './lib.mjs';

const FORMS = () => JSON.parse(cli(['list', 'acceptance']));
const EAGLE = {
  target: 'vicuna-7b-v1.3',
  hardware: 'a100-80gb-sxm',
  method: { family: 'eagle2' },
  acceptance: { alpha: 0.7 },
};

async function open(page, url, config) {
  const link = cliLink(config);
  await page.goto(`${url}#${link}`);
  await waitQuiet(page);
  return link;
}

async function waitHash(page, re) {
  await page.waitForFunction(
    (s) => new RegExp(s).test(decodeURIComponent(location.hash)),
    re.source,
    {
      timeout: 10000,
    },
  );
  await waitQuiet(page);
}

export async function coreOwnedTests({ url, newPage }) {
  const page = await newPage();

  await test("the sampling temperature picks the core's published tau (rows at temperature 1), errors beside the field", async () => {
    const config = {
      target: 'vicuna-7b-v1.3',
      hardware: 'a100-80gb-sxm',
      method: { family: 'eagle1' },
    };
    await open(page, url, config);
    const greedy = cliEvalLink(fragmentOf(page.url()));
    await page.fill('#f-temperature', '0.7');
    await page.press('#f-temperature', 'Tab');
    await waitHash(page, /temperature=0\.7/);
    await checkAgainstCli(page, 'temperature 0.7');
    const sampled = cliEvalLink(fragmentOf(page.url()));
    assert(sampled.tau < greedy.tau, `sampled rows accept fewer: ${sampled.tau} vs ${greedy.tau}`);
    const said = sampled.assumptions.find((a) => a.includes('rows at temperature 1'));
    assert(said, 'the core says which rows it took');
    const shown = await page.$$eval('#assumptions li', (li) => li.map((n) => n.textContent));
    assert(shown.includes(said), 'the assumption is shown as the core wrote it');
    await page.fill('#f-temperature', '5');
    await page.press('#f-temperature', 'Tab');
    await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    eq(
      await page.$eval('[data-testid=field-error]', (e) => e.dataset.errorFor),
      'temperature',
      'the error sits beside the field',
    );
    // Cleared: greedy again, and the link drops the key.
    await page.fill('#f-temperature', '');
    await page.press('#f-temperature', 'Tab');
    await page.waitForFunction(() => !/temperature=/.test(location.hash), null, { timeout: 10000 });
    await waitQuiet(page);
    await checkAgainstCli(page, 'greedy again');
  });

  await test("acceptance modes are the core's forms; the tree matrix p[depth][rank] with its definition", async () => {
    await open(page, url, EAGLE);
    const forms = FORMS();
    const options = await page.$$eval('#f-acc-mode option', (o) =>
      o.map((x) => [x.value, x.textContent]),
    );
    eq(
      JSON.stringify(options),
      JSON.stringify(forms.map((f) => [f.id, f.label])),
      "the mode list is the core's",
    );
    await page.selectOption('#f-acc-mode', 'p');
    await waitHash(page, /acceptance\.p=/);
    const p = forms.find((f) => f.id === 'p');
    const field = await page.$eval('[data-field="acceptance.p"]', (n) => ({
      tag: n.tagName,
      value: JSON.parse(n.value),
      definition: document.getElementById(n.getAttribute('aria-describedby'))?.textContent,
    }));
    eq(field.tag, 'TEXTAREA', 'the matrix is edited as JSON rows');
    eq(JSON.stringify(field.value), JSON.stringify(p.start), "starts at the core's example");
    eq(field.definition, p.definition, "the core's definition, tied to the input");
    await checkAgainstCli(page, 'tree matrix');
    await page.fill('[data-field="acceptance.p"]', '[[0.7, 0.2], [0.6, 0.1]]');
    await page.press('[data-field="acceptance.p"]', 'Tab');
    await waitHash(page, /acceptance\.p=\[\[0\.7,0\.2\],\[0\.6,0\.1\]\]/);
    await checkAgainstCli(page, 'edited tree matrix');
    // A row that sums past 1 is the core's error, beside the matrix.
    await page.fill('[data-field="acceptance.p"]', '[[0.7, 0.5]]');
    await page.press('[data-field="acceptance.p"]', 'Tab');
    await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    const err = await page.$eval('[data-testid=field-error]', (e) => e.dataset.errorFor);
    eq(err, 'acceptance.p', 'the error sits beside the matrix');
  });

  await test('the published-acceptance switch offers only the values the core takes', async () => {
    // The walk: "From published results: off" was offered and always refused ("must be true").
    const form = FORMS().find((f) => f.id === 'published');
    eq(JSON.stringify(form.values), '[true]', 'the core takes only true');
    await open(page, url, { ...EAGLE, acceptance: { published: true } });
    const options = await page.$$eval('#f-acceptance-published option', (os) =>
      os.map((o) => [o.value, o.textContent]),
    );
    eq(JSON.stringify(options), JSON.stringify([['true', 'on']]), 'one option, on');
  });

  await test('Medusa head-accuracy tables are picked by name, evaluated like the CLI', async () => {
    await open(page, url, { ...EAGLE, method: { family: 'medusa' } });
    await page.selectOption('#f-acc-mode', 'medusa');
    await waitHash(page, /acceptance\.medusa=/);
    const medusa = FORMS().find((f) => f.id === 'medusa');
    const choices = await page.$$eval('[data-field="acceptance.medusa"] option', (o) =>
      o.map((x) => x.value),
    );
    eq(choices.join(','), medusa.choices.map((c) => c.id).join(','), "the core's tables");
    await checkAgainstCli(page, 'Medusa vicuna-7b');
    await page.selectOption('[data-field="acceptance.medusa"]', 'vicuna-13b');
    await waitHash(page, /acceptance\.medusa=vicuna-13b/);
    await checkAgainstCli(page, 'Medusa vicuna-13b');
    const a = cliEvalLink(
      cliLink({ ...EAGLE, method: { family: 'medusa' }, acceptance: { medusa: 'vicuna-7b' } }),
    );
    const b = cliEvalLink(fragmentOf(page.url()));
    assert(a.tau !== b.tau, `the two tables give different τ (${a.tau}, ${b.tau})`);
  });

  await test("a workload's per-request τ spread shows as a speedup band beside the speedup", async () => {
    const config = {
      target: 'llama3.1-8b-instruct',
      hardware: 'h100-sxm',
      method: { family: 'pld', k: 4 },
      acceptance: { workload: 'sharegpt' },
    };
    const link = await open(page, url, config);
    const r = cliEvalLink(link);
    assert(r.band, 'the CLI gives a band for a workload');
    // Hand check: the cycle does not depend on τ, so each end scales the speedup by τ's ratio.
    assert(
      Math.abs(r.band.speedup_p5 / r.speedup - r.band.tau_p5 / r.tau) < 1e-12 &&
        Math.abs(r.band.speedup_p95 / r.speedup - r.band.tau_p95 / r.tau) < 1e-12,
      `band scales with τ: ${JSON.stringify(r.band)}`,
    );
    const band = await page.$eval('[data-testid=speedup-band]', (n) => ({
      hidden: n.hidden,
      text: n.textContent,
      low: Number(n.dataset.low),
      high: Number(n.dataset.high),
    }));
    eq(band.hidden, false, 'band shown');
    eq(band.low, r.band.speedup_p5, 'p5 end');
    eq(band.high, r.band.speedup_p95, 'p95 end');
    assert(
      band.text.startsWith(
        `${r.band.speedup_p5.toFixed(2)}–${showSpeedup(r.band.speedup_p95)} over p5–p95 requests`,
      ),
      `band text: ${band.text}`,
    );
    await open(page, url, EAGLE);
    eq(
      await page.$eval('[data-testid=speedup-band]', (n) => n.hidden),
      true,
      'no band without a per-request spread',
    );
  });

  await test("a workload's traces show the oracle and best fixed k from the core's bounds", async () => {
    const config = {
      target: 'llama3.1-8b-instruct',
      hardware: 'h100-sxm',
      runtime: 'vllm',
      method: { family: 'pld', k: 3 },
      acceptance: { workload: 'instructcoder' },
    };
    await open(page, url, config);
    const b = JSON.parse(cli(['bounds', '-'], JSON.stringify(config))).bounds;
    // Hand check of what the line claims: the oracle wastes no verification, so it is at least
    // every fixed chain the traces price.
    for (const row of b.fixed_k)
      assert(b.oracle.speedup >= row.speedup, `oracle ${b.oracle.speedup} >= k=${row.k}`);
    await page.waitForFunction(
      () => !document.querySelector('[data-testid=trace-bounds]').hidden,
      null,
      { timeout: 20000 },
    );
    const shown = await page.$eval('[data-testid=trace-bounds]', (n) => ({
      text: n.textContent,
      oracle: Number(n.dataset.oracle),
      k: Number(n.dataset.bestK),
    }));
    eq(shown.oracle, b.oracle.speedup, 'oracle speedup');
    eq(shown.k, b.best_fixed_k.k, 'best fixed k');
    assert(shown.text.includes(`oracle proposer: ${showSpeedup(b.oracle.speedup)}`), shown.text);
    // EAGLE-3 on the EAGLE-head traces: fixed chains only, the core's note instead of an oracle.
    const e3 = {
      ...config,
      method: { family: 'eagle3', depth: 3, total_token: 4, top_k: 1 },
      acceptance: { workload: 'gsm8k' },
    };
    await open(page, url, e3);
    const b3 = JSON.parse(cli(['bounds', '-'], JSON.stringify(e3))).bounds;
    eq(b3.oracle, undefined, 'the core gives no oracle for EAGLE-3');
    await page.waitForFunction(
      (k) => document.querySelector('[data-testid=trace-bounds]').dataset.bestK === k,
      String(b3.best_fixed_k.k),
      { timeout: 20000 },
    );
    const line = await page.textContent('[data-testid=trace-bounds]');
    assert(line.includes(b3.note), `the core's note shown: ${line}`);
    assert(!/undefined|NaN/.test(line), line);
    await open(page, url, EAGLE);
    eq(
      await page.$eval('[data-testid=trace-bounds]', (n) => n.hidden),
      true,
      'no trace bounds without a workload',
    );
  });

  await test("the k chart's best point is the core's, never a point that does not fit", async () => {
    // Llama-2 13B with a 7B draft at batch 4 and 4k context on one 80 GB A100 (Llama-2 is
    // configured for 4096 positions). The best is read from the core's sweep output and checked
    // here by a plain scan of its points.
    const config = {
      target: 'llama2-chat-13b',
      hardware: 'a100-80gb-sxm',
      batch: 4,
      context: 4000,
      method: { family: 'sps', draft: 'llama2-chat-7b' },
      acceptance: { alpha: 0.8 },
    };
    const link = await open(page, url, config);
    await revealCharts(page);
    const sweep = JSON.parse(
      cli(
        ['run', 'sweep', '-'],
        JSON.stringify({
          config: cliEvalLink(link).config,
          axis: 'method.k',
          values: [1, 2, 3, 4, 5, 6, 7, 8, 10, 12],
        }),
      ),
    );
    let best = null;
    for (const p of sweep.points)
      if (!p.error && p.fits_in_memory && (!best || p.speedup > best.speedup)) best = p;
    const shown = await page.$eval('[data-testid=chart-k]', (f) => ({
      best: f.dataset.best,
      note: f.querySelector('.chart-note').textContent,
    }));
    // The points the best is chosen among, drawn at the core's speedups.
    samePoints(
      (await marksOf(page, 'chart-k')).Speedup,
      sweep.points.filter((p) => !p.error).map((p) => [p.values[0], p.speedup]),
      'speedup vs k',
    );
    if (best === null) {
      eq(shown.best, 'none', 'no best when nothing fits');
    } else {
      eq(shown.best, String(best.values[0]), 'best k');
      eq(JSON.stringify(sweep.best.values), JSON.stringify(best.values), "the core's best");
      assert(
        shown.note.startsWith(
          `Best on this grid: k = ${best.values[0]} (${showSpeedup(best.speedup)})`,
        ),
        `note: ${shown.note}`,
      );
    }
  });

  await test("the families chart's published speedup per family is the core's fastest comparable row", async () => {
    await open(page, url, EAGLE);
    // The published rows join the charts once their section has loaded them.
    await page.evaluate(() => document.querySelector('#data-view').scrollIntoView());
    await page.waitForSelector('[data-testid=published-table]', { timeout: 60000 });
    await revealCharts(page);
    // Independently: the rows of this preset with a latency speedup, not superseded and a
    // reproducing config; the fastest of each family.
    const best = new Map();
    for (const r of JSON.parse(
      cli(['run', 'tables', '-'], JSON.stringify({ model: EAGLE.target })),
    ))
      if (
        r.target_id === EAGLE.target &&
        typeof r.speedup === 'number' &&
        r.speedup_kind === 'latency' &&
        !r.superseded &&
        r.config &&
        !(best.get(r.family) >= r.speedup)
      )
        best.set(r.family, r.speedup);
    assert(best.size >= 3, `published families for ${EAGLE.target}: ${[...best.keys()]}`);
    await page
      .waitForFunction(
        () =>
          [
            ...document.querySelectorAll(
              '[data-testid=chart-families] [data-testid=chart-values] tbody tr',
            ),
          ].some((r) => r.cells[4].textContent !== '—'),
        null,
        { timeout: 30000 },
      )
      .catch(() => {
        throw new Error('the families value table shows no published speedup within 30 s');
      });
    const shown = await page.$$eval(
      '[data-testid=chart-families] [data-testid=chart-values] tbody tr',
      (rows) => rows.map((r) => [r.cells[0].textContent, r.cells[4].textContent]),
    );
    // Rows name families by the core's short label (list methods).
    const idOf = new Map(JSON.parse(cli(['list', 'methods'])).map((m) => [m.short_label, m.id]));
    const dots = [];
    for (const [i, [label, text]] of shown.entries()) {
      // The user's own setup comes first as "yours (<short label>)"; it carries no published dot.
      const own = /^yours \((.*)\)$/.exec(label);
      const family = idOf.get(own ? own[1] : label);
      assert(family, `a family label of the core: ${label}`);
      const expected = !own && best.has(family) ? showSpeedup(best.get(family)) : '—';
      eq(text, expected, `${label}: published best`);
      if (!own && best.has(family)) dots.push([i, best.get(family)]);
    }
    // And the dots drawn over the bars: at each such family's bar, at that speedup.
    samePoints(
      (await marksOf(page, 'chart-families'))['Published best (its own setup)'],
      dots,
      'published dots',
    );
  });

  await test("custom model and GPU editors start from the core's custom objects, which cost what the presets cost", async () => {
    const base = {
      target: 'llama3-instruct-8b',
      hardware: 'h100-sxm',
      method: { family: 'pld' },
      acceptance: { alpha: 0.7 },
    };
    await open(page, url, base);
    for (const [field, kind, id] of [
      ['target', 'models', base.target],
      ['hardware', 'hardware', base.hardware],
    ]) {
      const preset = JSON.parse(cli(['list', kind])).find((m) => m.id === id);
      await page.selectOption(`#f-${field}`, '__custom__');
      await page.waitForSelector(`#f-${field}-json`, { state: 'visible' });
      const start = JSON.parse(await page.inputValue(`#f-${field}-json`));
      eq(
        JSON.stringify({ ...start, name: preset.custom.name }),
        JSON.stringify(preset.custom),
        `${field}: the editor holds the core's custom object`,
      );
      // Independent check: the custom object is that preset (same speedup and cycle time).
      const a = cliEvalLink(cliLink(base));
      const b = cliEvalLink(cliLink({ ...base, [field]: start }));
      eq(b.speedup, a.speedup, `${field}: custom speedup = preset speedup`);
      eq(b.cycle_time_s, a.cycle_time_s, `${field}: custom cycle = preset cycle`);
      await open(page, url, base);
    }
  });

  await page.close();
}
