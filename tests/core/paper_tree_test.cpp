// A published EAGLE tau was measured on the paper's tree; a config drafting another tree (a
// vLLM chain, SGLang's 8-token tree) takes the tau of the acceptance that number implies on
// the paper's tree (config/paper_tree.hpp). Expected values here come from hand formulas
// (the chain closed form), from EAGLE's Table 5 rows in the published table, and from the
// tree solver on the paper's tree; none from a previous run's output.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/paper_tree.hpp"
#include "config_helpers.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/published.hpp"
#include "speccalc/published_tau.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::eval_ok;

// tau of a chain of k at per-token acceptance a: 1 + a + ... + a^k (only rank 0 counts).
double chain_tau(double a, int k) {
  double t = 1, run = 1;
  for (int i = 0; i < k; ++i) t += (run *= a);
  return t;
}

// Bisection for the x in [0, 1] where f(x) = target (f increasing).
template <typename F>
double solve(F f, double target) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// The rank row written out by hand: top1 ((1 - top1) s)^r.
tree::AcceptanceMatrix row_with_share(double top1, double s) {
  std::vector<double> row;
  for (int r = 0; r < tree::kMaxRank; ++r) row.push_back(top1 * std::pow((1 - top1) * s, r));
  return tree::AcceptanceMatrix{{row}};
}

TEST(PaperTree, SiblingShareRefitsFromEagleTable5) {
  // EAGLE (arXiv 2401.15077) Table 5: the same head drafting a chain of 5 and the default tree,
  // on six targets. The rows hold the chain's tau; their notes the tree's ("Tree-attention tau
  // for same model = 3.94"). The chain fixes top1, the tree then fixes the sibling share.
  auto rows = load_published();
  ASSERT_TRUE(rows.ok());
  const tree::Tree paper = tree::eagle1_default_tree();
  const std::regex tree_tau(R"(Tree-attention tau for same model = ([0-9.]+))");
  std::vector<double> shares;
  for (const auto& r : rows.value()) {
    std::smatch m;
    if (r.source_id != "eagle1" || r.table != "Table 5" || !r.tau ||
        !std::regex_search(r.notes, m, tree_tau))
      continue;
    const double top1 = solve([](double a) { return chain_tau(a, 5); }, *r.tau);
    const double share = solve(
        [&](double s) { return tree::expect_tree(paper, row_with_share(top1, s)).expected_tau; },
        std::stod(m[1]));
    EXPECT_GT(share, 0.55) << r.id;
    EXPECT_LT(share, 0.68) << r.id;
    shares.push_back(share);
  }
  ASSERT_EQ(shares.size(), 6u);
  double mean = 0;
  for (double s : shares) mean += s / static_cast<double>(shares.size());
  EXPECT_NEAR(kSiblingShare, mean, 5e-4);
}

TEST(PaperTree, RowIsTheHandFormula) {
  const std::vector<double> row = paper_rank_row(0.7);
  ASSERT_EQ(row.size(), static_cast<std::size_t>(tree::kMaxRank));
  EXPECT_DOUBLE_EQ(row[0], 0.7);
  EXPECT_NEAR(row[1], 0.7 * 0.3 * kSiblingShare, 1e-15);
  EXPECT_NEAR(row[2], 0.7 * std::pow(0.3 * kSiblingShare, 2), 1e-15);
}

TEST(PaperTree, StoredTop1GivesThePublishedTauOnThePaperTree) {
  // Every stored top1 (scripts/calibrate_published_tau.py) recomputed forward by the core:
  // the paper's tree for that family and target under the row gives the entry's tau.
  const json doc = json::parse(data::published_tau());
  int checked = 0;
  for (const json& e : doc["entries"]) {
    if (!e.contains("top1")) continue;
    for (const auto& [top1_key, tau_key] :
         {std::pair{"top1", "mean_tau"}, std::pair{"top1_min", "min_tau"},
          std::pair{"top1_max", "max_tau"}}) {
      const json config = {{"target", e["target_id"]},
                           {"method", {{"family", e["family"]}}},
                           {"acceptance", {{"p", {paper_rank_row(e[top1_key].get<double>())}}}}};
      const json out = eval_ok(config.dump());
      // top1 is stored to 4 decimals: tau within 1e-3 (the published taus have 2 decimals).
      EXPECT_NEAR(out["tau"].get<double>(), e[tau_key].get<double>(), 1e-3)
          << e["family"] << " " << e["target_id"] << " " << top1_key;
    }
    ++checked;
  }
  EXPECT_GE(checked, 40);
}

TEST(PaperTree, ThePaperTreeKeepsThePublishedMean) {
  // Research defaults (no engine): EAGLE-2's 60-token tree on a 7B target is the paper's.
  const json out = eval_ok(R"({"target":"llama2-chat-7b","method":"eagle2"})");
  const PublishedTau pub = published_tau("eagle2", "llama2-chat-7b", "");
  ASSERT_TRUE(pub.found);
  EXPECT_EQ(out["tau"].get<double>(), pub.mean_tau);
  EXPECT_EQ(out["band"]["tau_p5"].get<double>(), pub.min_tau);
  EXPECT_EQ(out["band"]["tau_p95"].get<double>(), pub.max_tau);
}

