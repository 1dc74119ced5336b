// llama.cpp's variable draft length (--draft-p-min, --draft-min; issue 22 item 1): the
// distribution of kept lengths by hand, the same numbers by simulating llama.cpp's draft loop
// (common/speculative.cpp common_speculative_impl_draft_simple::draft) with its own stop rules,
// and the evaluation's cycle time rebuilt from fixed-length evaluations of the same setup.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"
#include "model/draft_length.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::error_field;
using test::eval_ok;

// Acceptance 0.8 at every position, draft_p_min 0.75. Confidence model: a share w = 2(0.8) - 1
// = 0.6 of positions is certain, the rest uniform on [0, 1]. Keep probability s = 0.6 + 0.4 x
// (1 - 0.75) = 0.7; keep-and-accept m = 0.6 + 0.4 x (1 - 0.75^2) / 2 = 0.6875.
TEST(DraftLength, KeptLengthsByHand) {
  const DraftLengths d = draft_lengths({0.8, 0.8, 0.8}, 0.75, 0);
  // P(N = n) = s^n (1 - s) below k, s^k at k: 0.3, 0.21, 0.147, 0.343.
  ASSERT_EQ(d.prob.size(), 4u);
  EXPECT_NEAR(d.prob[0], 0.3, 1e-12);
  EXPECT_NEAR(d.prob[1], 0.21, 1e-12);
  EXPECT_NEAR(d.prob[2], 0.147, 1e-12);
  EXPECT_NEAR(d.prob[3], 0.343, 1e-12);
  // tau = 1 + m + m^2 + m^3 = 1 + 0.6875 + 0.47265625 + 0.324951171875.
  EXPECT_NEAR(d.tau, 2.485107421875, 1e-12);
  // Draft passes: the seed pass plus one per kept token, the k-th not run: 1, 2, 3, 3.
  EXPECT_EQ(d.draft_passes, (std::vector<int64_t>{1, 2, 3, 3}));
  // 0.3 x 1 + 0.21 x 2 + 0.147 x 3 + 0.343 x 3 = 2.19; kept 0.21 + 0.294 + 1.029 = 1.533.
  EXPECT_NEAR(d.expected_passes, 2.19, 1e-12);
  EXPECT_NEAR(d.expected_kept, 1.533, 1e-12);
  EXPECT_NEAR(d.plain_share, 0.3, 1e-12);  // an empty draft: one plain decode step
}

TEST(DraftLength, ShortDraftsThrownAway) {
  // draft_min 2: lengths 0 and 1 decode plainly (share 0.51). Given a kept token, it is
  // accepted with r = m / s = 0.6875 / 0.7 = 0.982142857...; tau = 1 + 0.147 (r + r^2)
  // + 0.343 (r + r^2 + r^3) = 1 + 0.147 x 1.946747449 + 0.343 x 2.894126959 = 2.278858...
  const DraftLengths d = draft_lengths({0.8, 0.8, 0.8}, 0.75, 2);
  EXPECT_NEAR(d.plain_share, 0.51, 1e-12);
  EXPECT_NEAR(d.tau, 1.0 + 0.147 * 1.946747449 + 0.343 * 2.894126959, 1e-8);
  EXPECT_FALSE(d.verifies[1]);
  EXPECT_TRUE(d.verifies[2]);
}

TEST(DraftLength, NoThresholdIsTheFixedChain) {
  // draft_p_min 0 keeps every position: k drafted, tau = 1 + a1 + a1 a2 + a1 a2 a3.
  const DraftLengths d = draft_lengths({0.9, 0.7, 0.4}, 0.0, 0);
  EXPECT_NEAR(d.prob[3], 1.0, 1e-15);
  EXPECT_NEAR(d.tau, 1 + 0.9 + 0.63 + 0.252, 1e-12);
  // Below a = 1/2 the confidence is uniform on [0, 2a]: a = 0.4, p_min 0.6 keeps 1 - 0.6/0.8.
  const DraftLengths low = draft_lengths({0.4}, 0.6, 0);
  EXPECT_NEAR(low.prob[1], 0.25, 1e-12);
  // kept and accepted: E[p; p >= 0.6] = (0.8^2 - 0.6^2) / (2 x 0.8) = 0.175
  EXPECT_NEAR(low.tau, 1.175, 1e-12);
}

// llama.cpp's loop, literally: draw the top candidate's confidence; below p_min stop before
// keeping it; keep it; stop at k; otherwise run the draft on it (one more pass). Then a draft
// shorter than draft_min is cleared; the target accepts kept tokens in order, each with
// probability equal to its confidence, and adds its own token.
struct Simulated {
  double tau = 0, passes = 0;
};
Simulated simulate(const std::vector<double>& a, double p_min, int64_t n_min, int trials) {
  std::mt19937_64 rng(20261202);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Simulated s;
  const int64_t k = static_cast<int64_t>(a.size());
  for (int t = 0; t < trials; ++t) {
    std::vector<double> kept;
    int64_t passes = 1;  // the seed pass on the last accepted token
    for (int64_t i = 0; i < k; ++i) {
      const double w = a[i] >= 0.5 ? 2 * a[i] - 1 : 0.0;
      const double h = a[i] >= 0.5 ? 1.0 : 2 * a[i];
      const double p = u(rng) < w ? 1.0 : h * u(rng);
      if (p < p_min) break;
      kept.push_back(p);
      if (static_cast<int64_t>(kept.size()) >= k) break;
      ++passes;
    }
    if (static_cast<int64_t>(kept.size()) < n_min) kept.clear();
    double tokens = 1;
    for (double p : kept) {
      if (u(rng) >= p) break;
      tokens += 1;
    }
    s.tau += tokens;
    s.passes += static_cast<double>(passes);
  }
  s.tau /= trials;
  s.passes /= trials;
  return s;
}

