#!/usr/bin/env node
// Checks the engine profiles against forward passes timed on a GPU (docs/calibration/, made by
// scripts/gpu/time_forward_pass.py): for every measured point, the core's time for the same pass
// (same shapes, batch, tokens per sequence, context, GPU) under each profile, and the error.
//   full passes, graph replay  -> profiles `compiled` and `vllm` (verify pass time_per_pass_s)
//   full passes, eager         -> profile `hf-eager`
//   matmuls only (no norms, attention, rotary; graph replay) -> the core's gemm + lm_head
//                                 kernel times under `compiled` and `vllm`
// Usage: node scripts/gpu/compare_profiles.mjs [timings.json] [--json OUT] [--svg OUT] [--check]
// Prints per-group errors; --json writes every point; --svg draws measured vs predicted;
// --check exits 1 unless the vllm profile prices the timed GEMMs + LM head within 8 % MAPE and
// every point within 20 % (the weights-streaming and knee physics; docs/calibration/README.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNativeBatch } from '../../tests/parity/harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : null;
};
const input = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const timings = JSON.parse(
  readFileSync(input ?? join(root, 'docs/calibration/h200-forward-pass.json'), 'utf8'),
);
const bin = join(root, 'build/native/speccalc');

// The timed shapes as the core's custom targets (docs/config.md), each config.json's numbers;
// no context limit (max_position_embeddings 0) so the long-context points price as timed.
const TARGETS = {
  'llama-2-7b': {
    name: 'Llama-2-7B (timed shape)',
    num_layers: 32,
    hidden: 4096,
    intermediate: 11008,
    heads: 32,
    vocab: 32000,
  },
  'llama-3.1-8b': {
    name: 'Llama-3.1-8B (timed shape)',
    num_layers: 32,
    hidden: 4096,
    intermediate: 14336,
    heads: 32,
    kv_heads: 8,
    vocab: 128256,
  },
  'llama-68m': {
    name: 'llama-68m (timed shape)',
    num_layers: 2,
    hidden: 768,
    intermediate: 3072,
    heads: 12,
    vocab: 32000,
  },
  // OPT-1.3B's FFN is two matrices of 2048 x 8192; a gated FFN of 2/3 the width moves the same
  // weight bytes and FLOPs (3 x 2048 x 5461 ~= 2 x 2048 x 8192), which is what the core counts.
  'opt-1.3b-shape': {
    name: 'opt-1.3b shape (timed)',
    num_layers: 24,
    hidden: 2048,
    intermediate: 5461,
    heads: 32,
    vocab: 50272,
  },
};
// The timed stack itself, as the core can state it: the generic CUDA-graph profile with the
// stack's own kernel counts (scripts/gpu/time_forward_pass.py Stack.forward: per layer 34 small
// kernels = 2 HF-style RMSNorms of 8, rotary 5 each for q and k, 2 cache writes, attention,
// the head-merge copy, silu, mul, 2 residual adds; 4 GEMMs; per pass the final RMSNorm's 8)
// and the per-kernel floor measured on the same GPU (docs/calibration/h200-kernel-floor.json:
// 1.9 us per kernel of a float/pow/mean chain; 2.0 us per small kernel inside the timed layer).
const TIMED_STACK = {
  profile: 'compiled',
  kernel_floor_s: 2.0e-6,
  kernels_per_layer: 34,
  gemm_kernels_per_layer: 4,
  kernels_per_pass: 8,
};
// Research code in CUDA graphs (Sequoia's counts, hf-eager's device terms, the 2.5 us floor
// stated for an A100) with its host time taken out: the timed loop replays the graph back to
// back, with no Python around a pass and no decode loop (the profile's pass_overhead_s and the
// HF greedy loop's counted ops price those). The device part of the stored profile, on another
// GPU and another stack's kernel counts.
const HF_GRAPHS_DEVICE = {
  profile: 'hf-graphs',
  pass_overhead_s: 0,
  method_op_s: 0,
  host_sync_s: 0,
};
const GRAPH_PROFILES = ['compiled', 'vllm', HF_GRAPHS_DEVICE, TIMED_STACK];
// Eager passes: the research-code profile, but the timed stack attends with PyTorch's fused
// SDPA kernel (time_forward_pass.py), which keeps the scores on chip; EAGLE's eager attention
// writes them out (score_bytes_per_element 24), so the stack is priced with 0.
const EAGER_STACK = { profile: 'hf-eager', score_bytes_per_element: 0 };
const profileName = (p) =>
  typeof p === 'string'
    ? p
    : p.profile === 'hf-eager'
      ? 'hf-eager with fused attention'
      : p.profile === 'hf-graphs'
        ? 'hf-graphs device time'
        : 'compiled + timed-stack kernels';
const TREES = new Set(['compiled', 'hf-eager', 'sglang', 'tensorrt-llm']);

// A pass of q tokens per sequence: the plain decode step (q = 1) or the verify pass of a chain
// of q - 1 drafts (the draft is the target itself: only the verify pass is read) or of a tree
// of q tokens where chains stop.
function method(profile, q, target) {
  if (q === 1) return { family: 'ar' };
  if (q <= 65) return { family: 'sps', k: q - 1, draft: target };
  if (!TREES.has(typeof profile === 'string' ? profile : profile.profile)) return null; // chains stop at k = 64
  return { family: 'eagle2', total_token: q, depth: 10, top_k: 10 };
}

