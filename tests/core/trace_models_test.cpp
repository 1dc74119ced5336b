// Trace models (core/src/model/trace_models.hpp) against brute force: synthetic per-token traces
// are built, replayed cycle by cycle with a fixed k and with the oracle, and summarized the way the
// shipped workload data are (histogram over positions, tau by k, per-position acceptance of the
// k = 8 replay); the models must recover what the replay counted. Best-of-two couplings are
// checked by hand and by Monte Carlo with a 99.9% interval.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "model/trace_models.hpp"

namespace {

using speccalc::best_of_two;
using speccalc::CycleSurvival;
using speccalc::WorkloadProposer;

// acc_len at every position of a trace made of runs: a run of a tokens gives a, a-1, ..., 1.
std::vector<int> runs_trace(const std::vector<int>& runs) {
  std::vector<int> t;
  for (int a : runs)
    for (int x = a; x >= 1; --x) t.push_back(x);
  return t;
}

// Replays a trace: each cycle at position t emits min(acc_len[t], cap) tokens.
double replay_tau(const std::vector<int>& trace, int cap) {
  std::size_t t = 0;
  double tokens = 0, cycles = 0;
  while (t < trace.size()) {
    const int n = std::min(trace[t], cap);
    tokens += n;
    cycles += 1;
    t += static_cast<std::size_t>(n);
  }
  return tokens / cycles;
}

// The data's summaries of a trace, computed by counting.
WorkloadProposer summarize(const std::vector<int>& trace) {
  WorkloadProposer p;
  p.acc_len_hist.assign(16, 0.0);
  for (int a : trace) p.acc_len_hist[static_cast<std::size_t>(std::min(a, 16) - 1)] += 1;
  for (double& h : p.acc_len_hist) h /= static_cast<double>(trace.size());
  for (int k = 1; k <= 8; ++k) p.tau_by_k.push_back(replay_tau(trace, k + 1));
  // Conditional acceptance of positions 1..8 in the k = 8 replay: cycles that accepted
  // position i among those that accepted i - 1.
  std::vector<double> reached(10, 0.0);
  std::size_t t = 0;
  while (t < trace.size()) {
    const int n = std::min(trace[t], 9);
    for (int j = 1; j <= n; ++j) reached[static_cast<std::size_t>(j)] += 1;
    t += static_cast<std::size_t>(n);
  }
  for (int i = 1; i <= 8; ++i)
    p.per_position_k8.push_back(reached[static_cast<std::size_t>(i + 1)] /
                                reached[static_cast<std::size_t>(i)]);
  return p;
}

TEST(TraceModels, RunsModelRecoversTheReplayOfARunTrace) {
  // Runs of at most 15 tokens, so the histogram has no 16+ bucket and the model is exact.
  const std::vector<int> runs = {1, 1, 3, 1, 5, 2, 1, 1, 15, 4, 1, 2, 2, 1, 7, 1, 1, 9, 1, 3};
  const std::vector<int> trace = runs_trace(runs);
  const WorkloadProposer p = summarize(trace);
  const speccalc::TraceModel m = speccalc::runs_model(p);
  ASSERT_TRUE(m.consistent) << m.inconsistency;
  // Oracle: one cycle per run, tau = tokens / runs = 62 / 20 = 3.1 (= 1 / h(1): 20 of the 62
  // positions have acc_len 1).
  EXPECT_NEAR(m.oracle.mean(), 62.0 / 20.0, 1e-12);
  EXPECT_NEAR(replay_tau(trace, 1000), 3.1, 1e-12);
  for (int k = 1; k <= 8; ++k)
    EXPECT_NEAR(m.tau_by_k[static_cast<std::size_t>(k - 1)],
                p.tau_by_k[static_cast<std::size_t>(k - 1)], 1e-12)
        << "k = " << k;
  EXPECT_LT(m.max_error_pct, 1e-9);
  EXPECT_EQ(speccalc::choose_trace_model(p).chosen.id, "runs");
}

TEST(TraceModels, RunsModelKeepsTheLongRunBucketWhole) {
  // A 40-token run lands in the 16+ bucket: the oracle's tau (one cycle per run) still equals
  // 1 / h(1) whatever the bucket's split: (1 + 1 + 2 + 40) / 4 = 11.
  const std::vector<int> trace = runs_trace({1, 1, 2, 40});
  const WorkloadProposer p = summarize(trace);
  const speccalc::TraceModel m = speccalc::runs_model(p);
  ASSERT_TRUE(m.consistent) << m.inconsistency;
  EXPECT_NEAR(m.oracle.mean(), 11.0, 1e-9);
}

TEST(TraceModels, RunsModelRefusesAHistogramThatRises) {
  WorkloadProposer p;
  p.acc_len_hist = {0.3,  0.2,  0.1,  0.05, 0.05, 0.04, 0.03, 0.06,
                    0.03, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02};
  p.tau_by_k = {1, 1, 1, 1, 1, 1, 1, 1};
  const speccalc::TraceModel m = speccalc::runs_model(p);
  EXPECT_FALSE(m.consistent);
  EXPECT_NE(m.inconsistency.find("rises from acc_len 7 to 8"), std::string::npos)
      << m.inconsistency;
}

TEST(TraceModels, IndependentCyclesIsTheGeometricChainByHand) {
  // Conditional acceptance 0.5 at every position: P(tokens >= j) = 0.5^(j-1); a chain of k
  // gives tau = (1 - 0.5^(k+1)) / (1 - 0.5); the uncapped oracle 1 / (1 - 0.5) = 2.
  WorkloadProposer p;
  p.per_position_k8.assign(8, 0.5);
  for (int k = 1; k <= 8; ++k) p.tau_by_k.push_back(2.0 * (1.0 - std::pow(0.5, k + 1)));
  const speccalc::TraceModel m = speccalc::independent_cycles_model(p);
  ASSERT_TRUE(m.consistent);
  EXPECT_NEAR(m.oracle.mean(), 2.0, 1e-12);
  EXPECT_NEAR(m.tau_by_k[2], 1.875, 1e-12);  // k = 3: 1 + 0.5 + 0.25 + 0.125
  EXPECT_LT(m.max_error_pct, 1e-9);
}

TEST(TraceModels, IndependentCyclesMatchesAReplayOfIndependentCycles) {
  // Monte Carlo: a trace whose acc_len at every position is drawn afresh (geometric, the first
  // draft accepted with 0.6, then 0.8 each). Cycles start after rejections, so the k = 8
  // replay's per-position acceptance is 0.6, 0.8, 0.8, ... and the oracle tau is
  // 1 + 0.6 / (1 - 0.8) = 4. The replayed oracle lands within 1% (2e5 positions).
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int> trace;
  for (int i = 0; i < 200000; ++i) {
    int a = 1;
    if (u(rng) < 0.6) {
      a = 2;
      while (u(rng) < 0.8) ++a;
    }
    trace.push_back(a);
  }
  const WorkloadProposer p = summarize(trace);
  const speccalc::TraceModel m = speccalc::independent_cycles_model(p);
  ASSERT_TRUE(m.consistent);
  const double oracle = replay_tau(trace, 1 << 30);
  EXPECT_NEAR(oracle, 4.0, 0.04);
  EXPECT_NEAR(m.oracle.mean(), oracle, 0.01 * oracle);
  EXPECT_EQ(speccalc::choose_trace_model(p).chosen.id, "independent_cycles");
}

TEST(BestOfTwo, CouplingsByHand) {
  // X: 1 or 2 tokens (P(X >= 2) = 0.5); Y: 1 or 3 (P(Y >= 2) = P(Y >= 3) = 0.3).
  // comonotone: 1 + max(.5, .3) + max(0, .3) = 1.8
  // independent: 1 + (1 - .5 x .7) + (1 - 1 x .7) = 1.95
  // countermonotone: 1 + min(1, .8) + min(1, .3) = 2.1
  CycleSurvival x{{1.0, 0.5}, 0.0};
  CycleSurvival y{{1.0, 0.3, 0.3}, 0.0};
  const speccalc::BestOfTwo b = best_of_two(x, y);
  EXPECT_NEAR(b.comonotone, 1.8, 1e-12);
  EXPECT_NEAR(b.independent, 1.95, 1e-12);
  EXPECT_NEAR(b.countermonotone, 2.1, 1e-12);
}

TEST(BestOfTwo, MonteCarloOfEachCouplingFallsInItsInterval) {
  // Geometric tails: X with P(X >= j) = 0.7^(j-1), Y with 1, 0.4, then x0.9. Sample each
  // coupling from one uniform U (comonotone: both from U; countermonotone: Y from 1 - U;
  // independent: two uniforms) and check E[max] within 3.3 standard errors (99.9%).
  CycleSurvival x{{1.0}, 0.7};
  CycleSurvival y{{1.0, 0.4}, 0.9};
  const speccalc::BestOfTwo b = best_of_two(x, y);
  auto quantile = [](const CycleSurvival& s, double v) {  // smallest n with P(N > n) <= 1 - v
    int n = 1;
    while (s.at(n + 1) > 1 - v) ++n;
    return n;
  };
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int n = 200000;
  double sum[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    const double a = u(rng), c = u(rng);
    const double m[3] = {static_cast<double>(std::max(quantile(x, a), quantile(y, a))),
                         static_cast<double>(std::max(quantile(x, a), quantile(y, c))),
                         static_cast<double>(std::max(quantile(x, a), quantile(y, 1 - a)))};
    for (int j = 0; j < 3; ++j) sum[j] += m[j], sq[j] += m[j] * m[j];
  }
  const double expected[3] = {b.comonotone, b.independent, b.countermonotone};
  for (int j = 0; j < 3; ++j) {
    const double mean = sum[j] / n;
    const double se = std::sqrt((sq[j] / n - mean * mean) / n);
    EXPECT_NEAR(mean, expected[j], 3.3 * se) << "coupling " << j;
  }
  EXPECT_LT(b.comonotone, b.independent);
  EXPECT_LT(b.independent, b.countermonotone);
}

}  // namespace