TEST(DraftLength, MatchesSimulatedDraftLoop) {
  const std::vector<double> a{0.85, 0.75, 0.65, 0.55, 0.45, 0.35};
  const int trials = 400000;
  for (double p_min : {0.0, 0.3, 0.75, 0.9}) {
    for (int64_t n_min : {0, 2}) {
      const DraftLengths d = draft_lengths(a, p_min, n_min);
      const Simulated s = simulate(a, p_min, n_min, trials);
      // Tokens per cycle lie in [1, 7]: standard deviation <= 3, so 4 standard errors of the
      // mean are <= 4 x 3 / sqrt(400000) = 0.019; passes lie in [1, 6]: <= 0.016.
      EXPECT_NEAR(s.tau, d.tau, 0.019) << "p_min " << p_min << " n_min " << n_min;
      EXPECT_NEAR(s.passes, d.expected_passes, 0.016) << "p_min " << p_min;
    }
  }
}

TEST(DraftLength, ChainAlphaForTau) {
  // tau of a chain of 4 at alpha 0.7: 1 + 0.7 + 0.49 + 0.343 + 0.2401 = 2.7731.
  EXPECT_NEAR(chain_alpha_for_tau(2.7731, 4), 0.7, 1e-9);
}

std::string local_sps(const std::string& extra, int k = 6) {
  return R"({"target":"qwen3-8b","hardware":"rtx-4090","runtime":"llama.cpp-cuda",)"
         R"("dtype":{"weights":"q4_k_m"},"acceptance":{"alpha":0.8},)"
         R"("method":{"family":"sps","draft":"qwen3-0.6b","k":)" +
         std::to_string(k) + extra + "}}";
}

// The evaluation's expected cycle from fixed-length evaluations of the same setup: a cycle
// keeping n < k tokens is the k = n cycle plus one draft pass (the pass whose candidate fell
// below the threshold); one keeping none is a draft pass plus a plain decode step.
TEST(DraftLength, CycleTimeFromFixedLengthEvaluations) {
  const int k = 6;
  const json var = eval_ok(local_sps(R"(,"draft_p_min":0.75)", k));
  const DraftLengths d = draft_lengths(std::vector<double>(k, 0.8), 0.75, 0);
  const json full = eval_ok(local_sps("", k));
  const double pass_s = full["draft"]["time_s"].get<double>() / k;
  double expected = d.prob[0] * (pass_s + full["baseline_step_s"].get<double>());
  for (int n = 1; n <= k; ++n) {
    const json fixed = eval_ok(local_sps("", n));
    expected += d.prob[n] * (fixed["cycle_time_s"].get<double>() + (n < k ? pass_s : 0.0));
  }
  EXPECT_NEAR(var["cycle_time_s"].get<double>(), expected, 1e-12 * expected);
  EXPECT_NEAR(var["tau"].get<double>(), d.tau, 1e-12);
  EXPECT_NEAR(var["speedup"].get<double>(),
              d.tau * full["baseline_step_s"].get<double>() / expected, 1e-9);
  // The cycle's parts add up to the expected cycle.
  const json& c = var["cycle"];
  EXPECT_NEAR(
      c["draft_s"].get<double>() + c["verify_s"].get<double>() + c["overhead_s"].get<double>(),
      expected, 1e-12 * expected);
  EXPECT_NEAR(var["draft_length"]["expected_draft_passes"].get<double>(), d.expected_passes, 1e-12);
  EXPECT_EQ(var["config"]["method"]["draft_p_min"].get<double>(), 0.75);
}

// A sweep point says what eval says: its draft and verify times are the expected ones that add
// up to its cycle, and a k below draft_min is the parser's refusal at that point.
TEST(DraftLength, SweepPointsAgreeWithEval) {
  const json base = json::parse(local_sps(R"(,"draft_p_min":0.75,"draft_min":2)", 6));
  const Response r =
      run("sweep",
          json{{"config", base}, {"axis", "method.k"}, {"values", json::array({1, 6})}}.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json points = json::parse(r.output)["points"];
  EXPECT_EQ(points[0]["error"]["field"], "method.draft_min");
  const json e = eval_ok(base.dump());
  EXPECT_EQ(points[1]["cycle_time_s"].get<double>(), e["cycle_time_s"].get<double>());
  EXPECT_EQ(points[1]["draft_time_s"].get<double>(), e["cycle"]["draft_s"].get<double>());
  EXPECT_EQ(points[1]["verify_time_s"].get<double>(), e["cycle"]["verify_s"].get<double>());
  EXPECT_EQ(points[1]["tau"].get<double>(), e["tau"].get<double>());
}

TEST(DraftLength, Refusals) {
  // Only llama.cpp drafts a variable length.
  EXPECT_EQ(error_field(R"({"target":"llama3-instruct-8b","hardware":"h100-sxm","runtime":"vllm",)"
                        R"("method":{"family":"sps","draft":"llama3.2-1b","draft_p_min":0.5}})"),
            "method.draft_p_min");
  // draft_min above k would throw every draft away.
  EXPECT_EQ(error_field(local_sps(R"(,"draft_min":7)", 6)), "method.draft_min");
  // A probability threshold is below 1.
  EXPECT_EQ(error_field(local_sps(R"(,"draft_p_min":1)")), "method.draft_p_min");
  EXPECT_EQ(error_field(local_sps(R"(,"draft_p_min":-0.1)")), "method.draft_p_min");
}

}  // namespace
}  // namespace speccalc
