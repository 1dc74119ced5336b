// Seeded generator of valid SpecCalc v1 configs for the parity test. Deterministic for a
// given seed (mulberry32), independent of Node's Math.random. Preset ids come from the
// same embedded tables core uses (core/data/*.json), so new presets are picked up.
// Numbers are deliberately a mix of round values and full 17-digit doubles, so the
// shortest-round-trip printing of both builds is exercised too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../core/data');

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Seeded generator shared by the parity runners (run.mjs via randomConfigs, property.mjs).
export function makeRng(seed) {
  const next = mulberry32(seed);
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // inclusive
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    // Uniform in [lo, hi]: sometimes rounded to 3 decimals, sometimes a raw double.
    real: (lo, hi) => {
      const x = lo + next() * (hi - lo);
      return r.chance(0.5) ? Math.min(hi, Math.max(lo, Math.round(x * 1000) / 1000)) : x;
    },
    // Sometimes a round value, sometimes a full 17-digit double, sometimes an edge (0 or 1).
    prob: () =>
      r.chance(0.15) ? r.pick([0, 1]) : r.chance(0.5) ? Math.round(next() * 1000) / 1000 : next(),
    // Log-uniform integer in [lo, hi].
    logInt: (lo, hi) =>
      Math.min(
        hi,
        Math.max(lo, Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))))),
      ),
  };
  return r;
}

