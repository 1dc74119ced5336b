// Property test, native <-> WASM, for the commands the config generator (random.mjs) does not
// reach: random tree-expect, tree-optimize, tree-preset, tree-calibrate, convert and sweep
// requests, and random (often hostile) share links through decode-link and eval-link. Each
// input goes through the native CLI and the WASM module; the output strings, or the error
// field and message, must be byte-identical. Inputs are seeded (mulberry32), so a failure
// names a reproducible case.
//
// Usage: node tests/parity/property.mjs [--count N] [--seed S] [--native PATH] [--dist DIR]
//                                        [--jobs J]
// Prints "N passed, N failed" and exits 1 on any mismatch.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeRng, randomConfigs } from './random.mjs';
import { loadWasmAfterChecks, runNative, runWasm } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

function parseArgs(argv) {
  const opts = {
    count: 1000,
    seed: 20261129,
    native: path.join(repo, 'build/native/speccalc'),
    dist: path.join(repo, 'dist'),
    jobs: 2,
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--count') opts.count = Number(next());
    else if (a === '--seed') opts.seed = Number(next());
    else if (a === '--native') opts.native = path.resolve(next());
    else if (a === '--dist') opts.dist = path.resolve(next());
    else if (a === '--jobs') opts.jobs = Number(next());
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

function randomTree(rng, maxNodes, maxDepth) {
  const paths = [];
  const seen = new Set();
  const n = rng.int(0, maxNodes);
  for (let tries = 0; paths.length < n && tries < 20 * n; tries++) {
    const parent = paths.length && rng.chance(0.7) ? rng.pick(paths) : [];
    if (parent.length >= maxDepth) continue;
    const child = parent.concat([rng.chance(0.6) ? 0 : rng.int(0, 9)]);
    const key = child.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    paths.push(child);
  }
  return paths;
}

function randomAcceptance(rng) {
  switch (rng.int(0, 5)) {
    case 0:
      return { alpha: rng.prob() };
    case 1:
      return { per_position: Array.from({ length: rng.int(1, 10) }, () => rng.prob()) };
    case 2:
      return { medusa: rng.pick(['vicuna-7b', 'vicuna-13b', 'vicuna-33b', 'zephyr-7b', 'nope']) };
    case 3: {
      const rows = Array.from({ length: rng.int(1, 8) }, () => {
        let acc = 0;
        return Array.from(
          { length: rng.int(1, 8) },
          () => (acc = Math.min(1, acc + rng.next() * 0.3)),
        );
      });
      return { topk_accuracy: rows };
    }
    case 4:
      return { rank_vector: Array.from({ length: rng.int(1, 6) }, () => rng.next() / 6) };
    default:
      return {
        p: Array.from({ length: rng.int(1, 8) }, () => {
          let left = 1;
          return Array.from({ length: rng.int(1, 6) }, () => {
            const v = rng.chance(0.5)
              ? Math.round(rng.next() * left * 1000) / 1000
              : rng.next() * left;
            left = Math.max(0, left - v);
            return v;
          });
        }),
      };
  }
}

function randomDraft(rng, allowEagle2) {
  switch (rng.int(0, allowEagle2 ? 3 : 2)) {
    case 0:
      return { k: rng.int(1, 16) };
    case 1:
      return { choices: randomTree(rng, 60, 8) };
    case 2:
      return { preset: rng.pick(['eagle1', 'medusa-mc_sim_7b_63']) };
    default:
      return {
        eagle2: { total_token: rng.int(2, 80), depth: rng.int(0, 8), top_k: rng.int(1, 12) },
      };
  }
}

// One random request: [command, input text].
function randomRequest(rng, configs) {
  switch (rng.int(0, 7)) {
    case 0: {
      const req = { choices: randomTree(rng, 80, 10), acceptance: randomAcceptance(rng) };
      if (rng.chance(0.2)) req.simulate = { trials: rng.int(1, 2000), seed: rng.int(0, 1000) };
      return ['tree-expect', req];
    }
    case 1: {
      const req = { acceptance: randomAcceptance(rng), budget: rng.int(1, 200) };
      if (rng.chance(0.5)) req.max_depth = rng.int(1, 12);
      if (rng.chance(0.5)) req.max_rank = rng.int(1, 12);
      if (rng.chance(0.2)) {
        req.contiguous = true;
        req.budget = rng.int(1, 40);
      }
      return ['tree-optimize', req];
    }
    case 2: {
      if (rng.chance(0.3))
        return ['tree-preset', rng.pick(['eagle1', 'medusa-mc_sim_7b_63', 'medusa', 'hydra'])];
      return [
        'tree-preset',
        {
          name: 'eagle2',
          acceptance: randomAcceptance(rng),
          total_token: rng.int(2, 100),
          depth: rng.int(0, 8),
          top_k: rng.int(1, 12),
        },
      ];
    }
    case 3: {
      const req = { ...randomDraft(rng, true), tau: 1 + rng.next() * rng.int(1, 8) };
      if (rng.chance(0.3) && !req.eagle2) {
        req.family = 'scale';
        req.acceptance = randomAcceptance(rng);
      }
      return ['tree-calibrate', req];
    }
    case 4: {
      const req = randomDraft(rng, false);
      const metric = rng.pick([
        'alpha',
        'tau',
        'tau_without_bonus',
        'mean_acceptance_length',
        'draft_acceptance_rate',
        'per_position',
        'per_position_joint',
      ]);
      if (metric === 'per_position' || metric === 'per_position_joint') {
        let v = 1;
        req[metric] = Array.from({ length: rng.int(1, 8) }, () =>
          metric === 'per_position' ? rng.prob() : (v *= rng.next()),
        );
      } else {
        req[metric] =
          metric === 'alpha' || metric === 'draft_acceptance_rate'
            ? rng.prob()
            : 1 + rng.next() * 4;
      }
      return ['convert', req];
    }
    case 5: {
      const axes = [
        { path: 'batch', values: [1, rng.int(2, 64), rng.int(65, 4096)] },
        { path: 'acceptance.alpha', values: [0, rng.prob(), 1] },
        { path: 'context', values: [0, rng.int(1, 1 << 20)] },
        { path: 'method.family', values: ['ar', 'sps', 'eagle2', 'medusa'] },
        { path: 'hardware', values: ['a100-80gb-sxm', 'h100-sxm', 'no-such-gpu'] },
      ];
      const n = rng.int(1, 3);
      const chosen = [];
      while (chosen.length < n) {
        const a = rng.pick(axes);
        if (!chosen.includes(a)) chosen.push(a);
      }
      return [
        'sweep',
        { config: rng.pick(configs), axes: chosen, detail: rng.chance(0.2) ? 'full' : 'summary' },
      ];
    }
    default: {
      // A link built from a random config, then perhaps damaged.
      const cfg = rng.pick(configs);
      const parts = ['v=1'];
      for (const [k, v] of Object.entries(cfg)) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
          for (const [k2, v2] of Object.entries(v))
            parts.push(
              `${k}.${k2}=${encodeURIComponent(typeof v2 === 'string' ? v2 : JSON.stringify(v2))}`,
            );
        } else {
          parts.push(`${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`);
        }
      }
      let link = parts.join('&');
      const damage = rng.int(0, 5);
      if (damage === 1) link = link.replace(/%[0-9A-F]{2}/, '%G');
      if (damage === 2)
        link +=
          '&' +
          rng.pick(
            parts
              .slice(1)
              .concat(['v=1', 'v=2', 'x=%FF', 'target=%E2%82', 'batch=[[[[[[[[[1]]]]]]]]]']),
          );
      if (damage === 3) link = '#' + link + '&acceptance.tau=' + rng.int(1, 70);
      if (damage === 4) link = link.slice(0, rng.int(0, link.length));
      return [rng.chance(0.5) ? 'decode-link' : 'eval-link', link];
    }
  }
}

