// What a method's reference implementation does on the host per speculative cycle outside the
// model's passes: PyTorch ops it dispatches (each a kernel launch) and device-to-host syncs.
// Counted from the research code that produced the papers' timings (host_ops.cpp names the
// files); costed under runtimes with method_op_s / host_sync_s (hf-eager). Serving engines
// capture or fuse this work and carry it in cycle_overhead_s instead.
#pragma once

#include <string>

#include "speccalc/config.hpp"

namespace speccalc {

struct HostOps {
  double ops = 0;    // PyTorch ops dispatched outside the model's layers (GPU launches and the
                     // CPU-side tensor ops of EAGLE-2/3's tree build)
  double syncs = 0;  // device-to-host synchronizations
  // Syncs inside every decoder layer of the target's verify pass: the implementation's KV
  // cache (Medusa's kv_cache.py, copied by Hydra and EAGLE) reads its length from the GPU
  // (KVCache.shape .item(), narrow by a GPU length tensor in KVCache.cat for K and V): ~5
  // per layer. Host time the pass's launches pay on top of layer_overhead_s.
  double verify_syncs_per_layer = 0;
};

// Medusa's model code and the code copied from it (Hydra, EAGLE-1/2/3: modeling_llama_kv.py's
// LlamaAttention, EAGLE's cnets.py heads) computes attention as separate PyTorch ops that write
// the scores to memory and read them back. HF generate in transformers 4.37, which Spec-Bench
// pins (plain decoding, SpS and PLD drafts and verifies, the families not counted here), runs
// LlamaSdpaAttention: a fused kernel, scores on chip.
bool family_code_materializes_scores(Family f);

// Per speculative cycle of c's method as its reference implementation runs it; `tau` =
// tokens accepted per cycle (bonus included); `tree` = tree_shape(c.method.choices) (empty
// without choices). Zero for families no implementation was counted.
struct TreeShape;
HostOps method_host_ops(const Config& c, double tau, const TreeShape& tree);
// Per token of plain decoding in HF transformers' loop (Spec-Bench's baseline): greedy, plus
// its sampler's work at `temperature` > 0 (sampler_ops.hpp).
HostOps decode_host_ops(double temperature);

// Syncs per layer of the baseline a published source measured its speedups against: the
// EAGLE papers' baseline (SafeAILab/EAGLE eagle/evaluation/gen_baseline_answer_*.py,
// ea_forward) runs the target through initialize_past_key_values' KV cache, as EAGLE itself
// does, for the EAGLE rows; other methods' rows there and other sources' baselines are HF
// generate (0).
double published_baseline_layer_syncs(const std::string& source_id, const std::string& family);

}  // namespace speccalc
