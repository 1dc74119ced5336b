// Shared by the browser test files: the harness (test / assert / eq and the pass-fail count),
// the native CLI the page is checked against, and waits on the page's quiet state.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitQuiet } from './browser.mjs';

export const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const DIST = path.resolve(repo, process.env.SPECCALC_DIST || 'dist');
export const CLI = path.resolve(repo, process.env.SPECCALC_CLI || 'build/native/speccalc');

// The page's display format (web/js/format.mjs): speedup with 2 decimals and "×", tau with 2.
export const showSpeedup = (x) => `${x.toFixed(2)}×`;

// DeepSeek-V3 with its MTP module on 8 x H200 under vLLM (fp8, k = 1): the MoE setup several
// browser tests walk.
export const DEEPSEEK_MTP = {
  target: 'deepseek-v3',
  hardware: 'h200-sxm',
  gpus: 8,
  runtime: 'vllm',
  dtype: { weights: 'fp8' },
  method: { family: 'mtp', k: 1 },
};
export const showTau = (x) => x.toFixed(2);

export const counts = { passed: 0, failed: 0 };
// SPECCALC_BROWSER_ONLY="a|b": run only the tests whose name contains one of the parts;
// SPECCALC_BROWSER_FILTER=text: only those whose name contains it.
// A group name that run.mjs runs whole (user-path) is not a name filter.
const GROUPS = ['user-path'];
const ONLY = GROUPS.includes(process.env.SPECCALC_BROWSER_ONLY)
  ? []
  : (process.env.SPECCALC_BROWSER_ONLY || '').split('|').filter(Boolean);
const FILTER = process.env.SPECCALC_BROWSER_FILTER || '';
export async function test(name, fn) {
  if (ONLY.length && !ONLY.some((part) => name.includes(part))) return;
  if (FILTER && !name.includes(FILTER)) return;
  try {
    await fn();
    counts.passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    counts.failed += 1;
    console.log(
      `FAIL ${name}\n     ${String(e && e.stack ? e.stack : e)
        .split('\n')
        .slice(0, 4)
        .join('\n     ')}`,
    );
  }
}
export function assert(cond, message) {
  if (!cond) throw new Error(message);
}
export function eq(actual, expected, what) {
  assert(
    actual === expected,
    `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
  );
}

export function cli(args, input) {
  return execFileSync(CLI, args, {
    input,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
// The CLI's error text (stderr, trimmed) for input it refuses; '' when it accepts it.
export function cliError(args, input) {
  try {
    cli(args, input);
  } catch (e) {
    return String(e.stderr).trim();
  }
  return '';
}
// Types `text` into `selector`, leaves the field and returns the field error the page shows.
export async function typeForError(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Tab');
  await page.waitForSelector('[data-testid=field-error]', { timeout: 10000 });
  return page.$eval('[data-testid=field-error]', (e) => e.textContent);
}
export function cliLink(config) {
  return cli(['link', '--config', '-'], JSON.stringify(config)).trim().replace(/^#/, '');
}
export function cliEvalLink(link) {
  return JSON.parse(cli(['eval', '--link', link]));
}

// `speccalc run <command> -` with a JSON input, parsed.
export function cliRun(command, input) {
  return JSON.parse(cli(['run', command, '-'], JSON.stringify(input)));
}

// Opens the page at a config's link and waits until it is quiet; returns the link.
export async function openConfig(page, url, config) {
  const link = cliLink(config);
  await page.goto(`${url}#${link}`);
  // A new fragment on the same page arrives as a hashchange: wait until the page has evaluated
  // it (the controller's data-fragment) before waiting for quiet, or "quiet" may be the previous
  // link's. A link the page shows under another canonical form times out here and falls back.
  await page
    .waitForFunction((l) => document.documentElement.dataset.fragment === l, link, {
      timeout: 10000,
    })
    .catch(() => {});
  await waitQuiet(page);
  return link;
}

// A fresh phone-sized page (390 x 844, as the issues measure), watched like the others.
export async function phonePage(browser, watch) {
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
  });
  const page = await ctx.newPage();
  watch(page);
  return { ctx, page };
}

export function cliDecode(link) {
  return JSON.parse(cli(['run', 'decode-link', '-'], `#${link}`));
}

export { waitQuiet };

// The charts and the tree panel draw when the reader scrolls to them (issue 14: they are not
// part of the first load): scroll there and wait until the roofline has been drawn (with or
// without points: what was drawn is for each test's marks check to say).
export async function revealCharts(page) {
  await page.evaluate(() => document.querySelector('#charts-view').scrollIntoView());
  await page
    .waitForFunction(
      () => document.querySelector('[data-testid=chart-roofline]')?.dataset.points !== undefined,
      null,
      { timeout: 60000 },
    )
    .catch(() => {
      throw new Error('the charts were not drawn within 60 s of scrolling to them');
    });
  await waitQuiet(page);
}

export function fragmentOf(url) {
  const i = url.indexOf('#');
  return i < 0 ? '' : url.slice(i + 1);
}

