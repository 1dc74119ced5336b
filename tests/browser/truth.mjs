// Browser tests for issue 12 ("the page tells the truth plainly"): the verdict states, the
// engine control, the cost breakdown, the evaluated tree, engine import, phone width, history,
// plain errors and chart values by keyboard. Every expected value comes from the native CLI.
// Run from run.mjs (same server, browser and request/console watchers).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  test,
  assert,
  eq,
  cli,
  cliLink,
  cliEvalLink,
  waitQuiet,
  fragmentOf,
  revealCharts,
  screenshotWithViews,
  marksOf,
  samePoints,
  cellsOf,
  sameCells,
  treeDrawn,
  sameTree,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

const BASE = { target: 'llama2-chat-7b', hardware: 'a100-80gb-sxm' };
// One config per verdict state; each test first checks the CLI gives that state.
const VERDICTS = {
  pays: {
    ...BASE,
    method: { family: 'sps', draft: 'llama-68m', k: 4 },
    acceptance: { alpha: 0.7 },
  },
  loses: { ...BASE, batch: 32, method: { family: 'eagle2' }, acceptance: { alpha: 0.3 } },
  // Issue 12's example: batch 128 x 4k context of a 7B model on one 80 GB GPU (Llama-2 is
  // configured for 4096 positions).
  infeasible: {
    ...BASE,
    batch: 128,
    context: 4000,
    method: { family: 'eagle2' },
    acceptance: { alpha: 0.7 },
  },
  baseline: { ...BASE, method: { family: 'ar' }, acceptance: { alpha: 0.7 } },
};
const EAGLE_DEPTH6 = {
  target: 'vicuna-7b-v1.3',
  hardware: 'a100-80gb-sxm',
  method: { family: 'eagle2', total_token: 60, depth: 6, top_k: 10 },
  acceptance: { alpha: 0.8 },
};

// An MoE target whose batch sweep carries the core's note (DeepSeek-V3 MTP on 8 H200s, SGLang).
const DEEPSEEK_MTP = {
  target: 'deepseek-v3',
  hardware: 'h200-sxm',
  gpus: 8,
  dtype: 'fp8',
  runtime: 'sglang',
  method: { family: 'mtp', k: 1 },
};

function cliRun(command, input) {
  return JSON.parse(cli(['run', command, '-'], JSON.stringify(input)));
}

async function open(page, url, config) {
  const link = cliLink(config);
  await page.goto(`${url}#${link}`);
  // A new fragment on the same page arrives as a hashchange: until the page has evaluated it
  // (the controller's data-fragment), "quiet" may still be the previous link's (CI, 3 Dec: a
  // chart note read from the previous config).
  await page.waitForFunction((l) => document.documentElement.dataset.fragment === l, link, {
    timeout: 30000,
  });
  await waitQuiet(page);
  return { link, expected: cliEvalLink(link) };
}