function loadTables() {
  const models = JSON.parse(fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8'));
  const hw = JSON.parse(fs.readFileSync(path.join(dataDir, 'hardware.json'), 'utf8'));
  const rt = JSON.parse(fs.readFileSync(path.join(dataDir, 'runtimes.json'), 'utf8'));
  return {
    targets: models.targets.map((m) => ({
      id: m.id,
      heads: m.heads,
      kv_heads: m.kv_heads,
      params: m.total_params,
      vocab: m.vocab,
      layers: m.num_layers,
      positions: m.max_position_embeddings || 0,
    })),
    drafts: models.drafts.map((m) => m.id),
    draftVocab: Object.fromEntries(models.drafts.map((m) => [m.id, m.vocab])),
    draftPositions: Object.fromEntries(
      models.drafts.map((m) => [m.id, m.max_position_embeddings || 0]),
    ),
    profiles: Object.fromEntries(rt.profiles.map((p) => [p.id, p])),
    gpus: hw.gpus.map((g) => ({
      id: g.id,
      interconnect: g.interconnect_GBps || 0,
      vendor: g.vendor || 'NVIDIA',
    })),
    runtimes: rt.profiles.map((p) => p.id),
    runtimeParams: Object.keys(rt.profiles[0].params),
  };
}

const DTYPES = ['fp16', 'bf16', 'fp8', 'int8', 'int4'];
const KV_DTYPES = ['fp16', 'bf16', 'fp8', 'int8'];
// Local engines run their own formats (runtimes.json weight_formats; the core's rule is
// engine_runs_weights / engine_runs_kv): a sample of each, so the generator stays valid.
const LOCAL_DTYPES = {
  gguf: { weights: ['fp16', 'q4_k_m', 'q8_0', 'q4_0', 'iq4_xs'], kv: ['fp16', 'q8_0', 'q4_0'] },
  mlx: { weights: ['bf16', 'mlx_4bit', 'mlx_8bit'], kv: ['fp16'] },
};

function customTarget(rng) {
  const headDim = rng.pick([64, 80, 96, 128, 256]);
  const heads = rng.pick([4, 8, 12, 16, 28, 32, 40, 52, 64, 96, 128]);
  const kvDivisors = [1, 2, 4, 8, 16, 32, 64, 128].filter((d) => heads % d === 0);
  const experts = rng.chance(0.2) ? rng.pick([2, 4, 8, 16, 64]) : 1;
  const t = {
    name: `random-${rng.int(0, 9999)}`,
    num_layers: rng.int(1, 128),
    hidden: heads * headDim,
    intermediate: rng.int(1, 64) * 256,
    heads,
    kv_heads: rng.pick(kvDivisors),
    vocab: rng.pick([32000, 32768, 50257, 128256, 151936, rng.int(1000, 300000)]),
  };
  if (rng.chance(0.5)) t.head_dim = headDim;
  else if (rng.chance(0.2)) {
    t.head_dim = rng.pick([64, 128]);
  } // head_dim independent of hidden/heads
  if (rng.chance(0.5)) t.tied_embeddings = rng.chance(0.5);
  if (experts > 1 || rng.chance(0.2)) {
    t.experts = experts;
    t.experts_per_token = rng.int(1, Math.min(experts, 8));
  }
  if (rng.chance(0.3)) t.qkv_bias = rng.chance(0.5);
  return t;
}

function customGpu(rng) {
  const g = {
    fp16_tflops: rng.real(1, 5000),
    mem_bw_gbps: rng.real(50, 20000),
  };
  if (rng.chance(0.5)) g.name = `gpu-${rng.int(0, 999)}`;
  if (rng.chance(0.5)) g.fp8_tflops = rng.chance(0.3) ? 0 : rng.real(1, 10000);
  if (rng.chance(0.6)) g.mem_gb = rng.real(8, 288);
  g.interconnect_gbps = rng.chance(0.1) ? 0 : rng.real(8, 1800);
  return g;
}

// A random prefix-closed tree of sibling-rank paths with at most maxDepth levels.
function randomTree(rng, maxNodes, maxDepth) {
  const paths = [];
  const seen = new Set();
  const n = rng.int(1, maxNodes);
  for (let tries = 0; paths.length < n && tries < 20 * n; tries++) {
    const parent = paths.length && rng.chance(0.7) ? rng.pick(paths) : [];
    if (parent.length >= maxDepth) continue;
    const child = parent.concat([rng.chance(0.6) ? 0 : rng.int(0, 9)]);
    const key = child.join(',');
    if (seen.has(key)) continue;
    // Ranks need not be contiguous for the parser; keep them contiguous anyway (real trees are).
    const rank = child[child.length - 1];
    if (rank > 0 && !seen.has(parent.concat([rank - 1]).join(','))) continue;
    seen.add(key);
    paths.push(child);
  }
  return paths;
}

// Turns a drafted tree into a chain for engines that verify chains only.
function chainOnly(m) {
  if (m.family === 'eagle2' || m.family === 'eagle3') {
    const depth = m.depth ?? (m.family === 'eagle2' ? 6 : 8);
    m.depth = depth;
    m.top_k = 1;
    m.total_token = depth + 1;
  } else if (m.family === 'medusa' || m.family === 'hydra' || m.family === 'eagle1') {
    const depth =
      m.family === 'eagle1' ? 4 : Math.min(m.heads ?? (m.family === 'medusa' ? 5 : 4), 4);
    m.choices = Array.from({ length: depth }, (_, i) => Array(i + 1).fill(0));
  }
}

function method(rng, tables, family) {
  const m = { family };
  switch (family) {
    case 'ar':
      break;
    case 'sps':
      if (rng.chance(0.9)) m.draft = rng.pick(tables.drafts);
      if (rng.chance(0.9)) m.k = rng.int(0, 16);
      break;
    case 'pld':
      if (rng.chance(0.8)) m.k = rng.int(0, 64);
      if (rng.chance(0.7)) m.ngram = rng.int(1, 16);
      if (rng.chance(0.4)) m.draft_cpu_s = rng.real(0, 0.01);
      break;
    case 'lookahead':
      if (rng.chance(0.8)) m.window = rng.int(1, 64);
      if (rng.chance(0.8)) m.ngram = rng.int(2, 16);
      if (rng.chance(0.8)) m.guess = rng.int(0, 64);
      break;
    case 'medusa':
    case 'hydra': {
      const heads = rng.int(1, 16);
      if (rng.chance(0.7)) {
        m.heads = heads;
        m.choices = randomTree(rng, 80, heads);
      }
      if (rng.chance(0.3)) m.typical_acceptance = rng.chance(0.5);
      break;
    }
    case 'eagle1':
      if (rng.chance(0.7)) m.choices = randomTree(rng, 80, 10);
      break;
    case 'eagle2':
    case 'eagle3': {
      const depth = rng.int(1, 12);
      const topK = rng.int(1, 12);
      m.depth = depth;
      m.top_k = topK;
      const cap = Math.min(1024, 1 + topK + (depth - 1) * topK * topK);
      if (rng.chance(0.8)) m.total_token = rng.int(2, Math.max(2, cap));
      else if (cap < 60) m.total_token = cap; // the default (48..60) could exceed a small draft
      break;
    }
  }
  return m;
}

// maxTau: the most tokens a cycle can yield (draft depth + 1) when the generator knows it
// from the method's own parameters; core rejects a larger tau. Unknown depth: 2 is safe for
// every speculative method (each drafts at least one level).
function acceptance(rng, maxTau) {
  switch (rng.int(0, 3)) {
    case 0:
      return { tau: maxTau <= 1 ? 1 : rng.real(1, maxTau) };
    case 1:
      return { alpha: rng.chance(0.1) ? rng.pick([0, 1]) : rng.real(0, 1) };
    case 2:
      return { per_position: Array.from({ length: rng.int(1, 12) }, () => rng.real(0, 1)) };
    default: {
      // Tree matrix p[depth][rank]: each row sums to at most 1.
      return {
        p: Array.from({ length: rng.int(1, 8) }, () => {
          let left = 1;
          return Array.from({ length: rng.int(1, 6) }, () => {
            const v = Math.round(rng.next() * left * 1000) / 1000;
            left = Math.max(0, left - v);
            return v;
          });
        }),
      };
    }
  }
}

function maxTauOf(m) {
  switch (m.family) {
    case 'ar':
      return 1;
    case 'sps':
      return m.k !== undefined ? m.k + 1 : 5; // default k = 4
    case 'pld':
      return m.k !== undefined ? m.k + 1 : 11; // default k = 10
    case 'medusa':
    case 'hydra':
    case 'eagle1':
      return Array.isArray(m.choices) ? 1 + Math.max(...m.choices.map((c) => c.length)) : 2;
    default:
      return 2;
  }
}

function oneConfig(rng, tables) {
  const cfg = {};
  let heads = 32;
  let kvHeads = 8;
  let vocab = 32000;
  let layers = 32;
  let interconnect = 0;
  let smallPreset = false;
  let positions = 0; // the target's max_position_embeddings (0: no limit)
  if (rng.chance(0.85)) {
    const t = rng.pick(tables.targets);
    cfg.target = t.id;
    positions = t.positions;
    smallPreset = t.params < 10e9;
    heads = t.heads;
    kvHeads = t.kv_heads;
    vocab = t.vocab;
    layers = t.layers;
  } else {
    cfg.target = customTarget(rng);
    heads = cfg.target.heads;
    kvHeads = cfg.target.kv_heads ?? heads;
    vocab = cfg.target.vocab;
    layers = cfg.target.num_layers;
  }
  const presetGpu = rng.chance(0.85);
  if (presetGpu) {
    const g = rng.pick(tables.gpus);
    cfg.hardware = g.id;
    interconnect = g.interconnect;
  } else {
    cfg.hardware = customGpu(rng);
    interconnect = cfg.hardware.interconnect_gbps;
  }
  // Tensor parallelism must divide the heads (or KV heads are replicated when fewer than gpus).
  const tp = [2, 4, 8, 16].filter(
    (g) =>
      interconnect > 0 &&
      heads % g === 0 &&
      (kvHeads % g === 0 || (kvHeads < g && g % kvHeads === 0)) &&
      g <= layers,
  );
  if (tp.length && rng.chance(0.3)) cfg.gpus = rng.pick(tp);
  else if (rng.chance(0.3)) cfg.gpus = 1;

  const rt = rng.int(0, 3);
  let profile = 'compiled'; // the config default
  if (rt === 1) cfg.runtime = profile = rng.pick(tables.runtimes);
  if (rt >= 2) {
    profile = rng.pick(tables.runtimes);
    cfg.runtime = { profile };
    for (const p of tables.runtimeParams) {
      if (rng.chance(0.3))
        // Efficiencies are fractions, *_s seconds, the rest whole counts (kernels, syncs, rows).
        cfg.runtime[p] = p.includes('efficiency')
          ? rng.real(0.05, 1)
          : p.endsWith('_s') || p === 'overlap'
            ? rng.real(0, 0.01)
            : rng.int(0, 64);
    }
  }
  if (rng.chance(0.8)) cfg.batch = rng.chance(0.5) ? rng.int(1, 8) : rng.logInt(1, 4096);
  // Below the model's configured positions: core refuses the rest (tested in the corpus).
  const longest = positions > 0 ? Math.min(131072, positions - 1) : 131072;
  if (rng.chance(0.8)) cfg.context = rng.chance(0.1) ? 0 : rng.logInt(1, longest);
  // A measured step must be slower than the roofline allows (core rejects it otherwise):
  // >= 0.06 s is safe for a <10B preset on any preset GPU at batch <= 8, context <= 8192.
  if (
    rt >= 2 &&
    smallPreset &&
    presetGpu &&
    (cfg.batch ?? 1) <= 8 &&
    (cfg.context ?? 1024) <= 8192 &&
    rng.chance(0.4)
  ) {
    cfg.runtime.measured_decode_step_s = rng.real(0.06, 1);
  }
  // An engine bound to some vendors (runtimes.json vendors) runs on one of them, one without a
  // list on any GPU (a CPU device runs only under the engine that names it, llama.cpp-cpu); a
  // single-device engine on one GPU.
  const bound = tables.profiles[profile];
  const vendor = presetGpu
    ? tables.gpus.find((g) => g.id === cfg.hardware).vendor
    : (cfg.hardware.vendor ?? 'NVIDIA');
  const runsOn = (v) => (bound.vendors ? bound.vendors.includes(v) : v !== 'CPU');
  if (!runsOn(vendor)) {
    const fits = tables.gpus.filter((g) => runsOn(g.vendor));
    cfg.hardware = rng.pick(fits).id;
    delete cfg.gpus;
  }
  if (bound.single_device) delete cfg.gpus;
  const formats = LOCAL_DTYPES[bound.weight_formats];
  const weights = formats ? formats.weights : DTYPES;
  const kvs = formats ? formats.kv : KV_DTYPES;
  const dt = rng.int(0, 2);
  if (dt === 1) cfg.dtype = rng.pick(weights);
  if (dt === 2) {
    cfg.dtype = {};
    if (rng.chance(0.8)) cfg.dtype.weights = rng.pick(weights);
    if (rng.chance(0.8)) cfg.dtype.kv = rng.pick(kvs);
  }
  // Only what the engine runs (runtimes.json families), chains on chain-only engines, and draft
  // models that share the target's vocabulary: core refuses the rest (tested in the corpus).
  const engine = tables.profiles[profile];
  const drafts = tables.drafts.filter((d) => tables.draftVocab[d] === vocab);
  const families = [
    'ar',
    'sps',
    'pld',
    'lookahead',
    'medusa',
    'hydra',
    'eagle1',
    'eagle2',
    'eagle3',
  ].filter((f) => engine.families.includes(f) && (f !== 'sps' || drafts.length > 0));
  const family = rng.pick(families);
  cfg.method = method(rng, { ...tables, drafts }, family);
  if (!engine.trees) chainOnly(cfg.method);
  // The default draft (vicuna-68m) has a 32k vocabulary: name one that matches otherwise.
  if (family === 'sps' && !cfg.method.draft && !drafts.includes('vicuna-68m'))
    cfg.method.draft = rng.pick(drafts);
  // An SpS draft reads the same context: keep it below the draft's positions too.
  const draftPositions = family === 'sps' ? tables.draftPositions[cfg.method.draft] || 0 : 0;
  if (draftPositions > 0 && (cfg.context ?? 1024) >= draftPositions)
    cfg.context = draftPositions - 1;
  if (rng.chance(0.9)) cfg.acceptance = acceptance(rng, maxTauOf(cfg.method));
  if (rng.chance(0.2)) cfg.version = 1;
  return cfg;
}

// `count` configs from `seed`. Each config gets its own sub-seed, so config i does not
// change when the generator's use of randomness for config i-1 changes.
export function randomConfigs(seed, count) {
  const tables = loadTables();
  const seeds = makeRng(seed);
  return Array.from({ length: count }, () =>
    oneConfig(makeRng(Math.floor(seeds.next() * 2 ** 32)), tables),
  );
}