// Results as one comparable string. The CLI prints newlines in an error message as spaces
// (one line on stderr), so the WASM side's message is compared the same way.
const asText = (r) => (r.ok ? `ok\n${r.text}` : `error\n${r.text.replace(/[\r\n]/g, ' ')}`);

async function main() {
  const opts = parseArgs(process.argv);
  const started = Date.now();
  const mod = await loadWasmAfterChecks(opts.dist, opts.native);

  const configs = randomConfigs(opts.seed ^ 0x5bd1e995, 50);
  const rng = makeRng(opts.seed);
  const cases = Array.from({ length: opts.count }, (_, i) => {
    const [command, input] = randomRequest(rng, configs);
    return { i, command, input: typeof input === 'string' ? input : JSON.stringify(input) };
  });

  let next = 0;
  const failures = [];
  const okCount = {};
  async function worker() {
    while (next < cases.length) {
      const c = cases[next++];
      const native = asText(await runNative(opts.native, c.command, c.input));
      const w = asText(runWasm(mod, c.command, c.input));
      if (native !== w) failures.push({ c, native, wasm: w });
      const key = `${c.command} ${w.startsWith('ok') ? 'ok' : 'error'}`;
      okCount[key] = (okCount[key] || 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));

  for (const f of failures.slice(0, 10)) {
    console.log(
      `FAIL case ${f.c.i} (seed ${opts.seed}) ${f.c.command} ${f.c.input.slice(0, 300)}\n  native ${f.native.slice(0, 300)}\n  wasm   ${f.wasm.slice(0, 300)}`,
    );
  }
  const summary = Object.entries(okCount)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `property: ${cases.length} random requests (seed ${opts.seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s: ${summary}`,
  );
  console.log(`${cases.length - failures.length} passed, ${failures.length} failed`);
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((err) => {
  console.error(`property: ${err.stack || err.message}`);
  process.exitCode = 1;
});