TEST(PaperTree, AChainTakesTheClosedFormOfTheImpliedAcceptance) {
  // vLLM verifies chains: EAGLE on Vicuna-7B (no vLLM trace for this target) drafts a chain of
  // 3. Before, the 60-node tree's tau 3.86 was used as is (a chain of 3 reaching 3.86 tokens
  // would need top-1 acceptance 0.93); now 1 + a + a^2 + a^3 at the implied top1.
  const json out = eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","runtime":"vllm","method":"eagle1"})");
  ASSERT_EQ(out["config"]["method"]["choices"], json::parse("[[0],[0,0],[0,0,0]]"));
  const PublishedTau pub = published_tau("eagle1", "vicuna-7b-v1.3", "");
  ASSERT_GT(pub.top1, 0.5);
  EXPECT_NEAR(out["tau"].get<double>(), chain_tau(pub.top1, 3), 1e-12);
  EXPECT_NEAR(out["band"]["tau_p5"].get<double>(), chain_tau(pub.top1_min, 3), 1e-12);
  EXPECT_NEAR(out["band"]["tau_p95"].get<double>(), chain_tau(pub.top1_max, 3), 1e-12);
  EXPECT_LT(out["tau"].get<double>(), pub.mean_tau);
  EXPECT_NE(out["tau_source"].get<std::string>().find("drafts another tree"), std::string::npos);
}

TEST(PaperTree, EagleTable5ChainFromTheTreeDefault) {
  // A chain of 5 on Vicuna-7B under hf-eager, from the default (tree rows only): EAGLE's Table
  // 5 measured 3.20 for that chain (row eagle1-297). In-sample for the share (fitted on these
  // pairs), not for top1 (from the 11 tree rows' mean): within 5 %.
  const json out = eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","runtime":"hf-eager",)"
      R"("method":{"family":"eagle1","choices":[[0],[0,0],[0,0,0],[0,0,0,0],[0,0,0,0,0]]}})");
  EXPECT_NEAR(out["tau"].get<double>(), 3.20, 0.05 * 3.20);
}

TEST(PaperTree, SmallerDynamicTreeAcceptsFewerThanThePaperTree) {
  // SGLang's default EAGLE-2 tree (5 steps, top-k 4, 8 tokens) on Llama-3.1-8B: fewer tokens
  // than the paper's 60-token tree; more than one top-ranked child alone gives (1 + top1).
  const json out = eval_ok(
      R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","runtime":"sglang","method":"eagle2"})");
  ASSERT_EQ(out["config"]["method"]["total_token"].get<int>(), 8);
  const PublishedTau pub = published_tau("eagle2", "llama3.1-8b-instruct", "");
  EXPECT_LT(out["tau"].get<double>(), pub.mean_tau);
  EXPECT_GT(out["tau"].get<double>(), chain_tau(pub.top1, 1));
  EXPECT_LT(out["band"]["tau_p5"].get<double>(), out["tau"].get<double>());
  EXPECT_GT(out["band"]["tau_p95"].get<double>(), out["tau"].get<double>());
}

TEST(PaperTree, MedusaHeadTableAlonePredictsThePapersTau) {
  // Independent check of the Medusa rescale's shape: Medusa's released head accuracies
  // (FasterDecoding/Medusa assets/medusa_acc.csv, core/data/medusa-head-accuracy.json) on its
  // mc_sim_7b_63 tree give the tau the papers measured with those heads, within 3 % for the 7B
  // and 13B heads (the stored scales are 1.02 and 1.02).
  for (const std::string target : {"vicuna-7b-v1.3", "vicuna-13b-v1.3"}) {
    const json out = eval_ok(
        R"({"target":")" + target +
        R"(","runtime":"hf-eager","method":"medusa","acceptance":{"medusa":")" + target + R"("}})");
    const PublishedTau pub = published_tau("medusa", target, "");
    ASSERT_TRUE(pub.found);
    EXPECT_NEAR(out["tau"].get<double>(), pub.mean_tau, 0.03 * pub.mean_tau) << target;
  }
}

