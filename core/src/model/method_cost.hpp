// The passes of one draft-verify cycle for each method family, as work (bytes, FLOPs per
// kernel class) that does not depend on the runtime profile, plus the memory the method holds.
// time_cycle() turns the work into time under the target's and the draft's runtimes.
#pragma once

#include "model/host_ops.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

// Passes of one shape, run `passes` times per cycle.
struct PassWork {
  Work work;
  int64_t passes = 1;
  int64_t tokens_per_pass = 1;
  // Partial offload: the part of the pass that runs on the CPU (time_host_pass), after or
  // before the GPU's part of the same pass; empty otherwise.
  Work host_work;
  bool on_host = false;
};

// Where llama.cpp's --n-gpu-layers puts a target's layers: n slots counted from the output
// layer back (src/llama-model.cpp: i_gpu_start = n_layer + 1 - n_gpu_layers), so the GPU holds
// the output layer when n >= 1 and the last n - 1 decoder layers; the first ones run on the CPU.
struct LayerSplit {
  int64_t gpu_layers = 0;  // decoder layers on the GPU
  int64_t cpu_layers = 0;  // decoder layers on the CPU (0: no partial offload)
  bool lm_head_on_gpu = true;
};
LayerSplit layer_split(const Config& c);

// A target pass of `tokens` positions per sequence at the config's batch and context, lm_rows
// of them through the LM head: whole on the GPU, or split where layer_split puts the layers
// (the CPU's first layers include a MoE model's leading dense ones).
PassWork target_pass(const Config& c, const Sharding& ts, int64_t tokens, int64_t lm_rows);
// Plain decoding's pass (target_pass of one token) as HF generate and the engines run it: its
// attention keeps the scores on chip (no score_elements; family_code_materializes_scores).
PassWork plain_decode_pass(const Config& c, const Sharding& ts);

// Bytes one GPU must hold; the GPU holding the draft (GPU 0) is the fullest.
struct MemoryNeed {
  double target_weights_bytes = 0;    // per GPU
  double draft_weights_bytes = 0;     // on the GPU that runs the draft
  double kv_bytes_per_seq_token = 0;  // target + draft KV per cached token per sequence, per GPU
  int64_t tokens_in_flight = 0;       // tokens per sequence cached beyond the context in a cycle
  // Sliding-window layers (not in kv_bytes_per_seq_token) cache at most their window per
  // sequence plus the tokens in flight: their bytes per cached token per GPU and the window.
  // Two slots: the target's window and an SpS draft's (equal windows share one).
  struct KvWindow {
    double bytes_per_seq_token = 0;
    int64_t tokens = 0;
  };
  std::array<KvWindow, 2> kv_windows{};
  // KV bytes one sequence caches per GPU at `context` tokens in its sliding-window layers, and
  // in all its layers, the tokens in flight included.
  double kv_window_bytes_per_seq(double context) const {
    const double f = static_cast<double>(tokens_in_flight);
    double bytes = 0;
    for (const KvWindow& w : kv_windows)
      bytes += (std::min(context, static_cast<double>(w.tokens)) + f) * w.bytes_per_seq_token;
    return bytes;
  }
  double kv_bytes_per_seq(double context) const {
    return (context + static_cast<double>(tokens_in_flight)) * kv_bytes_per_seq_token +
           kv_window_bytes_per_seq(context);
  }
  double activations_bytes_per_seq = 0;  // peak activation + logits workspace per sequence
  // Linear-attention layers' recurrent state per sequence (and its per-draft-token
  // checkpoints while speculating), per GPU: a constant, not per cached token.
  double state_bytes_per_seq = 0;
  // Data-parallel attention: each GPU caches the sequences of its own attention group only,
  // ceil(batch / attention_groups) of them (the per-sequence terms above are per such sequence).
  int64_t attention_groups = 1;
};

struct CycleWork {
  PassWork baseline;            // one plain decode step of the target
  std::vector<PassWork> draft;  // draft passes, timed under the draft's runtime
  std::string draft_name;
  PassWork verify;  // the target's pass over the drafted tokens
  std::string verify_name;
  bool has_verify = true;         // false for plain decoding
  double draft_host_s = 0;        // CPU drafting (prompt lookup)
  int64_t eagle3_steps = 0;       // EAGLE-3 draft forwards per cycle (eagle3_step_overhead_s each)
  int64_t draft_model_steps = 0;  // draft-model (SpS) forwards per cycle (draft_model_step_s each)
  bool gpu_proposer = false;      // drafts with a network on the GPU (proposer_cycle_s per cycle)
  HostOps host_ops;               // the method's own host work per cycle (research code)
  HostOps baseline_host_ops;      // the plain decoding loop's host work per token
  bool tree = false;              // verifies a token tree (tree bookkeeping applies)
  MemoryNeed memory;
  std::vector<std::string> assumptions;
};

// How the target and the draft are spread over GPUs.
struct Placement {
  Sharding target;   // tp for the target's passes (1 when layer-sequential)
  Sharding draft;    // tp for the draft's passes
  int64_t gpus = 1;  // GPUs holding the target
};
Placement placement_for(const Config& c, bool tensor_parallel);

// Node counts of a tree given as paths: nodes[d] at depth d + 1, parents[d] = distinct nodes at
// depth d (the root at d = 0) that have children at depth d + 1.
struct TreeShape {
  std::vector<int64_t> nodes;
  std::vector<int64_t> parents;
  int64_t total_nodes = 0;
};
TreeShape tree_shape(const Choices& choices);

// What cycle_work takes from the method that batch and context do not change: the shape of
// its tree and its host work per cycle. A cost plan (cost_plan.hpp) computes it once per setup.
struct MethodShape {
  TreeShape tree;        // of method.choices (empty for methods without a tree)
  HostOps host_ops;      // method_host_ops(config, tau) + sampling_ops
  HostOps sampling_ops;  // sampling_host_ops at temperature > 0 (its own line in the result)
};
// `verified_tree` and `acceptance`: the tau model's tree and matrix when known (TauResult);
// empty, the sampler's walk derives them from the method and tau.
MethodShape method_shape(const Config& config, double tau, const tree::Tree& verified_tree = {},
                         const tree::AcceptanceMatrix& acceptance = {});

// `tau` (tokens per cycle, bonus included) sets how many accepted tokens the draft's first
// pass re-reads each cycle. `shape` = method_shape(config, tau); `text` false leaves out the
// passes' names and the assumptions (a sweep's summary needs only the numbers).
CycleWork cycle_work(const Config& config, const Placement& placement, double tau,
                     const MethodShape& shape, bool text);

}  // namespace speccalc
