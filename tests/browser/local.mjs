// Browser tests of the local path (issue 22, item 6 and item 4): the dtype selects list what
// the chosen engine runs (the core's `list runtimes`), the "my computer" example shows eval's
// verdict and numbers, a local engine or an Apple machine leaves a form that evaluates, and a
// pasted llama-bench table is fitted by the core (`calibrate`), drawn row by row and applied.
// Alone: SPECCALC_BROWSER_ONLY="local:" node tests/browser/run.mjs
import {
  test,
  assert,
  eq,
  cli,
  cliRun,
  cliLink,
  cliEvalLink,
  fragmentOf,
  openConfig,
  shownResult,
  checkAgainstCli,
  waitQuiet,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

// llama.cpp PR #15802, RTX 3090, llama 8B Q4_0: t/s of a forward of n tokens (pp n), the table
// tests/core/local_engines_test.cpp calibrates on.
const PP_3090 = [156.56, 279.89, 390.96, 470.48, 509.7, 541.57, 559.3, 583.77];
function table3090() {
  const head =
    '| model | size | params | backend | ngl | n_ubatch | test | t/s |\n' +
    '| --- | ---: | ---: | --- | --: | ---: | --- | ---: |\n';
  return (
    head +
    PP_3090.map(
      (tps, i) =>
        `| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | ${i + 1} | pp ${i + 1} | ${tps.toFixed(2)} ± 0.10 |\n`,
    ).join('')
  );
}
const CONFIG_3090 = {
  target: 'llama3-instruct-8b',
  hardware: 'rtx-3090',
  runtime: 'llama.cpp-cuda',
  context: 256,
  dtype: 'q4_0',
  method: { family: 'sps', draft: 'llama3.2-1b', k: 4 },
  acceptance: { alpha: 0.7 },
};

const options = (page, id) =>
  page.$$eval(`${id} option`, (os) => os.map((o) => o.value).filter((v) => v !== '__custom__'));
const runtimeOf = (runtimes, id) => runtimes.find((r) => r.id === id);

async function myComputer() {
  const ui = JSON.parse(cli(['list', 'ui']));
  const i = ui.examples.findIndex((e) => e.label.startsWith('My computer'));
  assert(i >= 0, `a "My computer" example in list ui: ${ui.examples.map((e) => e.label)}`);
  return { i, example: ui.examples[i] };
}

// Picks an option and waits until the address bar holds the evaluated result of the edit.
async function pick(page, id, value, hashPart) {
  await page.selectOption(id, value);
  await page.waitForFunction((p) => decodeURIComponent(location.hash).includes(p), hashPart, {
    timeout: 10000,
  });
  await waitQuiet(page);
}

// Opens the llama-bench box as a reader does (its summary), unless it is open already.
async function openBench(page) {
  if (!(await page.$eval('[data-testid=llama-bench]', (d) => d.open)))
    await page.click('[data-testid=llama-bench] summary');
}

async function noFieldError(page, what) {
  const errors = await page.$$eval('[data-testid=field-error], #form-error:not([hidden])', (es) =>
    es.map((e) => e.textContent),
  );
  eq(errors.length, 0, `${what}: errors on the form ${JSON.stringify(errors)}`);
}

export async function localTests({ url, newPage }) {
  const page = await newPage();
  const runtimes = JSON.parse(cli(['list', 'runtimes']));

  await test("local: the dtype selects list the core's weight and KV dtypes of the engine", async () => {
    const { example } = await myComputer();
    await openConfig(page, url, example.config);
    const metal = runtimeOf(runtimes, 'llama.cpp-metal');
    eq(
      JSON.stringify(await options(page, '#f-dtype-weights')),
      JSON.stringify(metal.weight_dtypes),
      'weights options under llama.cpp-metal',
    );
    eq(
      JSON.stringify(await options(page, '#f-dtype-kv')),
      JSON.stringify(metal.kv_dtypes),
      'KV options under llama.cpp-metal',
    );
    eq(await page.$eval('#f-dtype-weights', (s) => s.value), 'q4_k_m', 'weights shown');
    // Another engine refills them with its own (mlx: MLX types; the carry moves q4_k_m).
    await pick(page, '#f-runtime', 'mlx', 'runtime=mlx');
    const mlx = runtimeOf(runtimes, 'mlx');
    eq(
      JSON.stringify(await options(page, '#f-dtype-weights')),
      JSON.stringify(mlx.weight_dtypes),
      'weights options under mlx',
    );
    const weights = await page.$eval('#f-dtype-weights', (s) => s.value);
    assert(mlx.weight_dtypes.includes(weights), `weights ${weights} is one mlx runs`);
    const notes = await page.textContent('[data-testid=carry-notes]');
    assert(/dtype/.test(notes), `the carry says the dtype moved: "${notes}"`);
    await noFieldError(page, 'after the engine change');
    await checkAgainstCli(page, 'mlx');
    eq(await page.$eval('[data-testid=llama-bench]', (d) => d.hidden), false, 'box under mlx');
  });

  await test('local: the my-computer example shows a verdict and the numbers of eval', async () => {
    const { i, example } = await myComputer();
    await page.goto(url);
    await waitQuiet(page);
    const link = cliLink(example.config);
    await page.click(`#examples [data-example="${i}"]`);
    await page.waitForFunction((l) => location.hash.slice(1) === l, link, { timeout: 10000 });
    await waitQuiet(page);
    const want = cliEvalLink(link);
    await checkAgainstCli(page, 'my computer');
    const verdict = await page.$eval('#verdict', (v) => v.dataset.state);
    eq(verdict, want.verdict, 'verdict state');
    eq(
      await page.textContent('[data-testid=verdict-reason]'),
      want.verdict_caveat ? `${want.verdict_reason} ${want.verdict_caveat}` : want.verdict_reason,
      "verdict: the core's reason and its caveat, if any",
    );
    eq(
      await page.$eval('[data-testid=tokens-per-s]', (o) => o.dataset.value),
      String(want.tokens_per_s),
      'tokens/s',
    );
    eq(await page.$eval('#f-hardware', (s) => s.value), 'apple-m4-pro', 'hardware shown');
    eq(await page.$eval('#f-runtime', (s) => s.value), 'llama.cpp-metal', 'engine shown');
    eq(await page.$eval('[data-testid=llama-bench]', (d) => d.hidden), false, 'llama-bench box');
    await noFieldError(page, 'my computer');
  });

  await test('local: choosing Apple hardware or a local engine leaves a form that evaluates', async () => {
    const ui = JSON.parse(cli(['list', 'ui']));
    // From the serving starter (vLLM EAGLE-3 on an H100) to a Mac: the carry moves the engine
    // and the family, and says so.
    await openConfig(page, url, ui.starter);
    eq(await page.$eval('[data-testid=llama-bench]', (d) => d.hidden), true, 'no box for vLLM');
    await pick(page, '#f-hardware', 'apple-m4-max', 'hardware=apple-m4-max');
    let shown = JSON.parse(cli(['run', 'decode-link', '-'], `#${fragmentOf(page.url())}`));
    eq(shown.runtime, 'llama.cpp-metal', 'engine carried');
    eq(await page.$eval('#f-runtime', (s) => s.value), 'llama.cpp-metal', 'engine shown');
    let notes = await page.textContent('[data-testid=carry-notes]');
    assert(/runtime: llama\.cpp-metal/.test(notes), `carry notes: "${notes}"`);
    await noFieldError(page, 'Apple hardware');
    await checkAgainstCli(page, 'Apple hardware');
    // A Mac's memory is one pool: the core's words (memory.device, memory.pool), not "GPU".
    const mem = cliEvalLink(fragmentOf(page.url())).memory;
    eq(`${mem.device}, ${mem.pool}`, 'chip, unified memory', 'the core says chip, unified memory');
    eq(await page.textContent('#memory-title'), 'Memory per chip', 'memory title');
    const line = await page.textContent('[data-testid=memory]');
    assert(/on this chip\)/.test(line) && !/GPU/.test(line), `memory line: "${line}"`);
    // From the starter to llama.cpp on CUDA: the engine's default hardware comes along.
    await openConfig(page, url, ui.starter);
    await pick(page, '#f-runtime', 'llama.cpp-cuda', 'runtime=llama.cpp-cuda');
    shown = JSON.parse(cli(['run', 'decode-link', '-'], `#${fragmentOf(page.url())}`));
    eq(shown.hardware, 'h100-sxm', 'an NVIDIA GPU stays');
    notes = await page.textContent('[data-testid=carry-notes]');
    assert(notes.length > 0, 'carry notes shown');
    eq(
      JSON.stringify(await options(page, '#f-dtype-weights')),
      JSON.stringify(runtimeOf(runtimes, 'llama.cpp-cuda').weight_dtypes),
      'weights options under llama.cpp-cuda',
    );
    await noFieldError(page, 'llama.cpp-cuda');
    await checkAgainstCli(page, 'llama.cpp-cuda');
  });

  await test("local: a pasted llama-bench table shows the core's fit, Apply changes the link and the headline", async () => {
    const text = table3090();
    const link = await openConfig(page, url, CONFIG_3090);
    const want = cliRun('calibrate', { config: cliEvalLink(link).config, llama_bench: text });
    eq(want.fit.length, PP_3090.length, 'the CLI fits one row per pp line');
    const before = await shownResult(page);
    await openBench(page);
    await page.fill('#b-text', text);
    await page.click('#b-go');
    await page.waitForSelector('#b-table:not([hidden])', { timeout: 30000 });
    const rows = await page.$$eval('#b-table tbody tr', (trs) =>
      trs.map((tr) => ({
        input: tr.children[0].textContent,
        text: [...tr.children].slice(1).map((c) => c.textContent),
        values: [...tr.children].slice(1).map((c) => c.dataset.value),
      })),
    );
    eq(rows.length, PP_3090.length, 'one row per pp line');
    want.fit.forEach((f, i) => {
      eq(rows[i].input, f.input, `row ${i} test`);
      const cells = [f.measured_s, f.predicted_before_s, f.predicted_after_s];
      eq(JSON.stringify(rows[i].values), JSON.stringify(cells.map(String)), `row ${i} values`);
      eq(JSON.stringify(rows[i].text), JSON.stringify(cells.map(fmt.seconds)), `row ${i} text`);
    });
    eq(
      await page.$eval('#b-status', (s) => s.dataset.meanError),
      String(want.mean_relative_error_pct),
      'mean error',
    );
    const status = await page.textContent('#b-status');
    assert(status.includes(`${want.mean_relative_error_pct.toFixed(1)} %`), `status: ${status}`);
    eq(fragmentOf(page.url()), link, 'fitting alone leaves the link');
    const calibrated = cliLink(want.config);
    await page.click('#b-apply');
    await page.waitForFunction((l) => location.hash.slice(1) === l, calibrated, {
      timeout: 10000,
    });
    await waitQuiet(page);
    const decoded = JSON.parse(cli(['run', 'decode-link', '-'], `#${calibrated}`));
    eq(
      JSON.stringify(decoded.runtime),
      JSON.stringify(want.runtime),
      'the link holds the calibrated runtime',
    );
    const after = await shownResult(page);
    assert(
      after.speedup !== before.speedup,
      `headline changed: ${before.speedup} -> ${after.speedup}`,
    );
    await checkAgainstCli(page, 'calibrated');
    eq(await page.$eval('#f-runtime', (s) => s.value), 'llama.cpp-cuda', 'engine still shown');
    eq(await page.$eval('#b-table', (t) => t.hidden), false, 'the fit stays on screen');
    // Setup says the engine is calibrated, with what, and offers the way back (the walk: after
    // Apply nothing in Setup showed it).
    eq(await page.$eval('#engine-calibrated', (n) => n.hidden), false, 'calibration shown');
    const said = await page.textContent('#engine-calibrated-text');
    for (const c of want.changes) assert(said.includes(c.param), `${c.param} named: ${said}`);
    await page.click('#engine-reset');
    await page.waitForFunction((l) => location.hash.slice(1) === l, link, { timeout: 10000 });
    await waitQuiet(page);
    eq(await page.$eval('#engine-calibrated', (n) => n.hidden), true, 'back to the profile');
  });

  await test("local: llama.cpp's --draft-p-min field prices a variable draft length with the core's numbers", async () => {
    await openConfig(page, url, {
      ...CONFIG_3090,
      method: { family: 'sps', draft: 'llama3.2-1b', k: 8 },
    });
    const field = '[data-field="method.draft_p_min"]';
    eq(await page.inputValue(field), '0', "the field is offered at llama.cpp's default");
    await page.fill(field, '0.75');
    await page.press(field, 'Tab');
    await page.waitForFunction(() => /draft_p_min=0\.75/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    await checkAgainstCli(page, 'draft_p_min 0.75');
    const expected = cliEvalLink(fragmentOf(page.url()));
    assert(
      expected.draft_length.expected_kept < 8,
      `fewer than k kept: ${expected.draft_length.expected_kept}`,
    );
    // The per-pass table: expected draft passes and times per cycle, the core's numbers.
    eq(
      await page.textContent('[data-pass=draft] [data-col=passes]'),
      fmt.plain(expected.draft.passes_per_cycle),
      'expected draft passes per cycle',
    );
    eq(
      Number(await page.getAttribute('[data-pass=verify] [data-col=time-per-cycle]', 'data-value')),
      expected.cycle.verify_s,
      'expected target time per cycle',
    );
    const said = expected.assumptions.find((a) => a.startsWith('variable draft length'));
    assert(said, 'the core states the variable length');
    const shown = await page.$$eval('#assumptions li', (li) => li.map((n) => n.textContent));
    assert(shown.includes(said), 'the assumption is shown as the core wrote it');
    // Out of range: the core's message beside the field, no result change.
    await page.fill(field, '1.5');
    await page.press(field, 'Tab');
    await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    eq(
      await page.$eval('[data-testid=field-error]', (e) => e.dataset.errorFor),
      'method.draft_p_min',
      'the error sits beside the field',
    );
    // Back to 0: every cycle drafts k again.
    await page.fill(field, '0');
    await page.press(field, 'Tab');
    await page.waitForFunction(() => !/draft_p_min=0\.75/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
  });

  await test("local: a CPU preset carries the setup to llama.cpp's CPU engine and shows the CLI's numbers", async () => {
    const ui = JSON.parse(cli(['list', 'ui']));
    await openConfig(page, url, ui.starter);
    await pick(page, '#f-hardware', 'ryzen-9-7950x', 'hardware=ryzen-9-7950x');
    const shown = JSON.parse(cli(['run', 'decode-link', '-'], `#${fragmentOf(page.url())}`));
    eq(shown.runtime, 'llama.cpp-cpu', 'engine carried');
    eq(await page.$eval('#f-runtime', (s) => s.value), 'llama.cpp-cpu', 'engine shown');
    const notes = await page.textContent('[data-testid=carry-notes]');
    assert(/runtime: llama\.cpp-cpu/.test(notes), `carry notes: "${notes}"`);
    await noFieldError(page, 'CPU preset');
    await checkAgainstCli(page, 'CPU preset');
    // The device is the core's word for it (memory.device), not "GPU".
    eq(cliEvalLink(fragmentOf(page.url())).memory.device, 'CPU', 'the core says CPU');
    eq(await page.textContent('#memory-title'), 'Memory per CPU', 'memory title');
    const total = await page.textContent('[data-testid=memory]');
    assert(/on this CPU\)/.test(total), `memory line: "${total}"`);
    eq(
      await page.$eval('[data-testid=llama-bench]', (d) => d.hidden),
      false,
      'llama-bench box offered',
    );
  });

  await test("local: a bad llama-bench paste shows the core's error beside the box", async () => {
    const link = await openConfig(page, url, CONFIG_3090);
    const bad = table3090().replace('| pp 5 | 509.70', '| pp 5 | abc');
    let message = '';
    try {
      cliRun('calibrate', { config: cliEvalLink(link).config, llama_bench: bad });
    } catch (e) {
      message = String(e.stderr)
        .trim()
        .replace(/^speccalc: error: /, '');
    }
    assert(/line 7/.test(message), `the CLI names the line: ${message}`);
    await openBench(page);
    await page.fill('#b-text', bad);
    await page.click('#b-go');
    await page.waitForSelector('#b-error:not([hidden])', { timeout: 30000 });
    eq(await page.textContent('#b-error'), message, 'the core error beside the box');
    eq(await page.$eval('#b-text', (t) => t.getAttribute('aria-invalid')), 'true', 'aria-invalid');
    eq(await page.$eval('#b-table', (t) => t.hidden), true, 'no table');
    eq(await page.$eval('#b-apply', (b) => b.hidden), true, 'no Apply');
    eq(fragmentOf(page.url()), link, 'the link is unchanged');
  });
}
