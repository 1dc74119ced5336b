// The forms the config's `acceptance` takes, described for front ends (`list acceptance`):
// what each means (its definition, bonus token included or not), a value to start from, and
// the ids a preset form accepts. parse_acceptance (acceptance_parse.cpp) reads them.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/status.hpp"

namespace speccalc {

// [{"id", "label", "definition", "start", "choices"?: [{"id", "label"}]}] in the order a
// picker lists them; "start" is a valid value of that form.
Expected<nlohmann::json> acceptance_forms_json();

}  // namespace speccalc