export async function shownResult(page) {
  return page.evaluate(() => {
    const s = document.querySelector('[data-testid=speedup]');
    const t = document.querySelector('[data-testid=tau]');
    return {
      speedupText: s.textContent,
      speedup: s.dataset.value,
      tauText: t.textContent,
      tau: t.dataset.value,
    };
  });
}

export async function checkAgainstCli(page, what) {
  const link = fragmentOf(page.url());
  const expected = cliEvalLink(link);
  const shown = await shownResult(page);
  eq(shown.speedupText, showSpeedup(expected.speedup), `${what}: shown speedup`);
  eq(Number(shown.speedup), expected.speedup, `${what}: full-precision speedup`);
  eq(shown.tauText, showTau(expected.tau), `${what}: shown tau`);
  eq(Number(shown.tau), expected.tau, `${what}: full-precision tau`);
}

// ---- Views by what they draw (issue 23 item 3) --------------------------------------------
// A chart is checked by its marks (chart-kit's `data-marks`: per series label, the [x, y, cx, cy]
// of every point uPlot placed inside the plot, plus the hand-drawn dots and markers), a table
// by its cells. An expected list is never empty, so an empty view can never pass.

// The figure's drawn marks: {series label: [[x, y, cx, cy], ...]}.
export async function marksOf(page, testid) {
  const text = await page.$eval(`[data-testid=${testid}]`, (f) => f.dataset.marks || '{}');
  return JSON.parse(text);
}

// Points equal in value (both sides are the core's doubles through JSON: exact), in order.
export function samePoints(shown, expected, what) {
  assert(expected.length > 0, `${what}: the core gives no point to compare with`);
  eq((shown || []).length, expected.length, `${what}: marks drawn`);
  expected.forEach(([x, y], i) => {
    eq(shown[i][0], x, `${what}: mark ${i} x`);
    eq(shown[i][1], y, `${what}: mark ${i} y`);
  });
}

// Until the figure has drawn marks of `series`.
export async function waitMarks(page, testid, series) {
  await page
    .waitForFunction(
      ([t, s]) => {
        const m = document.querySelector(`[data-testid=${t}]`)?.dataset.marks;
        return m && (JSON.parse(m)[s] || []).length > 0;
      },
      [testid, series],
      { timeout: 60000 },
    )
    .catch(() => {
      throw new Error(`${testid}: no "${series}" mark drawn within 60 s`);
    });
}

// How many of the marks the canvas shows as something other than the plot's background at
// their centre.
export async function paintedAt(page, testid, points) {
  return page.$eval(
    `[data-testid=${testid}] canvas`,
    (c, pts) => {
      const ctx = c.getContext('2d');
      const bg = ctx.getImageData(1, 1, 1, 1).data;
      return pts.filter(([, , cx, cy]) => {
        const d = ctx.getImageData(cx, cy, 1, 1).data;
        return d[3] > 0 && (d[0] !== bg[0] || d[1] !== bg[1] || d[2] !== bg[2] || d[3] !== bg[3]);
      }).length;
    },
    points,
  );
}

