// Published setups SpecCalc was never fitted on (tests/heldout/setups.json): how many it can
// express, and that every expressible one evaluates and fits in memory, as its source ran it.
// Prints each expressible setup's predicted speedup beside the measured one (an independent
// check, never fitted on) and exits 1 when an expressible config is refused or does not fit.
// Usage: node scripts/heldout_check.mjs [--cli build/native/speccalc] [--quiet]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const cliAt = args.indexOf('--cli');
const cli = cliAt >= 0 ? args[cliAt + 1] : path.join(repo, 'build/native/speccalc');
const quiet = args.includes('--quiet');
const { setups } = JSON.parse(
  fs.readFileSync(path.join(repo, 'tests/heldout/setups.json'), 'utf8'),
);

const count = (status) => setups.filter((s) => s.status === status).length;
let failed = 0;
const lines = [];
const misses = []; // |predicted - measured| / measured, %, of the setups with a measured speedup
let differs = 0; // of those, how many the model calls the other way (pays vs loses)
for (const s of setups.filter((x) => x.status === 'expressible')) {
  let out;
  try {
    out = JSON.parse(
      execFileSync(cli, ['eval', '--config', '-'], {
        input: JSON.stringify(s.config),
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
  } catch (e) {
    failed += 1;
    lines.push(`FAIL ${s.id}: refused: ${String(e.stderr || e.message).trim()}`);
    continue;
  }
  if (out.verdict === 'infeasible' || out.memory?.fits === false) {
    failed += 1;
    lines.push(`FAIL ${s.id}: ${out.verdict_reason} (its source ran it)`);
    continue;
  }
  const measured = s.measured_speedup;
  const errPct = measured ? (100 * (out.speedup - measured)) / measured : 0;
  const err = measured ? ` error ${errPct.toFixed(1)} %` : '';
  const verdict =
    measured === undefined ? '' : out.speedup > 1 === measured > 1 ? '' : ' VERDICT DIFFERS';
  if (measured) {
    misses.push(Math.abs(errPct));
    if (verdict) differs += 1;
  }
  lines.push(
    `ok   ${s.id}: predicted ${out.speedup.toFixed(2)}x (${out.verdict})` +
      (measured ? `, measured ${measured.toFixed(2)}x,${err}${verdict}` : ''),
  );
}
const held = setups.length - count('in_data');
const writable = held - count('underspecified');
if (!quiet) for (const l of lines) console.log(l);
console.log(
  `heldout: ${setups.length} setups, ${count('in_data')} already in ../shared/data; of the ${held} held out, ` +
    `${count('underspecified')} name too little to write a config; of the other ${writable}, ` +
    `${count('expressible')} expressible (${((100 * count('expressible')) / writable).toFixed(0)} %), ` +
    `${count('not_expressible')} not; ${failed} expressible setups refused or not fitting`,
);
if (misses.length)
  console.log(
    `heldout: mean |error| ${(misses.reduce((a, b) => a + b, 0) / misses.length).toFixed(1)} % over ` +
      `the ${misses.length} with a measured speedup; ${differs} verdicts differ`,
  );
process.exit(failed ? 1 : 0);
