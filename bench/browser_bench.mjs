// The page in headless Chromium (playwright-core, /usr/bin/chromium), served from 127.0.0.1 by
// scripts/serve.mjs exactly as `npm start` serves dist/ (precompressed files, cache headers):
//   - first result: ms from navigation start until [data-testid="speedup"] shows a value
//     (a MutationObserver installed before the page's scripts records performance.now()),
//     fresh browser context (empty cache) each run; also first contentful paint;
//   - transfer: every response of the first run, counted by the server (the worker's requests
//     included), as gzip bytes (each file's .gz) and as bytes sent; and a second visit;
//   - sweep: the 10,000-point sweep from bench/cases.json through the page's own door to the
//     core (web/js/worker/client.mjs: the page's worker), and through the shipped
//     speccalc-api.mjs on the main thread, plus the main thread's longest frame gap while the
//     worker runs it;
//   - every case of bench/cases.json on the page's main thread, through the shipped modules'
//     synchronous run() (the same door bench/wasm_bench.mjs times in Node), wall time: the
//     WASM / native ratio where the page runs, beside Node's.
// Usage: node bench/browser_bench.mjs [DIST_DIR] [--out FILE]
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';
import { CHROMIUM_ARGS, waitQuiet } from '../tests/browser/browser.mjs';
import { readCases } from './cases.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : null;
const dist = path.resolve(args[0] || 'dist');
const RUNS = 5;
const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8'));
const shipped = (name) => `/${manifest[name]}`;

// Installed before any page script: records when the speedup output first shows a value.
function watchFirstResult() {
  const check = () => {
    const el = document.querySelector('[data-testid="speedup"]');
    const t = el && el.textContent.trim();
    if (t && t !== '—' && window.__firstResultMs === undefined)
      window.__firstResultMs = performance.now();
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  });
}

const gzipSize = (rel, sent) => {
  try {
    return fs.statSync(
      `${path.join(dist, rel === '/' ? 'index.html' : decodeURIComponent(rel))}.gz`,
    ).size;
  } catch {
    return sent;
  }
};