// The text of every body cell (th and td) of the rows `rows` selects: [[cell, ...], ...].
export async function cellsOf(page, rows) {
  return page.$$eval(rows, (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
}

// Rows of cells equal to the expected text, row by row and cell by cell.
export function sameCells(shown, expected, what) {
  assert(expected.length > 0, `${what}: the core gives no row to compare with`);
  eq(shown.length, expected.length, `${what}: rows`);
  expected.forEach((row, i) => {
    eq(shown[i].length, row.length, `${what}: cells in row ${i}`);
    row.forEach((text, j) => eq(shown[i][j], text, `${what}: row ${i} cell ${j}`));
  });
}

// ---- Screenshots that show their views ---------------------------------------------------
// What a screenshot may hold and how much each draws: a chart its marks, a drawn tree its
// nodes, a table its body rows, a stacked bar its segments at least a pixel wide, an output the
// core's value.
const VIEWS = [
  ['figure.chart', 'chart'],
  ['.tree-drawing', 'tree'],
  ['table:not(.u-legend)', 'table'], // uPlot's legend lists series, drawn or not
  ['.stack', 'bar'],
  ['output', 'output'],
];

// Every view that is rendered inside `region` (document pixels) with what it draws; `required`
// selectors are reported even when they are missing or outside the region.
async function viewsIn(page, region, required) {
  return page.evaluate(
    ([views, r, req]) => {
      // The part of an element a screenshot shows: its box cut by every ancestor that clips
      // (a scrolling table wrap), none when it or an ancestor is hidden (a closed <details>).
      const box = (n) => {
        const none = { x: 0, y: 0, width: 0, height: 0 };
        if (n.checkVisibility && !n.checkVisibility({ visibilityProperty: true })) return none;
        const b = n.getBoundingClientRect();
        let [left, top, right, bottom] = [b.left, b.top, b.right, b.bottom];
        // The page's own scrolling (html, body) is the screenshot's, not a clip.
        for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) {
          const st = getComputedStyle(a);
          if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
          const c = a.getBoundingClientRect();
          left = Math.max(left, c.left);
          top = Math.max(top, c.top);
          right = Math.min(right, c.right);
          bottom = Math.min(bottom, c.bottom);
        }
        if (right <= left || bottom <= top) return none;
        return { x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top };
      };
      const inside = (b) =>
        b.width > 0 &&
        b.height > 0 &&
        b.x < r.x + r.width &&
        b.x + b.width > r.x &&
        b.y < r.y + r.height &&
        b.y + b.height > r.y;
      const drawn = (n, kind) => {
        if (kind === 'chart')
          return Object.values(JSON.parse(n.dataset.marks || '{}')).reduce(
            (a, p) => a + p.length,
            0,
          );
        if (kind === 'tree') return n.querySelectorAll('circle').length;
        if (kind === 'table')
          return [...n.tBodies]
            .flatMap((b) => [...b.rows])
            .filter((row) => row.textContent.trim() !== '').length;
        if (kind === 'bar')
          return [...n.querySelectorAll('[data-part]')].filter(
            (c) => c.getBoundingClientRect().width >= 1,
          ).length;
        // An output holds the core's number in data-value (its text may say "does not fit").
        return n.dataset.value !== undefined && n.textContent.trim() !== '' ? 1 : 0;
      };
      const name = (n) =>
        n.dataset.testid ||
        n.id ||
        n.closest('[data-testid]')?.dataset.testid ||
        n.closest('[id]')?.id ||
        n.tagName.toLowerCase();
      const found = [];
      for (const [selector, kind] of views)
        for (const n of document.querySelectorAll(selector))
          if (inside(box(n))) found.push({ kind, name: name(n), drawn: drawn(n, kind) });
      // A required element that is none of the views above (a summary line) must hold text.
      const missing = [];
      for (const s of req) {
        const nodes = [...document.querySelectorAll(s)].filter((n) => inside(box(n)));
        if (!nodes.length) missing.push(s);
        for (const n of nodes)
          if (!views.some(([v]) => n.matches(v)))
            found.push({ kind: 'text', name: s, drawn: n.textContent.trim() ? 1 : 0 });
      }
      return { found, missing };
    },
    [VIEWS, region, required],
  );
}

// Names of the screenshots written in this run, each after its views were checked.
export const shotsTaken = new Set();

// Writes `file` (a PNG) of the element `selector`, of `clip` (document pixels) or of the
// viewport, after checking that it holds at least one view, that every view in it draws
// something (marks, nodes, rows, segments, a value) and that each `require`d selector is in it.
// Throws, writing nothing, otherwise.
export async function screenshotWithViews(page, file, { selector, clip, require = [] } = {}) {
  // Scrolling may bring a lazy section into view (the published table, which redraws the
  // charts with its dots): the shot waits until the page is quiet again.
  if (selector) await page.locator(selector).scrollIntoViewIfNeeded();
  await waitQuiet(page);
  const region = selector
    ? await page.$eval(selector, (n) => {
        const b = n.getBoundingClientRect();
        return { x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height };
      })
    : clip ||
      (await page.evaluate(() => ({
        x: scrollX,
        y: scrollY,
        width: innerWidth,
        height: innerHeight,
      })));
  const { found, missing } = await viewsIn(page, region, require);
  const shot = path.basename(file);
  eq(missing.length, 0, `${shot}: required views not in the shot (${missing.join(', ')})`);
  assert(found.length > 0, `${shot}: no chart, table, tree, bar or output in the shot`);
  const empty = found.filter((v) => v.drawn === 0);
  eq(
    empty.map((v) => `${v.kind} ${v.name}`).join(', '),
    '',
    `${shot}: views in the shot that draw nothing`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (selector) await page.locator(selector).screenshot({ path: file });
  else if (clip) await page.screenshot({ path: file, clip, fullPage: true });
  else await page.screenshot({ path: file });
  shotsTaken.add(path.basename(file, '.png'));
  console.log(`     ${shot}: ${found.map((v) => `${v.name} ${v.drawn}`).join(', ')}`);
  return found;
}

// The drawn tree in `box`: per circle, the node's path, its probability and its label.
export async function treeDrawn(page, box) {
  return page.$$eval(`${box} circle`, (cs) =>
    cs.map((c) => ({
      path: c.dataset.path,
      p: c.dataset.p === undefined ? null : Number(c.dataset.p),
      label: c.nextElementSibling?.tagName === 'text' ? c.nextElementSibling.textContent : null,
    })),
  );
}

// The root, then one node per path of `choices` in order, each drawn with the core's
// probability `prob[i]` and labelled with it as a whole percentage.
export function sameTree(drawn, choices, prob, what) {
  assert(choices.length > 0, `${what}: the core gives no node to compare with`);
  eq(drawn.length, choices.length + 1, `${what}: nodes drawn (the root and one per path)`);
  eq(drawn[0].path, '', `${what}: the root first`);
  choices.forEach((c, i) => {
    const d = drawn[i + 1];
    eq(d.path, c.join(','), `${what}: node ${i} path`);
    eq(d.p, prob[i], `${what}: node ${i} probability`);
    eq(d.label, `${(prob[i] * 100).toFixed(0)}%`, `${what}: node ${i} label`);
  });
}
