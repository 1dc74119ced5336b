// What the page opens with and offers as examples (`list ui`), so the configs a first-time
// reader sees are core data, checked by the core's tests like any other config.
#pragma once

#include <nlohmann/json.hpp>

namespace speccalc {

// {"starter": config, "examples": [{"label", "config"}, ...]}
nlohmann::json ui_examples_json();

}  // namespace speccalc
