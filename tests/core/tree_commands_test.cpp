// The JSON commands tree-expect, tree-optimize, tree-preset and convert.

#include <gtest/gtest.h>

#include <string>

#include "api/commands.hpp"
#include "speccalc/tree.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_optimize.hpp"

#include <nlohmann/json.hpp>

namespace speccalc::commands {
namespace {

using nlohmann::json;

json ok(const Response& r) {
  EXPECT_TRUE(r.ok) << r.error.describe();
  return json::parse(r.output, nullptr, false);
}

TEST(TreeCommands, ExpectMatchesHandCalculation) {
  // Same tree as TreeExpect.SmallTreeMatchesHandCalculation: tau 2.125, pmf [0.25, .375, .375].
  const json out = ok(tree_expect(
      R"({"choices": [[0], [1], [0, 0], [0, 1]], "acceptance": {"p": [[0.5, 0.25]]}})"));
  EXPECT_DOUBLE_EQ(out["expected_tau"].get<double>(), 2.125);
  EXPECT_EQ(out["tau_pmf"].size(), 3u);
  EXPECT_DOUBLE_EQ(out["tau_pmf"][1].get<double>(), 0.375);
  EXPECT_EQ(out["node_prob"].size(), 4u);
  EXPECT_EQ(out["nodes"], 4);
}

TEST(TreeCommands, ExpectCanAddAMonteCarloCheck) {
  const json out = ok(tree_expect(R"({"choices": [[0], [1], [0, 0], [0, 1]],
      "acceptance": {"p": [[0.5, 0.25]]}, "simulate": {"trials": 50000, "seed": 3}})"));
  const json& sim = out["simulation"];
  EXPECT_EQ(sim["trials"], 50000);
  EXPECT_LE(sim["interval_999"][0].get<double>(), 2.125);  // exact tau (hand calculation above)
  EXPECT_GE(sim["interval_999"][1].get<double>(), 2.125);
  EXPECT_EQ(tree_expect(R"({"choices": [[0]], "acceptance": {"alpha": 0.5},
      "simulate": {"trials": 0}})")
                .error.field,
            "simulate.trials");
}

TEST(TreeCommands, AcceptanceSourcesAllWork) {
  // Chain of 2 under alpha 0.5: tau = 1 + 0.5 + 0.25 = 1.75 (rank 0 is accepted w.p. alpha).
  EXPECT_DOUBLE_EQ(
      ok(tree_expect(R"({"choices": [[0], [0, 0]], "acceptance": {"alpha": 0.5}})"))["expected_tau"]
          .get<double>(),
      1.75);
  EXPECT_DOUBLE_EQ(
      ok(tree_expect(
          R"({"choices": [[0], [1]], "acceptance": {"rank_vector": [0.5, 0.25]}})"))["expected_tau"]
          .get<double>(),
      1.75);
  EXPECT_NEAR(
      ok(tree_expect(R"({"choices": [[0], [0, 0]], "acceptance": {"per_position": [0.9, 0.6]}})"))
          ["expected_tau"]
              .get<double>(),
      2.44, 1e-15);  // 1 + 0.9 + 0.54
  // Medusa vicuna-7b, one node [0]: tau = 1 + head-0 top-1 accuracy 0.5603876709938049.
  EXPECT_DOUBLE_EQ(
      ok(tree_expect(
          R"({"choices": [[0]], "acceptance": {"medusa": "vicuna-7b"}})"))["expected_tau"]
          .get<double>(),
      1.5603876709938049);
  EXPECT_DOUBLE_EQ(
      ok(tree_expect(R"({"choices": [[0], [1]], "acceptance": {"topk_accuracy": [[0.5, 0.75]]}})"))
          ["expected_tau"]
              .get<double>(),
      1.75);
}

TEST(TreeCommands, ErrorsNameTheField) {
  struct Case {
    const char* input;
    const char* field;
  };
  const Case cases[] = {
      {R"({"choices": [[0], [1, 0], [0, 0]], "acceptance": {"alpha": 0.5}})", "choices[1]"},
      {R"({"choices": [[0], [0, -2]], "acceptance": {"alpha": 0.5}})", "choices[1][1]"},
      {R"({"choices": [[0], [0.5]], "acceptance": {"alpha": 0.5}})", "choices[1][0]"},
      {R"({"choices": [[0]], "acceptance": {"p": [[0.5, 0.6]]}})", "acceptance.p[0]"},
      {R"({"choices": [[0]], "acceptance": {"p": [[0.5], [1.5]]}})", "acceptance.p[1][0]"},
      {R"({"choices": [[0]], "acceptance": {"p": [["x"]]}})", "acceptance.p[0][0]"},
      {R"({"choices": [[0]], "acceptance": {"alpha": 0.5, "p": [[0.5]]}})", "acceptance"},
      {R"({"choices": [[0]], "acceptance": {"beta": 0.5}})", "acceptance.beta"},
      {R"({"choices": [[0]]})", "acceptance"},
      {R"({"acceptance": {"alpha": 0.5}})", "choices"},
      {R"([1, 2])", ""},
      {R"({not json)", ""},
  };
  for (const Case& c : cases) {
    const Response r = tree_expect(c.input);
    EXPECT_FALSE(r.ok) << c.input;
    EXPECT_EQ(r.error.field, c.field) << c.input << " -> " << r.error.describe();
  }
}

TEST(TreeCommands, OptimizeReturnsTreeAndCurve) {
  // p = [0.5, 0.3]: tau*(1..4) = 1.5, 1.8, 2.05, 2.2 (see TreeOptimize.AlphaOneRow...).
  const json out = ok(tree_optimize(
      R"({"acceptance": {"p": [[0.5, 0.3]]}, "budget": 4, "max_depth": 8, "max_rank": 2})"));
  EXPECT_EQ(out["choices"], json::parse("[[0], [1], [0, 0], [1, 0]]"));
  EXPECT_NEAR(out["expected_tau"].get<double>(), 2.2, 1e-15);
  ASSERT_EQ(out["tau_curve"].size(), 4u);
  EXPECT_NEAR(out["tau_curve"][2].get<double>(), 2.05, 1e-15);
}

TEST(TreeCommands, OptimizeContiguousKeepsRanksFromZero) {
  // p = [0.1, 0.5, 0.3], budget 3. Any ranks: [1] .5, [2] .3, [1,1] .25 -> tau 2.05.
  // Contiguous (children 0..b-1): [0], [1], [2] = 0.9 beats [0], [1], [1,1] = 0.85 -> 1.9;
  // curve 1.1 ([0]), 1.6 ([0], [1]), 1.9.
  const char* in = R"({"acceptance": {"p": [[0.1, 0.5, 0.3]]}, "budget": 3, "max_rank": 3)";
  const json any = ok(tree_optimize(std::string(in) + "}"));
  EXPECT_NEAR(any["expected_tau"].get<double>(), 2.05, 1e-15);
  const json cont = ok(tree_optimize(std::string(in) + R"(, "contiguous": true})"));
  EXPECT_EQ(cont["choices"], json::parse("[[0], [1], [2]]"));
  EXPECT_NEAR(cont["tau_curve"][0].get<double>(), 1.1, 1e-15);
  EXPECT_NEAR(cont["tau_curve"][1].get<double>(), 1.6, 1e-15);
  EXPECT_NEAR(cont["tau_curve"][2].get<double>(), 1.9, 1e-15);
  EXPECT_EQ(tree_optimize(std::string(in) + R"(, "contiguous": 1})").error.field, "contiguous");
}

// tree-optimize writes its text directly (no json tree); the bytes must be what nlohmann's
// dump() writes for the same values: rebuild the object from the solver's own results here.
TEST(TreeCommands, OptimizeStreamedTextEqualsDumpOfTheSameObject) {
  for (const bool contiguous : {false, true}) {
    const tree::AcceptanceMatrix acc =
        tree::make_acceptance({{0.5, 0.2, 0.1}, {0.6, 0.1}, {0.3, 0.3, 0.3}}, "p").value();
    const int budget = contiguous ? 40 : 300, depth = 10, rank = 3;
    const tree::OptimalTrees best =
        (contiguous ? tree::optimize_tree_contiguous(acc, budget, depth, rank)
                    : tree::optimize_tree(acc, budget, depth, rank))
            .value();
    const tree::TreeExpectation e = tree::expect_tree(best.tree, acc);
    json expected;
    expected["choices"] = best.tree.choices();
    expected["nodes"] = best.tree.size();
    expected["depth"] = best.tree.max_depth();
    expected["nodes_per_depth"] = best.tree.nodes_per_depth();
    expected["budget"] = budget;
    expected["max_depth"] = depth;
    expected["max_rank"] = rank;
    expected["contiguous"] = contiguous;
    expected["expected_tau"] = best.expected_tau;
    expected["tau_curve"] = best.tau_curve;
    expected["tau_pmf"] = e.tau_pmf;
    expected["node_prob"] = e.node_prob;
    expected["definitions"] = {
        {"choices", contiguous
                        ? "nodes in depth-first order (children ranks 0..b-1)"
                        : "nodes in selection order; the first m form an optimal m-node tree"},
        {"tau_curve", "tau_curve[m-1] = best expected tau (bonus token included) with m nodes"}};
    const Response r = tree_optimize(
        std::string(R"({"acceptance": {"p": [[0.5, 0.2, 0.1], [0.6, 0.1], [0.3, 0.3, 0.3]]},)") +
        "\"budget\": " + std::to_string(budget) + ", \"max_depth\": 10, \"max_rank\": 3, " +
        "\"contiguous\": " + (contiguous ? "true" : "false") + "}");
    ASSERT_TRUE(r.ok) << r.error.describe();
    EXPECT_EQ(r.output, expected.dump()) << (contiguous ? "contiguous" : "selection order");
  }
}

TEST(TreeCommands, OptimizeEnforcesLimits) {
  const char* base = R"({"acceptance": {"alpha": 0.7}, )";
  EXPECT_EQ(tree_optimize(std::string(base) + R"("budget": 4097})").error.field, "budget");
  EXPECT_EQ(tree_optimize(std::string(base) + R"("budget": 10, "max_depth": 65})").error.field,
            "max_depth");
  EXPECT_EQ(tree_optimize(std::string(base) + R"("budget": 10, "max_rank": 0})").error.field,
            "max_rank");
  EXPECT_EQ(tree_optimize(std::string(base) + R"("budget": 2.5})").error.field, "budget");
  EXPECT_EQ(tree_optimize(R"({"acceptance": {"alpha": 0.7}})").error.field, "budget");
  EXPECT_TRUE(tree_optimize(std::string(base) + R"("budget": 4096})").ok);
}

TEST(TreeCommands, PresetByNameAndEagle2Generator) {
  EXPECT_EQ(ok(tree_preset("eagle1"))["nodes"], 25);
  EXPECT_EQ(ok(tree_preset("eagle1\n"))["nodes"], 25);  // as piped by `echo eagle1 |`
  EXPECT_EQ(ok(tree_preset(R"("medusa-mc_sim_7b_63")"))["nodes_per_depth"],
            json::parse("[10, 28, 23, 2]"));
  const json e2 = ok(tree_preset(R"({"name": "eagle2", "acceptance": {"alpha": 0.7}})"));
  EXPECT_EQ(e2["nodes"], 59);  // defaults total_token 60, depth 5, top_k 10
  EXPECT_TRUE(e2.contains("expected_tau"));
  EXPECT_EQ(tree_preset(R"({"name": "eagle2"})").error.field, "acceptance");
  EXPECT_EQ(tree_preset("bogus").error.field, "name");
}

TEST(TreeCommands, ConvertChainAndErrors) {
  // k = 4, alpha 0.8: tau 3.3616, draft acceptance rate 0.5904 (hand calculation).
  const json out = ok(convert(R"({"k": 4, "alpha": 0.8})"));
  EXPECT_NEAR(out["tau"].get<double>(), 3.3616, 1e-12);
  EXPECT_NEAR(out["draft_acceptance_rate"].get<double>(), 0.5904, 1e-12);
  EXPECT_NEAR(ok(convert(R"({"k": 4, "draft_acceptance_rate": 0.5904})"))["alpha"].get<double>(),
              0.8, 1e-12);
  EXPECT_EQ(ok(convert(R"({"preset": "eagle1", "tau": 3.0})"))["draft_tokens"], 25);
  EXPECT_EQ(convert(R"({"k": 4})").error.field, "");
  EXPECT_EQ(convert(R"({"k": 4, "tau": 9})").error.field, "tau");
  EXPECT_EQ(convert(R"({"k": 0, "tau": 2})").error.field, "k");
  EXPECT_EQ(convert(R"({"tau": 2})").error.field, "k");
}

TEST(TreeCommands, CalibrateRecoversKnownParameters) {
  // Chain k = 4 with tau = (1 - 0.7^5) / 0.3 = 2.7731 -> alpha 0.7.
  const json chain = ok(tree_calibrate(R"({"k": 4, "tau": 2.7731})"));
  EXPECT_NEAR(chain["alpha"].get<double>(), 0.7, 1e-12);
  EXPECT_NEAR(chain["acceptance"]["alpha"].get<double>(), 0.7, 1e-12);

  // EAGLE-2 dynamic tree: take the tau that alpha 0.65 gives on the regenerated tree, fit it back.
  const json gen = ok(tree_preset(R"({"name": "eagle2", "acceptance": {"alpha": 0.65}})"));
  const double target = gen["expected_tau"].get<double>();
  const json e2 =
      ok(tree_calibrate(R"({"eagle2": {"total_token": 60, "depth": 6, "top_k": 10}, "tau": )" +
                        json(target).dump() + "}"));
  EXPECT_NEAR(e2["expected_tau"].get<double>(), target, 1e-9);
  EXPECT_NEAR(e2["alpha"].get<double>(), 0.65, 1e-9);
  EXPECT_EQ(e2["nodes"], 59);

  // Scale family on Medusa's table: c = 1 reproduces the unscaled tau.
  const json base =
      ok(tree_expect(R"({"choices": [[0], [1], [0, 0]], "acceptance": {"medusa": "vicuna-7b"}})"));
  const json sc = ok(tree_calibrate(R"({"choices": [[0], [1], [0, 0]], "family": "scale",
      "acceptance": {"medusa": "vicuna-7b"}, "tau": )" +
                                    base["expected_tau"].dump() + "}"));
  EXPECT_NEAR(sc["scale"].get<double>(), 1.0, 1e-12);
}