TEST(PaperTree, MedusaChainIsTheProductOfScaledHeadAccuracies) {
  // vLLM runs Medusa as a chain of its 5 heads: tau = 1 + sum over depths d of the product of
  // the scaled top-1 accuracies of heads 0..d-1 (each head's rank-0 hit mass acc[h][0]).
  const json out = eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","runtime":"vllm","method":"medusa"})");
  ASSERT_EQ(out["config"]["method"]["choices"].size(), 5u);
  const PublishedTau pub = published_tau("medusa", "vicuna-7b-v1.3", "");
  ASSERT_GT(pub.scale, 0.5);
  const json acc = json::parse(data::medusa_head_accuracy())["models"]["vicuna-7b-v1.3"];
  auto chain = [&](double scale) {
    double t = 1, run = 1;
    for (int h = 0; h < 5; ++h) t += (run *= scale * acc[h][0].get<double>());
    return t;
  };
  EXPECT_NEAR(out["tau"].get<double>(), chain(pub.scale), 1e-12);
  EXPECT_NEAR(out["band"]["tau_p5"].get<double>(), chain(pub.scale_min), 1e-12);
  EXPECT_NEAR(out["band"]["tau_p95"].get<double>(), chain(pub.scale_max), 1e-12);
  EXPECT_NE(out["tau_source"].get<std::string>().find("Medusa-1's head accuracies"),
            std::string::npos);
}

TEST(PaperTree, StoredMedusaScaleGivesThePublishedTauOnItsTree) {
  const json doc = json::parse(data::published_tau());
  int checked = 0;
  for (const json& e : doc["entries"]) {
    if (!e.contains("scale")) continue;
    auto heads = tree::medusa_acceptance(e["target_id"].get<std::string>());
    ASSERT_TRUE(heads.ok());
    for (const auto& [scale_key, tau_key] :
         {std::pair{"scale", "mean_tau"}, std::pair{"scale_min", "min_tau"},
          std::pair{"scale_max", "max_tau"}}) {
      const auto m = tree::scale_acceptance(heads.value(), e[scale_key].get<double>());
      EXPECT_NEAR(tree::expect_tree(tree::medusa_mc_sim_7b_63(), m).expected_tau,
                  e[tau_key].get<double>(), 1e-3)
          << e["target_id"] << " " << scale_key;
    }
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(PaperTree, ChainFromPaperTreeRowsAgainstVllmsMeasuredChains) {
  // Held-out check (nothing here is fitted on the traces): the EAGLE-1 rows for LLaMA3-Instruct
  // 8B (EAGLE-2 paper, its 25-node tree) rescaled to a chain of k, against the chain tau vLLM
  // measured for an EAGLE head on Llama-3.1-8B-Instruct (core/data/workloads.json: mean of the
  // four workloads' tau_by_k). Different model version and head, so only close: within 5 % for
  // k <= 2 and 20 % up to k = 8, over-predicting deeper chains (one top-1 rate at every depth;
  // vLLM's heads accept less deep in a chain). The tree's tau used as it was (before) missed a
  // chain of 3 by +57 %.
  const PublishedTau pub = published_tau("eagle1", "llama3-instruct-8b", "");
  ASSERT_GT(pub.top1, 0.5);
  const json workloads = json::parse(data::workloads())["workloads"];
  for (int k = 1; k <= 8; ++k) {
    double measured = 0;
    for (const json& w : workloads)
      measured += w["proposers"]["eagle"]["tau_by_k"][std::to_string(k)].get<double>() /
                  static_cast<double>(workloads.size());
    const double err = chain_tau(pub.top1, k) / measured - 1;
    EXPECT_LT(std::abs(err), k <= 2 ? 0.05 : 0.20) << "k = " << k << ": " << err;
    EXPECT_GT(err, -0.05) << "k = " << k;
  }
}

TEST(PaperTree, SiblingShareHeldOutOnSglangsTreeVsChain) {
  // Held out (the share is fitted on EAGLE's Table 5 only): SpecDecode-Bench (arXiv 2601.11580,
  // shared production-engines.json specdecode_bench facts[5]) measured SGLang v0.5.9's EAGLE on
  // Qwen3-8B / GSM8K at batch 1 as a chain of k = 3, accepted length 2.25, and as a tree of 21
  // draft tokens with branching 4 and depth 3, 2.92. The chain fixes top1; the tree SGLang grows
  // (EAGLE-2's generator) under top1 ((1 - top1) s)^r then gives 2.92 within 3 %, where the
  // plain rank model (s = 1) says about 3.5 (+20 %).
  const double top1 = solve([](double a) { return chain_tau(a, 3); }, 2.25);
  auto tree_tau = [&](const std::vector<double>& row) {
    const json config = {
        {"target", "qwen3-8b"},
        {"hardware", "h100-sxm"},
        {"runtime", "sglang"},
        {"method", {{"family", "eagle3"}, {"depth", 3}, {"top_k", 4}, {"total_token", 22}}},
        {"acceptance", {{"p", {row}}}}};
    return eval_ok(config.dump())["tau"].get<double>();
  };
  EXPECT_NEAR(tree_tau(paper_rank_row(top1)), 2.92, 0.03 * 2.92);
  std::vector<double> plain;
  for (int r = 0; r < tree::kMaxRank; ++r) plain.push_back(top1 * std::pow(1 - top1, r));
  EXPECT_GT(tree_tau(plain), 1.15 * 2.92);
}

}  // namespace
}  // namespace speccalc
