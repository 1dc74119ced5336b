// What the page opens with and offers as examples (`list ui`), so the configs a first-time
// reader sees are core data, checked by the core's tests like any other config.
#pragma once

#include <nlohmann/json.hpp>

namespace speccalc {

// {"starter": config, "examples": [{"label", "config"}, ...], "batch_axis": [batches the batch
// chart sweeps], "sizing": {budget, max_depth, batches}, "load_workloads": [ids]}
nlohmann::json ui_examples_json();

}  // namespace speccalc
