// Sweeps: many evaluations of one base config with some fields varied (a grid over axes).
// Parses the catalog once and patches the config document per point, so a 10,000-point grid
// costs 10,000 evaluations and nothing more.
#pragma once

#include <string>

#include "speccalc/api.hpp"

namespace speccalc::commands {

// Input: {"config": {...}, "axes": [{"path": "batch", "values": [1, 2, 4]}, ...],
//         "detail": "summary" | "full"}
//   or the one-axis shorthand {"config": ..., "axis": "method.k", "values": [...]}.
// "path" is a dotted config field ("batch", "method.k", "acceptance.alpha", "hardware", ...);
// "method.family" replaces the whole method with that family's defaults.
// Output: {"axes", "points": [{"values": [...], "speedup", "tau", "tokens_per_s", ...} or
//          {"values": [...], "error": {"field", "message"}}],
//          "best": {"index", "values", "speedup"} (the highest speedup among points that
//          evaluate and fit in memory, the first on a tie; null when none does),
//          "break_even_batch" (one batch axis only: the first fitting batch with speedup < 1)}.
// A point whose config is invalid reports its error and the sweep goes on.
Response sweep(const std::string& input);

}  // namespace speccalc::commands
