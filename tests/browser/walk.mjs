// Issue 18's scripted walk: three questions people bring, each answered from the landing page
// by setting every field once (no field typed twice), with no error shown on the way, ending
// on a result that is the native CLI's on the same link and a setup that fits.
// Run from run.mjs (same server, browser and watchers); alone: SPECCALC_BROWSER_ONLY=walk.
import { test, assert, eq, cliEvalLink, waitQuiet, fragmentOf, checkAgainstCli } from './lib.mjs';

// Each step: [selector, value] — a <select> gets selectOption, an <input> gets fill.
const WALKS = [
  {
    question: 'does EAGLE-3 pay off for Llama-3.1-70B on 4×H100 under vLLM at batch 32?',
    steps: [
      ['#f-target', 'llama3.1-70b-instruct'],
      ['#f-gpus', '4'],
      ['#f-batch', '32'],
      ['#f-runtime', 'vllm'],
      ['#f-family', 'eagle3'],
    ],
    expect: { target: 'llama3.1-70b-instruct', gpus: 4, batch: 32, family: 'eagle3' },
  },
  {
    question: 'DeepSeek-V3 with its MTP module on 8×H200',
    steps: [
      ['#f-target', 'deepseek-v3'],
      ['#f-hardware', 'h200-sxm'],
      ['#f-gpus', '8'],
      ['#f-family', 'mtp'],
    ],
    expect: { target: 'deepseek-v3', gpus: 8, family: 'mtp', hardware: 'h200-sxm' },
  },
  {
    question: 'a consumer GPU (RTX 4090) with a small draft model',
    steps: [
      ['#f-hardware', 'rtx-4090'],
      ['#f-family', 'sps'],
    ],
    expect: { hardware: 'rtx-4090', family: 'sps' },
  },
];

async function shownErrors(page) {
  return page.$$eval('[data-testid=field-error], #form-error:not([hidden])', (nodes) =>
    nodes.map((n) => n.textContent.trim()).filter(Boolean),
  );
}

async function setField(page, selector, value) {
  const tag = await page.$eval(selector, (e) => e.tagName);
  if (tag === 'SELECT') await page.selectOption(selector, value);
  else {
    await page.fill(selector, value);
    await page.press(selector, 'Tab'); // leave the field as a person would
  }
  // The edit is debounced (300 ms), then the core runs: wait for the URL and the page to settle.
  await page.waitForTimeout(400);
  await waitQuiet(page);
}

export async function walkTests({ url, newPage }) {
  for (const walk of WALKS) {
    await test(`walk from the landing page: ${walk.question}`, async () => {
      const page = await newPage();
      await page.goto(url);
      await waitQuiet(page);
      for (const [selector, value] of walk.steps) {
        await setField(page, selector, value);
        const errors = await shownErrors(page);
        eq(
          errors.length,
          0,
          `errors shown after setting ${selector} = ${value}: ${errors.join(' | ')}`,
        );
        const stale = await page.$eval('#results', (e) => e.classList.contains('is-stale'));
        assert(!stale, `the result went stale after ${selector} = ${value}`);
      }
      // Every field set once is what the link now holds (nothing had to be typed again).
      const result = cliEvalLink(fragmentOf(page.url()));
      const c = result.config;
      const got = {
        target: typeof c.target === 'string' ? c.target : c.target?.id,
        gpus: c.gpus,
        batch: c.batch,
        family: c.method.family,
        hardware: typeof c.hardware === 'string' ? c.hardware : c.hardware?.id,
      };
      for (const [k, v] of Object.entries(walk.expect)) eq(got[k], v, `the link's ${k}`);
      assert(result.memory.fits, `the answer fits in memory (${result.verdict_reason})`);
      assert(result.verdict !== 'infeasible', `verdict ${result.verdict}`);
      await checkAgainstCli(page, walk.question);
      await page.close();
    });
  }
}
