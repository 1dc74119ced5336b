// Browser tests for what a user sees on the way to an answer (issue 18 items 5, 7, 12, 13) and
// for views that are checked by their marks and cells, not by their existence (issue 23 item
// 3): every chart's drawn marks (`data-marks`, recorded by chart-kit as uPlot places them) and
// every table's cells equal the native CLI's output on the same link; where a value can be
// derived by hand (a roof's ridge, a datasheet figure) the test writes the derivation out.
// Run from run.mjs (same server and browser), alone with SPECCALC_BROWSER_ONLY=user-path.
import {
  test,
  assert,
  eq,
  cli,
  cliEvalLink,
  cliError,
  cliDecode,
  waitQuiet,
  fragmentOf,
  checkAgainstCli,
  revealCharts,
  cliRun,
  cliLink,
  openConfig as open,
  phonePage,
  marksOf,
  samePoints,
  waitMarks,
  paintedAt,
  cellsOf,
  sameCells,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

// A draft-model setup whose draft shares the Llama-2 vocabulary (32000 tokens).
const SPS = {
  target: 'llama2-chat-7b',
  hardware: 'a100-80gb-sxm',
  method: { family: 'sps', draft: 'llama-68m', k: 4 },
  acceptance: { alpha: 0.7 },
};

export async function userPathTests({ browser, url, newPage, watch }) {
  const page = await newPage();
  const methods = JSON.parse(cli(['list', 'methods']));

  // ---- issue 18 item 5: an invalid field never freezes the others -------------------------

  await test('an incompatible target: the error sits beside its field in view; then the family re-renders the form and the URL', async () => {
    await open(page, url, SPS);
    await page.selectOption('#f-target', 'llama3.1-8b-instruct');
    // Either the core refuses the draft (its message beside the field, in view), or the form
    // was carried to a valid setup (the URL holds the new target): never a frozen form.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=field-error]') ||
        /(^|&)target=llama3\.1-8b-instruct(&|$)/.test(location.hash),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    const err = await page.evaluate(() => {
      const e = document.querySelector('[data-testid=field-error]');
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return {
        text: e.textContent,
        besideField: !!e.closest('.field')?.querySelector('[data-field]'),
        inView: r.top >= 0 && r.bottom <= window.innerHeight,
        dbg: `${r.top} ${r.bottom} ${window.innerHeight} ${window.scrollY}`,
      };
    });
    if (err) {
      assert(err.besideField, `error beside its field: ${err.text}`);
      assert(err.inView, `error brought into view: ${err.text}`);
    }
    await page.selectOption('#f-family', 'pld');
    await page.waitForFunction(
      () =>
        /(^|&)method\.family=pld(&|$)/.test(location.hash) &&
        /(^|&)target=llama3\.1-8b-instruct(&|$)/.test(location.hash),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    const fields = await page.$$eval('#method-params [data-field]', (n) =>
      n.map((x) => x.dataset.field),
    );
    assert(fields.includes('method.ngram'), `the form shows PLD's fields: ${fields.join(', ')}`);
    assert(!fields.includes('method.draft'), `no draft field left: ${fields.join(', ')}`);
    eq(await page.isVisible('[data-testid=field-error]'), false, 'error cleared');
    await checkAgainstCli(page, 'after the family change');
  });

  // (A preset with another tokenizer is greyed out in the select; a draft of one's own is not.)
  await test('an incompatible draft of your own: error beside the draft, in view; the family still re-renders and the URL updates', async () => {
    await open(page, url, {
      target: 'llama3.1-8b-instruct',
      hardware: 'h100-sxm',
      method: { family: 'sps', draft: 'llama3.2-1b', k: 4 },
      acceptance: { alpha: 0.7 },
    });
    await page.selectOption('#f-method-draft', '__custom__');
    await waitQuiet(page); // "your own" starts from the preset's keys, a valid draft
    const before = fragmentOf(page.url());
    await page.evaluate(() => window.scrollTo(0, 0));
    // llama-68m's shapes: Llama-2's 32000-token vocabulary under Llama-3.1's 128256.
    const keys = { num_layers: 2, hidden: 768, intermediate: 3072, heads: 12, kv_heads: 12 };
    await page.fill('#f-method-draft-json', JSON.stringify({ ...keys, vocab: 32000 }));
    await page.press('#f-method-draft-json', 'Tab');
    await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    await waitQuiet(page);
    const err = await page.evaluate(() => {
      const e = document.querySelector('[data-testid=field-error]');
      const r = e.getBoundingClientRect();
      return {
        for: e.dataset.errorFor,
        text: e.textContent,
        inView: r.top >= 0 && r.bottom <= window.innerHeight,
        dbg: `${r.top} ${r.bottom} ${window.innerHeight} ${window.scrollY}`,
      };
    });
    eq(err.for, 'method.draft', 'error placed at the draft');
    assert(/^Draft model: /.test(err.text), `names the field by its label: ${err.text}`);
    assert(err.inView, `the error is in view ${err.dbg} ${err.text}`);
    eq(fragmentOf(page.url()), before, 'an invalid form leaves the link alone');
    await page.selectOption('#f-family', 'eagle3');
    await page.waitForFunction(() => /(^|&)method\.family=eagle3(&|$)/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    const fields = await page.$$eval('#method-params [data-field]', (n) =>
      n.map((x) => x.dataset.field),
    );
    assert(!fields.includes('method.draft'), `EAGLE-3's form: ${fields.join(', ')}`);
    eq(await page.isVisible('[data-testid=field-error]'), false, 'error cleared');
    eq(await page.isVisible('[data-testid=stale]'), false, 'result no longer stale');
    await checkAgainstCli(page, 'after the family change');
  });

  // ---- issue 18 item 7: Copy link copies what the user sees, or says why not ---------------

  await test('Copy link with an invalid field copies nothing and says why; with a valid form it copies the address', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(url).origin,
    });
    const p = await ctx.newPage();
    watch(p);
    const link = await open(p, url, SPS);
    await p.evaluate(() => navigator.clipboard.writeText('sentinel'));
    await p.fill('#f-batch', 'lots');
    await p.press('#f-batch', 'Tab');
    await p.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
    await waitQuiet(p);
    await p.click('[data-testid=copy-link]');
    await p.waitForFunction(() => !document.querySelector('[data-testid=banner]').hidden, null, {
      timeout: 5000,
    });
    const banner = await p.textContent('[data-testid=banner]');
    assert(/^Fix the highlighted field first/.test(banner), `says why: ${banner}`);
    eq(await p.evaluate(() => navigator.clipboard.readText()), 'sentinel', 'nothing copied');
    eq(await p.textContent('[data-testid=copy-link]'), 'Not copied', 'the button says so');
    // Fixed: the link of what is shown is copied.
    await p.fill('#f-batch', '8');
    await p.press('#f-batch', 'Tab');
    await p.waitForFunction(() => /(^|&)batch=8(&|$)/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(p);
    await p.click('[data-testid=copy-link]');
    await p.waitForFunction(
      () => document.querySelector('#copy-link').textContent === 'Link copied',
    );
    const copied = await p.evaluate(() => navigator.clipboard.readText());
    eq(copied, p.url(), 'the address of what is shown');
    eq(cliDecode(fragmentOf(copied)).batch, 8, 'the copied link holds the edit');
    assert(fragmentOf(copied) !== link, 'not the old link');
    await ctx.close();
  });

  // An answer to an older edit must not write over a newer one. CI once saw it (3 Dec): one
  // field's change was still being evaluated when another field was edited; the answer came back
  // inside the debounce, refilled the second field (no longer focused) with the link's value, and
  // the debounced read then sent that value, so the edit was lost for good.
  await test('an edit made while an earlier edit is still being evaluated is kept, not refilled by the older answer', async () => {
    await open(page, url, SPS);
    const before = cliDecode(fragmentOf(page.url()));
    assert(before.context !== 2048 && before.batch !== 4, 'the edits change both fields');
    const kept = await page.evaluate(async () => {
      const root = document.documentElement;
      const calls = () => Number(root.dataset.workerCalls || 0);
      const batch = document.querySelector('#f-batch');
      const context = document.querySelector('#f-context');
      // Edit 1: batch, committed (a change event evaluates at once).
      const posted = calls();
      batch.value = '4';
      batch.dispatchEvent(new Event('change', { bubbles: true }));
      // Wait until edit 1's evaluation is in the worker...
      while (calls() === posted) await new Promise((r) => setTimeout(r, 1));
      // ...then edit 2, typed (debounced 300 ms), while edit 1's answer is on its way back.
      context.value = '2048';
      context.dispatchEvent(new Event('input', { bubbles: true }));
      // Edit 1's answer arrives well inside the debounce (a plain eval takes milliseconds).
      await new Promise((r) => setTimeout(r, 150));
      return context.value;
    });
    eq(kept, '2048', 'the field still holds what was typed after the older answer came back');
    await page.waitForFunction(() => /(^|&)context=2048(&|$)/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    const after = cliDecode(fragmentOf(page.url()));
    eq(after.batch, 4, 'edit 1 in the link');
    eq(after.context, 2048, 'edit 2 in the link');
    eq(await page.inputValue('#f-context'), '2048', 'and in the form');
  });

  await test('a field the core changes while it has focus shows the value priced, not the one typed', async () => {
    // llama.cpp runs on one device: 3 GPUs typed into the focused field are carried to 1 by
    // the core. The field used to keep "3" while the result (and the link) priced 1, and the
    // next edit sent 3 again.
    const mac = {
      target: 'llama3.1-8b-instruct',
      hardware: 'apple-m4-pro',
      runtime: 'llama.cpp-metal',
      dtype: { weights: 'q4_k_m' },
      method: { family: 'sps', draft: 'llama3.2-1b', k: 3 },
    };
    await open(page, url, mac);
    const carried = cliRun('carry', {
      config: { ...cliDecode(fragmentOf(page.url())), gpus: 3 },
      changed: 'gpus',
      previous: cliDecode(fragmentOf(page.url())),
    });
    eq(carried.config.gpus, 1, "the core's carry of 3 GPUs under llama.cpp");
    await page.click('#f-gpus');
    await page.fill('#f-gpus', '3');
    await page.waitForFunction(
      () => /gpus/.test(document.querySelector('#carry-notes')?.textContent || ''),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    eq(await page.evaluate(() => document.activeElement?.id), 'f-gpus', 'focus stays in the field');
    eq(await page.inputValue('#f-gpus'), '1', 'the field shows the GPUs priced');
    eq(cliDecode(fragmentOf(page.url())).gpus, 1, 'the link prices 1 GPU');
    await checkAgainstCli(page, 'after the carry');
    // Text that reads as the value answered is left as typed (no reformatting under the caret).
    await page.fill('#f-batch', '1e0');
    await page.waitForTimeout(800);
    await waitQuiet(page);
    eq(await page.inputValue('#f-batch'), '1e0', 'a batch typed as 1e0 is kept while focused');
  });

  await test("2 x H100 under vLLM, then a Mac chosen: one device, an engine that runs there, the CLI's numbers", async () => {
    const h100 = { target: 'llama3.1-8b-instruct', hardware: 'h100-sxm', gpus: 2, runtime: 'vllm' };
    await open(page, url, h100);
    await page.selectOption('#f-hardware', 'apple-m1-max');
    await page.waitForFunction(() => /hardware=apple-m1-max/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    const shown = cliDecode(fragmentOf(page.url()));
    const carried = cliRun('carry', {
      config: { ...cliDecode(cliLink(h100)), hardware: 'apple-m1-max' },
      changed: 'hardware',
      previous: cliDecode(cliLink(h100)),
    });
    eq(shown.gpus, 1, 'one device');
    eq(shown.runtime, carried.config.runtime, "the core's engine for the Mac");
    eq(await page.inputValue('#f-gpus'), '1', 'the GPUs field');
    const errors = await page.$$eval('[data-testid=field-error]', (es) =>
      es.filter((e) => e.offsetParent !== null).map((e) => e.textContent),
    );
    eq(errors.length, 0, `no field error: ${errors.join(' / ')}`);
    const notes = await page.$eval('#carry-notes', (n) => n.textContent);
    assert(
      /gpus: 1 \(apple-m1-max has no GPU-to-GPU link/.test(notes),
      `the move is said: ${notes}`,
    );
    await checkAgainstCli(page, 'on the Mac');
  });

  // ---- issue 18 item 12: a phone shows the result and the main inputs on one screen --------

  await test('at 390 px the headline speedup and the model and GPU inputs are in the first screen', async () => {
    const { ctx, page: p } = await phonePage(browser, watch);
    await p.goto(url);
    await waitQuiet(p);
    await p.evaluate(() => window.scrollTo(0, 0));
    const pos = await p.evaluate(() =>
      Object.fromEntries(
        ['[data-testid=speedup]', '#f-target', '#f-hardware'].map((s) => {
          const r = document.querySelector(s).getBoundingClientRect();
          return [s, { top: Math.round(r.top), bottom: Math.round(r.bottom) }];
        }),
      ),
    );
    for (const [s, r] of Object.entries(pos))
      assert(r.top >= 0 && r.bottom <= 844, `${s} at ${r.top}..${r.bottom}, not within 0..844`);
    // The answer comes before the inputs that change it.
    assert(pos['[data-testid=speedup]'].bottom <= pos['#f-target'].top, 'speedup above the form');
    await ctx.close();
  });

  // "Under load" once sat flush with the window's edges (no margin rule) between indented panels.
  await test('the full-width panels below the form share one left edge and one width, at 1400 and 390 px', async () => {
    const edges = (p) =>
      p.evaluate(() =>
        ['#sizing-view', '#load-view', '#charts-view', '#tree-view', '#data-view'].map((s) => {
          const r = document.querySelector(s).getBoundingClientRect();
          return [s, Math.round(r.left), Math.round(r.width)];
        }),
      );
    await page.goto(url);
    await waitQuiet(page);
    const { ctx, page: phone } = await phonePage(browser, watch);
    await phone.goto(url);
    await waitQuiet(phone);
    for (const [label, rows] of [
      ['desktop', await edges(page)],
      ['390 px', await edges(phone)],
    ]) {
      const [first, left, width] = rows[0];
      assert(left > 0, `${label}: ${first} starts at the window's edge`);
      for (const [s, l, w] of rows)
        assert(
          l === left && w === width,
          `${label}: ${s} at ${l} (${w} wide), ${first} at ${left} (${width})`,
        );
    }
    await ctx.close();
  });

  await test('at 390 px an edit far below the result shows the new headline at the bottom of the screen', async () => {
    const { ctx, page: p } = await phonePage(browser, watch);
    const link = await open(p, url, SPS);
    const mini = () =>
      p.$eval('[data-testid=mini-result]', (n) => ({
        shown: getComputedStyle(n).display !== 'none' && !n.hidden,
        text: n.textContent,
      }));
    eq((await mini()).shown, false, 'not while the headline is in view');
    await p.$eval('#f-context', (n) => n.scrollIntoView({ block: 'center' }));
    await p.waitForFunction(() => !document.querySelector('#mini-result').hidden);
    const want = cliEvalLink(link);
    let m = await mini();
    eq(m.shown, true, 'shown while the headline is scrolled away');
    assert(m.text.startsWith(fmt.speedup(want.speedup)), `the core's speedup: ${m.text}`);
    await p.fill('#f-context', '2048');
    await p.press('#f-context', 'Tab');
    await p.waitForFunction(() => /(^#|&)context=2048(&|$)/.test(location.hash));
    await waitQuiet(p);
    const after = cliEvalLink(fragmentOf(p.url()));
    assert(after.speedup !== want.speedup, 'the edit changed the speedup');
    m = await mini();
    assert(m.text.startsWith(fmt.speedup(after.speedup)), `the edit's speedup: ${m.text}`);
    await p.click('[data-testid=mini-result]');
    await p.waitForFunction(() => document.querySelector('#mini-result').hidden);
    await ctx.close();
  });

  await test('"Skip to results" moves focus and leaves the share link in the address bar', async () => {
    const link = await open(page, url, SPS);
    await page.focus('.skip');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement.id === 'results');
    eq(fragmentOf(page.url()), link, 'the link is still the setup');
    eq(
      await page.$eval('[data-testid=banner]', (b) => b.hidden),
      true,
      'no "could not open" banner',
    );
    // A page opened at #results (a bookmark of the jump) shows the starter, not an error.
    await page.goto(`${url}#results`);
    await waitQuiet(page);
    eq(await page.$eval('[data-testid=banner]', (b) => b.hidden), true, 'no banner at #results');
    assert(
      (await page.$eval('[data-testid=speedup]', (o) => o.dataset.value)) !== undefined,
      'a result',
    );
  });

  await test("at 390 px the clipped τ basis opens on a tap and reads the core's whole tau_basis", async () => {
    const { ctx, page: p } = await phonePage(browser, watch);
    // SpS with a 0.6B draft and no published pair: the basis is a long sentence.
    const link = await open(p, url, {
      target: 'qwen3-8b',
      hardware: 'apple-m4-pro',
      runtime: 'llama.cpp-metal',
      method: { family: 'sps', draft: 'qwen3-0.6b', k: 4 },
    });
    const want = cliEvalLink(link).tau_basis;
    const box = () =>
      p.$eval('[data-testid=tau-basis]', (n) => ({
        text: n.textContent,
        clipped: n.scrollWidth > n.clientWidth + 1,
        expanded: n.getAttribute('aria-expanded'),
      }));
    const closed = await box();
    eq(closed.text, want, "the core's tau_basis");
    eq(closed.clipped, true, 'one clipped line at first (the inputs stay on the first screen)');
    await p.click('[data-testid=tau-basis]');
    const open_ = await box();
    eq(open_.expanded, 'true', 'opened');
    eq(open_.clipped, false, 'the whole text shows');
    await p.click('[data-testid=tau-basis]');
    eq((await box()).clipped, true, 'a second tap closes it');
    await ctx.close();
  });

  await test('at 390 px the families chart labels do not overlap', async () => {
    const { ctx, page: p } = await phonePage(browser, watch);
    await open(p, url, SPS);
    await revealCharts(p);
    await waitMarks(p, 'chart-families', 'Predicted speedup');
    // The x labels as drawn (text, centre, angle and font, recorded by chart-kit): measured
    // here with the same font, adjacent boxes must not intersect along the axis.
    const boxes = await p.$eval('[data-testid=chart-families]', (f) => {
      const labels = JSON.parse(f.dataset.xLabels || '[]');
      const ctx = document.createElement('canvas').getContext('2d');
      return labels.map((l) => {
        ctx.font = l.font;
        const w = ctx.measureText(l.text).width;
        // Rotated text occupies its height across the axis plus w·cos(angle) along it.
        const along = Math.abs(w * Math.cos(l.angle)) + Math.abs(l.size * Math.sin(l.angle));
        return {
          text: l.text,
          x: l.x,
          left: l.x - along / 2,
          right: l.x + along / 2,
          angle: l.angle,
        };
      });
    });
    assert(boxes.length >= 3, `labels recorded: ${boxes.length}`);
    for (let i = 1; i < boxes.length; i += 1)
      assert(
        boxes[i].left >= boxes[i - 1].right || boxes[i].angle !== 0,
        `"${boxes[i - 1].text}" and "${boxes[i].text}" overlap`,
      );
    for (let i = 1; i < boxes.length; i += 1)
      if (boxes[i].angle !== 0) {
        // Rotated labels: their baselines' spacing must exceed the text's height.
        const gap = boxes[i].x - boxes[i - 1].x;
        assert(gap * Math.abs(Math.sin(boxes[i].angle)) >= 10, `rotated labels ${i} too close`);
      }
    await ctx.close();
  });

  // ---- issue 18 item 13: the core's labels, units and words --------------------------------

  await test("families, their settings and Compare rows read as the core's labels, not ids", async () => {
    await open(page, url, SPS);
    const options = await page.$$eval('#f-family option', (o) =>
      o.map((x) => [x.value, x.dataset.label || x.textContent]),
    );
    eq(
      JSON.stringify(options),
      JSON.stringify(methods.map((m) => [m.id, m.label])),
      "family options carry the core's labels",
    );
    for (const m of methods) assert(m.label && m.label !== m.id, `${m.id} has a label: ${m.label}`);
    const sps = methods.find((m) => m.id === 'sps');
    const labels = await page.$$eval('#method-params .field', (fs) =>
      fs.map((f) => [
        f.querySelector('[data-field]').dataset.field,
        f.querySelector('label').textContent,
      ]),
    );
    for (const [field, label] of labels) {
      const key = field.replace(/^method\./, '');
      eq(label, sps.param_labels[key], `label of ${field}`);
      assert(label !== key, `${field} is labelled ${label}`);
    }
    // Compare: A = this, B = EAGLE-3 (no draft model).
    await page.click('[data-testid=compare-start]');
    await page.waitForSelector('[data-testid=compare-table]');
    await page.selectOption('#f-family', 'eagle3');
    await page.waitForFunction(() => /method\.family=eagle3/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (rs) =>
      Object.fromEntries(
        rs.map((r) => [r.dataset.row, [r.cells[1].textContent, r.cells[2].textContent]]),
      ),
    );
    assert(Object.keys(rows).length > 0, 'the compare table shows no row');
    const eagle3 = methods.find((m) => m.id === 'eagle3');
    eq(rows.Method[0], sps.label, 'A: the family label');
    eq(rows.Method[1], eagle3.label, 'B: the family label');
    const a = cliDecode(fragmentOf(page.url()).split('&compare&')[1]);
    eq(
      rows['Method settings'][0],
      Object.entries(a.method)
        .filter(([k]) => k !== 'family')
        .map(([k, v]) => `${sps.param_labels[k]}: ${v}`)
        .join('; '),
      'A: settings as label: value',
    );
    for (const [name, [x, y]] of Object.entries(rows))
      assert(!/[{"]/.test(x + y), `row ${name} shows no raw JSON: ${x} | ${y}`);
    await page.click('[data-testid=compare-stop]');
    await waitQuiet(page);
  });

  await test("Compare's method settings name the engine's knobs, as its form does (vLLM, then SGLang)", async () => {
    // vLLM drafts an EAGLE-3 chain: `list runtimes` says its num_speculative_tokens stands for
    // depth when top_k = 1 (and replaces depth, top_k, total_token), so depth 3 reads
    // "num_speculative_tokens: 3". SGLang has a knob for each of the three.
    await open(page, url, {
      target: 'llama3.1-8b-instruct',
      hardware: 'h100-sxm',
      runtime: 'vllm',
      method: { family: 'eagle3', depth: 3, top_k: 1, total_token: 4 },
    });
    const formFields = () =>
      page.$$eval('#method-params [data-field]', (fs) =>
        fs.filter((f) => f.offsetParent !== null).map((f) => [f.dataset.field, f.value]),
      );
    const formA = await formFields();
    assert(
      formA.some(([f, v]) => f === 'method.num_speculative_tokens' && v === '3'),
      `the form shows vLLM's knob: ${JSON.stringify(formA)}`,
    );
    await page.click('[data-testid=compare-start]');
    await page.waitForSelector('[data-testid=compare-table]');
    await page.selectOption('#f-runtime', 'sglang');
    await page.waitForFunction(
      () => /(^#|&)runtime=sglang(&|$)/.test(location.hash.split('&compare&')[0]),
      null,
      { timeout: 10000 },
    );
    await waitQuiet(page);
    const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (rs) =>
      Object.fromEntries(
        rs.map((r) => [r.dataset.row, [r.cells[1].textContent, r.cells[2].textContent]]),
      ),
    );
    eq(rows['Method settings'][0], 'num_speculative_tokens: 3', "A: in vLLM's knob");
    const b = cliDecode(fragmentOf(page.url()).split('&compare&')[0]).method;
    const knobsB = [
      ['speculative_num_steps', b.depth],
      ['speculative_eagle_topk', b.top_k],
      ['speculative_num_draft_tokens', b.total_token],
    ];
    eq(
      rows['Method settings'][1],
      knobsB.map(([k, v]) => `${k}: ${v}`).join('; '),
      "B: in SGLang's knobs",
    );
    const formB = new Map(await formFields());
    for (const [k, v] of knobsB) eq(formB.get(`method.${k}`), String(v), `B's form shows ${k}`);
    await page.click('[data-testid=compare-stop]');
    await waitQuiet(page);
  });

  await test('assumptions give durations with units and no long floats; the verdict says "pays off" once', async () => {
    for (const config of [
      SPS,
      { ...SPS, method: { family: 'retrieval', k: 8 }, acceptance: { tau: 2 } },
    ]) {
      await open(page, url, config);
      const items = await page.$$eval('[data-testid=assumptions] li', (l) =>
        l.map((x) => x.textContent),
      );
      const expected = cliEvalLink(fragmentOf(page.url())).assumptions;
      eq(JSON.stringify(items), JSON.stringify(expected), "the core's assumptions");
      for (const a of items) {
        assert(!/\d[eE][-+]?\d/.test(a), `no exponent notation: ${a}`);
        assert(!/\d\.\d{5,}/.test(a), `no long float: ${a}`);
        assert(!/\d s\b/.test(a) || !/\d\.\d{4,} s/.test(a), `seconds formatted: ${a}`);
      }
      const engine = items.find((a) => a.startsWith('engine '));
      assert(/ (ns|µs|ms|s)[ ,;)]/.test(engine), `the engine's overheads have units: ${engine}`);
    }
    await open(page, url, SPS);
    const verdict = await page.textContent('[data-testid=verdict]');
    eq((verdict.match(/pays off/g) || []).length, 1, `"pays off" once in: ${verdict}`);
  });

  await test("a verdict the numbers do not settle reads 'probably' with the core's caveat; a settled one does not", async () => {
    // DeepSeek-V3 MTP on SGLang over two 8 x H100 nodes: the engine's own decode of DeepSeek-R1
    // (V3's architecture) there measured 23.2 ms a step where the model predicts ~5 ms (a time
    // check), so the core adds verdict_caveat.
    const ds = {
      target: 'deepseek-v3',
      hardware: 'h100-sxm',
      gpus: 16,
      runtime: 'sglang',
      dtype: { weights: 'fp8' },
      method: { family: 'mtp', k: 1 },
    };
    const link = await open(page, url, ds);
    const want = cliEvalLink(link);
    eq(want.verdict, 'pays', 'the CLI: pays');
    assert(/not trusted/.test(want.verdict_caveat), `the CLI's caveat: ${want.verdict_caveat}`);
    eq(
      await page.textContent('#verdict-head'),
      'Speculation probably pays off, not certainly',
      'head',
    );
    eq(
      await page.textContent('#verdict-reason'),
      `${want.verdict_reason} ${want.verdict_caveat}`,
      "the core's reason, then its caveat",
    );
    eq(await page.$eval('#verdict', (v) => v.dataset.uncertain), 'true', 'marked');
    // SpS with a measured tau far from break-even: no caveat, the plain head.
    const settled = await open(page, url, SPS);
    eq(cliEvalLink(settled).verdict_caveat, undefined, 'the CLI: no caveat');
    eq(await page.textContent('#verdict-head'), 'Speculation pays off', 'head');
    eq(await page.$eval('#verdict', (v) => v.dataset.uncertain), 'false', 'not marked');
  });

  await test('NVL GPUs: the GPU-to-GPU link is the NVLink bridge, not PCIe', async () => {
    // Datasheets (nvidia.com/en-us/data-center/h100, /h200): H100 NVL NVLink 600 GB/s and
    // H200 NVL NVLink 900 GB/s, both bidirectional; per direction that is 300 and 450 GB/s.
    // PCIe Gen5 x16 is 64 GB/s per direction.
    const hw = JSON.parse(cli(['list', 'hardware']));
    eq(hw.find((g) => g.id === 'h100-nvl').interconnect_gbps, 600 / 2, 'H100 NVL link');
    eq(hw.find((g) => g.id === 'h200-nvl').interconnect_gbps, 900 / 2, 'H200 NVL link');
    // And the page prices 2 × H100 NVL with that link: its numbers are the CLI's.
    await open(page, url, { ...SPS, hardware: 'h100-nvl', gpus: 2 });
    await checkAgainstCli(page, '2 × H100 NVL');
  });

  // Two setups that do not fit: Qwen3-32B at 16 bits under llama.cpp on an RTX 5090 (65.5 GB of
  // weights on a 32 GB card: a narrower GGUF fits), and Llama-3.1-8B under vLLM on an H100 at
  // batch 24 and 32k tokens (a 106 GB 16-bit KV cache: fp8 fits).
  const TOO_BIG = [
    {
      target: 'qwen3-32b',
      hardware: 'rtx-5090',
      runtime: 'llama.cpp-cuda',
      dtype: { weights: 'fp16', kv: 'fp16' },
      method: { family: 'sps', draft: 'qwen3-0.6b', k: 3 },
      acceptance: { alpha: 0.7 },
    },
    {
      target: 'llama3.1-8b-instruct',
      hardware: 'h100-sxm',
      runtime: 'vllm',
      batch: 24,
      context: 32768,
      dtype: { weights: 'fp16', kv: 'fp16' },
      method: { family: 'eagle3' },
    },
  ];
  for (const config of TOO_BIG) {
    await test(`${config.target} that does not fit: the core's suggestions, and one press applies the format that fits`, async () => {
      const link = await open(page, url, config);
      const core = cliEvalLink(link);
      eq(core.verdict, 'infeasible', 'the CLI says it does not fit');
      const shown = await page.$$eval('#verdict-suggestions li', (items) =>
        items.map((li) => li.textContent.trim()),
      );
      const { fits_with_weights: weights, fits_with_kv: kv } = core.memory;
      const buttons = [
        ...(weights ? [`Use ${weights} weights`] : []),
        ...(kv ? [`Use ${kv} for the KV cache`] : []),
      ];
      assert(buttons.length === 1, `one format offered, got ${JSON.stringify(buttons)}`);
      eq(
        JSON.stringify(shown),
        JSON.stringify([...core.memory.suggestions, ...buttons]),
        'suggestions as the core gives them',
      );
      await page.click('#verdict-suggestions button');
      const param = weights ? `dtype.weights=${weights}` : `dtype.kv=${kv}`;
      await page.waitForFunction((p) => location.hash.includes(p), param);
      await waitQuiet(page);
      const after = cliEvalLink(fragmentOf(page.url()));
      assert(after.memory.fits, `after "${buttons[0]}" the CLI says it fits`);
      await checkAgainstCli(page, `after "${buttons[0]}"`);
    });
  }

  // ---- issue 23 item 3: charts by their marks, tables by their cells ------------------------

  await test("the roofline draws each pass at the core's intensity and FLOP/s, and each roof through its ridge", async () => {
    const link = await open(page, url, SPS);
    await revealCharts(page);
    await waitMarks(page, 'chart-roofline', 'Roof, effective');
    const r = cliEvalLink(link);
    const marks = await marksOf(page, 'chart-roofline');
    // Each pass under the core's label (r[key].label), at the core's intensity and FLOP/s.
    const PASSES = ['baseline', 'draft', 'verify'];
    for (const key of PASSES)
      samePoints(
        marks[r[key].label],
        [[r[key].arithmetic_intensity, r[key].achieved_flops_per_s]],
        r[key].label,
      );
    for (const roof of r.roofline.roofs) {
      samePoints(marks[roof.label], roof.vertices, roof.label);
      // The ridge by hand: where peak FLOP/s meets bandwidth x intensity.
      const ridge = roof.peak_flops_per_s / roof.bandwidth_bytes_per_s;
      assert(Math.abs(roof.ridge_flops_per_byte - ridge) <= 1e-9 * ridge, `${roof.label} ridge`);
      assert(
        roof.vertices.some(
          ([x, y]) => x === roof.ridge_flops_per_byte && y === roof.peak_flops_per_s,
        ),
        `${roof.label} has its ridge vertex`,
      );
    }
    const painted = await paintedAt(
      page,
      'chart-roofline',
      PASSES.flatMap((key) => marks[r[key].label]),
    );
    eq(painted, 3, 'the three passes are painted on the canvas');
    // The values under the chart: each pass's intensity, FLOP/s and bound as the page formats them.
    sameCells(
      await cellsOf(page, '[data-testid=chart-roofline] [data-testid=chart-values] tbody tr'),
      PASSES.map((key) => [
        r[key].label,
        fmt.intensity(r[key].arithmetic_intensity),
        fmt.si(r[key].achieved_flops_per_s, 'FLOP/s'),
        r[key].bound,
      ]),
      'roofline values',
    );
  });

  await test("the k chart's marks are the core's sweep, and its value table the same numbers", async () => {
    const link = await open(page, url, SPS);
    await revealCharts(page);
    await waitMarks(page, 'chart-k', 'Speedup');
    const spec = methods.find((m) => m.id === 'sps').sweep;
    const out = cliRun('sweep', { config: cliDecode(link), axis: 'method.k', values: spec.values });
    const ok = out.points.filter((p) => !p.error);
    const marks = await marksOf(page, 'chart-k');
    samePoints(
      marks.Speedup,
      ok.map((p) => [p.values[0], p.speedup]),
      'speedup vs k',
    );
    samePoints(
      marks['τ'],
      ok.map((p) => [p.values[0], p.tau]),
      'τ vs k',
    );
    eq(
      await page.$eval('[data-testid=chart-k]', (f) => f.dataset.best),
      String(out.best.values[0]),
      "the core's best k",
    );
    sameCells(
      await cellsOf(page, '[data-testid=chart-k] [data-testid=chart-values] tbody tr'),
      ok.map((p) => [
        String(p.values[0]),
        `${p.speedup.toFixed(2)}×`,
        p.tau.toFixed(2),
        p.fits_in_memory ? 'yes' : 'no',
      ]),
      'k values',
    );
    eq(
      await paintedAt(page, 'chart-k', marks.Speedup),
      marks.Speedup.length,
      'every speedup point is painted',
    );
  });

  await test("the batch chart's marks are the core's sweep at the batches that fit", async () => {
    const link = await open(page, url, { ...SPS, context: 4000 });
    await revealCharts(page);
    await waitMarks(page, 'chart-batch', 'Speedup');
    const batches = JSON.parse(cli(['list', 'ui'])).batch_axis; // what the page sweeps
    const out = cliRun('sweep', { config: cliDecode(link), axis: 'batch', values: batches });
    const fits = out.points.filter((p) => !p.error && p.fits_in_memory);
    assert(fits.length > 0 && fits.length < batches.length, `some batches fit: ${fits.length}`);
    const marks = await marksOf(page, 'chart-batch');
    samePoints(
      marks.Speedup,
      fits.map((p) => [p.values[0], p.speedup]),
      'speedup vs batch',
    );
    samePoints(
      marks['Tokens/s, speculative'],
      fits.map((p) => [p.values[0], p.tokens_per_s]),
      'tokens/s vs batch',
    );
    samePoints(
      marks['Tokens/s, plain'],
      fits.map((p) => [p.values[0], p.baseline_tokens_per_s]),
      'plain tokens/s vs batch',
    );
    eq(
      await paintedAt(page, 'chart-batch', marks.Speedup),
      marks.Speedup.length,
      'every speedup point is painted',
    );
    // The values under the chart name every batch, a dash where it does not fit.
    const ok = out.points.filter((p) => !p.error);
    sameCells(
      await cellsOf(page, '[data-testid=chart-batch] [data-testid=chart-values] tbody tr'),
      ok.map((p) => [
        String(p.values[0]),
        p.fits_in_memory ? `${p.speedup.toFixed(2)}×` : '—',
        p.fits_in_memory ? fmt.rate(p.tokens_per_s) : '—',
        fmt.rate(p.baseline_tokens_per_s),
        p.fits_in_memory ? 'yes' : 'no',
      ]),
      'batch values',
    );
  });

  await test('the families chart draws one bar per family the core evaluates, at its speedup', async () => {
    const link = await open(page, url, SPS);
    await revealCharts(page);
    await waitMarks(page, 'chart-families', 'Predicted speedup');
    // The core's `families`: the user's setup first, then each family at its own acceptance.
    const out = cliRun('families', cliDecode(link));
    const speedups = [out.yours.speedup, ...out.families.map((f) => f.speedup)];
    const marks = await marksOf(page, 'chart-families');
    samePoints(
      marks['Predicted speedup'],
      speedups.map((v, i) => [i, v]),
      'bars',
    );
    // The grey dots: each end of the spread of the data a family's τ comes from.
    const all = [out.yours, ...out.families];
    const spread = (end) =>
      all.flatMap((f, i) => (f.spread ? [[i, f.spread[`speedup_${end}`]]] : []));
    samePoints(marks['Spread (low)'], spread('low'), 'spread, low end');
    samePoints(marks['Spread (high)'], spread('high'), 'spread, high end');
    // The values under the chart (the published column is checked in core-owned.mjs).
    const short = new Map(methods.map((m) => [m.id, m.short_label]));
    const rows = await cellsOf(
      page,
      '[data-testid=chart-families] [data-testid=chart-values] tbody tr',
    );
    sameCells(
      rows.map((r) => r.filter((_, j) => j !== 4)),
      all.map((f, i) => [
        i === 0 ? `yours (${short.get(f.family)})` : short.get(f.family),
        `${f.speedup.toFixed(2)}×`,
        f.tau.toFixed(2),
        f.fits_in_memory ? 'yes' : 'no',
        f.spread
          ? `${fmt.speedupRange(f.spread.speedup_low, f.spread.speedup_high)} ${f.spread.label}`
          : '—',
        f.tau_source,
      ]),
      'families values',
    );
    // The families not shown, each by its short label with the core's reason in a few words
    // (the walk: ~300 words of sources and file paths under the 70B example's one bar).
    const note = await page.textContent('[data-testid=chart-families] .chart-note');
    assert(out.absent.length > 0, 'some family is absent on this setup');
    for (const a of out.absent) {
      assert(note.includes(`${short.get(a.family)} (${a.reason})`), `${a.family} listed: ${note}`);
      if (a.reason.startsWith('no acceptance from data'))
        assert(!/core\/data\/|\.json/.test(a.reason), `the tau card's words: ${a.reason}`);
    }
  });

  await test("the per-pass table shows the CLI's passes cell by cell", async () => {
    const link = await open(page, url, SPS);
    const r = cliEvalLink(link);
    const cells = await page.$$eval('[data-testid=passes] tbody tr', (rs) =>
      rs.map((row) => ({
        pass: row.dataset.pass,
        values: Object.fromEntries(
          [...row.querySelectorAll('td[data-col]')].map((c) => [c.dataset.col, c.dataset.value]),
        ),
        text: [...row.cells].map((c) => c.textContent),
      })),
    );
    eq(cells.map((c) => c.pass).join(','), 'baseline,draft,verify', 'one row per pass');
    for (const c of cells) {
      const p = r[c.pass];
      eq(Number(c.values['time-per-cycle']), p.time_s, `${c.pass}: time per cycle`);
      if (p.bound === 'none') continue;
      eq(Number(c.values['time-per-pass']), p.time_per_pass_s, `${c.pass}: time per pass`);
      eq(Number(c.values['bytes-per-pass']), p.bytes_per_pass, `${c.pass}: bytes per pass`);
      eq(Number(c.values['flops-per-pass']), p.flops_per_pass, `${c.pass}: FLOPs per pass`);
      eq(c.text[2], String(p.passes_per_cycle), `${c.pass}: passes per cycle`);
      eq(c.text[4], String(p.tokens_per_pass), `${c.pass}: tokens per pass`);
      assert(c.text[8].startsWith(p.bound), `${c.pass}: bound ${c.text[8]} vs ${p.bound}`);
    }
  });

  await test("draft presets with another tokenizer are greyed out with the core's reason; each one left evaluates, each greyed one the CLI refuses", async () => {
    const qwen = {
      target: 'qwen3-8b',
      hardware: 'h100-sxm',
      method: { family: 'sps', draft: 'qwen3-0.6b' },
    };
    await open(page, url, qwen);
    const options = await page.$$eval('select[data-field="method.draft"] option', (os) =>
      os.filter((o) => o.value !== '__custom__').map((o) => [o.value, o.disabled, o.textContent]),
    );
    const reasons = cliRun('eval', qwen).engine.supports.unavailable_drafts;
    const with_ = (draft) => JSON.stringify({ ...qwen, method: { family: 'sps', draft } });
    let greyed = 0;
    for (const [id, disabled, label] of options) {
      // The CLI's own validation, not the list: a greyed draft is refused for its vocabulary.
      const refused = cliError(['eval', '--config', '-'], with_(id));
      if (disabled) {
        greyed += 1;
        assert(
          label.endsWith(`(${reasons[id]})`),
          `${id}: label "${label}", reason "${reasons[id]}"`,
        );
        assert(
          /^speccalc: error: method\.draft: .*must share the target's tokenizer/.test(refused),
          `${id}: ${refused}`,
        );
      } else eq(refused, '', `${id} is offered and evaluates`);
    }
    // Qwen3's tokenizer: the Llama, OPT and Gemma drafts are out, the two Qwen3 drafts in.
    assert(greyed >= 6 && options.length - greyed === 2, `${greyed} of ${options.length} greyed`);
  });

  await test("a draft model's shape: the best tree of the chain's nodes and depth, as the core carries it, at the CLI's speedup; no shape on vLLM", async () => {
    const eager = { ...SPS, hardware: 'a100-80gb-pcie', runtime: 'hf-eager' };
    await open(page, url, eager);
    const shapes = methods.find((m) => m.id === 'sps').shapes;
    const options = await page.$$eval('#f-method-shape option', (os) =>
      os.map((o) => [o.value, o.textContent]),
    );
    eq(
      JSON.stringify(options),
      JSON.stringify(shapes.map((s) => [s.id, s.label])),
      "the core's shapes",
    );
    eq(await page.inputValue('#f-method-shape'), 'chain', 'a config with k is a chain');
    await page.selectOption('#f-method-shape', 'tree');
    await page.waitForFunction(() => /method\.tree_size=/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    // SPS drafts k = 4: the best tree of 4 draft nodes, depth at most 4, as the core's carry says.
    const want = cliRun('carry', {
      config: { ...eager, method: { ...eager.method, shape: 'tree' } },
      changed: 'method.shape',
      previous: eager,
    });
    eq(
      JSON.stringify(cliDecode(fragmentOf(page.url())).method),
      JSON.stringify(want.config.method),
      'the carried method',
    );
    eq(want.config.method.tree_size, 4, 'as many nodes as the chain');
    eq(await page.inputValue('#f-method-shape'), 'tree', 'the shape shown');
    assert(
      (await page.textContent('[data-testid=carry-notes]')).includes(want.notes[0]),
      "the core's note",
    );
    await checkAgainstCli(page, 'the best tree');
    await open(page, url, { ...eager, runtime: 'vllm' });
    eq(await page.$('#f-method-shape'), null, 'vLLM drafts a draft model as a chain: no shape');
  });

  await test("the draft's engine is a choice among the core's engines, the engine's own by default, and Sequoia's graphs price the CLI's draft pass", async () => {
    // Sequoia's setup: an eager target whose draft runs in CUDA graphs. The draft's engine is
    // chosen by name from `list runtimes`, never typed as an id; left at the engine's own, the
    // link does not carry it.
    const sequoia = { ...SPS, hardware: 'a100-80gb-pcie', runtime: 'hf-eager' };
    await open(page, url, sequoia);
    const field = () =>
      page.$eval('[data-field="method.draft_runtime"]', (n) => ({
        tag: n.tagName,
        value: n.value,
        options: [...n.options].map((o) => o.value),
        labels: [...n.options].map((o) => o.textContent),
        disabled: [...n.options].map((o) => o.disabled),
      }));
    const engines = JSON.parse(cli(['list', 'runtimes']));
    let f = await field();
    eq(f.tag, 'SELECT', 'the draft runtime field');
    eq(
      f.options.join(','),
      ['', ...engines.map((e) => e.id)].join(','),
      "the engine's own, then the core's engines",
    );
    // Each by name; those the core says the draft cannot run under here greyed out, with why.
    const noRun = cliRun('eval', sequoia).engine.supports.unavailable_draft_runtimes;
    const why = (e) => (noRun[e.id] ? ` (${noRun[e.id]})` : '');
    eq(
      f.labels.join('|'),
      ["The engine's own", ...engines.map((e) => e.name + why(e))].join('|'),
      'shown by name',
    );
    eq(
      f.disabled.join(','),
      [false, ...engines.map((e) => e.id in noRun)].join(','),
      "the greyed-out runtimes are the core's",
    );
    assert(Object.keys(noRun).length >= 4, `the local engines are out: ${JSON.stringify(noRun)}`);
    eq(f.value, '', "the engine's own selected");
    assert(!/draft_runtime/.test(page.url()), `no draft runtime in the link: ${page.url()}`);
    await page.selectOption('[data-field="method.draft_runtime"]', 'hf-graphs');
    await page.waitForFunction(() => /method\.draft_runtime=hf-graphs/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    f = await field();
    eq(f.value, 'hf-graphs', 'the choice kept after the core answers');
    await checkAgainstCli(page, 'draft under hf-graphs');
    const r = cliEvalLink(fragmentOf(page.url()));
    const shownPass = await page.$eval(
      '[data-testid=passes] tr[data-pass=draft] td[data-col=time-per-pass]',
      (c) => Number(c.dataset.value),
    );
    eq(shownPass, r.draft.time_per_pass_s, "the draft's time per pass");
    // Hand check (tests/core/graph_research_code_test.cpp): 100 unfused kernels at 2.5 us.
    assert(shownPass > 0.3e-3, `a 68M pass in graphs costs its kernels' floor: ${shownPass}`);
    // A runtime the setup cannot take is greyed out (above); the CLI refuses it at that field.
    const refused = { ...sequoia, method: { ...sequoia.method, draft_runtime: 'llama.cpp-metal' } };
    const expected = cliError(['eval', '--config', '-'], JSON.stringify(refused));
    assert(
      /^speccalc: error: method\.draft_runtime: /.test(expected),
      `the CLI refuses it: ${expected}`,
    );
    f = await field();
    assert(f.disabled[f.options.indexOf('llama.cpp-metal')], 'llama.cpp (Metal) cannot be chosen');
    await page.selectOption('[data-field="method.draft_runtime"]', '');
    await page.waitForFunction(() => !/draft_runtime/.test(location.hash), null, {
      timeout: 10000,
    });
    await waitQuiet(page);
    await checkAgainstCli(page, "back to the engine's own");
  });

  await page.close();
}
