// The config's "method" object (family, its parameters and defaults; the tree forms of sps).
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// Reads doc["method"] into c->method; c->target must already be parsed (some defaults depend
// on it: EAGLE-2/3's total_token, LayerSkip's exit layer).
bool parse_method(const nlohmann::json& doc, const Catalog& catalog, Config* c, Error* err);

// The knobs named as `engine` (a runtime profile id) names them, accepted as method inputs
// when that engine is chosen: [{key, families, sets}] (for `list runtimes` and the form).
nlohmann::json engine_knobs_json(const std::string& engine);

// EAGLE-2/3's verify size in the papers' settings, by target size (60/50/48 total tokens).
int64_t default_total_token(const ModelArch& target);

}  // namespace speccalc
