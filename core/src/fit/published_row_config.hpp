// The config that reproduces a published row, as JSON (private to the core: `tables` and
// `validate` use it; public headers carry no JSON types).
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/published.hpp"

namespace speccalc {

// The config that reproduces a published row (its model, GPU, runtime, batch, method and, when
// the row has one, its measured tau) with the defaults `validate` uses; null when the row has
// no model, GPU, batch or modelled method. Front ends use it so "use this row" shows exactly
// what validate predicts.
nlohmann::json published_row_config(const PublishedRow& row);

// Whether a front end offers "use this row" (fill the calculator and set the prediction beside
// the measurement): {"ok": true}, or {"ok": false, "label": a few words for the table cell,
// "reason": the sentence saying why}. The page draws it; it decides nothing.
nlohmann::json published_row_use(const PublishedRow& row);

}  // namespace speccalc
