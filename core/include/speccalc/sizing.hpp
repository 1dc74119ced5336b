// Hardware-aware sizing: which tree (or draft length k) maximizes speedup for this model, GPU,
// runtime, batch and context, and a schedule of that choice by batch size. Combines the
// optimal-tree curve tau*(n, D) (tree_optimize.hpp) with the cost model's cycle time.
#pragma once

#include <string>

#include "speccalc/api.hpp"

namespace speccalc::commands {

// Input: {"config": {...}, "budget": 64, "max_depth": 8, "batches": [1, 2, 4, ...]}
//   config.method.family: sps or pld (sized over k = 1..min(budget, 64)) or a tree family
//   (medusa, hydra, eagle1, eagle2, eagle3: sized over n draft nodes and depth D).
//   config.acceptance: alpha, per_position, p or medusa (a tau is first turned into alpha by
//   fitting the method's default draft so it reproduces that tau).
// Output: {"best": {...}, "curve": [{nodes, depth, tau, speedup}], "schedule": [...],
//          "export": engine settings for the best choice, "assumptions": [...]}.
Response size(const std::string& input);

// Input: a config. Output: the settings that reproduce its method in EAGLE's reference code,
// SGLang, vLLM and TensorRT-LLM, with notes on what each engine cannot express.
Response export_engines(const std::string& input);

}  // namespace speccalc::commands
