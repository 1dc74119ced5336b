// Bounds worth knowing when acceptance comes from a workload preset (acceptance.workload):
// the speedup of every fixed chain k = 1..8 the traces cover, the oracle proposer's speedup
// (SpecDecode-Bench's upper bound: each cycle proposes exactly what will be accepted) and the
// best-of-two combination of the EAGLE head and the n-gram proposer, each priced with the same
// cost model and engine profile as the evaluation. Tokens per cycle come from trace_models.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc {

// Null when the config's acceptance is not a workload preset. Appends what it assumes to
// *assumptions (the result's assumptions list).
Expected<nlohmann::json> workload_bounds(const Config& config, const Evaluation& e,
                                         std::vector<std::string>* assumptions);

}  // namespace speccalc
