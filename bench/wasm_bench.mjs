// The bench/cases.json cases through the WASM module in Node: loads the shipped module through
// dist's speccalc-api.mjs with {wasmBinary} and calls its run(command, input), so each time
// includes the JSON text in and out and the UTF-8 copies across, like the native run() benchmark.
// Also times build-bench/wasm/bench/algo.cjs (the optimizer alone, no JSON) when it exists.
// Usage: node bench/wasm_bench.mjs [DIST_DIR] [--out FILE]   (prints JSON; --out writes it too)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCases, resolveCases, timeIt } from './cases.mjs';
import { distFile } from '../tests/parity/harness.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : null;
const dist = path.resolve(args[0] || 'dist');

const api = await import(pathToFileURL(distFile(dist, 'speccalc-api.mjs')).href);
const t0 = performance.now();
const first = await api.load({ wasmBinary: fs.readFileSync(distFile(dist, 'speccalc.wasm')) });
const instantiateMs = performance.now() - t0;
// Commands the first-load module lacks run in the full module, as on the page.
const { default: fullFactory } = await import(
  pathToFileURL(distFile(dist, 'speccalc-full.mjs')).href
);
const full = api.bind(
  await fullFactory({ wasmBinary: fs.readFileSync(distFile(dist, 'speccalc-full.wasm')) }),
);
const firstNames = new Set(first.commandNames());
const mod = {
  run: (command, input) => (firstNames.has(command) ? first : full).run(command, input),
};

const runText = (command, input) => {
  const r = mod.run(command, input);
  if (!r.ok) throw new Error(`${command}: ${r.field}: ${r.message}`);
  return r.output;
};
const results = { instantiate_ms: instantiateMs, cases: {} };
for (const c of resolveCases(readCases(), runText)) {
  runText(c.command, c.text); // refuse to time an error path
  results.cases[c.name] = timeIt(() => mod.run(c.command, c.text));
  process.stderr.write(`wasm ${c.name}: ${results.cases[c.name].min_ms.toFixed(4)} ms\n`);
}
// The optimizer alone (bench/algo_wasm.cpp, built by bench/CMakeLists.txt), when present.
const algoPath = path.resolve('build-bench/wasm/bench/algo.cjs');
if (fs.existsSync(algoPath)) {
  const algo = await createRequire(import.meta.url)(algoPath)();
  for (const budget of [64, 512, 4096]) {
    const name = `algo/tree-optimize/${budget}`;
    results.cases[name] = timeIt(() => algo._bench_tree_optimize(budget, 1));
    process.stderr.write(`wasm ${name}: ${results.cases[name].min_ms.toFixed(4)} ms\n`);
  }
}
const text = JSON.stringify(results, null, 1);
if (out) fs.writeFileSync(out, text + '\n');
console.log(text);
