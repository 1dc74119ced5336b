// Self-speculation's default acceptance: LayerSkip's early exit (config/early_exit_alpha.hpp):
// alpha = the share of the layers the exit runs, a band from 0 to the draft-size line at the
// exit's parameters; a streaming draft whose window holds the whole context: the target itself.
// Parameter counts written out by hand from the model's config.json; taus from the chain's
// closed form tau = (1 - alpha^(k+1)) / (1 - alpha).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json eval_ok(const std::string& config) {
  const speccalc::Response r = speccalc::run("eval", config);
  EXPECT_TRUE(r.ok) << config << ": " << r.error.describe();
  return r.ok ? json::parse(r.output) : json::object();
}

double chain_tau(double alpha, int k) { return (1 - std::pow(alpha, k + 1)) / (1 - alpha); }

// The draft-size line (Leviathan et al. Table 3: alpha = 0.9126 + 0.0975 log10(ratio)), held to
// its largest fitted ratio, 800M / 11B.
double line_at(double ratio) { return 0.9126 + 0.0975 * std::log10(std::fmin(ratio, 0.8 / 11.0)); }

TEST(EarlyExitAlpha, TheExitsDepthSetsTheDefaultAndTheBandSpansUntrainedToTrained) {
  // Llama-2-13B (config.json: vocab 32000, hidden 5120, 40 layers, intermediate 13824, 40 heads,
  // untied LM head): embedding and LM head 32000 x 5120 = 163,840,000 each; a layer 4 x 5120^2
  // (q, k, v, o) + 3 x 5120 x 13824 (gate, up, down) + 2 x 5120 (norms) = 317,204,480; the
  // final norm 5120. Total 40 x 317,204,480 + 327,680,000 + 5120 = 13,015,864,320.
  const double total = 40.0 * 317204480 + 327680000 + 5120;
  const double outer = 327680000;
  // Exit at layer 4 of 40, k = 4 (the family's default): alpha 0.1, tau 1.11111.
  const json e = eval_ok(
      R"({"target":"llama2-chat-13b","hardware":"a100-80gb-sxm","method":{"family":"layerskip","exit_layer":4}})");
  EXPECT_NEAR(e["tau"].get<double>(), chain_tau(0.1, 4), 1e-9);
  EXPECT_FALSE(e["tau_from_data"].get<bool>());
  EXPECT_NE(e["tau_basis"].get<std::string>().find("the share of the layers the draft runs (4 of "
                                                   "the target's 40 layers)"),
            std::string::npos)
      << e["tau_basis"];
  // The band: alpha 0 (tau 1) to the line at the exit's parameters, (outer + 0.1 x the rest) /
  // total = 0.1227, above the line's fitted sizes, so its end value 0.8016.
  const double share = (outer + 0.1 * (total - outer)) / total;
  EXPECT_NEAR(share, 0.12266, 1e-5);
  const double high = line_at(share);
  EXPECT_NEAR(high, 0.8016, 1e-4);
  EXPECT_NEAR(e["band"]["tau_p5"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(e["band"]["tau_p95"].get<double>(), chain_tau(high, 4), 2e-3);
  // An exit this shallow drafts little a full pass keeps: slower than plain decoding, and the
  // verdict says the band reaches a gain.
  EXPECT_EQ(e["verdict"], "loses");
  EXPECT_LT(e["band"]["speedup_p5"].get<double>(), 1.0);
  EXPECT_GT(e["band"]["speedup_p95"].get<double>(), 1.0);
  EXPECT_NE(e["verdict_caveat"].get<std::string>().find("includes a gain"), std::string::npos)
      << e["verdict_caveat"];
}

TEST(EarlyExitAlpha, ADeeperExitKeepsMoreAndNeverFallsBelowItsBand) {
  // Exits at 4, 10 (the default, 40 / 4), 20 and 39 of Llama-2-13B's 40 layers: tau rises with
  // depth; at 39 the share, 0.975, is above the line's 0.80 and is the band's top itself.
  double last = 0;
  for (const int exit : {4, 10, 20, 39}) {
    const json e = eval_ok(
        R"({"target":"llama2-chat-13b","hardware":"a100-80gb-sxm","method":{"family":"layerskip","exit_layer":)" +
        std::to_string(exit) + "}}");
    const double alpha = exit / 40.0;
    EXPECT_NEAR(e["tau"].get<double>(), chain_tau(alpha, 4), 1e-9) << exit;
    EXPECT_GT(e["tau"].get<double>(), last) << exit;
    last = e["tau"].get<double>();
    EXPECT_LE(e["tau"].get<double>(), e["band"]["tau_p95"].get<double>() + 1e-12) << exit;
    if (exit == 39) {
      EXPECT_NEAR(e["band"]["tau_p95"].get<double>(), chain_tau(alpha, 4), 1e-9);
    }
  }
  // The default exit is the one the method takes without exit_layer.
  const json d = eval_ok(
      R"({"target":"llama2-chat-13b","hardware":"a100-80gb-sxm","method":{"family":"layerskip"}})");
  EXPECT_NEAR(d["tau"].get<double>(), chain_tau(0.25, 4), 1e-9);
}

TEST(EarlyExitAlpha, AGivenAcceptanceIsUsedAsGiven) {
  const json e = eval_ok(
      R"({"target":"llama2-chat-13b","hardware":"a100-80gb-sxm","method":{"family":"layerskip","exit_layer":4},"acceptance":{"alpha":0.7}})");
  EXPECT_NEAR(e["tau"].get<double>(), chain_tau(0.7, 4), 1e-9);
  EXPECT_TRUE(e["tau_from_data"].get<bool>() || e["tau_basis"] == "as configured")
      << e["tau_basis"];
  EXPECT_FALSE(e.contains("band") && e["band"].is_object() &&
               e["band"].value("label", "").find("never trained") != std::string::npos);
}

TEST(StreamingDraftAcceptance, AWindowHoldingTheWholeContextMakesTheDraftTheTarget) {
  // kv_budget 4096 >= context 1024: the StreamingLLM draft attends every cached token, as the
  // target does, so every drafted token is kept: alpha 1, tau = k + 1 = 5.
  const json whole = eval_ok(
      R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","runtime":"hf-eager","context":1024,"method":{"family":"streaming","kv_budget":4096}})");
  EXPECT_NEAR(whole["tau"].get<double>(), 5.0, 1e-12);
  EXPECT_NE(whole["tau_basis"].get<std::string>().find("the draft is the target"),
            std::string::npos)
      << whole["tau_basis"];
  // A window shorter than the context drops tokens: no data prices that, the generic default
  // alpha 0.7 stays (tau (1 - 0.7^5) / 0.3 = 2.7731).
  const json window = eval_ok(
      R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","runtime":"hf-eager","context":8192,"method":{"family":"streaming","kv_budget":512}})");
  EXPECT_NEAR(window["tau"].get<double>(), chain_tau(0.7, 4), 1e-9);
  EXPECT_NE(window["tau_basis"].get<std::string>().find("per-token acceptance 0.7"),
            std::string::npos);
}

}  // namespace
