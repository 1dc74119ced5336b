// Native <-> WASM parity: every input goes through the native CLI (build/native/speccalc)
// and through the WASM module the page ships (dist/speccalc.mjs, loaded in Node with
// {wasmBinary}); the output strings, or the error field and message, must be byte-identical.
//
// Inputs: the hand-chosen corpus (corpus/*.json, passed as raw text, so invalid JSON is
// allowed) plus --random N valid configs from a seeded PRNG (random.mjs). For every config
// the commands eval, link and normalize are compared, and eval-link on the link that
// `link` produced; for accepted configs the runner also checks the share-link contract
// eval(config) == eval-link(link(config)) (on the WASM side; parity covers native).
// commands.json adds inputs for other commands (list, decode-link, tree-*, convert, sweep,
// tables) and an unknown one. Every registered command (size, export and validate included) is
// covered on both sides by the golden corpus (scripts/golden.mjs), which runs each case natively
// and in WASM and fails on a registered command that no case runs successfully.
//
// Usage: node tests/parity/run.mjs [--random N] [--seed S] [--native PATH] [--dist DIR]
//                                  [--jobs J] [--verbose] [--write-failures DIR]
// Prints "N passed, N failed" and exits 1 on any mismatch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { randomConfigs } from './random.mjs';
import { loadWasmAfterChecks, runNative, runNativeBatch, runWasm } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

function parseArgs(argv) {
  const opts = {
    random: 1000,
    seed: 20261129,
    native: path.join(repo, 'build/native/speccalc'),
    dist: path.join(repo, 'dist'),
    jobs: Math.max(2, os.availableParallelism ? os.availableParallelism() : os.cpus().length),
    verbose: false,
    writeFailures: null,
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--random') opts.random = Number(next());
    else if (a === '--seed') opts.seed = Number(next());
    else if (a === '--native') opts.native = path.resolve(next());
    else if (a === '--dist') opts.dist = path.resolve(next());
    else if (a === '--jobs') opts.jobs = Number(next());
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--write-failures') opts.writeFailures = path.resolve(next());
    else throw new Error(`unknown argument ${a}`);
  }
  for (const k of ['random', 'seed', 'jobs']) {
    if (!Number.isInteger(opts[k]) || opts[k] < 0)
      throw new Error(`--${k} must be a non-negative integer`);
  }
  return opts;
}

function show(r) {
  return `${r.ok ? 'ok' : 'error'}: ${r.text}`;
}
function same(a, b) {
  return a.ok === b.ok && a.text === b.text;
}

// Runs async tasks with at most `limit` in flight, preserving order of results.
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function firstDiff(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 40);
  return `at byte ${i}: native …${JSON.stringify(a.slice(from, i + 40))} vs wasm …${JSON.stringify(b.slice(from, i + 40))}`;
}

