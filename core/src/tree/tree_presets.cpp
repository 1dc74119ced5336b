// Preset trees copied from the engines' source (the EAGLE-2 generator: eagle2_tree.cpp).
#include "speccalc/tree_presets.hpp"

namespace speccalc::tree {
namespace {

// clang-format off
// SafeAILab/EAGLE eagle/model/choices.py, mc_sim_7b_63 (the EA-model default tree_choices).
const std::vector<std::vector<int>> kEagle1 = {
    {0}, {1}, {2}, {3}, {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0},
    {0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 1, 0}, {0, 1, 1}, {0, 2, 0}, {0, 2, 1}, {1, 0, 0},
    {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 1}};

// FasterDecoding/Medusa medusa/model/medusa_choices.py, mc_sim_7b_63.
const std::vector<std::vector<int>> kMedusa63 = {
    {0}, {0, 0}, {1}, {0, 1}, {2}, {0, 0, 0}, {1, 0}, {0, 2}, {3}, {0, 3}, {4}, {0, 4}, {2, 0},
    {0, 5}, {0, 0, 1}, {5}, {0, 6}, {6}, {0, 7}, {0, 1, 0}, {1, 1}, {7}, {0, 8}, {0, 0, 2},
    {3, 0}, {0, 9}, {8}, {9}, {1, 0, 0}, {0, 2, 0}, {1, 2}, {0, 0, 3}, {4, 0}, {2, 1},
    {0, 0, 4}, {0, 0, 5}, {0, 0, 0, 0}, {0, 1, 1}, {0, 0, 6}, {0, 3, 0}, {5, 0}, {1, 3},
    {0, 0, 7}, {0, 0, 8}, {0, 0, 9}, {6, 0}, {0, 4, 0}, {1, 4}, {7, 0}, {0, 1, 2}, {2, 0, 0},
    {3, 1}, {2, 2}, {8, 0}, {0, 5, 0}, {1, 5}, {1, 0, 1}, {0, 2, 1}, {9, 0}, {0, 6, 0},
    {0, 0, 0, 1}, {1, 6}, {0, 7, 0}};
// clang-format on

}  // namespace

// The lists are constants validated by tests, so make_tree cannot fail here.
// Built once (constant tables: each eval of a Medusa, Hydra or EAGLE-1 config reads its tree
// twice, when the config is read and when tau is computed); callers get their own copy.
Tree eagle1_default_tree() {
  static const Tree tree = make_tree(kEagle1).value();
  return tree;
}
Tree medusa_mc_sim_7b_63() {
  static const Tree tree = make_tree(kMedusa63).value();
  return tree;
}

std::string preset_names() { return "eagle1, medusa-mc_sim_7b_63"; }

Expected<Tree> preset_tree(const std::string& name, const std::string& field) {
  if (name == "eagle1" || name == "eagle1-mc_sim_7b_63") return eagle1_default_tree();
  if (name == "medusa-mc_sim_7b_63" || name == "medusa" || name == "hydra") {
    return medusa_mc_sim_7b_63();
  }
  return make_error(field, "unknown tree preset '" + name + "'; known: " + preset_names() +
                               " (and 'eagle2', generated from total_token, depth, top_k)");
}

}  // namespace speccalc::tree
