// Engine preset trees against the per-depth counts recorded in the reference data, and the
// EAGLE-2 dynamic-tree generator against hand-worked cases.
#include "speccalc/tree_presets.hpp"

#include <gtest/gtest.h>

#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_optimize.hpp"

namespace speccalc::tree {
namespace {

int leaves(const Tree& t) {
  std::vector<bool> has_child(t.size(), false);
  for (int p : t.parent) {
    if (p >= 0) has_child[p] = true;
  }
  int n = 0;
  for (bool c : has_child) n += !c;
  return n;
}

// /work/shared/data/drafts.json eagle1_static_tree: draft_nodes 25, nodes_per_depth
// [4, 8, 8, 3, 2], leaves 15 (source: SafeAILab/EAGLE eagle/model/choices.py).
TEST(TreePresets, Eagle1DefaultMatchesRecordedShape) {
  const Tree t = eagle1_default_tree();
  EXPECT_EQ(t.size(), 25);
  EXPECT_EQ(t.nodes_per_depth(), (std::vector<int>{4, 8, 8, 3, 2}));
  EXPECT_EQ(leaves(t), 15);
  EXPECT_TRUE(make_tree(t.choices()).ok());
}

// /work/shared/data/drafts.json medusa_trees.per_choice.mc_sim_7b_63: nodes_per_depth
// [10, 28, 23, 2], leaves 42, 63 draft nodes (FasterDecoding/Medusa medusa_choices.py).
TEST(TreePresets, MedusaMcSim7b63MatchesRecordedShape) {
  const Tree t = medusa_mc_sim_7b_63();
  EXPECT_EQ(t.size(), 63);
  EXPECT_EQ(t.nodes_per_depth(), (std::vector<int>{10, 28, 23, 2}));
  EXPECT_EQ(leaves(t), 42);
}

TEST(TreePresets, LooksUpByNameAndRejectsUnknown) {
  EXPECT_EQ(preset_tree("eagle1").value().size(), 25);
  EXPECT_EQ(preset_tree("medusa-mc_sim_7b_63").value().size(), 63);
  Expected<Tree> bad = preset_tree("nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "name");
}

TEST(Eagle2Tree, SmallCaseMatchesHandCalculation) {
  // p = [0.6, 0.3], top_k 2, depth 2 (levels), total_token 4 (3 draft nodes).
  // Level 1: [0] 0.6, [1] 0.3. Level 2 (beam = both): [0,0] 0.36, [0,1] 0.18, [1,0] 0.18,
  // [1,1] 0.09. Top 3 of all: 0.6, 0.36, 0.3 -> [[0], [1], [0, 0]]; tau = 2.26.
  const AcceptanceMatrix m = make_acceptance({{0.6, 0.3}}).value();
  const Tree t = eagle2_tree(m, 4, 2, 2).value();
  EXPECT_EQ(t.choices(), (std::vector<std::vector<int>>{{0}, {1}, {0, 0}}));
  EXPECT_NEAR(expect_tree(t, m).expected_tau, 2.26, 1e-15);
}

TEST(Eagle2Tree, BeamLimitsItBelowTheOptimum) {
  // p = [0.5, 0.4], top_k 1, depth 3 (levels), total_token 3: the beam keeps only rank 0, so the
  // candidates are [0] 0.5, [0,0] 0.25, [0,0,0] 0.125 -> [[0], [0, 0]], tau 1.75, while the
  // optimal 2-node tree is [[0], [1]] with tau 1 + 0.5 + 0.4 = 1.9.
  const AcceptanceMatrix m = make_acceptance({{0.5, 0.4}}).value();
  const Tree t = eagle2_tree(m, 3, 3, 1).value();
  EXPECT_EQ(t.choices(), (std::vector<std::vector<int>>{{0}, {0, 0}}));
  EXPECT_NEAR(expect_tree(t, m).expected_tau, 1.75, 1e-15);
  EXPECT_NEAR(optimize_tree(m, 2, 3, 2).value().expected_tau, 1.9, 1e-15);
}

TEST(Eagle2Tree, DefaultSettingsGiveA59NodeTreeOfDepthAtMost6) {
  // EAGLE-2 defaults (drafts.json eagle2_dynamic_tree): total_token 60, EAGLE depth 5 = 6 levels,
  // top_k 10.
  const AcceptanceMatrix m = acceptance_from_alpha(0.7).value();
  const Tree t = eagle2_tree(m, 60, 6, 10).value();
  EXPECT_EQ(t.size(), 59);
  EXPECT_LE(t.max_depth(), 6);
  EXPECT_TRUE(make_tree(t.choices()).ok());
  // The optimal tree of the same size, depth and rank limits is an upper bound.
  const double opt = optimize_tree(m, 59, 6, 10).value().expected_tau;
  EXPECT_LE(expect_tree(t, m).expected_tau, opt + 1e-12);
}

TEST(Eagle2Tree, RejectsBadSettingsNamingTheField) {
  const AcceptanceMatrix m = acceptance_from_alpha(0.7).value();
  EXPECT_EQ(eagle2_tree(m, 60, 6, 0).error().field, "top_k");
  EXPECT_EQ(eagle2_tree(m, 60, 65, 10).error().field, "depth");
  EXPECT_EQ(eagle2_tree(m, 1, 6, 10).error().field, "total_token");
  EXPECT_EQ(eagle2_tree(m, 8, 2, 2).error().field, "total_token");  // 7 > 2 + 4 candidates
}

}  // namespace
}  // namespace speccalc::tree
