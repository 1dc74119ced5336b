// Loads bench/cases.json and resolves each case to {name, command, input text, target}, the
// same inputs bench/core_bench.cpp sends natively. `runText(command, input)` runs a command and
// returns its output text (used to fill in "choices_from" with another case's optimal tree).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));

export function readCases() {
  return JSON.parse(fs.readFileSync(path.join(benchDir, 'cases.json'), 'utf8'));
}

export function resolveCases(doc, runText) {
  const byName = new Map(doc.cases.map((c) => [c.name, c]));
  const textOf = (c) => {
    if (typeof c.input === 'string') return c.input;
    if (!('choices_from' in c.input)) return JSON.stringify(c.input);
    const { choices_from: from, ...rest } = c.input;
    const other = byName.get(from);
    if (!other) throw new Error(`choices_from names no case: ${from}`);
    const choices = JSON.parse(runText(other.command, textOf(other))).choices;
    return JSON.stringify({ ...rest, choices });
  };
  return doc.cases.map((c) => ({ ...c, text: textOf(c) }));
}

// Times fn() by repetitions of a batch of iterations. Per-iteration milliseconds of wall time and
// of process CPU time (process.cpuUsage: on a shared, loaded machine CPU time is what compares
// with Google Benchmark's cpu_time); min over repetitions (the least disturbed) and median.
export function timeIt(fn, { minBatchMs = 50, reps = 5 } = {}) {
  fn(); // warm-up (and tier-up for WASM)
  let iters = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < iters; ++i) fn();
    const dt = performance.now() - t0;
    if (dt >= minBatchMs || iters >= 1 << 20) break;
    iters = Math.max(iters * 2, Math.ceil((iters * minBatchMs) / Math.max(dt, 0.01)));
  }
  const wall = [];
  const cpu = [];
  for (let r = 0; r < reps; ++r) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < iters; ++i) fn();
    wall.push((performance.now() - t0) / iters);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000 / iters);
  }
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const w = sorted(wall);
  const u = sorted(cpu);
  return {
    min_ms: w[0],
    median_ms: w[reps >> 1],
    cpu_min_ms: u[0],
    cpu_median_ms: u[reps >> 1],
    iterations: iters,
    reps,
  };
}
