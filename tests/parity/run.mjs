// Native <-> WASM parity: every input goes through the native CLI (build/native/speccalc)
// and through the WASM module the page ships (dist/speccalc.mjs, loaded in Node with
// {wasmBinary}); the output strings, or the error field and message, must be byte-identical.
//
// Inputs: the hand-chosen corpus (corpus/*.json, passed as raw text, so invalid JSON is
// allowed) plus --random N valid configs from a seeded PRNG (random.mjs). For every config
// the commands eval, link and normalize are compared, and eval-link on the link that
// `link` produced; for accepted configs the runner also checks the share-link contract
// eval(config) == eval-link(link(config)) (on the WASM side; parity covers native).
// commands.json adds inputs for every other registered command (list, decode-link, tree-*,
// convert, sweep, tables) and an unknown one.
//
// Usage: node tests/parity/run.mjs [--random N] [--seed S] [--native PATH] [--dist DIR]
//                                  [--jobs J] [--verbose] [--write-failures DIR]
// Prints "N passed, N failed" and exits 1 on any mismatch.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { randomConfigs } from './random.mjs';
import { loadWasmAfterChecks } from './harness.mjs';

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
    if (!Number.isInteger(opts[k]) || opts[k] < 0) throw new Error(`--${k} must be a non-negative integer`);
  }
  return opts;
}

// A command's result as one comparable string: "ok\n<output>" or "error\n<field>: <message>".
function okResult(output) { return { ok: true, text: output }; }
function errResult(describe) { return { ok: false, text: describe }; }
function show(r) { return `${r.ok ? 'ok' : 'error'}: ${r.text}`; }
function same(a, b) { return a.ok === b.ok && a.text === b.text; }

// Native: `speccalc run COMMAND -` with the input on stdin. Exit 0: stdout (one trailing
// newline dropped). Exit 2: stderr must be exactly one line "speccalc: error: <describe>".
// Anything else (crash, other exit code, extra output) is reported as such and never matches.
function runNative(bin, command, input) {
  return new Promise((resolve) => {
    // A hung or crashing command must fail the test, not stall it.
    const child = spawn(bin, ['run', command, '-'], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 30000, killSignal: 'SIGKILL' });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', (e) => resolve(errResult(`<spawn failed: ${e.message}>`)));
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0 && stderr === '') {
        resolve(okResult(stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout));
      } else if (code === 2 && stdout === '' && /^speccalc: error: [^\n]*\n$/.test(stderr)) {
        resolve(errResult(stderr.slice('speccalc: error: '.length, -1)));
      } else {
        resolve(errResult(`<native exit ${code}${signal ? ' signal ' + signal : ''}; ` +
                          `stdout ${JSON.stringify(stdout.slice(0, 200))}; stderr ${JSON.stringify(stderr.slice(0, 200))}>`));
      }
    });
    child.stdin.on('error', () => {});  // the child may exit before reading everything
    child.stdin.end(input);
  });
}

// Native, many calls in one process: `speccalc batch` reads frames "COMMAND LENGTH\n" + bytes
// and answers "ok|error LENGTH\n" + output (or "field: message"). Same core call as `run`,
// without a process start per call; per-process runs still cover the corpus (exit codes, stderr).
function runNativeBatch(bin, items) {
  return new Promise((resolve) => {
    const child = spawn(bin, ['batch'], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 120000, killSignal: 'SIGKILL' });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code, signal) => {
      const buf = Buffer.concat(out);
      const results = [];
      let pos = 0;
      while (pos < buf.length && results.length < items.length) {
        const nl = buf.indexOf(10, pos);
        if (nl < 0) break;
        const m = /^(ok|error) (\d+)$/.exec(buf.slice(pos, nl).toString('utf8'));
        if (!m) break;
        const len = Number(m[2]);
        const body = buf.slice(nl + 1, nl + 1 + len).toString('utf8');
        results.push(m[1] === 'ok' ? okResult(body) : errResult(body));
        pos = nl + 1 + len;
      }
      const problem = `<native batch exit ${code}${signal ? ' signal ' + signal : ''}; stderr ${JSON.stringify(Buffer.concat(err).toString('utf8').slice(0, 200))}>`;
      while (results.length < items.length) results.push(errResult(problem));
      resolve(results);
    });
    child.stdin.on('error', () => {});
    const frames = items.map((k) => {
      const body = Buffer.from(k.input, 'utf8');
      return Buffer.concat([Buffer.from(`${k.command} ${body.length}\n`, 'utf8'), body]);
    });
    child.stdin.end(Buffer.concat(frames));
  });
}

