// Merges the rounds of scripts/bench.sh into one native.json and one wasm.json. The rounds
// alternate native and WASM, so a slow spell of this shared machine hits both sides of a ratio
// alike instead of one; each case keeps its least disturbed time (report.mjs takes the minimum
// over every native repetition; here each WASM case keeps the round with the lowest CPU time).
//   node bench/merge_rounds.mjs OUT_DIR ROUNDS
import fs from 'node:fs';
import path from 'node:path';

const [out, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const read = (name) => JSON.parse(fs.readFileSync(path.join(out, name), 'utf8'));

const native = read('native.1.json');
for (let r = 2; r <= rounds; ++r) native.benchmarks.push(...read(`native.${r}.json`).benchmarks);
native.rounds = rounds;
fs.writeFileSync(path.join(out, 'native.json'), JSON.stringify(native, null, 1) + '\n');

const wasm = read('wasm.1.json');
for (let r = 2; r <= rounds; ++r) {
  const next = read(`wasm.${r}.json`);
  for (const [name, c] of Object.entries(next.cases))
    if (!(name in wasm.cases) || c.cpu_min_ms < wasm.cases[name].cpu_min_ms) wasm.cases[name] = c;
}
wasm.rounds = rounds;
fs.writeFileSync(path.join(out, 'wasm.json'), JSON.stringify(wasm, null, 1) + '\n');
