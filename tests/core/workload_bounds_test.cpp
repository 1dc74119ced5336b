// Bounds reported with a workload preset (core/src/model/workload_bounds.hpp), checked against a
// measurement the product is not fitted on: SpecDecode-Bench (shared/data/production-engines.json,
// specdecode_bench.facts): "Oracle proposal length (propose exactly what will be accepted) on
// InstructCoder, n-gram, batch 1: ~2.75x vs ~2.1x for the best fixed k; the gap widens with
// batch size." Its simulator sweeps fixed k in {1, 3, 5} (SpecDecode-Bench/simulator
// simulate.sh: FIXED_1, FIXED_3, FIXED_5), so "best fixed k" is the best of those three.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

// The `bounds` command: {speedup, tau, bounds, assumptions} of a config with a workload preset.
json eval_ok(const json& config) {
  const speccalc::Response r = speccalc::run("bounds", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump();
  return r.ok ? json::parse(r.output) : json();
}

// Llama-3.1-8B-Instruct on one H100 in vLLM, as the study ran it; context 302 = InstructCoder's
// mean prompt (171) + half its mean output (262 / 2), as core/data/engine-measurements.json.
json instructcoder_ngram(int64_t batch, int64_t k = 3) {
  return json{{"target", "llama3.1-8b-instruct"},
              {"hardware", "h100-sxm"},
              {"runtime", "vllm"},
              {"batch", batch},
              {"context", 302},
              {"method", {{"family", "pld"}, {"k", k}}},
              {"acceptance", {{"workload", "instructcoder"}}}};
}

double best_of_simulator_ks(const json& bounds) {
  double best = 0;
  for (const json& row : bounds["fixed_k"]) {
    const int64_t k = row["k"].get<int64_t>();
    if (k == 1 || k == 3 || k == 5) best = std::max(best, row["speedup"].get<double>());
  }
  return best;
}

TEST(WorkloadBounds, OracleAndBestFixedKMatchSpecDecodeBenchOnInstructCoder) {
  // Tolerance 10%: the study's "~2.75x" and "~2.1x" are read off a figure (about +-2%); the
  // runs trace model reproduces the measured n-gram tau for k = 1..8 within 1.8% (a bound's
  // tokens per cycle cannot be better known than that); the vLLM profile's step times follow
  // the simulator's fitted step model, but not its n-gram shortcuts (a miss verifies 1 token in
  // the simulator, k + 1 here; its n-gram draft costs 0.59% of a verify, 0.2 ms here): a few %.
  const json r = eval_ok(instructcoder_ngram(1));
  const json& b = r["bounds"];
  const double oracle = b["oracle"]["speedup"].get<double>();
  const double fixed = best_of_simulator_ks(b);
  EXPECT_NEAR(oracle, 2.75, 0.10 * 2.75) << "oracle speedup";
  EXPECT_NEAR(fixed, 2.1, 0.10 * 2.1) << "best of k = 1, 3, 5";
  EXPECT_EQ(b["oracle"]["trace_model"]["id"], "runs");
  // The runs model's oracle tau is 1 / h(1), h(1) = 0.35107 of InstructCoder's output positions
  // have n-gram acc_len 1 (shared/data/vllm-acceptance-llama3.1-8b-h100.json; the histogram
  // sums to 1.00002, normalized): 1.00002 / 0.35107 = 2.84848.
  EXPECT_NEAR(b["oracle"]["tau"].get<double>(), 1.00002 / 0.35107, 1e-4);
}

TEST(WorkloadBounds, TheOracleGapWidensWithBatch) {
  // The study's batch sizes 1..128: oracle / best fixed k (k in 1, 3, 5) grows with batch, since
  // a fixed k verifies k + 1 tokens whatever is accepted and verification costs more per token
  // as the batch fills the GPU.
  double last = 0;
  for (int64_t batch : {1, 8, 16, 32, 64, 128}) {
    const json b = eval_ok(instructcoder_ngram(batch))["bounds"];
    const double gap = b["oracle"]["speedup"].get<double>() / best_of_simulator_ks(b);
    EXPECT_GT(gap, last) << "batch " << batch;
    last = gap;
  }
}

TEST(WorkloadBounds, FixedKAtTheConfiguredKIsTheResultItself) {
  for (int64_t k : {1, 4, 8}) {
    const json r = eval_ok(instructcoder_ngram(8, k));
    const json& row = r["bounds"]["fixed_k"][static_cast<std::size_t>(k - 1)];
    EXPECT_EQ(row["k"], k);
    EXPECT_DOUBLE_EQ(row["tau"].get<double>(), r["tau"].get<double>());
    EXPECT_NEAR(row["speedup"].get<double>(), r["speedup"].get<double>(), 1e-12);
  }
  const json e = eval_ok(
      json{{"target", "llama3.1-8b-instruct"},
           {"hardware", "h100-sxm"},
           {"runtime", "vllm"},
           {"method", {{"family", "eagle3"}, {"depth", 3}, {"total_token", 4}, {"top_k", 1}}},
           {"acceptance", {{"workload", "gsm8k"}}}});
  EXPECT_NEAR(e["bounds"]["fixed_k"][2]["speedup"].get<double>(), e["speedup"].get<double>(),
              1e-12);
}

TEST(WorkloadBounds, BestOfTwoIsOrderedAndSaysItsCouplings) {
  // Whatever the joint, the longer of two proposals is at least each one: the comonotone
  // (least) best-of-two tau is at least either proposer's own oracle tau.
  const json eagle = eval_ok(json{{"target", "llama3.1-8b-instruct"},
                                  {"hardware", "h100-sxm"},
                                  {"runtime", "vllm"},
                                  {"method", {{"family", "eagle1"}, {"choices", {{0}, {0, 0}}}}},
                                  {"acceptance", {{"workload", "instructcoder"}}}});
  const json ngram = eval_ok(instructcoder_ngram(1));
  const json t = eagle["bounds"]["best_of_two"]["tau"];
  EXPECT_GE(t["comonotone"].get<double>(), eagle["bounds"]["oracle"]["tau"].get<double>());
  EXPECT_GE(t["comonotone"].get<double>(), ngram["bounds"]["oracle"]["tau"].get<double>());
  EXPECT_LE(t["comonotone"].get<double>(), t["independent"].get<double>());
  EXPECT_LE(t["independent"].get<double>(), t["countermonotone"].get<double>());
  // Priced for an EAGLE config (it runs the head); an n-gram config says why not.
  EXPECT_TRUE(eagle["bounds"]["best_of_two"]["speedup"].is_object());
  EXPECT_FALSE(ngram["bounds"]["best_of_two"].contains("speedup"));
  EXPECT_TRUE(ngram["bounds"]["best_of_two"].contains("speedup_note"));
  bool said = false;
  for (const json& a : eagle["assumptions"])
    said = said || a.get<std::string>().find("not jointly") != std::string::npos;
  EXPECT_TRUE(said) << "the coupling assumption belongs in the assumptions list";
}

TEST(WorkloadBounds, OnlyWorkloadPresetsGetBounds) {
  const json config = {{"target", "llama3.1-8b-instruct"},
                       {"hardware", "h100-sxm"},
                       {"method", {{"family", "pld"}, {"k", 3}}},
                       {"acceptance", {{"tau", 2.0}}}};
  const speccalc::Response r = speccalc::run("bounds", config.dump());
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "acceptance");
  // eval itself never carries them (they are the bounds command's).
  const speccalc::Response e = speccalc::run("eval", config.dump());
  ASSERT_TRUE(e.ok);
  EXPECT_FALSE(json::parse(e.output).contains("bounds"));
}

}  // namespace
