// Accessibility (issue 12): axe-core (node_modules/axe-core) run inside the page at desktop and
// 390 px phone width (and dark at desktop), with every lazy section shown, the validation view
// drawn and every <details> open, and again with a stale (dimmed) result after an invalid edit
// (a workload config: the speedup band shown). No serious or critical violation is allowed.
// axe is evaluated over the DevTools protocol (page.evaluate), which the page's CSP does not
// govern: an injected <script> (addScriptTag) is refused by script-src 'self'.
// Run from run.mjs; `node tests/browser/a11y.mjs` runs it alone (after scripts/build.sh).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { test, assert, cliLink, waitQuiet, counts, revealCharts } from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BLOCKING = new Set(['serious', 'critical']);
// WCAG 2.1 A and AA plus axe's best practices (scrollable-region-focusable, landmarks, ...).
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const CONFIG = {
  target: 'llama2-chat-7b',
  hardware: 'a100-80gb-sxm',
  method: { family: 'sps', draft: 'llama-68m', k: 4 },
  acceptance: { alpha: 0.7 },
  // The under-load view with its schedule table (the walk: it widened the page at 390 px).
  load: { rate_rps: 2, workload: 'sharegpt' },
};
// A workload acceptance: the speedup band is shown beside the speedup, the form's definition
// under its input.
const BAND = {
  target: 'llama3.1-8b-instruct',
  hardware: 'h100-sxm',
  method: { family: 'pld', k: 4 },
  acceptance: { workload: 'sharegpt' },
};

// Runs axe on the whole document; returns the violations of impact serious or critical as
// "rule (impact): target, target, ..." lines, and the count of every violation by impact.
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof globalThis.axe === 'object'))) {
    await page.evaluate(AXE_SOURCE);
  }
  const result = await page.evaluate(
    (tags) =>
      globalThis.axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((r) =>
          r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            targets: v.nodes.map((n) => n.target.join(' ')),
          })),
        ),
    TAGS,
  );
  const byImpact = {};
  for (const v of result) byImpact[v.impact] = (byImpact[v.impact] || 0) + v.targets.length;
  const blocking = result
    .filter((v) => BLOCKING.has(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 4).join(', ')}`);
  return { blocking, byImpact, all: result };
}

// Every lazy section in view until it has drawn (charts and tree, sizing, published table):
// each starts when it first comes into view, so the next scroll waits for it.
async function showEverything(page) {
  await revealCharts(page);
  await page.evaluate(() => document.querySelector('#sizing-view').scrollIntoView());
  await page.waitForFunction(
    () => ['done', 'error'].includes(document.querySelector('[data-testid=sizing]').dataset.state),
    null,
    { timeout: 60000 },
  );
  await page.evaluate(() => document.querySelector('#load-view').scrollIntoView());
  await page.waitForSelector('[data-testid=load-schedule] tbody tr', { timeout: 60000 });
  await page.evaluate(() => document.querySelector('#data-view').scrollIntoView());
  await page.waitForSelector('[data-testid=published-table]', { timeout: 60000 });
  await waitQuiet(page);
}

async function openDetails(page) {
  await page.$$eval('details', (d) =>
    d.forEach((x) => {
      x.open = true;
    }),
  );
  await page.waitForTimeout(100);
}

function report(label, found) {
  const summary = Object.entries(found.byImpact)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(`     axe ${label}: ${summary || 'no violations'}`);
  if (process.env.SPECCALC_AXE_VERBOSE)
    for (const v of found.all) console.log(`       ${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

export async function a11yTests({ browser, url, watch }) {
  for (const [name, viewport, colorScheme] of [
    ['desktop', { width: 1280, height: 800 }, 'light'],
    ['phone', { width: 390, height: 844 }, 'light'],
    ['dark desktop', { width: 1280, height: 800 }, 'dark'],
  ]) {
    await test(`axe: no serious or critical violation at ${name} width (${viewport.width} px), every section shown`, async () => {
      const ctx = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
      const page = await ctx.newPage();
      watch(page);
      try {
        await page.goto(`${url}#${cliLink(CONFIG)}`);
        await waitQuiet(page);
        await showEverything(page);
        // The validation view (scatter, per-source errors, rows not predicted) is part of the page.
        await page.click('[data-testid=reproduce-button]');
        await page.waitForSelector('[data-testid=validation-scatter]', { timeout: 120000 });
        await waitQuiet(page);
        await openDetails(page);
        const over = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        assert(over <= 0, `the page is ${over}px wider than ${viewport.width} px`);
        const found = await axeViolations(page);
        report(`${name}, every section`, found);
        assert(
          found.blocking.length === 0,
          `violations:\n       ${found.blocking.join('\n       ')}`,
        );
      } finally {
        await ctx.close();
      }
    });

    await test(`axe: the stale (dimmed) result after an invalid edit passes at ${name} width`, async () => {
      const ctx = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
      const page = await ctx.newPage();
      watch(page);
      try {
        await page.goto(`${url}#${cliLink(BAND)}`);
        await waitQuiet(page);
        assert(
          !(await page.$eval('[data-testid=speedup-band]', (n) => n.hidden)),
          'the band is shown',
        );
        await page.fill('[data-testid=batch]', '0');
        await page.press('[data-testid=batch]', 'Tab');
        await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
        await waitQuiet(page);
        assert(
          await page.$eval('#results', (r) => r.classList.contains('is-stale')),
          'the result is marked stale',
        );
        await openDetails(page);
        const found = await axeViolations(page);
        report(`${name}, stale result`, found);
        assert(
          found.blocking.length === 0,
          `violations:\n       ${found.blocking.join('\n       ')}`,
        );
      } finally {
        await ctx.close();
      }
    });
  }
}

// Alone: serve dist/, start Chromium, run these tests only.
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import('../../scripts/serve.mjs');
  const { CHROMIUM_ARGS } = await import('./browser.mjs');
  const { DIST } = await import('./lib.mjs');
  const { server, url } = await startServer({ root: DIST, port: 0 });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  await a11yTests({ browser, url, watch: () => {} });
  await browser.close();
  server.close();
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed ? 1 : 0);
}