export async function truthTests({ browser, url, newPage, watch, shots }) {
  const page = await newPage();

  for (const [state, config] of Object.entries(VERDICTS)) {
    await test(`verdict "${state}" is the core's, in its own colour`, async () => {
      const { expected } = await open(page, url, config);
      eq(expected.verdict, state, "the CLI's verdict for this config");
      const shown = await page.evaluate(() => {
        const v = document.querySelector('[data-testid=verdict]');
        const css = getComputedStyle(document.documentElement);
        return {
          state: v.dataset.state,
          reason: document.querySelector('[data-testid=verdict-reason]').textContent,
          suggestions: [...v.querySelectorAll('[data-testid=suggestions] li')].map(
            (li) => li.textContent,
          ),
          headColor: getComputedStyle(document.querySelector('[data-testid=verdict-head]')).color,
          good: css.getPropertyValue('--good').trim(),
          bad: css.getPropertyValue('--bad').trim(),
          speedup: document.querySelector('[data-testid=speedup]').textContent,
          times: ['#o-tps', '#o-cycle', '#o-base-tps'].map(
            (q) => document.querySelector(q).textContent,
          ),
          cycleHint: document.querySelector('#cycle .hint').textContent,
        };
      });
      eq(shown.state, state, 'data-state');
      eq(
        shown.reason,
        expected.verdict_caveat
          ? `${expected.verdict_reason} ${expected.verdict_caveat}`
          : expected.verdict_reason,
        "the core's reason (and its caveat, if any)",
      );
      const rgb = (hex) =>
        `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      if (state === 'pays') eq(shown.headColor, rgb(shown.good), 'pays is green');
      else assert(shown.headColor !== rgb(shown.good), `${state} is not green`);
      if (state === 'baseline')
        assert(shown.headColor !== rgb(shown.bad), 'plain decoding is not a red failure');
      if (state === 'infeasible') {
        assert(
          !/×/.test(shown.speedup),
          `no speedup shown for a setup that does not fit: ${shown.speedup}`,
        );
        eq(
          JSON.stringify(shown.suggestions),
          JSON.stringify(expected.memory.suggestions),
          "the core's suggestions",
        );
        assert(shown.suggestions.length > 0, 'infeasible says what would fit');
        // Nor a rate or a cycle time: a setup that cannot run has none.
        eq(JSON.stringify(shown.times), JSON.stringify(['—', '—', 'plain decoding: —']), 'times');
        // The cycle bar below says its time is what a cycle would take (the walk: "—" in the
        // card above "Cycle: 44.5 ms" in the bar).
        eq(
          shown.cycleHint,
          `If it fit in memory (it does not), one draft-verify round of the whole batch would take ${fmt.seconds(expected.cycle.total_s)}.`,
          'cycle hint',
        );
      } else {
        assert(shown.cycleHint.startsWith('Cycle: '), `cycle hint: ${shown.cycleHint}`);
        eq(shown.suggestions.length, 0, 'no memory suggestions');
      }
    });
  }

  await test("the τ card says where τ comes from, in the core's words, and marks an assumed τ", async () => {
    const cases = [
      // No published EAGLE-3 rows for Qwen3-32B: the default acceptance is assumed from the other
      // models' rows.
      [
        {
          target: 'qwen3-32b',
          hardware: 'h100-sxm',
          runtime: 'vllm',
          method: { family: 'eagle3' },
        },
        false,
      ],
      // Vicuna-7B's EAGLE-1 rows on EAGLE-1's default tree: published.
      [{ target: 'vicuna-7b-v1.3', hardware: 'a100-80gb-sxm', method: { family: 'eagle1' } }, true],
      // An acceptance the user gives.
      [EAGLE_DEPTH6, true],
    ];
    for (const [config, fromData] of cases) {
      const { expected } = await open(page, url, config);
      eq(expected.tau_from_data, fromData, `the CLI's tau_from_data for ${config.target}`);
      const shown = await page.evaluate(() => {
        const node = document.querySelector('[data-testid=tau-basis]');
        return {
          text: node.textContent,
          title: node.title,
          fromData: node.dataset.fromData,
          color: getComputedStyle(node).color,
          warn: getComputedStyle(document.documentElement).getPropertyValue('--warn').trim(),
        };
      });
      eq(shown.text, expected.tau_basis, `${config.target}: the core's tau_basis`);
      eq(shown.title, expected.tau_source, `${config.target}: the full source in the title`);
      eq(shown.fromData, String(fromData), `${config.target}: marked as from data or not`);
      const rgb = (hex) =>
        `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      if (fromData) assert(shown.color !== rgb(shown.warn), 'a τ from data is not a warning');
      else {
        eq(shown.color, rgb(shown.warn), 'an assumed τ is shown in the warning colour');
        // "assumed: ..." (the generic alpha) or "assumed from ..." (other models' rows, the size).
        assert(/^assumed(: | from )/.test(shown.text), `an assumed τ says so: ${shown.text}`);
      }
    }
  });

  await test('the batch chart drops batches that do not fit and never claims they pay off', async () => {
    await open(page, url, VERDICTS.infeasible);
    await revealCharts(page);
    const sweep = cliRun('sweep', {
      config: cliEvalLink(fragmentOf(page.url())).config,
      axis: 'batch',
      values: JSON.parse(cli(['list', 'ui'])).batch_axis, // what the page sweeps
    });
    const tooBig = sweep.points.filter((p) => !p.fits_in_memory).map((p) => String(p.values[0]));
    assert(tooBig.includes('128'), `batch 128 at 4k does not fit: ${tooBig}`);
    const shown = await page.$eval('[data-testid=chart-batch]', (f) => ({
      infeasible: f.dataset.infeasible,
      note: f.querySelector('.chart-note').textContent,
    }));
    eq(shown.infeasible, tooBig.join(','), 'points marked as not fitting');
    // The marks are the batches that fit, at the core's speedup: none where it does not fit.
    samePoints(
      (await marksOf(page, 'chart-batch')).Speedup,
      sweep.points.filter((p) => !p.error && p.fits_in_memory).map((p) => [p.values[0], p.speedup]),
      'speedup marks',
    );
    assert(!/every batch up to 256/.test(shown.note), `note: ${shown.note}`);
    assert(
      new RegExp(`From batch ${tooBig[0]} the setup does not fit`).test(shown.note),
      `note names the first batch that does not fit: ${shown.note}`,
    );
  });

  await test("an MoE target's batch chart says why its speedup dips and rises (the core's note)", async () => {
    const moe = DEEPSEEK_MTP;
    await open(page, url, moe);
    await revealCharts(page);
    const sweep = cliRun('sweep', {
      config: cliEvalLink(fragmentOf(page.url())).config,
      axis: 'batch',
      values: JSON.parse(cli(['list', 'ui'])).batch_axis,
    });
    eq((sweep.notes || []).length, 1, 'the CLI sweep has the MoE note');
    const note = await page.$eval('[data-testid=chart-batch] .chart-note', (e) => e.textContent);
    assert(note.includes(sweep.notes[0]), `the chart's note carries it: ${note}`);
    // Where the core prices a speedup above 1 at every batch that fits, the note says so as the
    // prediction it is, never "pays off" beside a verdict that is only probable.
    eq(sweep.break_even_batch ?? null, null, 'the core prices no break-even here');
    assert(/predicted speedup stays above 1×/.test(note), `worded as a prediction: ${note}`);
    assert(!/pays off/.test(note), `no unqualified "pays off": ${note}`);
  });

  await test('quiet means the charts show the link just opened, even one opened while the previous drew', async () => {
    // A link opened while the previous link's charts were still drawing: the page must stay busy
    // until the new link's charts are drawn (CI, 3 Dec 10:15: a drawing that ended inside the
    // next one's 150 ms delay ended the busy state, and the batch chart still showed the old
    // config). The delays sweep that window; each config's mark is the core's own sweep.
    const moe = DEEPSEEK_MTP;
    const batches = JSON.parse(cli(['list', 'ui'])).batch_axis;
    const mark = (config) => {
      const sweep = cliRun('sweep', {
        config: cliEvalLink(cliLink(config)).config,
        axis: 'batch',
        values: batches,
      });
      return sweep.points
        .filter((p) => !p.fits_in_memory)
        .map((p) => String(p.values[0]))
        .join(',');
    };
    const configs = [VERDICTS.infeasible, moe];
    const marks = configs.map(mark);
    assert(marks[0] !== marks[1], `the two configs differ in the batches that fit: ${marks}`);
    await open(page, url, configs[0]);
    await revealCharts(page);
    for (let i = 0; i < 12; i += 1) {
      const next = (i + 1) % 2;
      const link = cliLink(configs[next]);
      await page.waitForTimeout(i * 60); // into the previous drawing, from 0 to 660 ms
      await page.goto(`${url}#${link}`);
      await page.waitForFunction((l) => document.documentElement.dataset.fragment === l, link, {
        timeout: 30000,
      });
      await waitQuiet(page);
      const shown = await page.$eval('[data-testid=chart-batch]', (f) => f.dataset.infeasible);
      eq(shown, marks[next], `after ${i * 60} ms, the batch chart's batches that do not fit`);
    }
  });

  await test("Engine control: the core's engines, their summary and a badge where unvalidated", async () => {
    await open(page, url, VERDICTS.pays);
    const listed = JSON.parse(cli(['list', 'runtimes'])).map((r) => r.id);
    for (const id of ['vllm', 'sglang', 'tensorrt-llm', 'hf-eager', 'compiled'])
      assert(listed.includes(id), `list runtimes has ${id}`);
    const options = await page.$$eval('[data-testid=engine] option', (o) => o.map((x) => x.value));
    eq(JSON.stringify(options), JSON.stringify(listed), "engine options are the core's list");
    for (const id of ['vllm', 'hf-eager']) {
      await page.selectOption('[data-testid=engine]', id);
      await page.waitForFunction(
        (e) => new RegExp(`(^|&)runtime=${e}(&|$)`).test(location.hash),
        id,
        { timeout: 10000 },
      );
      await waitQuiet(page);
      const engine = cliEvalLink(fragmentOf(page.url())).engine;
      const shown = await page.evaluate(() => ({
        text: document.querySelector('#engine-text').textContent,
        badge: !document.querySelector('[data-testid=engine-badge]').hidden,
      }));
      eq(shown.text, engine.summary, `${id}: the core's one-line summary`);
      eq(shown.badge, !engine.validated, `${id}: badge shown exactly when not validated`);
    }
  });

  await test("cost: per pass vs per cycle, kernels, cycle bar and memory are the core's numbers, formatted for people", async () => {
    const { expected } = await open(page, url, EAGLE_DEPTH6);
    for (const pass of ['baseline', 'draft', 'verify']) {
      const row = await page.$eval(`[data-testid=passes] tr[data-pass=${pass}]`, (r) =>
        Object.fromEntries(
          [...r.querySelectorAll('[data-col]')].map((td) => [td.dataset.col, td.dataset.value]),
        ),
      );
      const p = expected[pass];
      if (p.bound !== 'none') {
        eq(Number(row['time-per-pass']), p.time_per_pass_s, `${pass} time per pass`);
        eq(Number(row['bytes-per-pass']), p.bytes_per_pass, `${pass} bytes per pass`);
        eq(Number(row['flops-per-pass']), p.flops_per_pass, `${pass} FLOPs per pass`);
      }
      eq(Number(row['time-per-cycle']), p.time_s, `${pass} time per cycle`);
      const kernels = await page.$$eval(
        `[data-testid=kernels] table[data-pass=${pass}] tbody tr`,
        (r) => r.map((x) => x.dataset.kind),
      );
      eq(kernels.join(','), p.kernels.map((k) => k.kind).join(','), `${pass} kernels`);
      // Each kernel's time, FLOPs, bytes and bound as the page formats the core's numbers.
      const names = { gemm: 'GEMMs', attention: 'Attention', lm_head: 'LM head', other: 'Other' };
      sameCells(
        await cellsOf(page, `[data-testid=kernels] table[data-pass=${pass}] tbody tr`),
        p.kernels.map((k) => [
          names[k.kind] || k.kind,
          fmt.seconds(k.time_s),
          fmt.flops(k.flops),
          fmt.bytes(k.bytes),
          k.bound,
        ]),
        `${pass} kernel table`,
      );
    }
    const heads = await page.$$eval('[data-testid=passes] thead th', (t) =>
      t.map((x) => x.textContent),
    );
    assert(
      heads.includes('Time per pass') &&
        heads.includes('Time per cycle') &&
        heads.some((h) => /per GPU/.test(h)),
      `headers: ${heads}`,
    );
    const cycle = await page.$$eval('[data-testid=cycle-legend] li', (l) =>
      l.map((x) => Number(x.dataset.value)),
    );
    eq(
      JSON.stringify(cycle),
      JSON.stringify([
        expected.cycle.draft_s,
        expected.cycle.verify_s,
        expected.cycle.overhead_s,
        expected.cycle.comm_s,
      ]),
      'cycle parts',
    );
    // A part that takes no time reads "none" (the walk: "Communication: 0 s" on one GPU).
    const cycleTexts = await page.$$eval('[data-testid=cycle-legend] li', (l) =>
      l.map((x) => x.textContent),
    );
    cycle.forEach((v, i) =>
      eq(
        cycleTexts[i].endsWith(': none'),
        v === 0,
        `"${cycleTexts[i]}" says none iff its part is 0`,
      ),
    );
    // The parts sum to the cycle (core contract), so the drawn segments fill the bar.
    const bar = await page.$eval('[data-testid=cycle] .stack', (b) => ({
      width: b.getBoundingClientRect().width,
      parts: [...b.children].reduce((a, c) => a + c.getBoundingClientRect().width, 0),
    }));
    assert(
      Math.abs(bar.width - bar.parts) < 2,
      `cycle segments ${bar.parts.toFixed(1)} px of a ${bar.width.toFixed(1)} px bar`,
    );
    // Each segment's share of its bar is the core's part of the whole (the cycle; the memory
    // axis ends at the GPU's capacity, or the total when it does not fit), to a pixel.
    const segments = (box) =>
      page.$eval(`[data-testid=${box}] .stack`, (b) => {
        const w = b.getBoundingClientRect().width;
        return {
          width: w,
          parts: Object.fromEntries(
            [...b.querySelectorAll('[data-part]')].map((c) => [
              c.dataset.part,
              c.getBoundingClientRect().width,
            ]),
          ),
        };
      });
    const drawnShares = async (box, parts, end) => {
      const shown = await segments(box);
      assert(end > 0, `${box}: the core gives a whole to share`);
      for (const [key, value] of Object.entries(parts)) {
        const want = (shown.width * value) / end;
        assert(
          Math.abs(shown.parts[key] - want) <= 1,
          `${box} ${key}: ${shown.parts[key]} px drawn, ${want.toFixed(1)} px for ${value} of ${end}`,
        );
      }
    };
    const c = expected.cycle;
    await drawnShares(
      'cycle',
      { draft_s: c.draft_s, verify_s: c.verify_s, overhead_s: c.overhead_s, comm_s: c.comm_s },
      c.total_s,
    );
    const memory = await page.$$eval('[data-testid=memory-legend] li', (l) =>
      l.map((x) => Number(x.dataset.value)),
    );
    const m = expected.memory;
    eq(
      JSON.stringify(memory),
      JSON.stringify([
        m.weights_gb_per_gpu,
        m.draft_weights_gb_per_gpu,
        m.kv_cache_gb_per_gpu,
        m.activations_gb_per_gpu,
      ]),
      'memory parts',
    );
    await drawnShares(
      'memory',
      {
        weights_gb_per_gpu: m.weights_gb_per_gpu,
        draft_weights_gb_per_gpu: m.draft_weights_gb_per_gpu,
        kv_cache_gb_per_gpu: m.kv_cache_gb_per_gpu,
        activations_gb_per_gpu: m.activations_gb_per_gpu,
      },
      Math.max(m.capacity_gb_per_gpu, m.total_gb_per_gpu),
    );
    // The page's own numbers (the assumptions are the core's sentences, quoted as written).
    const text = await page.$$eval(
      '.headline, [data-testid=passes], [data-testid=cycle], [data-testid=kernels], [data-testid=memory]',
      (n) => n.map((x) => x.textContent).join(' '),
    );
    const long = text.match(/\d+\.\d{4,}/g);
    assert(!long, `numbers with more than 3 decimals: ${long}`);
    // The CSV carries the setup it was computed for.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#export-result-csv'),
    ]);
    const file = path.join(os.tmpdir(), `speccalc-result-${process.pid}.csv`);
    await download.saveAs(file);
    const csv = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    assert(
      csv.includes('config.target,,vicuna-7b-v1.3') && csv.includes('config.method.depth,,6'),
      `CSV setup rows: ${csv.slice(0, 300)}`,
    );
  });

  await test('the tree shown is the tree evaluated (tree-tau = result τ, one depth convention)', async () => {
    const { expected, link } = await open(page, url, EAGLE_DEPTH6);
    const tree = cliRun('eval-tree', expected.config);
    // The tree panel's module loads with the charts (below the result), after the headline.
    await page.waitForSelector('[data-testid=tree-tau]', { timeout: 10000 });
    const shown = await page.evaluate(() => ({
      tau: document.querySelector('[data-testid=tree-tau]').dataset.value,
      circles: document.querySelectorAll('[data-testid=tree-drawing] circle').length,
      summary: document.querySelector('[data-testid=tree-summary]').textContent,
    }));
    eq(Number(shown.tau), expected.tau, `tree τ equals the result's τ (${link})`);
    eq(shown.circles, tree.nodes + 1, 'draft nodes + root drawn');
    sameTree(
      await treeDrawn(page, '[data-testid=tree-drawing]'),
      tree.choices,
      tree.node_prob,
      'the evaluated tree',
    );
    assert(
      /depth 6 \(draft levels; EAGLE's --depth 5\)/.test(shown.summary),
      `depth convention: ${shown.summary}`,
    );
    const exp = cliRun('export', expected.config);
    eq(exp.sglang['--speculative-num-steps'], tree.depth, "SGLang num-steps = the tree's levels");
    eq(exp.eagle.depth, tree.depth - 1, 'EAGLE depth = levels - 1');
  });

  await test("importing a pasted vLLM --speculative-config gives the core's config", async () => {
    const { expected } = await open(page, url, VERDICTS.pays);
    const text =
      '{"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "num_speculative_tokens": 5}';
    const imported = cliRun('import-engine', { engine: 'vllm', text, config: expected.config });
    await page.click('#engine-import summary');
    await page.selectOption('#i-engine', 'vllm');
    await page.fill('#i-text', text);
    await page.click('#i-go');
    const link = cliLink(imported.config);
    await page.waitForFunction((l) => location.hash === `#${l}`, link, { timeout: 10000 });
    await waitQuiet(page);
    eq(await page.inputValue('#f-target'), 'llama3-instruct-8b', 'target from the EAGLE head');
    const status = await page.textContent('[data-testid=import-status]');
    eq(
      status,
      ['Imported.', ...imported.notes].join('\n'),
      "the status: the core's notes, a line each",
    );
    // A flag SpecCalc has no setting for is named back, on a line of its own.
    const serve =
      "vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-num-seqs 64 --speculative-config '" +
      text +
      "'";
    const withFlags = cliRun('import-engine', {
      engine: 'vllm',
      text: serve,
      config: imported.config,
    });
    assert(
      withFlags.notes.includes(
        'flags not read (SpecCalc has no setting for them): --max-num-seqs 64',
      ),
      `core notes: ${JSON.stringify(withFlags.notes)}`,
    );
    await page.fill('#i-text', serve);
    await page.click('#i-go');
    await page.waitForFunction(
      () =>
        /flags not read/.test(document.querySelector('[data-testid=import-status]').textContent),
      null,
      { timeout: 10000 },
    );
    const lines = await page.$eval('[data-testid=import-status]', (e) => e.innerText.split('\n'));
    eq(
      JSON.stringify(lines),
      JSON.stringify(['Imported.', ...withFlags.notes]),
      'shown a line each',
    );
    await page.fill('#i-text', '{"method": "mlp_speculator", "num_speculative_tokens": 3}');
    await page.click('#i-go');
    await page.waitForFunction(
      () =>
        /^text\.--speculative-config\.method: /.test(
          document.querySelector('[data-testid=import-status]').textContent,
        ),
      null,
      { timeout: 10000 },
    );
  });

  await test('a vLLM draft acceptance rate converts to the α the core fits on this draft', async () => {
    const { expected } = await open(page, url, VERDICTS.pays);
    const tree = cliRun('eval-tree', expected.config);
    const conv = cliRun('convert', { choices: tree.choices, draft_acceptance_rate: 0.6 });
    // Hand check of the chain k = 4: rate 0.6 means tau = 1 + 0.6 * 4 = 3.4.
    eq(conv.tau, 3.4, 'tau from the rate');
    await page.click('#metric-convert summary');
    await page.selectOption('#c-metric', 'draft_acceptance_rate');
    await page.fill('#c-value', '0.6');
    await page.click('#c-go');
    const want = cliLink({ ...expected.config, acceptance: { alpha: conv.alpha } });
    await page.waitForFunction((l) => location.hash === `#${l}`, want, { timeout: 10000 });
    await waitQuiet(page);
    eq(
      Number(await page.getAttribute('[data-testid=metric-convert-out]', 'data-alpha')),
      conv.alpha,
      'α shown and applied',
    );
  });

  await test('Back and Forward step through edits', async () => {
    await open(page, url, VERDICTS.pays);
    for (const b of ['2', '8']) {
      await page.fill('[data-testid=batch]', b);
      await page.press('[data-testid=batch]', 'Tab');
      await page.waitForFunction((x) => new RegExp(`(^|&)batch=${x}(&|$)`).test(location.hash), b, {
        timeout: 10000,
      });
      await waitQuiet(page);
    }
    const batchIs = async (b) => {
      await page.waitForFunction(
        (x) =>
          new RegExp(`(^|&)batch=${x}(&|$)`).test(location.hash) &&
          document.querySelector('[data-testid=batch]').value === x,
        b,
        { timeout: 10000 },
      );
      await waitQuiet(page);
    };
    await page.goBack();
    await batchIs('2');
    await page.goBack();
    await batchIs('1');
    await page.goForward();
    await batchIs('2');
    assert(page.url().startsWith(url), 'still on the page');
  });

  await test('an empty number field says "enter a whole number" beside it', async () => {
    await open(page, url, VERDICTS.pays);
    await page.fill('[data-testid=batch]', '');
    await page.press('[data-testid=batch]', 'Tab');
    await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    const err = await page.$eval('[data-testid=field-error]', (e) => ({
      text: e.textContent,
      for: e.dataset.errorFor,
    }));
    eq(err.for, 'batch', 'beside the batch input');
    eq(err.text, 'Batch: enter a whole number', 'plain words, the label');
    await page.selectOption('#f-hardware', '__custom__');
    await page.fill('#f-hardware-json', '{"mem_bw_gbps": 1000,');
    await page.press('#f-hardware-json', 'Tab');
    await page.waitForFunction(
      () =>
        /^Custom GPU, JSON: is not valid JSON/.test(
          document.querySelector('[data-testid=field-error]')?.textContent || '',
        ),
      null,
      { timeout: 10000 },
    );
  });

  await test('compare: A and B side by side, both in the link, differences marked', async () => {
    const { link: linkA, expected: a } = await open(page, url, VERDICTS.pays);
    await page.click('[data-testid=compare-start]');
    await page.waitForFunction((l) => location.hash === `#${l}&compare&${l}`, linkA, {
      timeout: 10000,
    });
    await page.fill('[data-testid=batch]', '16');
    await page.press('[data-testid=batch]', 'Tab');
    await page.waitForFunction(
      () =>
        /&compare&/.test(location.hash) &&
        /(^#|&)batch=16(&|$)/.test(location.hash.split('&compare&')[0]),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    // And the KV cache in fp8: a precision change is a row of its own.
    await page.selectOption('#f-dtype-kv', 'fp8');
    await page.waitForFunction(
      () => /dtype\.kv=fp8(&|$)/.test(location.hash.split('&compare&')[0]),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    const [linkB, other] = fragmentOf(page.url()).split('&compare&');
    eq(other, linkA, 'A is the kept link');
    const b = cliEvalLink(linkB);
    const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (r) =>
      Object.fromEntries(
        r.map((x) => [
          x.dataset.row,
          [x.cells[1].textContent, x.cells[2].textContent, x.dataset.diff],
        ]),
      ),
    );
    // One row per quantity the view compares, in its order.
    eq(
      JSON.stringify(Object.keys(rows)),
      JSON.stringify([
        'Model',
        'Hardware',
        'Engine',
        'Weights / KV cache',
        'Batch × context',
        'Method',
        'Method settings',
        'Acceptance',
        'τ from',
        'Verdict',
        'Speedup',
        'τ',
        'Tokens/s',
        'Cycle time',
        'Memory per device',
      ]),
      'compare rows',
    );
    eq(
      JSON.stringify(rows.Speedup),
      JSON.stringify([`${a.speedup.toFixed(2)}×`, `${b.speedup.toFixed(2)}×`, 'true']),
      'speedups of A and B',
    );
    eq(rows['Batch × context'][2], 'true', 'batch marked as different');
    eq(rows.Model[2], 'false', 'model not marked');
    eq(rows['Weights / KV cache'][2], 'true', 'the fp8 KV cache marked as different');
    // Every row, A and B, is the core's two results as the page words them.
    // Hardware by the preset's name as the core lists it (the walk: "8 × h200-sxm").
    const gpuName = new Map(JSON.parse(cli(['list', 'hardware'])).map((g) => [g.id, g.name]));
    // The model by its name as the core lists it, not its id (the walk: "llama3.1-70b-instruct").
    const modelName = new Map(JSON.parse(cli(['list', 'models'])).map((m) => [m.id, m.name]));
    const text = (r) => ({
      Model: modelName.get(r.config.target),
      // A default acceptance in the core's words of where it came from, never "true".
      Acceptance: r.config.acceptance.published ? r.tau_basis : undefined,
      Hardware: `${r.config.gpus} × ${gpuName.get(r.config.hardware)}`,
      Engine: r.engine.name,
      'Weights / KV cache': `${r.config.dtype.weights} / ${r.config.dtype.kv}`,
      'Batch × context': `${r.config.batch} × ${r.config.context}`,
      'τ from': r.tau_source,
      Verdict: r.verdict,
      Speedup: r.verdict === 'infeasible' ? 'does not fit' : fmt.speedup(r.speedup),
      τ: fmt.tau(r.tau),
      'Tokens/s': r.verdict === 'infeasible' ? '—' : fmt.rate(r.tokens_per_s),
      'Cycle time': fmt.seconds(r.cycle_time_s),
      'Memory per device': `${fmt.gb(r.memory.total_gb_per_gpu)} of ${fmt.gb(r.memory.usable_gb_per_gpu)}`,
    });
    const [ta, tb] = [text(a), text(b)];
    for (const [row, want] of Object.entries(ta)) {
      if (want === undefined) continue;
      assert(rows[row], `row ${row} shown`);
      eq(rows[row][0], want, `A: ${row}`);
      eq(rows[row][1], tb[row], `B: ${row}`);
      eq(rows[row][2], String(want !== tb[row]), `${row}: marked exactly when A and B differ`);
    }
    // The link alone restores the comparison.
    const p = await newPage();
    await p.goto(page.url());
    await waitQuiet(p);
    eq(
      await p.$eval('[data-testid=compare]', (c) => c.dataset.active),
      'true',
      'comparison restored from the link',
    );
    await p.close();
    await page.click('[data-testid=compare-swap]');
    await page.waitForFunction((l) => location.hash.startsWith(`#${l}&compare&`), linkA, {
      timeout: 10000,
    });
    await page.click('[data-testid=compare-stop]');
    await page.waitForFunction((l) => location.hash === `#${l}`, linkA, { timeout: 10000 });
  });

  await test('chart values are in tables reachable by keyboard', async () => {
    await open(page, url, VERDICTS.pays);
    // The charts draw once scrolled to (run alone, no earlier test has shown them).
    await revealCharts(page);
    for (const id of ['k', 'batch', 'families']) {
      const n = await page.$eval(`[data-testid=chart-${id}]`, (f) => ({
        points: Number(f.dataset.points),
        rows: f.querySelectorAll('[data-testid=chart-values] tbody tr').length,
      }));
      assert(n.points > 0, `chart ${id}: ${n.points} points`);
      eq(n.rows, n.points, `chart ${id}: one row per point`);
    }
    await page.focus('[data-testid=chart-batch] [data-testid=chart-values] summary');
    await page.keyboard.press('Enter');
    eq(
      await page.$eval('[data-testid=chart-batch] [data-testid=chart-values]', (d) => d.open),
      true,
      'opened from the keyboard',
    );
  });

  await test('no horizontal scroll at 390 px, details open, in every verdict state', async () => {
    const ctx = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
    });
    const p = await ctx.newPage();
    watch(p);
    for (const [state, config] of Object.entries(VERDICTS)) {
      await p.goto(`${url}#${cliLink(config)}`);
      await waitQuiet(p);
      await p.$$eval('details', (d) =>
        d.forEach((x) => {
          x.open = true;
        }),
      );
      await p.waitForTimeout(100);
      const over = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(over <= 0, `${state}: page is ${over}px wider than 390 px`);
    }
    await ctx.close();
  });

  if (shots) {
    await test('screenshots: engine, every verdict state, cost breakdown, the comparison', async () => {
      fs.mkdirSync(shots, { recursive: true });
      await open(page, url, EAGLE_DEPTH6);
      await page.$$eval('#kernels-box', (d) =>
        d.forEach((x) => {
          x.open = true;
        }),
      );
      // Each shot is written only when every chart, table, bar and tree in it draws something.
      await screenshotWithViews(page, path.join(shots, 'cost.png'), {
        selector: '#results',
        require: [
          '[data-testid=speedup]',
          '[data-testid=passes]',
          '[data-testid=cycle] .stack',
          '[data-testid=kernels] table',
          '[data-testid=memory] .stack',
        ],
      });
      await screenshotWithViews(page, path.join(shots, 'engine.png'), {
        selector: '[data-for=runtime]',
        require: ['[data-testid=engine]', '#engine-text'],
      });
      for (const [state, config] of Object.entries(VERDICTS)) {
        await open(page, url, config);
        // The headline numbers and the core's verdict under them, as the reader sees them.
        const box = await page.evaluate(() => {
          const a = document.querySelector('.headline').getBoundingClientRect();
          const b = document.querySelector('[data-testid=verdict]').getBoundingClientRect();
          return {
            x: a.left + window.scrollX,
            y: a.top + window.scrollY,
            width: Math.max(a.right, b.right) - a.left,
            height: b.bottom - a.top,
          };
        });
        await screenshotWithViews(page, path.join(shots, `verdict-${state}.png`), {
          clip: box,
          require: ['[data-testid=speedup]', '[data-testid=verdict-reason]'],
        });
      }
      // A and B side by side: the pays config kept as A, B at batch 16.
      await open(page, url, VERDICTS.pays);
      await page.click('[data-testid=compare-start]');
      await page.waitForFunction(() => /&compare&/.test(location.hash), null, { timeout: 10000 });
      await page.fill('[data-testid=batch]', '16');
      await page.press('[data-testid=batch]', 'Tab');
      await page.waitForSelector('[data-testid=compare-table]', { timeout: 10000 });
      await waitQuiet(page);
      await screenshotWithViews(page, path.join(shots, 'compare.png'), {
        selector: '[data-testid=compare]',
        require: ['[data-testid=compare-table]'],
      });
      await page.click('[data-testid=compare-stop]');
      await waitQuiet(page);
    });
  }

  await page.close();
}
