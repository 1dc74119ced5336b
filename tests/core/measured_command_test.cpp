// `fit-measured`: what users of serving engines measure (vLLM's spec-decode metrics log
// line, SGLang's accept len, `vllm bench serve`'s summary, tokens/s) parsed and fitted; the
// expected values are worked out by hand below.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json starter() { return json::parse(speccalc::run("list", "ui").output)["starter"]; }

json calibrate(json req) {
  req["config"] = starter();
  const speccalc::Response r = speccalc::run("fit-measured", req.dump());
  EXPECT_TRUE(r.ok) << r.error.describe();
  return r.ok ? json::parse(r.output) : json();
}

speccalc::Error calibrate_error(json req) {
  req["config"] = starter();
  const speccalc::Response r = speccalc::run("fit-measured", req.dump());
  EXPECT_FALSE(r.ok);
  return r.error;
}

// Two vLLM log lines (vllm/v1/spec_decode/metrics.py's format): mean acceptance lengths 2.50
// and 3.10 over 300 and 100 drafted tokens: tau = (2.50 * 300 + 3.10 * 100) / 400 = 2.65.
TEST(CalibrateMeasured, VllmLogLinesGiveTauWeightedByDraftedTokens) {
  const std::string log =
      "INFO 07-01 12:00:00 [metrics.py:86] SpecDecoding metrics: Mean acceptance length: 2.50, "
      "Accepted throughput: 45.00 tokens/s, Drafted throughput: 90.00 tokens/s, Accepted: 150 "
      "tokens, Drafted: 300 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg Draft "
      "acceptance rate: 50.0%\n"
      "INFO 07-01 12:00:10 [metrics.py:86] SpecDecoding metrics: Mean acceptance length: 3.10, "
      "Accepted throughput: 21.00 tokens/s, Drafted throughput: 30.00 tokens/s, Accepted: 70 "
      "tokens, Drafted: 100 tokens, Per-position acceptance rate: 0.900, 0.700, 0.500, Avg Draft "
      "acceptance rate: 70.0%\n";
  const json out = calibrate(json{{"vllm_log", log}});
  EXPECT_NEAR(out["measured"]["tau"].get<double>(), 2.65, 1e-12);
  EXPECT_NEAR(out["after"]["tau"].get<double>(), 2.65, 1e-12);
  EXPECT_TRUE(out["agree"].get<bool>());
  EXPECT_EQ(out["config"]["acceptance"], (json{{"tau", 2.65}}));
}

// SGLang's "Decode batch. ... accept len: 2.00, ..." and "... accept len: 3.00, ...": 2.5.
TEST(CalibrateMeasured, SglangAcceptLenIsTheMeanOfTheLogLines) {
  const std::string log =
      "[2025-07-01 12:00:00] Decode batch. #running-req: 1, #token: 900, token usage: 0.01, "
      "accept len: 2.00, gen throughput (token/s): 150.00, #queue-req: 0\n"
      "[2025-07-01 12:00:05] Decode batch. #running-req: 1, #token: 980, token usage: 0.01, "
      "accept len: 3.00, gen throughput (token/s): 190.00, #queue-req: 0\n";
  const json out = calibrate(json{{"sglang_log", log}});
  EXPECT_NEAR(out["measured"]["tau"].get<double>(), 2.5, 1e-12);
}

