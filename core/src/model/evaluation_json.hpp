// The result JSON of one evaluation (what `eval` returns and the page draws), private to the core.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/evaluate.hpp"

namespace speccalc {

nlohmann::json evaluation_to_json(const Evaluation& e, const Config& config);

}  // namespace speccalc
