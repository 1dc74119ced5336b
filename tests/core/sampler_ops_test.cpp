// The host work sampling adds at T > 0 (issue 19 item 4): EAGLE's rejection-sampling walk over
// the verified tree, counted in expectation. Checked against a hand calculation on a 3-node
// tree and against a literal replay of Spec-Bench's evaluate_posterior loop (model/eagle2/
// utils.py, model/eagle/utils.py) on EAGLE-1's 25-node tree, Monte Carlo with its interval.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "accepted_rank.hpp"
#include "config_helpers.hpp"
#include "model/sampler_ops.hpp"
#include "speccalc/tree_presets.hpp"
#include "tree/splitmix64.hpp"

namespace speccalc {
namespace {

using nlohmann::json;

TEST(SamplerOps, HandCountOnAThreeNodeTree) {
  // Root children A (rank 0), B (rank 1); A has child C. Rows (leaf paths, depth-first by
  // rank): [A, C], [B, -1]. p = [0.6, 0.2] at every depth; EAGLE-2's walk, temperature 1.
  // Root level: 4 ops + 2 syncs; A tried (is_eq, item, r <= acp: 3 syncs; div, le: 2 ops),
  //   accepted 0.6 (cat: 1 op), rejected 0.4 (3 ops); B tried with 0.4 (3 syncs x 0.4, 2 ops x
  //   0.4), accepted 0.2 (1 op), rejected 0.2 (3 ops); nothing accepted: no rows after the
  //   block. Ops 4 + 2 + 0.6 + 1.2 + 0.8 + 0.2 + 0.6 = 9.4; syncs 2 + 3 + 1.2 = 6.2.
  // A's level (reached 0.6): 4 + 2 + 0.6 + 1.2 = 7.8 ops; syncs 2 + 3 + 0.4 x 1 (row [B]
  //   scanned when C is rejected) = 5.4. Weighted: 4.68 ops, 3.24 syncs.
  // B's level (reached 0.2): 4 ops; row [A, C] scanned (1 sync), its own padded row read (2),
  //   plus the 2 fixed: 5 syncs. Weighted: 0.8 ops, 1.0 syncs.
  // C: at the deepest level, no iteration. End: softmax + torch.tensor (2) and multinomial for
  // argmax (+2), less the greedy branch's 8 ops and 3 syncs.
  const auto t = tree::make_tree({{0}, {1}, {0, 0}});
  ASSERT_TRUE(t.ok());
  const tree::AcceptanceMatrix p{{{0.6, 0.2}}};
  const HostOps h = tree_posterior_sampling_ops(t.value(), p, false, 0);
  EXPECT_NEAR(h.ops, 9.4 + 4.68 + 0.8 + 4 - 8, 1e-12);
  EXPECT_NEAR(h.syncs, 6.2 + 3.24 + 1.0 - 3, 1e-12);
}

// A literal replay of the loop: rows = leaf paths in depth-first rank order, padded with -1;
// at each level the accepted candidate is drawn as the acceptance model says (rank r with
// p[d][r], none with the rest), and the loop's ops and syncs are counted as it runs.
struct Replay {
  double ops = 0, syncs = 0;
};
Replay replay_once(const tree::Tree& t, const tree::AcceptanceMatrix& p, bool eagle1,
                   SplitMix64* rng) {
  const int n = t.size();
  // Leaf paths as node lists, sorted by their rank sequences (= node order by path).
  std::vector<std::vector<int>> paths;
  std::vector<bool> has_child(n, false);
  for (int i = 0; i < n; ++i)
    if (t.parent[i] >= 0) has_child[t.parent[i]] = true;
  for (int i = 0; i < n; ++i) {
    if (has_child[i]) continue;
    std::vector<int> path;
    for (int v = i; v >= 0; v = t.parent[v]) path.insert(path.begin(), v);
    paths.push_back(path);
  }
  auto ranks = [&](const std::vector<int>& path) {
    std::vector<int> r;
    for (int v : path) r.push_back(t.rank[v]);
    return r;
  };
  std::sort(paths.begin(), paths.end(),
            [&](const auto& a, const auto& b) { return ranks(a) < ranks(b); });
  const int width = t.max_depth();
  Replay out;
  std::vector<int> prefix;  // accepted nodes
  for (int i = 1; i <= width; ++i) {
    if (static_cast<int>(prefix.size()) != i - 1) break;
    out.ops += 4;    // ==, all, nonzero, softmax
    out.syncs += 2;  // nonzero, logits[fi]
    // Which rank of the current node's children the target accepts, if any.
    const int accepted_rank = test::draw_accepted_rank(p, i - 1, rng);
    std::vector<int> tried;
    for (const auto& path : paths) {
      out.syncs += 1;  // is_eq[j]
      const bool match =
          path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
      if (!match) continue;
      out.syncs += 1;                                   // x.item()
      if (static_cast<int>(path.size()) < i) continue;  // -1
      const int x = path[static_cast<std::size_t>(i - 1)];
      if (std::find(tried.begin(), tried.end(), x) != tried.end()) continue;
      tried.push_back(x);
      out.ops += eagle1 ? 3 : 2;
      out.syncs += eagle1 ? 2 : 1;
      if (t.rank[x] == accepted_rank) {
        out.ops += 1;  // cat
        prefix.push_back(x);
        break;
      }
      out.ops += eagle1 ? 11 : 3;
    }
  }
  out.ops += 2 + 2 - 8;
  out.syncs -= 3;
  return out;
}

TEST(SamplerOps, ExpectationMatchesALiteralReplayOfTheLoop) {
  const tree::Tree t = tree::eagle1_default_tree();
  const tree::AcceptanceMatrix p{{{0.55, 0.15, 0.07, 0.03}, {0.65, 0.1, 0.05}}};
  for (bool eagle1 : {true, false}) {
    const HostOps h = tree_posterior_sampling_ops(t, p, eagle1, 0);
    SplitMix64 rng{20261203};
    const int trials = 60000;
    double sum_ops = 0, sum_syncs = 0, sq_syncs = 0;
    for (int k = 0; k < trials; ++k) {
      const Replay r = replay_once(t, p, eagle1, &rng);
      sum_ops += r.ops;
      sum_syncs += r.syncs;
      sq_syncs += r.syncs * r.syncs;
    }
    const double mean_syncs = sum_syncs / trials;
    const double sd = std::sqrt(sq_syncs / trials - mean_syncs * mean_syncs);
    // 99.9 % interval of the mean (3.29 standard errors), and ops within 1 %.
    EXPECT_NEAR(h.syncs, mean_syncs, 3.29 * sd / std::sqrt(trials)) << eagle1;
    EXPECT_NEAR(h.ops, sum_ops / trials, 0.01 * h.ops) << eagle1;
    // The scan dominates: at least one is_eq per row in the level that stops.
    EXPECT_GT(h.syncs, 10);
  }
}

TEST(SamplerOps, GreedyAddsNothingAndSamplingSlowsEagerTreeCodeOnly) {
  const std::string base =
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","acceptance":{"tau":3.5},)";
  // (An A100: its draft passes leave the GPU waiting on the host, so host work shows. On an RTX
  // 3090 the GPU is behind the host during drafting and hides the walk: cycle_time.cpp.)
  auto speedup = [&](const std::string& runtime, const std::string& method, double temp) {
    json c = json::parse(base + R"("runtime":")" + runtime + R"(","method":)" + method + "}");
    if (temp > 0) c["temperature"] = temp;
    return test::eval_ok(c.dump())["speedup"].get<double>();
  };
  const std::string eagle1 = R"({"family":"eagle1"})";
  // Eager research code pays the walk (tens of syncs) every cycle: slower at T = 1.
  EXPECT_LT(speedup("hf-eager", eagle1, 1), speedup("hf-eager", eagle1, 0) * 0.995);
  // A temperature warper is one op more per sampled position: slower still below 1.
  EXPECT_LT(speedup("hf-eager", eagle1, 0.7), speedup("hf-eager", eagle1, 1));
  // Serving engines fuse their samplers: no host walk to pay.
  const std::string chain = R"({"family":"eagle1","choices":[[0],[0,0],[0,0,0]]})";
  EXPECT_DOUBLE_EQ(speedup("vllm", chain, 1), speedup("vllm", chain, 0));
}

TEST(SamplerOps, TheResultSaysWhatSamplingCostsHere) {
  auto says = [](const std::string& runtime) {
    const json e = test::eval_ok(
        R"({"target":"vicuna-7b-v1.3","hardware":"rtx-3090","acceptance":{"tau":3.5},)"
        R"("method":{"family":"eagle1"},"temperature":0.7,"runtime":")" +
        runtime + R"("})");
    for (const json& a : e["assumptions"])
      if (a.get<std::string>().rfind("sampling at temperature 0.7", 0) == 0)
        return a.get<std::string>();
    return std::string();
  };
  EXPECT_NE(says("hf-eager").find("the research code's sampler adds"), std::string::npos);
  EXPECT_NE(says("vllm").find("fused GPU kernels"), std::string::npos);
  // Greedy says nothing about sampling.
  const json greedy = test::eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"rtx-3090","runtime":"hf-eager","method":"eagle1"})");
  for (const json& a : greedy["assumptions"])
    EXPECT_EQ(a.get<std::string>().rfind("sampling at", 0), std::string::npos);
}

}  // namespace
}  // namespace speccalc
