// Merges the three measurements into ONE table: case, native, WASM (Node), ratio, the same
// call in Chromium and its ratio, target, met.
//   node bench/report.mjs NATIVE.json WASM.json BROWSER.json [--markdown]
// NATIVE.json is Google Benchmark's JSON (repetitions kept). Native and WASM-in-Node times are CPU
// time per call (the machine is shared: wall time there measures the other processes too), the
// minimum over repetitions, in milliseconds; browser times are wall time (performance.now()).
import fs from 'node:fs';
import os from 'node:os';
import { readCases } from './cases.mjs';

const [nativeFile, wasmFile, browserFile, flag] = process.argv.slice(2);
const markdown = flag === '--markdown';
const native = JSON.parse(fs.readFileSync(nativeFile, 'utf8'));
const wasm = JSON.parse(fs.readFileSync(wasmFile, 'utf8'));
const browser = JSON.parse(fs.readFileSync(browserFile, 'utf8'));
const doc = readCases();

const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
const nativeMs = new Map();
for (const b of native.benchmarks) {
  if (b.run_type && b.run_type !== 'iteration') continue;
  const name = b.run_name || b.name;
  const ms = b.cpu_time * toMs[b.time_unit];
  nativeMs.set(name, Math.min(nativeMs.get(name) ?? Infinity, ms));
}
const min = (xs) => Math.min(...xs);
const max = (xs) => Math.max(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) =>
  x == null ? '—' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4);

const rows = [];
const limit = doc.ratio_target;
for (const c of doc.cases) {
  const n = nativeMs.get(c.name);
  const w = wasm.cases[c.name]?.cpu_min_ms;
  const ratio = n && w ? w / n : null;
  const inChromium = browser.cases_main_ms?.[c.name];
  const goals = [`ratio ≤ ${limit}`];
  let met = ratio != null && ratio <= limit;
  if (c.name.startsWith('eval/')) {
    goals.push('native ≤ 0.1 ms');
    met = met && n <= 0.1;
  } // issue 14: one eval
  if (c.target?.native_ms != null) {
    goals.push(`native ≤ ${c.target.native_ms} ms`);
    met = met && n <= c.target.native_ms;
  }
  if (c.target?.wasm_ms != null && !c.target.where) {
    goals.push(`WASM ≤ ${c.target.wasm_ms} ms`);
    met = met && w <= c.target.wasm_ms;
  }
  rows.push([
    c.name,
    ms(n),
    ms(w),
    ratio == null ? '—' : ratio.toFixed(2),
    ms(inChromium),
    inChromium != null && n ? (inChromium / n).toFixed(2) : '—',
    goals.join(', '),
    met ? 'met' : 'NOT met',
  ]);
}
for (const budget of [64, 512, 4096]) {
  const name = `algo/tree-optimize/${budget}`;
  const n = nativeMs.get(name);
  const w = wasm.cases[name]?.cpu_min_ms;
  if (n == null) continue;
  const ratio = w != null ? w / n : null;
  const goals = [`ratio ≤ ${limit}`];
  let met = ratio != null && ratio <= limit;
  if (budget === 4096) {
    goals.push('native ≤ 2 ms, WASM ≤ 2 ms');
    met = met && n <= 2 && w <= 2;
  }
  rows.push([
    `${name} (optimizer alone, no JSON)`,
    ms(n),
    ms(w),
    ratio == null ? '—' : ratio.toFixed(2),
    '—',
    '—',
    goals.join(', '),
    met ? 'met' : 'NOT met',
  ]);
}
const sweepMain = min(browser.sweep_main_ms);
const sweepWorker = min(browser.sweep_worker_ms);
rows.push([
  'sweep/10000 in Chromium, main thread',
  '—',
  ms(sweepMain),
  '—',
  '—',
  '—',
  'WASM ≤ 50 ms',
  sweepMain <= 50 ? 'met' : 'NOT met',
]);
rows.push([
  `sweep/10000 in Chromium, the page's worker via client.mjs, incl. postMessage (main-thread frame gap ${ms(browser.worker_main_thread_max_frame_gap_ms)} ms)`,
  '—',
  ms(sweepWorker),
  '—',
  '—',
  '—',
  'WASM ≤ 50 ms, page not blocked',
  sweepWorker <= 50 ? 'met' : 'NOT met',
]);
const first = median(browser.first_result_ms);
const fcp = median(browser.first_contentful_paint_ms.filter((x) => x != null));
const ready = median(browser.core_ready_ms.filter((x) => x != null));
// Issue 23: first result <= 1.5 x first paint, both taken in the same page load; the median of
// the per-load ratios (a loaded machine slows both, so the ratio is what compares across runs).
const ratios = browser.first_result_ms
  .map((r, i) => r / browser.first_contentful_paint_ms[i])
  .filter((x) => Number.isFinite(x));
const ratio = median(ratios);
rows.push([
  `first result on screen / first paint, same load (median of ${ratios.length}, max ${max(ratios).toFixed(2)}; first result ${ms(first)}, first paint ${ms(fcp)}, core ready in the worker ${ms(ready)} ms)`,
  '—',
  ratio.toFixed(2),
  '—',
  '—',
  '—',
  '≤ 1.5 × first paint',
  ratio <= 1.5 ? 'met' : 'NOT met',
]);
rows.push([
  '.wasm fetches on first load (one module instance, in the worker)',
  '—',
  String(browser.wasm_fetches),
  '—',
  '—',
  '—',
  '1',
  browser.wasm_fetches === 1 ? 'met' : 'NOT met',
]);
const kb = browser.transfer_gzip_bytes / 1000;
const files = browser.transfer.length;
rows.push([
  `first-load transfer, gzip (${files} requests incl. the worker's; ${(browser.transfer_sent_bytes / 1000).toFixed(1)} KB sent)`,
  '—',
  `${kb.toFixed(1)} KB`,
  '—',
  '—',
  '—',
  '≤ 250 KB',
  kb <= 250 ? 'met' : 'NOT met',
]);
const again = browser.revisit.filter((r) => r.status === 200 && r.name !== '/').length;
rows.push([
  `second visit (${browser.revisit_requests} requests: ${browser.revisit.map((r) => `${r.status} ${r.name}`).join(', ')})`,
  '—',
  `${browser.revisit_sent_bytes} B`,
  '—',
  '—',
  '—',
  'no cached file sent again',
  again === 0 ? 'met' : 'NOT met',
]);

const cpus = os.cpus();
const machine =
  `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
  `${os.type()} ${os.release()}, Node ${process.version}, Chromium ${browser.chromium ?? '?'}, load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
// "met" judges the Node ratio (CPU time, as the native side); the Chromium columns time the
// same calls on the page's main thread (wall time), where the page runs them.
const header = [
  'case',
  'native ms (CPU)',
  'WASM ms (Node CPU; browser wall)',
  'ratio',
  'Chromium ms (main thread, wall)',
  'ratio in Chromium',
  'target',
  'met',
];
if (markdown) {
  const rounds = native.rounds
    ? `; ${native.rounds} rounds of native then WASM, each case's minimum`
    : '';
  console.log(`Machine: ${machine}${rounds}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} else {
  console.log(`machine: ${machine}`);
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r.map((x, i) => (i === 0 || i === 6 ? x.padEnd(width[i]) : x.padStart(width[i]))).join('  ');
  console.log(line(header));
  console.log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