const { server, url } = await startServer({ root: dist, port: 0 });
let log = [];
server.on('request', (req, res) =>
  res.on('finish', () => {
    const rel = new URL(req.url, url).pathname;
    const sent = Number(res.getHeader('content-length') || 0);
    log.push({
      name: rel,
      status: res.statusCode,
      sent,
      gzip: res.statusCode === 200 ? gzipSize(rel, sent) : 0,
    });
  }),
);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const sweepCase = readCases().cases.find((c) => c.name === 'sweep/10000');
const sweepText = JSON.stringify(sweepCase.input);
const result = {
  chromium: browser.version(),
  first_result_ms: [],
  first_contentful_paint_ms: [],
  core_ready_ms: [],
  sweep_main_ms: [],
  sweep_worker_ms: [],
};
try {
  for (let run = 0; run < RUNS; ++run) {
    const context = await browser.newContext(); // fresh cache: every run downloads everything
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(watchFirstResult);
    log = [];
    await page.goto(url);
    await page.waitForFunction(() => window.__firstResultMs !== undefined, null, {
      timeout: 30000,
    });
    result.first_result_ms.push(await page.evaluate(() => window.__firstResultMs));
    result.first_contentful_paint_ms.push(
      await page.evaluate(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      ),
    );
    // When the worker said the module is instantiated (web/js/worker/client.mjs marks it).
    result.core_ready_ms.push(
      await page.evaluate(
        () => performance.getEntriesByName('speccalc-core-ready')[0]?.startTime ?? null,
      ),
    );
    if (run === 0) {
      await waitQuiet(page);
      await page.waitForLoadState('networkidle');
      result.transfer = log;
      log = [];
      await page.goto(url);
      await waitQuiet(page);
      await page.waitForLoadState('networkidle');
      result.revisit = log;
      log = []; // the sweeps below fetch the full module: not part of the second visit
      // Through the page's own door: the page's worker (same module instance as the page).
      result.sweep_worker_ms = await page.evaluate(
        async ({ text, runs, client }) => {
          const { coreText } = await import(client);
          await coreText('sweep', text); // warm-up
          const times = [];
          let maxGap = 0;
          let last = performance.now();
          let on = true;
          const frame = (t) => {
            maxGap = Math.max(maxGap, t - last);
            last = t;
            if (on) requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
          for (let i = 0; i < runs; ++i) {
            const t0 = performance.now();
            await coreText('sweep', text);
            times.push(performance.now() - t0);
          }
          on = false;
          window.__gap = maxGap;
          return times;
        },
        { text: sweepText, runs: RUNS, client: shipped('js/worker/client.mjs') },
      );
      result.worker_main_thread_max_frame_gap_ms = await page.evaluate(() => window.__gap);
      // The shipped wrapper on the main thread (a second instance, for the benchmark only).
      result.sweep_main_ms = await page.evaluate(
        async ({ text, runs, api, wasm, fullWasm }) => {
          const core = await import(api);
          // sweep runs in the full module (the page module leaves it to the charts below the
          // fold); the warm-up call loads it.
          await core.load({ wasmUrl: wasm, fullWasmUrl: fullWasm });
          await core.call('sweep', text); // warm-up
          const times = [];
          for (let i = 0; i < runs; ++i) {
            const t0 = performance.now();
            await core.call('sweep', text);
            times.push(performance.now() - t0);
          }
          return times;
        },
        {
          text: sweepText,
          runs: RUNS,
          api: shipped('speccalc-api.mjs'),
          wasm: shipped('speccalc.wasm'),
          fullWasm: shipped('speccalc-full.wasm'),
        },
      );
    }
    if (run === 0) {
      // Every case in Chromium: the first-load module where it has the command, else the full
      // one (as the page calls them); wall time per call, the least disturbed of 5 batches of at
      // least 50 ms each (performance.now() is coarsened here, not over a 50 ms batch).
      result.cases_main_ms = await page.evaluate(
        async ({ cases, api, js, wasm, fullJs, fullWasm }) => {
          const core = await import(api);
          const bytes = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
          const first = core.bind(
            await (await import(js)).default({ wasmBinary: await bytes(wasm) }),
          );
          const full = core.bind(
            await (await import(fullJs)).default({ wasmBinary: await bytes(fullWasm) }),
          );
          const names = new Set(first.commandNames());
          const run = (command, input) => (names.has(command) ? first : full).run(command, input);
          const byName = new Map(cases.map((c) => [c.name, c]));
          const textOf = (c) => {
            if (typeof c.input === 'string') return c.input;
            if (!('choices_from' in c.input)) return JSON.stringify(c.input);
            const { choices_from: from, ...rest } = c.input;
            const other = byName.get(from);
            const choices = JSON.parse(run(other.command, textOf(other)).output).choices;
            return JSON.stringify({ ...rest, choices });
          };
          const timeIt = (fn) => {
            fn();
            let iters = 1;
            for (;;) {
              const t0 = performance.now();
              for (let i = 0; i < iters; ++i) fn();
              const dt = performance.now() - t0;
              if (dt >= 50 || iters >= 1 << 20) break;
              iters = Math.max(iters * 2, Math.ceil((iters * 50) / Math.max(dt, 0.01)));
            }
            let best = Infinity;
            for (let r = 0; r < 5; ++r) {
              const t0 = performance.now();
              for (let i = 0; i < iters; ++i) fn();
              best = Math.min(best, (performance.now() - t0) / iters);
            }
            return best;
          };
          const out = {};
          for (const c of cases) {
            const text = textOf(c);
            if (!run(c.command, text).ok) throw new Error(`${c.name} fails in Chromium`);
            out[c.name] = timeIt(() => run(c.command, text));
          }
          return out;
        },
        {
          cases: readCases().cases,
          api: shipped('speccalc-api.mjs'),
          js: shipped('speccalc.mjs'),
          wasm: shipped('speccalc.wasm'),
          fullJs: shipped('speccalc-full.mjs'),
          fullWasm: shipped('speccalc-full.wasm'),
        },
      );
    }
    if (errors.length) result.page_errors = errors;
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
const sum = (rows, k) => rows.reduce((s, e) => s + e[k], 0);
result.transfer_gzip_bytes = sum(result.transfer, 'gzip');
result.transfer_sent_bytes = sum(result.transfer, 'sent');
result.revisit_sent_bytes = sum(result.revisit, 'sent');
result.revisit_requests = result.revisit.length;
result.wasm_fetches = result.transfer.filter((e) => e.name.endsWith('.wasm')).length;
const text = JSON.stringify(result, null, 1);
if (out) fs.writeFileSync(out, text + '\n');
console.log(text);
