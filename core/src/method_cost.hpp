// The passes of one draft-verify cycle for each method family.
#pragma once

#include <string>
#include <vector>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"

namespace speccalc {

struct MethodPasses {
  PassCost draft;   // every draft pass of the cycle (passes_per_cycle of them)
  PassCost verify;  // the target's pass over the drafted tokens
  double resident_weights_bytes = 0;  // target + draft weights held in memory (all GPUs)
  double resident_kv_bytes = 0;       // KV caches at this batch and context (all GPUs)
  std::vector<std::string> assumptions;
};

// One plain decode step of the target: one token per sequence.
PassCost baseline_pass(const Config& config, const Machine& machine);

// `tau` (tokens per cycle, bonus included) sets how many accepted tokens the draft's first pass
// re-reads each cycle.
MethodPasses method_passes(const Config& config, const Machine& machine, double tau);

// Node counts of a tree given as paths: nodes[d] at depth d + 1, parents[d] = distinct nodes at
// depth d (the root at d = 0) that have children at depth d + 1.
struct TreeShape {
  std::vector<int64_t> nodes;
  std::vector<int64_t> parents;
  int64_t total_nodes = 0;
};
TreeShape tree_shape(const Choices& choices);

}  // namespace speccalc
