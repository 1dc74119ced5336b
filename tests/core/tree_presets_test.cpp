// Engine preset trees against the per-depth counts recorded in the reference data, and the
// EAGLE-2 dynamic-tree generator against hand-worked cases.
#include "speccalc/tree_presets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

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

// The generator as EAGLE-2 describes it, written the plain way: every list fully stable-sorted
// (ranks by p; each level's candidates by value; all candidates by value), the first n kept.
std::vector<std::vector<int>> eagle2_by_full_sorts(const AcceptanceMatrix& m, int total_token,
                                                   int depth, int top_k) {
  struct Cand {
    double value;
    int parent, rank, depth;
  };
  auto ranked = [&](int d) {
    std::vector<int> order(kMaxRank);
    for (int r = 0; r < kMaxRank; ++r) order[r] = r;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return m.p(d, a) > m.p(d, b); });
    order.resize(top_k);
    return order;
  };
  std::vector<Cand> all;
  std::vector<int> beam;
  const std::vector<int> first = ranked(0);
  for (int i = 0; i < top_k; ++i) {
    all.push_back({m.p(0, first[i]), -1, first[i], 1});
    beam.push_back(i);
  }
  auto by_value = [&](int a, int b) { return all[a].value > all[b].value; };
  for (int level = 1; level < depth; ++level) {
    const std::vector<int> order = ranked(level);
    const int start = static_cast<int>(all.size());
    for (int b : beam)
      for (int i = 0; i < top_k; ++i)
        all.push_back({all[b].value * m.p(level, order[i]), b, order[i], level + 1});
    std::vector<int> ids;
    for (int i = start; i < static_cast<int>(all.size()); ++i) ids.push_back(i);
    std::stable_sort(ids.begin(), ids.end(), by_value);
    ids.resize(top_k);
    beam = ids;
  }
  std::vector<int> pick(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) pick[i] = static_cast<int>(i);
  std::stable_sort(pick.begin(), pick.end(), by_value);
  pick.resize(total_token - 1);
  std::sort(pick.begin(), pick.end());
  std::vector<std::vector<int>> paths(all.size());
  std::vector<std::vector<int>> out;
  for (int c : pick) {
    paths[c] = all[c].parent < 0 ? std::vector<int>{} : paths[all[c].parent];
    paths[c].push_back(all[c].rank);
    out.push_back(paths[c]);
  }
  return out;
}

TEST(Eagle2Tree, EqualsThePlainFullSortGeneratorIncludingTies) {
  // Entries drawn from {0, 0.05, 0.1} (sums <= 1 over 10 ranks): many equal p and equal path
  // values, so any difference in tie order between partial and full stable sorts would show.
  // A third of the trials use rows already in rank order, ties kept (the parametric models' case).
  std::uint64_t state = 12345;
  const auto next = [&]() {  // splitmix64
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int depth = 1 + static_cast<int>(next() % 6);
    const int top_k = 1 + static_cast<int>(next() % 10);
    std::vector<std::vector<double>> rows(1 + next() % 4);
    for (auto& row : rows) {
      for (int r = 0; r < 10; ++r) row.push_back(0.05 * static_cast<double>(next() % 3));
      if (trial % 3 == 0) std::sort(row.begin(), row.end(), std::greater<double>());
    }
    const AcceptanceMatrix m = make_acceptance(rows).value();
    const long long candidates = top_k + static_cast<long long>(depth - 1) * top_k * top_k;
    const int total_token = 2 + static_cast<int>(next() % static_cast<std::uint64_t>(candidates));
    const auto tree = eagle2_tree(m, total_token, depth, top_k);
    ASSERT_TRUE(tree.ok()) << tree.error().message;
    EXPECT_EQ(tree.value().choices(), eagle2_by_full_sorts(m, total_token, depth, top_k))
        << "trial " << trial << ": depth " << depth << ", top_k " << top_k << ", total_token "
        << total_token;
    ++compared;
  }
  EXPECT_EQ(compared, 300);
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