async function main() {
  const opts = parseArgs(process.argv);
  const started = Date.now();
  const mod = await loadWasmAfterChecks(opts.dist, opts.native);

  // Cases: {name, input}. Corpus first (sorted, so failures are stable), then random ones.
  const corpusDir = path.join(here, 'corpus');
  const cases = fs
    .readdirSync(corpusDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `corpus/${f}`, input: fs.readFileSync(path.join(corpusDir, f), 'utf8') }));
  const corpusCount = cases.length;
  // Other commands (list, decode-link, tree-*, convert, sweep, tables, unknown ones): compared
  // once each, native vs WASM. Inputs given as JSON values are serialized here (JS formatting
  // of an input is fine: both builds read the same text).
  const extra = JSON.parse(fs.readFileSync(path.join(here, 'commands.json'), 'utf8')).map(
    (e, i) => ({
      c: { name: `commands.json[${i}] ${e.command}`, input: '' },
      command: e.command,
      input: typeof e.input === 'string' ? e.input : JSON.stringify(e.input),
    }),
  );
  randomConfigs(opts.seed, opts.random).forEach((cfg, i) => {
    cases.push({
      name: `random#${i} (seed ${opts.seed})`,
      input: JSON.stringify(cfg),
      random: true,
    });
  });

  // Stage 1: eval, link, normalize on every input. Stage 2: eval-link on every link produced.
  const checks = [];
  for (const c of cases) {
    for (const command of ['eval', 'link', 'normalize'])
      checks.push({ c, command, input: c.input });
  }
  // The WASM call runs (synchronously) while the native process for the same input is in
  // flight, so the two sides overlap instead of taking turns.
  // Random cases go through `speccalc batch` in chunks; the rest start one process per call.
  const stage = async (list) => {
    const single = list.filter((k) => !k.c.random);
    const batched = list.filter((k) => k.c.random);
    const chunks = [];
    for (let i = 0; i < batched.length; i += 400) chunks.push(batched.slice(i, i + 400));
    const batchRuns = pool(chunks, opts.jobs, async (chunk) => {
      const native = runNativeBatch(opts.native, chunk);
      for (const k of chunk) k.wasm = runWasm(mod, k.command, k.input);
      const results = await native;
      chunk.forEach((k, i) => {
        k.native = results[i];
      });
    });
    await pool(single, opts.jobs, async (k) => {
      const native = runNative(opts.native, k.command, k.input);
      k.wasm = runWasm(mod, k.command, k.input);
      k.native = await native;
    });
    await batchRuns;
  };
  await stage(checks);
  await stage(extra);
  const linkChecks = checks
    .filter((k) => k.command === 'link' && k.wasm.ok)
    .map((k) => ({ c: k.c, command: 'eval-link', input: k.wasm.text, parent: k }));
  await stage(linkChecks);
  const all = checks.concat(linkChecks, extra);

  // Share-link contract on the WASM side: eval(config) and eval-link(link(config)) agree.
  const evalOf = new Map(checks.filter((k) => k.command === 'eval').map((k) => [k.c, k.wasm]));
  const roundTrip = linkChecks.map((k) => ({
    c: k.c,
    ok: same(evalOf.get(k.c), k.wasm),
    a: evalOf.get(k.c),
    b: k.wasm,
  }));

  const failures = [];
  for (const k of all) {
    if (!same(k.native, k.wasm)) {
      const detail =
        k.native.ok === k.wasm.ok
          ? firstDiff(k.native.text, k.wasm.text)
          : `native ${show(k.native).slice(0, 300)} | wasm ${show(k.wasm).slice(0, 300)}`;
      failures.push({
        name: k.c.name,
        what: `${k.command}: native != wasm ${detail}`,
        input: k.input,
      });
    }
  }
  for (const r of roundTrip) {
    if (!r.ok) {
      failures.push({
        name: r.c.name,
        what: `eval(config) != eval-link(link(config)): ${firstDiff(r.a.text, r.b.text)}`,
        input: r.c.input,
      });
    }
  }

  // Random configs are meant to be valid: a high rejection rate means the generator (or core)
  // drifted, and the random part would silently test only error paths.
  const randomEvals = checks.filter((k) => k.c.random && k.command === 'eval');
  const rejected = randomEvals.filter((k) => !k.wasm.ok);
  if (rejected.length > 0) {
    const reasons = new Map();
    for (const k of rejected) {
      const reason = k.wasm.text.replace(/\d+(\.\d+)?(e-?\d+)?/g, '#'); // group by shape, not value
      reasons.set(reason, (reasons.get(reason) || 0) + 1);
    }
    const top = [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(
      `note: ${rejected.length} of ${randomEvals.length} random configs were rejected by core; most common:`,
    );
    for (const [msg, n] of top) console.log(`  ${n} x ${msg.slice(0, 200)}`);
    if (rejected.length * 20 > randomEvals.length) {
      failures.push({
        name: 'random generator',
        what: `${rejected.length} of ${randomEvals.length} random configs rejected (limit 5%)`,
        input: '',
      });
    }
  }

  const corpusAccepted = checks.filter(
    (k) => !k.c.random && k.command === 'eval' && k.wasm.ok,
  ).length;
  const passed =
    all.filter((k) => same(k.native, k.wasm)).length + roundTrip.filter((r) => r.ok).length;
  for (const f of failures.slice(0, opts.verbose ? failures.length : 20)) {
    console.log(`FAIL ${f.name}: ${f.what}`);
  }
  if (failures.length > 20 && !opts.verbose)
    console.log(`… ${failures.length - 20} more (use --verbose)`);
  if (opts.writeFailures && failures.length) {
    fs.mkdirSync(opts.writeFailures, { recursive: true });
    failures.forEach((f, i) =>
      fs.writeFileSync(path.join(opts.writeFailures, `failure-${i}.json`), f.input),
    );
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `parity: ${cases.length} configs (${corpusCount} corpus, ${corpusAccepted} of them valid; ` +
      `${opts.random} random, seed ${opts.seed}) and ${extra.length} other command inputs: ` +
      `${all.length} native/wasm comparisons + ` +
      `${roundTrip.length} link round trips in ${secs} s`,
  );
  const failed = failures.length;
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(`parity: ${err.stack || err.message}`);
  process.exitCode = 1;
});
