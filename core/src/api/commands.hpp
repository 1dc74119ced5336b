// Handlers behind speccalc::run(). Each takes the command's input text and returns a Response.
// Declared here so api.cpp's table can name them; defined in the file that owns the feature.
#pragma once

#include <string>
#include <string_view>

#include "speccalc/api.hpp"

namespace speccalc::commands {

Response eval(const std::string& config_json);       // evaluate.cpp
Response eval_link(const std::string& link);         // evaluate.cpp
Response link(const std::string& config_json);       // link_codec.cpp
Response decode_link(const std::string& link);       // link_codec.cpp
Response normalize(const std::string& config_json);  // config.cpp
// carry: {"config": edited, "changed": field, "previous": config} -> {"config", "notes"}: the
// edit carried to a config that runs (carry_command.cpp says the rules).
Response carry(const std::string& input);
Response list(const std::string& kind);                                   // presets.cpp
Response fit(const std::string& input, std::string_view published_json);  // fit_commands.cpp
Response calibrate(const std::string& input);                             // fit_commands.cpp
Response calibrate_measured(const std::string& input);                    // measured_command.cpp
// sweep: many evaluations of one base config with some fields varied (a grid over axes).
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
Response bounds(const std::string& config_json);  // bounds_command.cpp           // sweep.cpp
// "families" config JSON -> {"yours", "families": [{family, speedup, tau, tau_source, spread,
// config, ...}], "absent": [{family, reason}]}: each family at its own default acceptance.
Response families(const std::string& config_json);  // families_command.cpp
Response size(const std::string& input);            // sizing.cpp
// load: a config with a `load` block -> the load model's report (load_command.cpp).
Response load(const std::string& config_json);
Response export_engines(const std::string& input);  // sizing.cpp
Response validate(const std::string& options_json,
                  std::string_view published_json);  // fit/validate.cpp

// The tree solver's handlers (tree_commands.cpp) for the tree solver, registered in commands.def.
//   "tree-expect"   {"choices": [[0], [0, 0], ...], "acceptance": ACC,
//                    "simulate": {"trials": 100000, "seed": 1} (optional Monte Carlo check)}
//                   -> {"expected_tau", "tau_pmf" (index j = P(tau = 1 + j)), "node_prob", ...}
//   "tree-optimize" {"acceptance": ACC, "budget": n, "max_depth": D (default 64),
//                    "max_rank": R (default 64), "contiguous": false (true: children ranks 0..b-1)}
//                   -> {"choices", "expected_tau", "tau_curve" (tau*(m), m = 1..n), ...}
//   "tree-preset"   "eagle1" | "medusa-mc_sim_7b_63" | {"name": ..., "acceptance": ACC}
//                   | {"name": "eagle2", "total_token": 60, "depth": 5, "top_k": 10,
//                      "acceptance": ACC}                      -> {"name", "choices", ...}
//   "convert"       {"k": 4 | "choices": [...] | "preset": NAME, one of "alpha", "tau",
//                    "tau_without_bonus", "mean_acceptance_length", "draft_acceptance_rate",
//                    "per_position", "per_position_joint"}  -> every metric (tree_metrics.hpp)
//   "tree-calibrate" {"tau": 3.8, one of "k" | "choices" | "preset" | "eagle2": {"total_token",
//                    "depth", "top_k"}, "family": "alpha" (default) | "scale" (+ "acceptance":
//                    ACC)}
//                   -> {"alpha" | "scale", "acceptance" (the fitted matrix), "expected_tau", ...}
//                   (an eagle2 tree is regenerated for every trial parameter)
// ACC is exactly one of {"p": [[...]]}, {"rank_vector": [...]}, {"alpha": a},
// {"per_position": [a1, a2, ...]} (alpha per depth), {"medusa": "vicuna-7b"},
// {"topk_accuracy": [[...]]} (cumulative top-k accuracies per depth).
Response tree_expect(const std::string& input);
Response tree_optimize(const std::string& input);
Response tree_preset(const std::string& input);
Response convert(const std::string& input);
Response tree_calibrate(const std::string& input);

// Shared helpers for handlers.
Response ok_json(std::string json_text);
Response fail(Error error);

}  // namespace speccalc::commands