TEST(TreeCommands, CalibrateErrorsNameTheField) {
  EXPECT_EQ(tree_calibrate(R"({"k": 4})").error.field, "tau");
  EXPECT_EQ(tree_calibrate(R"({"k": 4, "tau": 9})").error.field, "tau");  // above 1 + k
  EXPECT_EQ(tree_calibrate(R"({"k": 4, "tau": 2, "family": "beta"})").error.field, "family");
  EXPECT_EQ(tree_calibrate(R"({"k": 4, "tau": 2, "acceptance": {"alpha": 0.5}})").error.field,
            "acceptance");
  EXPECT_EQ(tree_calibrate(R"({"k": 4, "tau": 2, "family": "scale"})").error.field, "acceptance");
  EXPECT_EQ(tree_calibrate(R"({"eagle2": {"top_k": 0}, "tau": 2})").error.field, "eagle2.top_k");
  EXPECT_EQ(tree_calibrate(R"({"eagle2": {"total_token": 100, "depth": 2, "top_k": 2}, "tau": 2})")
                .error.field,
            "eagle2.total_token");
  EXPECT_EQ(tree_calibrate(R"({"k": 2, "preset": "eagle1", "tau": 2})").error.field, "k");
}

}  // namespace
}  // namespace speccalc::commands
