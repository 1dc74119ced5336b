// Sequoia's tree code on the host (issue 19 item 1, for SpS token trees): the counts of
// Infini-AI-Lab/Sequoia @0ff3ff7 Tree/GreedyTree.py and Tree/SpecTree.py, checked against
// hand calculations on a two-child tree and against a literal replay of verify()'s
// accept_step loop on a 25-node tree (Monte Carlo with its interval).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "accepted_rank.hpp"
#include "config_helpers.hpp"
#include "model/method_cost.hpp"
#include "model/sequoia_ops.hpp"
#include "speccalc/tree_presets.hpp"
#include "tree/splitmix64.hpp"

namespace speccalc {
namespace {

// Root with children A (rank 0) and B (rank 1), both leaves; p = [0.6, 0.2]; one level
// (only the root expanded), so no grow step.
tree::Tree two_children() {
  auto t = tree::make_tree({{0}, {1}});
  EXPECT_TRUE(t.ok());
  return t.value();
}

TEST(SequoiaOps, GreedyHandCount) {
  // Per cycle outside the walk: argmax 1, tokens[accept_list] 3, the bonus token 1,
  // gather_kv_incremental 2 x 8, prepare_for_next_iter 8, the test bed's EOS check 2 ops and
  // 2 syncs: 31 ops, 2 syncs.
  // Walk: A tried (==: 1 op, truthiness: 1 sync); accepted 0.6 -> EOS check 2 ops 2 syncs
  // (1.2 / 1.2); rejected 0.4 -> B tried (0.4 / 0.4); accepted min(0.4, 0.2) = 0.2 -> 0.4 /
  // 0.4. A and B are leaves: accept_step returns at once. Walk 3.0 ops, 3.0 syncs.
  const HostOps h = sequoia_host_ops(two_children(), tree::AcceptanceMatrix{{{0.6, 0.2}}}, 1, 0);
  EXPECT_NEAR(h.ops, 31 + 3.0, 1e-12);
  EXPECT_NEAR(h.syncs, 2 + 3.0, 1e-12);
  EXPECT_EQ(h.verify_syncs_per_layer, 0);
}

TEST(SequoiaOps, SampledHandCount) {
  // Outside the walk: softmax(logits / T) 2, isnan().any() 2 + 1 sync, multinomial 3 and its
  // write 1, tokens[accept_list] 3, KV 16, prepare 8, the EOS check 2 + 2 syncs: 37 ops, 3
  // syncs.
  // Walk: a tried child costs softmax(q / T) 2, p[token] and q[token] 2, r * q and > 2 (6
  // ops) and 1 sync; a rejected one the residual graph (4) and the mask (1): 5 ops.
  // A: 6 / 1; accepted 0.6: 1.2 / 1.2; rejected 0.4: 2.0 ops. B tried with 0.4: 2.4 / 0.4;
  // accepted 0.2: 0.4 / 0.4; rejected 0.2: 1.0. Walk 13.0 ops, 3.0 syncs.
  const HostOps h = sequoia_host_ops(two_children(), tree::AcceptanceMatrix{{{0.6, 0.2}}}, 1, 0.6);
  EXPECT_NEAR(h.ops, 37 + 13.0, 1e-12);
  EXPECT_NEAR(h.syncs, 3 + 3.0, 1e-12);
}

TEST(SequoiaOps, EachLevelAfterTheRootAddsOneGrowStep) {
  // collective_grow_static: gather the expanded nodes' logits 1, the sampling graph's run()
  // 3 (SpecTree: + its random numbers' gather 1 and copy 1), gather and write the sampled
  // tokens 2, write the new logits 1: 7 greedy, 9 sampled. No sync.
  const tree::Tree t = two_children();
  const tree::AcceptanceMatrix p{{{0.6, 0.2}}};
  for (double temperature : {0.0, 0.6}) {
    const HostOps one = sequoia_host_ops(t, p, 1, temperature);
    const HostOps six = sequoia_host_ops(t, p, 6, temperature);
    EXPECT_NEAR(six.ops - one.ops, 5 * (temperature > 0 ? 9 : 7), 1e-12);
    EXPECT_NEAR(six.syncs, one.syncs, 1e-12);
  }
}

// verify()'s loop as the Python runs it, once: which child (if any) the target accepts is
// drawn from the acceptance rows; ops and syncs counted per child tried, per acceptance and
// per rejection, with the same per-step costs as the counts above.
struct Count {
  double ops = 0, syncs = 0;
};
Count replay_walk(const tree::Tree& t, const tree::AcceptanceMatrix& p, bool sampled,
                  SplitMix64* rng) {
  const int n = t.size();
  Count c;
  int node = -1;  // the root
  int depth = 0;
  for (;;) {
    std::vector<int> kids;
    for (int i = 0; i < n; ++i)
      if (t.parent[i] == node) kids.push_back(i);
    std::sort(kids.begin(), kids.end(), [&](int a, int b) { return t.rank[a] < t.rank[b]; });
    if (kids.empty()) return c;  // a leaf: accept_step returns -1 at once
    const int accepted_rank = test::draw_accepted_rank(p, depth, rng);
    int next = -2;
    for (int k : kids) {
      c.ops += sampled ? 6 : 1;
      c.syncs += 1;
      if (t.rank[k] == accepted_rank) {
        c.ops += 2;  // tokens[pos] == 0, == 2
        c.syncs += 2;
        next = k;
        break;
      }
      if (sampled) c.ops += 5;
    }
    if (next == -2) return c;  // every child rejected
    node = next;
    depth += 1;
  }
}

TEST(SequoiaOps, WalkMatchesALiteralReplayOnEagle1Tree) {
  // EAGLE-1's 25-node tree (ranks up to 9, depth 5), rows decaying with depth and rank.
  const auto preset = tree::preset_tree("eagle1");
  ASSERT_TRUE(preset.ok());
  const tree::Tree t = preset.value();
  const tree::AcceptanceMatrix p{{{0.55, 0.2, 0.08, 0.04, 0.02, 0.01, 0.01, 0.005, 0.005, 0.005},
                                  {0.6, 0.15, 0.05, 0.03},
                                  {0.65, 0.12, 0.04},
                                  {0.7, 0.1},
                                  {0.7}}};
  for (bool sampled : {false, true}) {
    const int levels = 1;  // grow steps are not part of the walk
    const HostOps fixed = sequoia_host_ops(tree::Tree{}, p, levels, sampled ? 0.6 : 0.0);
    const HostOps model = sequoia_host_ops(t, p, levels, sampled ? 0.6 : 0.0);
    const double walk_ops = model.ops - fixed.ops;
    const double walk_syncs = model.syncs - fixed.syncs;
    SplitMix64 rng{sampled ? 29u : 19u};
    const int runs = 200000;
    double sum_ops = 0, sum_ops2 = 0, sum_syncs = 0, sum_syncs2 = 0;
    for (int i = 0; i < runs; ++i) {
      const Count c = replay_walk(t, p, sampled, &rng);
      sum_ops += c.ops;
      sum_ops2 += c.ops * c.ops;
      sum_syncs += c.syncs;
      sum_syncs2 += c.syncs * c.syncs;
    }
    const double mean_ops = sum_ops / runs, mean_syncs = sum_syncs / runs;
    const double se_ops = std::sqrt((sum_ops2 / runs - mean_ops * mean_ops) / runs);
    const double se_syncs = std::sqrt((sum_syncs2 / runs - mean_syncs * mean_syncs) / runs);
    EXPECT_NEAR(walk_ops, mean_ops, 4 * se_ops) << "sampled " << sampled;
    EXPECT_NEAR(walk_syncs, mean_syncs, 4 * se_syncs) << "sampled " << sampled;
  }
}

TEST(SequoiaOps, SpsTreesAreCountedAsSequoiaNotAsAChainOfK) {
  // The method's k sizes HF's assisted-generation chain (79 + 22 k ops); a token tree's host
  // work comes from its tree and levels, whatever k says.
  const std::string tree_config =
      R"({"target":"llama2-chat-7b","hardware":"a100-80gb-sxm","runtime":"hf-eager",
          "method":{"family":"sps","draft":"vicuna-68m","k":K,"choices":[[0],[1]]},
          "acceptance":{"alpha":0.7}})";
  auto with_k = [&](int k) {
    std::string s = tree_config;
    s.replace(s.find('K'), 1, std::to_string(k));
    const Config c = test::config_of(s);
    return method_shape(c, 1.91, two_children(), tree::AcceptanceMatrix{{{0.7, 0.21}}}).host_ops;
  };
  const HostOps k2 = with_k(2), k8 = with_k(8);
  EXPECT_EQ(k2.ops, k8.ops);
  EXPECT_EQ(k2.syncs, k8.syncs);
  // alpha (1 - alpha)^rank at alpha 0.7: p = [0.7, 0.21]; one level. Walk: A 1 + 0.7 x 2,
  // B tried with 0.3 (0.3), accepted 0.21 (0.42): 3.12 ops and syncs; plus 31 and 2.
  EXPECT_NEAR(k2.ops, 31 + 3.12, 1e-9);
  EXPECT_NEAR(k2.syncs, 2 + 3.12, 1e-9);
}

}  // namespace
}  // namespace speccalc
