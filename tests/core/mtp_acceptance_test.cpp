// Default acceptance of a single MTP module run k times (vLLM, SGLang). Expected taus are the
// chain written out by hand from the sources' numbers: SpecDecode-Bench's GLM-4.5-Air MTP head
// (arXiv 2601.11580: per-position acceptance 0.92, 0.68, 0.38 at k = 3, vLLM's unconditional
// per-position rates) and the DeepSeek-V3 Technical Report's 85-90 % second-token acceptance.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::eval_ok;

json mtp(const std::string& target, int k) {
  return eval_ok(
      R"({"target":")" + target +
      R"(","hardware":"h100-sxm","gpus":8,"runtime":"vllm","method":{"family":"mtp","k":)" +
      std::to_string(k) + "}}");
}

TEST(MtpAcceptance, GlmTakesTheMeasuredPositions) {
  // k = 3: 1 + 0.92 + 0.68 + 0.38 (each position's rate is the chance it and all before it are
  // accepted). k = 1, 2: the first positions of the same chain.
  EXPECT_NEAR(mtp("glm-4.5-air", 3)["tau"].get<double>(), 2.98, 1e-12);
  EXPECT_NEAR(mtp("glm-4.5-air", 2)["tau"].get<double>(), 2.60, 1e-12);
  EXPECT_NEAR(mtp("glm-4.5-air", 1)["tau"].get<double>(), 1.92, 1e-12);
  // k = 5: positions 4 and 5 repeat the third's conditional rate 0.38 / 0.68 (said so).
  const double c3 = 0.38 / 0.68;
  const json k5 = mtp("glm-4.5-air", 5);
  EXPECT_NEAR(k5["tau"].get<double>(), 2.98 + 0.38 * c3 + 0.38 * c3 * c3, 1e-12);
  EXPECT_NE(k5["tau_source"].get<std::string>().find("not measured"), std::string::npos);
  EXPECT_EQ(k5["tau_source"].get<std::string>().find("not from data"), std::string::npos);
}

TEST(MtpAcceptance, DeepSeekBeyondOneTokenTakesTheReportThenGlmsDecay) {
  // Position 1: 0.875 (85-90 %); positions 2, 3: GLM's conditional 0.68 / 0.92, 0.38 / 0.68.
  const double c2 = 0.68 / 0.92, c3 = 0.38 / 0.68;
  const json k3 = mtp("deepseek-v3", 3);
  EXPECT_NEAR(k3["tau"].get<double>(), 1 + 0.875 + 0.875 * c2 + 0.875 * c2 * c3, 1e-12);
  EXPECT_NEAR(k3["band"]["tau_p5"].get<double>(), 1 + 0.85 + 0.85 * c2 + 0.85 * c2 * c3, 1e-12);
  EXPECT_NEAR(k3["band"]["tau_p95"].get<double>(), 1 + 0.90 + 0.90 * c2 + 0.90 * c2 * c3, 1e-12);
  EXPECT_NE(k3["tau_source"].get<std::string>().find("an assumption"), std::string::npos);
  // k = 1 keeps the report's own number.
  EXPECT_NEAR(mtp("deepseek-v3", 1)["tau"].get<double>(), 1.875, 1e-12);
}

TEST(MtpAcceptance, OtherMtpModelsTakeTheTwoMeasurementsPooledAndSaySo) {
  // GLM-5 and Qwen3.5 ship an MTP module and publish no rate: position 1 = the mean of
  // DeepSeek-V3's 0.875 and GLM-4.5-Air's 0.92 = 0.8975, later positions GLM's conditional
  // decay; the band's ends take 0.85 and 0.92 at position 1. Not from data for this model.
  const double c2 = 0.68 / 0.92, c3 = 0.38 / 0.68;
  const double p1 = (0.875 + 0.92) / 2;
  for (const char* target : {"glm-5", "qwen3.5-397b-a17b"}) {
    const json k3 = mtp(target, 3);
    EXPECT_NEAR(k3["tau"].get<double>(), 1 + p1 + p1 * c2 + p1 * c2 * c3, 1e-12) << target;
    EXPECT_NEAR(k3["band"]["tau_p5"].get<double>(), 1 + 0.85 + 0.85 * c2 + 0.85 * c2 * c3, 1e-12);
    EXPECT_NEAR(k3["band"]["tau_p95"].get<double>(), 2.98, 1e-12);  // GLM-4.5-Air's own chain
    EXPECT_FALSE(k3["tau_from_data"].get<bool>());
    EXPECT_EQ(k3["tau_basis"].get<std::string>(),
              "assumed from 2 other models' MTP measurements, none for this one");
    EXPECT_NEAR(mtp(target, 1)["tau"].get<double>(), 1 + p1, 1e-12);
  }
  // A model of your own with an MTP module (model keys, as a config.json gives them) alike.
  const json own =
      eval_ok(R"({"target":{"name":"my-moe","num_layers":48,"hidden":4096,"intermediate":1536,)"
              R"("heads":32,"kv_heads":4,"head_dim":128,"vocab":151552,"experts":128,)"
              R"("experts_per_token":8,"mtp_modules":1},"hardware":"h100-sxm","gpus":8,)"
              R"("runtime":"vllm","method":{"family":"mtp","k":1}})");
  EXPECT_NEAR(own["tau"].get<double>(), 1 + p1, 1e-12);
  EXPECT_NE(own["tau_source"].get<std::string>().find("this custom target"), std::string::npos);
}

}  // namespace
}  // namespace speccalc
