// Roofline cost of one forward pass: FLOPs, bytes (weights, KV cache, activations), time
// and bound. All counts are per pass over the whole batch, per GPU when tensor-parallel.
#pragma once

#include <cstdint>
#include <string>

#include "speccalc/config.hpp"

namespace speccalc {

// Work of one pass, before it is turned into time. Summable across the parts of a pass
// (decoder layers, LM head, draft heads).
struct Work {
  double flops = 0;              // multiply-adds count 2 FLOPs
  double weights_bytes = 0;      // weights read once per pass
  double kv_cache_bytes = 0;     // KV cache read (context) + written (new tokens)
  double activations_bytes = 0;  // matmul inputs/outputs and logits written to memory
  int64_t layers = 0;            // decoder layers (host launch overhead scales with them)
  int64_t allreduces = 0;        // tensor-parallel all-reduces (2 per decoder layer)
  double allreduce_bytes = 0;    // payload of each all-reduce
  Work& operator+=(const Work& o);
};

struct PassCost {
  std::string name;
  int64_t tokens_per_pass = 0;   // new tokens per sequence in one pass
  int64_t passes_per_cycle = 0;  // passes of this kind per draft-verify cycle
  // Totals over the cycle's passes of this kind (one pass for baseline and verify).
  double flops = 0;
  double weights_bytes = 0;
  double kv_cache_bytes = 0;
  double activations_bytes = 0;
  double bytes = 0;
  double memory_time_s = 0;   // bytes / effective bandwidth
  double compute_time_s = 0;  // flops / effective peak
  double comm_time_s = 0;     // tensor-parallel all-reduces
  double overhead_s = 0;      // host time the GPU does not hide: per pass, launch time beyond
                              // device time, fixed CPU work
  // Per pass: max(device, layers x layer_overhead_s) + pass_overhead_s, device =
  // max(memory, compute) + comm; summed over passes. Equals device time + overhead_s.
  double time_s = 0;
  bool launch_bound = false;  // kernel launches take longer than the device work they feed
  double arithmetic_intensity = 0;  // flops / bytes (0 when nothing is read)
  std::string bound = "none";       // "memory", "compute", "overhead" or "none"
};

// How the config's hardware and runtime execute a pass.
struct Machine {
  Gpu gpu;
  int64_t gpus = 1;
  bool tensor_parallel = true;  // false: layers split across GPUs and run one after another
  RuntimeParams runtime;
  DTypes dtype;
  double peak_flops() const;           // FLOP/s for the weight dtype (fp8 tensor cores if present)
  double bandwidth_bytes_s() const;    // peak bytes/s of one GPU
};

// Decoder layers of model m over `tokens` new tokens per sequence for `batch` sequences that
// each attend `context` cached tokens (plus the new ones, causally). When lm_head_rows > 0
// the LM head is applied to that many rows per sequence.
Work decoder_work(const ModelArch& m, int64_t layers, int64_t batch, int64_t tokens, int64_t context,
                  int64_t lm_head_rows, const DTypes& dtype);

// A dense matmul block of `params` weights applied to `rows` rows (FLOPs 2 * params * rows).
Work linear_work(double params, int64_t rows, const DTypes& dtype);

// Turns work into time for `passes` identical passes.
PassCost finish_pass(const std::string& name, const Work& w, int64_t tokens_per_pass, int64_t passes,
                     const Machine& machine, double extra_overhead_s = 0);

// Expected number of distinct experts that `tokens` routed tokens touch in one layer when each
// picks top_k of E experts uniformly: E * (1 - (1 - top_k/E)^tokens).
double expected_experts_touched(int64_t experts, int64_t top_k, int64_t tokens);

}  // namespace speccalc
