// The load model's report for a config with a `load` block (the `load` command; `eval` adds the
// summary, full = false: no curve, schedule or export).
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {

Expected<nlohmann::json> load_report(const Config& config, const Catalog& catalog, bool full);

}  // namespace speccalc
