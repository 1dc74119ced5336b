// The golden corpus (tests/golden): committed inputs and the exact bytes every registered core
// command printed for them. Pins the numbers across commits; native and WASM must both match.
//
//   node scripts/golden.mjs            check: every case through the native CLI (`speccalc
//                                      batch`, one process) and the WASM module the page ships;
//                                      both must equal the expected file byte for byte. Also
//                                      fails on expected files no case produces and on a
//                                      registered command no case runs successfully. Run by
//                                      `npm test`.
//   node scripts/golden.mjs --update   regenerate the expected files from the native CLI (the
//                                      reference), remove orphans, list what changed; still
//                                      fails if WASM differs from native. Never run by tests.
// Options: --only SUBSTRING (case ids containing it), --native PATH, --dist DIR, --verbose.
// Prints "N passed, N failed" and exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  decodeResult,
  encodeCli,
  encodeResult,
  expectedFiles,
  goldenDir,
  loadCases,
  loadCliCases,
} from '../tests/golden/corpus.mjs';
import { lineDiff } from '../tests/golden/diff.mjs';
import { loadWasmAfterChecks, runNativeBatch, runWasm } from '../tests/parity/harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = {
    update: false,
    only: '',
    native: path.join(repo, 'build/native/speccalc'),
    dist: path.join(repo, 'dist'),
    verbose: false,
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--update') opts.update = true;
    else if (a === '--only') opts.only = next();
    else if (a === '--native') opts.native = path.resolve(next());
    else if (a === '--dist') opts.dist = path.resolve(next());
    else if (a === '--verbose') opts.verbose = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

const same = (a, b) => a.ok === b.ok && a.text === b.text;
const rel = (f) => path.relative(repo, f);

// Native results for every case, in chunks of one `speccalc batch` process each.
async function runAllNative(bin, cases) {
  const chunks = [];
  for (let i = 0; i < cases.length; i += 100) chunks.push(cases.slice(i, i + 100));
  const results = await Promise.all(chunks.map((chunk) => runNativeBatch(bin, chunk, 600000)));
  return results.flat();
}

function runCli(bin, c) {
  const r = spawnSync(bin, c.args, { input: c.stdin, cwd: goldenDir, timeout: 60000 });
  return encodeCli({
    code: r.status === null ? `signal ${r.signal}` : r.status,
    stdout: r.stdout.toString('utf8'),
    stderr: r.stderr.toString('utf8'),
  });
}

function readExpected(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

async function main() {
  const opts = parseArgs(process.argv);
  const started = Date.now();
  const mod = await loadWasmAfterChecks(opts.dist, opts.native);
  const allCases = loadCases();
  const allCli = loadCliCases();
  const cases = allCases.filter((c) => c.id.includes(opts.only));
  const cli = allCli.filter((c) => c.id.includes(opts.only));

  const native = await runAllNative(opts.native, cases);
  const failures = [];
  const changed = [];
  let passed = 0;
  cases.forEach((c, i) => {
    const n = native[i];
    const w = runWasm(mod, c.command, c.input);
    const parity = same(n, w);
    if (!parity) {
      failures.push(
        `${c.id}: native and WASM differ\n${lineDiff(encodeResult(n), encodeResult(w))}`,
      );
    }
    const want = readExpected(c.file);
    if (opts.update) {
      const text = encodeResult(n);
      if (want !== text) {
        fs.mkdirSync(path.dirname(c.file), { recursive: true });
        fs.writeFileSync(c.file, text);
        changed.push(
          want === null ? `${c.id} (new)` : `${c.id}\n${lineDiff(want, text, { maxLines: 12 })}`,
        );
      }
      if (parity) passed++;
      return;
    }
    if (want === null) {
      failures.push(
        `${c.id}: no expected file ${rel(c.file)} (run node scripts/golden.mjs --update)`,
      );
      return;
    }
    let expected;
    try {
      expected = decodeResult(want);
    } catch (e) {
      failures.push(`${c.id}: ${rel(c.file)}: ${e.message}`);
      return;
    }
    let ok = parity;
    for (const [side, r] of [
      ['native', n],
      ['WASM', w],
    ]) {
      if (same(r, expected)) continue;
      ok = false;
      if (side === 'WASM' && !parity && same(n, expected)) continue; // already shown as parity
      if (side === 'WASM' && same(n, w)) continue; // same diff as native
      failures.push(
        `${c.id}: ${side} output differs from ${rel(c.file)}\n${lineDiff(want, encodeResult(r))}`,
      );
    }
    if (ok) passed++;
  });

  for (const c of cli) {
    const got = runCli(opts.native, c);
    const want = readExpected(c.file);
    if (opts.update) {
      if (want !== got) {
        fs.mkdirSync(path.dirname(c.file), { recursive: true });
        fs.writeFileSync(c.file, got);
        changed.push(
          want === null ? `${c.id} (new)` : `${c.id}\n${lineDiff(want, got, { maxLines: 12 })}`,
        );
      }
      passed++;
    } else if (want === got) {
      passed++;
    } else {
      failures.push(
        `${c.id}: speccalc ${c.args.join(' ')}: differs from ${rel(c.file)}\n${lineDiff(want ?? '', got)}`,
      );
    }
  }

  // Whole-corpus checks (skipped with --only): no orphan files, every registered command covered.
  if (!opts.only) {
    const wanted = new Set([...allCases, ...allCli].map((c) => c.file));
    for (const f of expectedFiles().filter((x) => !wanted.has(x))) {
      if (opts.update) {
        fs.rmSync(f);
        changed.push(`${rel(f)} (removed: no case produces it)`);
      } else {
        failures.push(
          `${rel(f)}: no case produces this file (run node scripts/golden.mjs --update)`,
        );
      }
    }
    // Every registered command needs an input it accepts (a command that reads its input, and
    // so can refuse it, should have a rejected one too: reviewers see both in cases/).
    for (const command of mod.commandNames().split(', ')) {
      if (!cases.some((c, i) => c.command === command && native[i].ok)) {
        failures.push(
          `command '${command}' is registered but no case gives it an input it accepts (add one to tests/golden/cases/)`,
        );
      }
    }
  }

  if (opts.update) {
    for (const c of changed.slice(0, opts.verbose ? changed.length : 30))
      console.log(`updated ${c}`);
    if (changed.length > 30 && !opts.verbose)
      console.log(`… ${changed.length - 30} more (use --verbose)`);
    console.log(
      `golden: ${changed.length} expected files written or removed; review with git diff tests/golden`,
    );
  }
  for (const f of failures.slice(0, opts.verbose ? failures.length : 15))
    console.log(`FAIL ${f}\n`);
  if (failures.length > 15 && !opts.verbose)
    console.log(`… ${failures.length - 15} more failures (use --verbose)`);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `golden: ${cases.length} core cases (native + WASM) and ${cli.length} CLI cases in ${secs} s`,
  );
  console.log(`${passed} passed, ${failures.length} failed`);
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((err) => {
  console.error(`golden: ${err.stack || err.message}`);
  process.exitCode = 1;
});