function runWasm(mod, command, input) {
  const r = mod.run(command, input);
  return r.ok ? okResult(r.output) : errResult(r.field ? `${r.field}: ${r.message}` : r.message);
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
  const cases = fs.readdirSync(corpusDir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ name: `corpus/${f}`, input: fs.readFileSync(path.join(corpusDir, f), 'utf8') }));
  const corpusCount = cases.length;
  // Other commands (list, decode-link, tree-*, convert, sweep, tables, unknown ones): compared
  // once each, native vs WASM. Inputs given as JSON values are serialized here (JS formatting
  // of an input is fine: both builds read the same text).
  const extra = JSON.parse(fs.readFileSync(path.join(here, 'commands.json'), 'utf8')).map((e, i) => ({
    c: { name: `commands.json[${i}] ${e.command}`, input: '' },
    command: e.command,
    input: typeof e.input === 'string' ? e.input : JSON.stringify(e.input),
  }));
  randomConfigs(opts.seed, opts.random).forEach((cfg, i) => {
    cases.push({ name: `random#${i} (seed ${opts.seed})`, input: JSON.stringify(cfg), random: true });
  });

  // Stage 1: eval, link, normalize on every input. Stage 2: eval-link on every link produced.
  const checks = [];
  for (const c of cases) {
    for (const command of ['eval', 'link', 'normalize']) checks.push({ c, command, input: c.input });
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
      chunk.forEach((k, i) => { k.native = results[i]; });
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
    c: k.c, ok: same(evalOf.get(k.c), k.wasm), a: evalOf.get(k.c), b: k.wasm,
  }));

  const failures = [];
  for (const k of all) {
    if (!same(k.native, k.wasm)) {
      const detail = k.native.ok === k.wasm.ok ? firstDiff(k.native.text, k.wasm.text)
        : `native ${show(k.native).slice(0, 300)} | wasm ${show(k.wasm).slice(0, 300)}`;
      failures.push({ name: k.c.name, what: `${k.command}: native != wasm ${detail}`, input: k.input });
    }
  }
  for (const r of roundTrip) {
    if (!r.ok) {
      failures.push({ name: r.c.name, what: `eval(config) != eval-link(link(config)): ${firstDiff(r.a.text, r.b.text)}`, input: r.c.input });
    }
  }

  // Random configs are meant to be valid: a high rejection rate means the generator (or core)
  // drifted, and the random part would silently test only error paths.
  const randomEvals = checks.filter((k) => k.c.random && k.command === 'eval');
  const rejected = randomEvals.filter((k) => !k.wasm.ok);
  if (rejected.length > 0) {
    const reasons = new Map();
    for (const k of rejected) {
      const reason = k.wasm.text.replace(/\d+(\.\d+)?(e-?\d+)?/g, '#');  // group by shape, not value
      reasons.set(reason, (reasons.get(reason) || 0) + 1);
    }
    const top = [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`note: ${rejected.length} of ${randomEvals.length} random configs were rejected by core; most common:`);
    for (const [msg, n] of top) console.log(`  ${n} x ${msg.slice(0, 200)}`);
    if (rejected.length * 20 > randomEvals.length) {
      failures.push({ name: 'random generator', what: `${rejected.length} of ${randomEvals.length} random configs rejected (limit 5%)`, input: '' });
    }
  }

  const corpusAccepted = checks.filter((k) => !k.c.random && k.command === 'eval' && k.wasm.ok).length;
  const passed = all.filter((k) => same(k.native, k.wasm)).length + roundTrip.filter((r) => r.ok).length;
  for (const f of failures.slice(0, opts.verbose ? failures.length : 20)) {
    console.log(`FAIL ${f.name}: ${f.what}`);
  }
  if (failures.length > 20 && !opts.verbose) console.log(`… ${failures.length - 20} more (use --verbose)`);
  if (opts.writeFailures && failures.length) {
    fs.mkdirSync(opts.writeFailures, { recursive: true });
    failures.forEach((f, i) => fs.writeFileSync(path.join(opts.writeFailures, `failure-${i}.json`), f.input));
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`parity: ${cases.length} configs (${corpusCount} corpus, ${corpusAccepted} of them valid; ` +
              `${opts.random} random, seed ${opts.seed}) and ${extra.length} other command inputs: ` +
              `${all.length} native/wasm comparisons + ` +
              `${roundTrip.length} link round trips in ${secs} s`);
  const failed = failures.length;
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(`parity: ${err.stack || err.message}`);
  process.exitCode = 1;
});
