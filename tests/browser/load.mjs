// Browser tests of "Under load" (issue 21): the section draws the core's `load` output — as many
// points as the CLI's curve, every TPOT in the values table equal to the CLI's, the crossover
// marker at the CLI's rate, the SLO line at the configured target, the schedule's rows — and a
// bad rate is refused beside its field with the core's message.
import {
  test,
  assert,
  eq,
  cli,
  cliLink,
  waitQuiet,
  marksOf,
  samePoints,
  cellsOf,
  sameCells,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

const CONFIG = {
  target: 'llama3.1-8b-instruct',
  hardware: 'h100-sxm',
  runtime: 'vllm',
  method: { family: 'eagle1', choices: [[0], [0, 0], [0, 0, 0]] },
  acceptance: { workload: 'gsm8k' },
  load: { rate_rps: 2, workload: 'gsm8k', slo: { tpot_s: 0.02 } },
};

async function openLoad(page, url, config) {
  await page.goto(`${url}#${cliLink(config)}`);
  await waitQuiet(page);
  await page.evaluate(() => document.querySelector('#load-view').scrollIntoView());
  await page.waitForFunction(
    () =>
      ['done', 'error', 'off'].includes(document.querySelector('[data-testid=load]').dataset.state),
    null,
    { timeout: 20000 },
  );
}

export async function loadTests({ url, newPage }) {
  const page = await newPage();

  await test('under load: the charts draw the CLI load curve, crossover and SLO line', async () => {
    const want = JSON.parse(cli(['run', 'load', '-'], JSON.stringify(CONFIG)));
    await openLoad(page, url, CONFIG);
    eq(await page.$eval('[data-testid=load]', (s) => s.dataset.state), 'done', 'section state');
    const n = want.curve.rates_rps.length;
    // Each line's marks: the CLI's value at each rate (none where it is over capacity).
    const at = (values) =>
      want.curve.rates_rps.flatMap((r, i) =>
        values[i] === null || values[i] === undefined ? [] : [[r, values[i]]],
      );
    const { plain, speculative } = want.curve;
    const tpot = await marksOf(page, 'chart-load-tpot');
    samePoints(tpot['plain TPOT'], at(plain.tpot_s), 'plain TPOT');
    samePoints(tpot['speculative TPOT'], at(speculative.tpot_s), 'speculative TPOT');
    // The vertical lines, where the core puts them: the chosen rate and the crossover.
    for (const [marks, chart] of [
      [tpot, 'TPOT'],
      [await marksOf(page, 'chart-load-throughput'), 'throughput'],
    ]) {
      eq((marks['your rate'] || []).length, 1, `${chart}: one 'your rate' line`);
      eq(marks['your rate'][0][0], want.plain.at.rate_rps, `${chart}: at the chosen rate`);
      eq((marks.crossover || []).length, 1, `${chart}: one crossover line`);
      eq(marks.crossover[0][0], want.crossover.rate_rps, `${chart}: at the core's crossover`);
    }
    const tput = await marksOf(page, 'chart-load-throughput');
    samePoints(tput['plain tokens/s'], at(plain.output_tokens_per_s), 'plain tokens/s');
    samePoints(
      tput['speculative tokens/s'],
      at(speculative.output_tokens_per_s),
      'speculative tokens/s',
    );
    samePoints(
      tput['plain tokens/s per user'],
      at(plain.output_tokens_per_s_per_user),
      'plain tokens/s per user',
    );
    samePoints(
      tput['speculative tokens/s per user'],
      at(speculative.output_tokens_per_s_per_user),
      'speculative tokens/s per user',
    );
    const rows = await page.$$eval('[data-testid=chart-load-tpot] .chart-values tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent)),
    );
    eq(rows.length, n, 'values rows');
    const cell = (v) => (v === null ? 'over capacity' : fmt.seconds(v));
    for (let i = 0; i < n; i += 1) {
      eq(rows[i][0], fmt.plain(want.curve.rates_rps[i]), `rate ${i}`);
      eq(rows[i][1], cell(want.curve.plain.tpot_s[i]), `plain TPOT ${i}`);
      eq(rows[i][2], cell(want.curve.speculative.tpot_s[i]), `speculative TPOT ${i}`);
    }
    assert(
      want.crossover.state === 'stops_paying',
      `CLI crossover ${JSON.stringify(want.crossover)}`,
    );
    eq(
      await page.$eval('[data-testid=load]', (s) => s.dataset.crossover),
      String(want.crossover.rate_rps),
      'crossover marker',
    );
    eq(await page.$eval('[data-testid=load]', (s) => s.dataset.sloTpot), '0.02', 'SLO line');
    const summary = await page.textContent('[data-testid=load-summary]');
    assert(summary.includes(fmt.plain(want.plain.capacity_rps)), `plain capacity in "${summary}"`);
    assert(summary.includes(fmt.plain(want.crossover.rate_rps)), `crossover in "${summary}"`);
    // It opens with the core's verdict at the chosen rate and the two TPOTs the core gives there.
    const v = want.at_load;
    const verdict =
      v.state === 'pays' || v.state === 'loses'
        ? `At ${fmt.plain(want.plain.at.rate_rps)} requests/s speculation ${v.state === 'pays' ? 'pays' : 'does not pay'}: TPOT ${fmt.seconds(want.speculative.at.tpot_s)} against ${fmt.seconds(want.plain.at.tpot_s)} plain (${fmt.speedup(v.tpot_speedup)})`
        : `At ${fmt.plain(want.plain.at.rate_rps)} requests/s: ${v.what}`;
    assert(summary.startsWith(verdict), `"${summary}" opens with "${verdict}"`);
    const sched = await page.$$eval('[data-testid=load-schedule] tbody tr', (trs) =>
      trs.map((t) => t.dataset.choice),
    );
    eq(JSON.stringify(sched), JSON.stringify(want.schedule.map((s) => s.choice)), 'schedule');
    sameCells(
      await cellsOf(page, '[data-testid=load-schedule] tbody tr'),
      want.schedule.map((seg) => [
        `${fmt.plain(seg.from_rps)} – ${fmt.plain(seg.to_rps)}`,
        seg.from_in_flight === undefined
          ? '—'
          : `${fmt.plain(seg.from_in_flight)} – ${fmt.plain(seg.to_in_flight)}`,
        seg.label,
      ]),
      'schedule cells',
    );
  });

  await test('under load: a negative rate is refused beside its field; the link keeps the block', async () => {
    await openLoad(page, url, CONFIG);
    await page.fill('#l-rate_rps', '-1');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(
      () => document.querySelector('[data-for="load.rate_rps"] .field-error').textContent !== '',
    );
    const msg = await page.textContent('[data-for="load.rate_rps"] .field-error');
    assert(/^Request rate: /.test(msg), `error beside the field, named by its label: ${msg}`);
    await page.fill('#l-rate_rps', '3');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(() => decodeURIComponent(location.hash).includes('load.rate_rps=3'));
  });

  await test("under load: a TTFT target below what the setup reaches is refused beside its field; a reachable one is named in the summary with the core's rates", async () => {
    await openLoad(page, url, CONFIG);
    await page.fill('#l-slo-tpot_s', '');
    await page.fill('#l-slo-ttft_s', '0.001');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(
      () => document.querySelector('[data-for="load.slo.ttft_s"] .field-error').textContent !== '',
    );
    const msg = await page.textContent('[data-for="load.slo.ttft_s"] .field-error');
    // The last applied result stays, dimmed: its numbers are not the form's.
    eq(
      await page.$eval('#load-summary', (n) => getComputedStyle(n).opacity),
      '0.5',
      'the old summary is dimmed',
    );
    let cliMsg = '';
    try {
      cli(
        ['run', 'load', '-'],
        JSON.stringify({ ...CONFIG, load: { ...CONFIG.load, slo: { ttft_s: 0.001 } } }),
      );
    } catch (e) {
      cliMsg = String(e.stderr)
        .trim()
        .replace(/^speccalc: error: load\.slo\.ttft_s: /, '');
    }
    assert(/below the physical minimum/.test(cliMsg), `the CLI refuses it: ${cliMsg}`);
    eq(msg, `TTFT target: ${cliMsg}`, "the core's message beside the field, under its label");
    const typed = { ...CONFIG, load: { ...CONFIG.load, slo: { ttft_s: 0.02 } } };
    const want = JSON.parse(cli(['run', 'load', '-'], JSON.stringify(typed)));
    await page.fill('#l-slo-ttft_s', '0.02');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(() =>
      decodeURIComponent(location.hash).includes('load.slo.ttft_s=0.02'),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=load]').dataset.state === 'done',
    );
    const summary = await page.textContent('[data-testid=load-summary]');
    // The workload sets the lengths: their fields show the means the core used.
    eq(
      await page.getAttribute('#l-input_tokens', 'placeholder'),
      `${fmt.plain(want.inputs.input_tokens)} (the workload's)`,
      'mean prompt placeholder',
    );
    const sentence = `TTFT ≤ ${fmt.seconds(0.02)} holds up to ${fmt.plain(want.plain.max_rate_meeting_slo_rps)} requests/s plain, ${fmt.plain(want.speculative.max_rate_meeting_slo_rps)} speculative`;
    assert(summary.includes(sentence), `"${summary}" names the TTFT target: "${sentence}"`);
  });

  await test('under load: lengths typed beside a workload replace its means, as the core reads them', async () => {
    // The walk: with a workload chosen, typed prompt and output lengths were dropped on Apply
    // (and a link that carried them lost them on the next Apply).
    const typed = { ...CONFIG, load: { ...CONFIG.load, input_tokens: 2000, output_tokens: 100 } };
    const want = JSON.parse(cli(['run', 'load', '-'], JSON.stringify(typed)));
    const plainWorkload = JSON.parse(cli(['run', 'load', '-'], JSON.stringify(CONFIG)));
    assert(
      want.plain.capacity_rps !== plainWorkload.plain.capacity_rps,
      "the lengths change the core's capacity",
    );
    await openLoad(page, url, CONFIG);
    await page.fill('#l-input_tokens', '2000');
    await page.fill('#l-output_tokens', '100');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(() => {
      const h = decodeURIComponent(location.hash);
      return /load\.input_tokens=2000/.test(h) && /load\.output_tokens=100/.test(h);
    });
    await page.waitForFunction(
      () => document.querySelector('[data-testid=load]').dataset.state === 'done',
    );
    const summary = await page.textContent('[data-testid=load-summary]');
    const capacity = `plain decoding serves up to ${fmt.plain(want.plain.capacity_rps)} requests/s`;
    assert(summary.includes(capacity), `"${summary}" shows the core's capacity: "${capacity}"`);
    eq(await page.inputValue('#l-input_tokens'), '2000', 'the typed prompt length stays');
    // Applying again as it is keeps them.
    await page.click('#load-form button[type=submit]');
    await waitQuiet(page);
    const h = decodeURIComponent(await page.evaluate(() => location.hash));
    assert(/load\.input_tokens=2000/.test(h), `a second Apply keeps the lengths: ${h}`);
  });

  await test("under load: a TPOT target of 20 (meant as 20 ms, read as 20 s per token) gets the core's note in the summary", async () => {
    const typed = { ...CONFIG, load: { ...CONFIG.load, slo: { tpot_s: 20 } } };
    const want = JSON.parse(cli(['run', 'load', '-'], JSON.stringify(typed)));
    // Hand check of the core's arithmetic: 20 ms is 20 / 1000 = 0.02 s.
    eq(want.notes.length, 1, 'the core says so once');
    assert(want.notes[0].endsWith('a 20 ms target is 0.02'), want.notes[0]);
    await openLoad(page, url, CONFIG);
    await page.fill('#l-slo-tpot_s', '20');
    await page.click('#load-form button[type=submit]');
    await page.waitForFunction(() =>
      decodeURIComponent(location.hash).includes('load.slo.tpot_s=20'),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=load]').dataset.sloTpot === '20',
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=load]').dataset.state === 'done',
    );
    const summary = await page.textContent('[data-testid=load-summary]');
    const note = want.notes[0];
    assert(
      summary.endsWith(`${note.charAt(0).toUpperCase()}${note.slice(1)}.`),
      `the summary ends with the core's note: "${summary}"`,
    );
  });
}
