// A stand-in for wasm/speccalc-api.mjs with the same interface, for developing the page's views
// before the core exists (tests/browser/dev.mjs serves web/ with it). Its numbers are made up:
// never used by the browser tests, which run against the real WASM core in dist/.
export class SpecCalcError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'SpecCalcError';
    this.field = field;
  }
}

const DEFAULTS = {
  target: 'llama2-chat-7b',
  hardware: 'a100-80gb-sxm',
  gpus: 1,
  runtime: 'hf-eager',
  batch: 1,
  context: 1024,
  dtype: { weights: 'fp16', kv: 'fp16' },
};
const METHOD_DEFAULTS = {
  ar: {},
  sps: { draft: 'llama-68m', k: 4 },
  pld: { k: 10, ngram: 3 },
  lookahead: { window: 7, ngram: 7, guess: 7 },
  medusa: { heads: 4, choices: [[0], [1], [0, 0]] },
  hydra: { heads: 4, choices: [[0], [0, 0]] },
  eagle1: { choices: [[0], [1], [0, 0], [0, 1]] },
  eagle2: { total_token: 60, depth: 5, top_k: 10 },
  eagle3: { total_token: 60, depth: 7, top_k: 10 },
};

function normalize(c) {
  const out = { ...DEFAULTS, ...c };
  if (typeof out.dtype === 'string') out.dtype = { weights: out.dtype, kv: out.dtype };
  const family = (c.method && c.method.family) || 'sps';
  if (!(family in METHOD_DEFAULTS))
    throw new SpecCalcError('method.family', `unknown family '${family}'`);
  out.method = { family, ...METHOD_DEFAULTS[family], ...c.method };
  out.acceptance = c.acceptance || { alpha: 0.7 };
  for (const k of ['batch', 'context', 'gpus']) {
    if (typeof out[k] !== 'number' || !Number.isInteger(out[k]) || out[k] < 1)
      throw new SpecCalcError(k, 'must be a positive integer');
  }
  if ('k' in out.method && (typeof out.method.k !== 'number' || out.method.k < 1))
    throw new SpecCalcError('method.k', 'must be an integer in [1, 64]');
  const a = out.acceptance;
  if ('alpha' in a && (typeof a.alpha !== 'number' || a.alpha < 0 || a.alpha > 1))
    throw new SpecCalcError('acceptance.alpha', 'must be a number in [0, 1]');
  return out;
}

function pass(t, flops, bytes, bound, n = 1) {
  const kernels =
    bound === 'none'
      ? []
      : [
          {
            kind: 'gemm',
            time_s: (t * 0.7) / n,
            flops: (flops * 0.9) / n,
            bytes: (bytes * 0.8) / n,
            bound,
          },
          {
            kind: 'attention',
            time_s: (t * 0.2) / n,
            flops: (flops * 0.05) / n,
            bytes: (bytes * 0.15) / n,
            bound: 'memory',
          },
          {
            kind: 'lm_head',
            time_s: (t * 0.05) / n,
            flops: (flops * 0.05) / n,
            bytes: (bytes * 0.05) / n,
            bound: 'memory',
          },
          { kind: 'other', time_s: (t * 0.05) / n, flops: 0, bytes: 0, bound: 'overhead' },
        ];
  return {
    time_s: t,
    flops,
    bytes,
    weights_bytes: bytes * 0.9,
    kv_cache_bytes: bytes * 0.1,
    activations_bytes: 0,
    arithmetic_intensity: bytes ? flops / bytes : 0,
    bound,
    tokens_per_pass: 1,
    passes_per_cycle: n,
    time_per_pass_s: t / n,
    flops_per_pass: flops / n,
    bytes_per_pass: bytes / n,
    scope: 'per_gpu',
    kernels,
  };
}

