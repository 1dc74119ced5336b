// How much to trust one evaluation: the error `speccalc validate` measured on held-out rows of
// this engine profile and method family (core/data/validation-bands.json, kept equal to a fresh
// validation by validate_test), as a band around the speedup, with where tau and the engine
// profile come from.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/evaluate.hpp"

namespace speccalc {

// {"engine", "family", "rows", "mape_pct", "mean_error_pct", "basis", "speedup_low",
//  "speedup_high", "statement", "tau_source", "profile_source"}; rows = 0 (and no band) when
// no held-out row measures this engine and family.
nlohmann::json fidelity_json(const Evaluation& e, const Config& config);

// What one of validation-bands.json's time checks measured, as the statement reads after its
// time: " a step at batch 8", or for a serving benchmark (kind serving_tpot) " per output token
// serving 64 concurrent requests of 1024 / 1024 tokens in / out (its prefills inside)".
std::string time_check_what(const nlohmann::json& check);

// Why a pays / loses verdict may be the other one, in a sentence ("" when nothing says so): a
// speedup range that crosses 1x (the model's held-out error in `fidelity`, or the spread of an
// assumed or measured acceptance in the evaluation's band), or step times the engine's own
// measurement of this model contradicts (fidelity's time_check, not calibrated away).
std::string verdict_caveat(const Evaluation& e, const Config& config,
                           const nlohmann::json& fidelity);

}  // namespace speccalc