const items = [];
const rows = [];
for (const p of timings.points) {
  if (p.error || !(p.model in TARGETS)) continue;
  const profiles = p.mode === 'eager' ? [EAGER_STACK] : GRAPH_PROFILES;
  for (const profile of profiles) {
    const m = method(profile, p.q, TARGETS[p.model]);
    if (!m) continue;
    const config = {
      target: TARGETS[p.model],
      hardware: 'h200-sxm',
      runtime: profile,
      method: m,
      batch: p.batch,
      context: p.context,
      dtype: 'bf16',
    };
    rows.push({ ...p, profile: profileName(profile) });
    items.push({ command: 'eval', input: JSON.stringify(config) });
  }
}
const results = await runNativeBatch(bin, items, 600000);
const out = [];
rows.forEach((r, i) => {
  const res = results[i];
  if (!res.ok) {
    out.push({ ...r, predicted_ms: null, error: res.text });
    return;
  }
  const e = JSON.parse(res.text);
  const pass = r.q === 1 ? e.baseline : e.verify;
  let predicted_s = pass.time_per_pass_s;
  if (r.part === 'matmuls') {
    predicted_s = pass.kernels
      .filter((k) => k.kind === 'gemm' || k.kind === 'lm_head')
      .reduce((s, k) => s + k.time_s, 0);
  }
  const predicted_ms = predicted_s * 1e3;
  out.push({ ...r, predicted_ms, rel_error: predicted_ms / r.median_ms - 1 });
});

const groups = new Map();
for (const r of out) {
  if (r.rel_error === undefined) continue;
  const key = `${r.model} ${r.mode} ${r.part} -> ${r.profile}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(r.rel_error);
}
const pct = (x) => `${(100 * x).toFixed(1)} %`;
console.log('group (measured -> profile)                      points  MAPE    mean signed  worst');
for (const [key, errs] of groups) {
  const mape = errs.reduce((s, e) => s + Math.abs(e), 0) / errs.length;
  const mean = errs.reduce((s, e) => s + e, 0) / errs.length;
  const worst = errs.reduce((w, e) => (Math.abs(e) > Math.abs(w) ? e : w), 0);
  console.log(
    `${key.padEnd(48)} ${String(errs.length).padStart(6)}  ${pct(mape).padStart(7)} ${pct(mean).padStart(10)}  ${pct(worst).padStart(8)}`,
  );
}
const failed = out.filter((r) => r.predicted_ms === null);
if (failed.length)
  console.log(`${failed.length} points the core refused, first: ${failed[0].error}`);

// --check: three physics checks that must keep holding against the timings.
//  1. The vllm profile's GEMM + LM head time (weights streaming, the knee) within 8 % MAPE and
//     20 % at every point of the timed GEMMs.
//  2. The kernel floor: the llama-68m-shaped pass (2 layers; its time is almost all small
//     kernels) priced with the timed stack's own kernel counts and the floor measured on the
//     same card (TIMED_STACK) within 15 % MAPE. Without a floor the core says 65 % less.
//  3. The stored hf-graphs profile's device time (never fitted on these timings) on the two
//     draft-sized unfused passes (llama-68m, the OPT-1.3B shape) within 15 % MAPE, 30 % at
//     worst, with the floor it states (2.5 us, inside the cited 1.5-4 us; this card: 2.0 us).
function checkGroup(label, rows, maxMape, maxWorst) {
  const errs = rows.map((r) => r.rel_error).filter((e) => Number.isFinite(e));
  const mape = errs.reduce((s, e) => s + Math.abs(e), 0) / errs.length;
  const worst = Math.max(...errs.map(Math.abs));
  const ok =
    errs.length === rows.length && errs.length >= 9 && mape <= maxMape && worst <= maxWorst;
  console.log(
    `${ok ? 'ok' : 'FAILED'}: ${label}: ${errs.length} points, MAPE ${pct(mape)} ` +
      `(<= ${pct(maxMape)}), worst ${pct(worst)} (<= ${pct(maxWorst)})`,
  );
  return ok;
}
if (args.includes('--check')) {
  const gemm = checkGroup(
    'vllm GEMMs + LM head vs the H200 timings',
    out.filter((r) => r.model === 'llama-2-7b' && r.part === 'matmuls' && r.profile === 'vllm'),
    0.08,
    0.2,
  );
  const floor = checkGroup(
    'llama-68m pass with the timed stack kernel counts and floor',
    out.filter(
      (r) =>
        r.model === 'llama-68m' && r.mode === 'graph' && r.profile === profileName(TIMED_STACK),
    ),
    0.15,
    0.3,
  );
  const graphs = checkGroup(
    'hf-graphs device time on the draft-sized unfused graph passes',
    out.filter(
      (r) =>
        (r.model === 'llama-68m' || r.model === 'opt-1.3b-shape') &&
        r.mode === 'graph' &&
        r.profile === profileName(HF_GRAPHS_DEVICE),
    ),
    0.15,
    0.3,
  );
  if (!gemm || !floor || !graphs) process.exit(1);
}

const jsonOut = flag('--json');
if (jsonOut)
  writeFileSync(
    jsonOut,
    JSON.stringify(
      { source: input ?? 'docs/calibration/h200-forward-pass.json', points: out },
      null,
      1,
    ) + '\n',
  );
const svgOut = flag('--svg');
if (svgOut) {
  const { drawComparison } = await import('./comparison_svg.mjs');
  writeFileSync(svgOut, drawComparison(out, timings.meta));
}
