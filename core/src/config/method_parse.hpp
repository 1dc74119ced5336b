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

}  // namespace speccalc