function evaluate(c) {
  const k = c.method.k || 4;
  const a = c.acceptance.alpha ?? 0.7;
  let tau = c.acceptance.tau ?? (1 - a ** (k + 1)) / (1 - a);
  if (c.method.family === 'ar') tau = 1;
  const base = 0.0242 * (1 + c.batch / 64);
  const draft = c.method.family === 'pld' ? 0 : 0.002 * k;
  const cycle = base * (1 + ((c.batch / 32) * k) / 8) + draft;
  const kv = (0.5 * c.batch * c.context) / 1024;
  const total = 13.5 + kv + 1;
  const fits = total <= 72;
  const speedup = (tau / cycle) * base;
  let verdict = speedup > 1 ? 'pays' : 'loses';
  if (c.method.family === 'ar') verdict = 'baseline';
  if (!fits) verdict = 'infeasible';
  return {
    verdict,
    verdict_reason: `FAKE: ${verdict}.`,
    tau_definition: 'fake',
    memory: {
      capacity_gb_per_gpu: 80,
      usable_gb_per_gpu: 72,
      memory_utilization: 0.9,
      weights_gb_per_gpu: 13.5,
      draft_weights_gb_per_gpu: 0.14,
      kv_cache_gb_per_gpu: kv,
      activations_gb_per_gpu: 1,
      total_gb_per_gpu: total,
      fits,
      max_batch: fits ? 256 : 16,
      max_context: fits ? 32768 : 2048,
      suggestions: fits ? [] : ['FAKE: use batch 16 or less.', 'FAKE: use 2 GPUs.'],
    },
    cycle: {
      draft_s: draft,
      verify_s: cycle - draft - 0.001,
      overhead_s: 0.0008,
      comm_s: 0.0002,
      total_s: cycle,
    },
    engine: {
      id: c.runtime,
      name: c.runtime,
      summary: `FAKE engine ${c.runtime}.`,
      validated: c.runtime === 'hf-eager',
      validated_by: 'fake',
      supports: { families: Object.keys(METHOD_DEFAULTS), trees: true, tensor_parallel: true },
    },
    tau,
    speedup,
    tokens_per_s: (c.batch * tau) / cycle,
    baseline_tokens_per_s: c.batch / base,
    cycle_time_s: cycle,
    baseline: pass(base, 1.4e10 * c.batch, 1.4e10, 'memory'),
    verify: pass(cycle - draft, 1.4e10 * (k + 1) * c.batch, 1.45e10, 'memory'),
    draft: pass(draft, 1e8 * k, 1.4e8, draft ? 'memory' : 'none', k),
    assumptions: [
      'FAKE MODULE: numbers are made up for page development.',
      'Weights read once per pass.',
    ],
    roofline: { peak_flops_per_s: 312e12, bandwidth_bytes_per_s: 2.0e12 },
    config: c,
  };
}

function link(c) {
  const parts = ['v=1'];
  const walk = (obj, prefix) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v, key);
      else parts.push(`${key}=${encodeURIComponent(Array.isArray(v) ? JSON.stringify(v) : v)}`);
    }
  };
  walk(c, '');
  return parts.join('&');
}

function decode(text) {
  const frag = text.includes('#') ? text.slice(text.indexOf('#') + 1) : text;
  const params = new URLSearchParams(frag);
  if (params.get('v') !== '1')
    throw new SpecCalcError(
      'v',
      `unsupported link version '${params.get('v')}'; this build reads v=1`,
    );
  const c = {};
  for (const [key, raw] of params) {
    if (key === 'v') continue;
    const path = key.split('.');
    let o = c;
    while (path.length > 1) {
      const p = path.shift();
      o = o[p] = o[p] || {};
    }
    let v = raw;
    if (/^-?[\d.]+(e-?\d+)?$/.test(raw)) v = Number(raw);
    else if (raw.startsWith('[')) v = JSON.parse(raw);
    o[path[0]] = v;
  }
  return normalize(c);
}

const COMMANDS = {
  list: (kind) =>
    ({
      models: ['llama2-chat-7b', 'vicuna-7b-v1.3', 'llama3-instruct-70b'],
      drafts: ['llama-68m', 'vicuna-68m', 'llama3.2-1b'],
      hardware: ['a100-80gb-sxm', 'h100-sxm', 'rtx-3090'],
      methods: Object.keys(METHOD_DEFAULTS),
      runtimes: ['vllm', 'sglang', 'tensorrt-llm', 'hf-eager', 'compiled'].map((id) => ({
        id,
        name: id,
        description: `FAKE ${id}`,
      })),
    })[kind],
  normalize: (t) => normalize(JSON.parse(t)),
  eval: (t) => evaluate(normalize(JSON.parse(t))),
  link: (t) => link(normalize(JSON.parse(t))),
  'decode-link': decode,
  'eval-tree': () => ({
    tau: 2.0,
    choices: [[0], [0, 0]],
    nodes: 2,
    depth: 2,
    acceptance: 'FAKE',
    node_prob: [0.7, 0.3],
    tau_pmf: [0.3, 0.4, 0.3],
  }),
  export: () => ({ vllm: { '--speculative-config': '{"method":"fake"}' }, notes: ['FAKE export'] }),
};

export async function call(command, input) {
  const f = COMMANDS[command];
  if (!f) throw new SpecCalcError('command', `unknown command '${command}'`);
  const out = f(input);
  return typeof out === 'string' ? out : JSON.stringify(out);
}

// The worker (web/js/worker/core-worker.mjs) loads the module first; nothing to load here.
export async function load() {
  return null;
}
