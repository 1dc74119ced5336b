// The optional `load` block of a config (serving under load): parsed, validated and written
// back in its normalized form. The model itself is core/src/model/load_model.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"

namespace speccalc {

// Reads doc["load"] (absent: c->load.present stays false). Needs c->hardware (the engine's
// default caps depend on the GPU's memory). Errors name the field (load.rate_rps, ...).
bool parse_load(const nlohmann::json& doc, Config* c, Error* err);

// The normalized block (every default filled in), as config_to_json writes it.
nlohmann::json load_to_json(const LoadConfig& load);

}  // namespace speccalc
