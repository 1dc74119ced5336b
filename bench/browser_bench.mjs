// The page in headless Chromium (playwright-core, /usr/bin/chromium), served from 127.0.0.1 by a
// small server that gzips like a production static host:
//   - first result: ms from navigation start until [data-testid="speedup"] shows a value
//     (a MutationObserver installed before the page's scripts records performance.now()),
//   - transfer: the sum of encodedBodySize (gzip bytes) over the document and every resource
//     (each URL once),
//   - sweep: the 10,000-point sweep from bench/cases.json through the page's own
//     speccalc-api.mjs `call('sweep', ...)`, on the main thread and in a module Web Worker
//     (what the page would use to keep the main thread free), plus the main thread's longest
//     stall while the worker runs (requestAnimationFrame gaps).
// Usage: node bench/browser_bench.mjs [DIST_DIR] [--out FILE]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/browser/browser.mjs';
import { readCases } from './cases.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : null;
const dist = path.resolve(args[0] || 'dist');
const RUNS = 5;

const MIME = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml' };

// The worker the sweep runs in: same origin, so the page's CSP (script-src 'self') allows it.
const WORKER = `import { call } from '/speccalc-api.mjs';
onmessage = async (e) => {
  await call('list', 'models');
  const t0 = performance.now();
  const text = await call('sweep', e.data);
  postMessage({ ms: performance.now() - t0, bytes: text.length });
};`;

function serve() {
  const gz = new Map();
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let body, type;
    if (rel === '/__bench/sweep-worker.mjs') {
      body = Buffer.from(WORKER);
      type = MIME['.mjs'];
    } else {
      let file = path.join(dist, path.normalize(rel));
      if (!file.startsWith(dist)) return res.writeHead(403).end();
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
      if (!fs.existsSync(file)) return res.writeHead(404).end();
      body = fs.readFileSync(file);
      type = MIME[path.extname(file)] || 'application/octet-stream';
    }
    const headers = { 'Content-Type': type, 'Cache-Control': 'no-store' };
    if (/\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      if (!gz.has(rel)) gz.set(rel, zlib.gzipSync(body, { level: 6 }));
      body = gz.get(rel);
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Installed before any page script: records when the speedup output first shows a value.
function watchFirstResult() {
  const check = () => {
    const el = document.querySelector('[data-testid="speedup"]');
    const t = el && el.textContent.trim();
    if (t && t !== '—' && window.__firstResultMs === undefined) window.__firstResultMs = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

const server = await serve();
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const sweepCase = readCases().cases.find((c) => c.name === 'sweep/10000');
const sweepText = JSON.stringify(sweepCase.input);
const result = { first_result_ms: [], transfer: null, sweep_main_ms: [], sweep_worker_ms: [] };
try {
  for (let run = 0; run < RUNS; ++run) {
    const context = await browser.newContext();  // fresh cache: every run downloads everything
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(watchFirstResult);
    await page.goto(url);
    await page.waitForFunction(() => window.__firstResultMs !== undefined, null, { timeout: 30000 });
    result.first_result_ms.push(await page.evaluate(() => window.__firstResultMs));
    if (run === 0) {
      await page.waitForLoadState('networkidle');
      result.transfer = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const entries = [nav, ...performance.getEntriesByType('resource')];
        return entries.map((e) => ({ name: new URL(e.name).pathname, encoded: e.encodedBodySize, decoded: e.decodedBodySize }));
      });
      // Main thread: the page's own wrapper, warmed up by the page's first result.
      result.sweep_main_ms = await page.evaluate(async ({ text, runs }) => {
        const api = await import('/speccalc-api.mjs');
        await api.call('sweep', text);  // warm-up
        const times = [];
        for (let i = 0; i < runs; ++i) {
          const t0 = performance.now();
          await api.call('sweep', text);
          times.push(performance.now() - t0);
        }
        return times;
      }, { text: sweepText, runs: RUNS });
      // Worker: the sweep off the main thread; frame gaps on the main thread meanwhile.
      const w = await page.evaluate(async ({ text, runs }) => {
        const worker = new Worker('/__bench/sweep-worker.mjs', { type: 'module' });
        const once = () => new Promise((resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message || 'worker failed'));
          worker.postMessage(text);
        });
        await once();  // warm-up (module load and tier-up)
        const times = [];
        let maxGap = 0;
        let last = performance.now();
        let on = true;
        const frame = (t) => { maxGap = Math.max(maxGap, t - last); last = t; if (on) requestAnimationFrame(frame); };
        requestAnimationFrame(frame);
        for (let i = 0; i < runs; ++i) {
          const t0 = performance.now();
          await once();
          times.push(performance.now() - t0);
        }
        on = false;
        worker.terminate();
        return { times, maxGap };
      }, { text: sweepText, runs: RUNS });
      result.sweep_worker_ms = w.times;
      result.worker_main_thread_max_frame_gap_ms = w.maxGap;
    }
    if (errors.length) result.page_errors = errors;
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
// Each URL once: a module imported from two places shows up twice but is fetched once.
const unique = [...new Map(result.transfer.map((e) => [e.name, e])).values()];
const sum = (k) => unique.reduce((s, e) => s + e[k], 0);
result.transfer_gzip_bytes = sum('encoded');
result.transfer_raw_bytes = sum('decoded');
const text = JSON.stringify(result, null, 1);
if (out) fs.writeFileSync(out, text + '\n');
console.log(text);
