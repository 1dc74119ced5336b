// Memory is a hard limit: what one GPU must hold (weights, draft, KV cache for every sequence
// over context + tokens in flight, activation and logits workspace) against what the engine
// may use (capacity x memory_utilization), and what would fit instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/method_cost.hpp"
#include "speccalc/config.hpp"

namespace speccalc {

struct MemoryReport {
  double capacity_gb = 0;  // per GPU (1e9 bytes)
  double usable_gb = 0;    // capacity x memory_utilization
  double utilization = 0;
  double weights_gb = 0;        // target weights per GPU
  double draft_weights_gb = 0;  // draft weights on the GPU that runs the draft
  double kv_cache_gb = 0;       // target + draft KV at this batch and context, per GPU
  double activations_gb = 0;    // activation + logits workspace of the widest pass
  double total_gb = 0;
  bool fits = true;
  int64_t max_batch = 0;                 // largest batch that fits at this context (0: none)
  int64_t max_context = 0;               // longest context that fits at this batch (0: none)
  std::vector<std::string> suggestions;  // what would fit, in plain words
};

MemoryReport memory_report(const Config& c, const MemoryNeed& need);

}  // namespace speccalc
