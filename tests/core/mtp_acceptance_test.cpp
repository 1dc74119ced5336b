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

TEST(MtpAcceptance, OtherMtpModelsStayTheStatedGuess) {
  const json e = mtp("glm-5", 3);
  EXPECT_NE(e["tau_source"].get<std::string>().find("not from data"), std::string::npos);
}

}  // namespace
}  // namespace speccalc