// `vllm bench serve` summary: Mean TPOT 12.50 ms and Acceptance length 2.40. After calibrating,
// the predicted TPOT is the measured 0.0125 s (within the stated tolerance) and tau is 2.40;
// the calibrated config evaluates to the same TPOT on its own.
TEST(CalibrateMeasured, BenchServeTpotFitsTheEngineSpeedAndTheConfigReproducesIt) {
  const std::string summary =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     100\n"
      "Output token throughput (tok/s):         79.10\n"
      "-----Time per Output Token (excl. 1st token)------\n"
      "Mean TPOT (ms):                          12.50\n"
      "Median TPOT (ms):                        12.31\n"
      "---------------Speculative Decoding---------------\n"
      "Acceptance rate (%):                     46.67\n"
      "Acceptance length:                       2.40\n";
  const json out = calibrate(json{{"bench_serve", summary}});
  EXPECT_NEAR(out["measured"]["tpot_s"].get<double>(), 0.0125, 1e-15);
  EXPECT_NEAR(out["measured"]["tau"].get<double>(), 2.40, 1e-12);
  const double tol = out["tolerance"].get<double>();
  EXPECT_LE(std::fabs(out["after"]["tpot_s"].get<double>() - 0.0125), tol * 0.0125);
  EXPECT_TRUE(out["agree"].get<bool>());
  // Before calibrating the default prediction was elsewhere (the starter's traced tau, 2.33).
  EXPECT_NE(out["before"]["tau"].get<double>(), 2.40);
  const json e = json::parse(speccalc::run("eval", out["config"].dump()).output);
  EXPECT_NEAR(e["cycle_time_s"].get<double>() / e["tau"].get<double>(),
              out["after"]["tpot_s"].get<double>(), 1e-12);
  EXPECT_NEAR(e["tau"].get<double>(), 2.40, 1e-12);
}

// A paste under the wrong kind that is plainly another's is read as that one (the walk: the
// page's default kind is "vLLM log", and a bench serve summary pasted there answered "has no
// Mean acceptance length"). The same summary as above gives the same measurement, said so.
TEST(CalibrateMeasured, APasteUnderTheWrongKindIsReadAsTheKindItIs) {
  const std::string summary =
      "============ Serving Benchmark Result ============\n"
      "Mean TPOT (ms):                          12.50\n"
      "Acceptance length:                       2.40\n";
  const json out = calibrate(json{{"vllm_log", summary}});
  EXPECT_NEAR(out["measured"]["tpot_s"].get<double>(), 0.0125, 1e-15);
  EXPECT_NEAR(out["measured"]["tau"].get<double>(), 2.40, 1e-12);
  const std::string said = out.dump();
  EXPECT_NE(said.find("the text given as vllm_log is read as bench_serve"), std::string::npos)
      << said;
  const json sg =
      calibrate(json{{"bench_serve", "Decode batch. #running-req: 1, accept len: 3.00,"}});
  EXPECT_NEAR(sg["measured"]["tau"].get<double>(), 3.0, 1e-12);
  // Text that is no tool's output keeps its kind's error.
  EXPECT_EQ(calibrate_error(json{{"bench_serve", "nothing here"}}).field, "bench_serve");
}

// Tokens/s of the whole batch: batch 1 at 80 tokens/s is 1 / 80 = 0.0125 s per token.
TEST(CalibrateMeasured, TokensPerSecondIsTheBatchOverTheTpot) {
  const json out = calibrate(json{{"tokens_per_s", 80}, {"tau", 2.4}});
  EXPECT_NEAR(out["measured"]["tpot_s"].get<double>(), 1.0 / 80, 1e-15);
  // Said in the unit people read: 1 / 80 s = 12.5 ms (the walk: 1 / 210 read
  // "TPOT 0.004761904761904762 s").
  EXPECT_NE(out.dump().find("TPOT 12.5 ms = batch 1 / 80.0 tokens/s"), std::string::npos)
      << out.dump();
  EXPECT_NEAR(out["after"]["tokens_per_s"].get<double>(), 80, 80 * out["tolerance"].get<double>());
}

TEST(CalibrateMeasured, BadInputNamesTheField) {
  EXPECT_EQ(calibrate_error(json{{"vllm_log", "nothing here"}}).field, "vllm_log");
  EXPECT_EQ(calibrate_error(json{{"sglang_log", "Decode batch. #running-req: 1"}}).field,
            "sglang_log");
  EXPECT_EQ(calibrate_error(json{{"bench_serve", "Mean TTFT (ms): 20"}}).field, "bench_serve");
  EXPECT_EQ(calibrate_error(json{{"tokens_per_s", -1}}).field, "tokens_per_s");
  EXPECT_EQ(calibrate_error(json{{"tau", 9}}).field, "tau");  // a chain of 3 yields at most 4
  EXPECT_EQ(calibrate_error(json{{"bogus", 1}}).field, "bogus");
  EXPECT_EQ(calibrate_error(json::object()).field, "");
  const speccalc::Response r = speccalc::run("fit-measured", R"({"tau": 2})");
  EXPECT_EQ(r.error.field, "config");
}

}  // namespace
