// The JSON forms of the tree concepts, parsed in one place for the config (method.choices,
// acceptance) and for the tree commands (tree-expect, tree-optimize, ...): the same limits and
// the same messages wherever a user types a tree or an acceptance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

// A list of root-to-node paths of sibling ranks ([[0], [0, 0], [1]]): at most `max_nodes`
// paths, each 1..64 ranks in 0..63, prefix-closed and without duplicates (make_tree). The
// paths are kept as typed (normalized configs echo them); the tree is built from them.
struct ParsedChoices {
  std::vector<std::vector<int>> paths;
  tree::Tree tree;
};
Expected<ParsedChoices> parse_choices_list(const nlohmann::json& v, const std::string& field,
                                           int64_t max_nodes);

// 1..64 probabilities, each in [0, 1] (per-position rates, a rank vector, a row).
Expected<std::vector<double>> parse_probability_list(const nlohmann::json& v,
                                                     const std::string& field);

// 1..64 rows of probabilities. `exclusive`: the entries of a row are acceptances of sibling
// ranks, which exclude each other, so a row sums to at most 1 (the "p" matrix); cumulative
// top-k accuracies are not exclusive.
Expected<std::vector<std::vector<double>>> parse_probability_rows(const nlohmann::json& v,
                                                                  const std::string& field,
                                                                  bool exclusive);

// A Medusa head-accuracy table name (core/data/medusa-head-accuracy.json).
Expected<std::string> parse_medusa_table(const nlohmann::json& v, const std::string& field);

// The tree commands' acceptance: an object with exactly one of p, rank_vector, alpha,
// per_position, medusa, topk_accuracy (the config's acceptance adds tau, workload and
// published, which need a method; config/acceptance_parse.cpp reads those).
Expected<tree::AcceptanceMatrix> parse_acceptance_matrix(const nlohmann::json& acc,
                                                         const std::string& field);

}  // namespace speccalc
