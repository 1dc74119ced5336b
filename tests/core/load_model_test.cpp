// Serving under load (core/src/model/load_model.hpp, the `load` command): the limits the model
// must reproduce by construction of the physics (rate -> 0 is one request alone; a fixed
// concurrency with negligible prompts is eval at that batch), Little's law on every solved
// point, the crossover where speculation stops paying, SpecDecode-Bench's batch findings, and
// bad input refused with the field named.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json run_ok(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << input.dump();
  return r.ok ? json::parse(r.output) : json();
}

speccalc::Error run_error(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_FALSE(r.ok) << "accepted " << input.dump();
  return r.error;
}

// Llama-3.1-8B-Instruct on one H100 in vLLM with a chain EAGLE head of k = 3 (SpecDecode-Bench's
// setup, shared/data/production-engines.json).
json eagle_chain(const json& acceptance, const json& load) {
  return json{{"target", "llama3.1-8b-instruct"},
              {"hardware", "h100-sxm"},
              {"runtime", "vllm"},
              {"method", {{"family", "eagle1"}, {"choices", {{0}, {0, 0}, {0, 0, 0}}}}},
              {"acceptance", acceptance},
              {"load", load}};
}

// eval of the same setup at one batch and context (no load block).
json eval_at(json config, int64_t batch, int64_t context) {
  config.erase("load");
  config["batch"] = batch;
  config["context"] = context;
  return run_ok("eval", config);
}

TEST(LoadModel, RateToZeroIsEvalAtBatchOne) {
  // 1e-6 requests/s: one request alone. Its TPOT is eval's cycle at batch 1 over tau (the step
  // decodes tau tokens), and plain decoding's is eval's baseline step. Mean context 500 + 400/2.
  const json cfg = eagle_chain({{"tau", 2.5}},
                               {{"rate_rps", 1e-6}, {"input_tokens", 500}, {"output_tokens", 400}});
  const json load = run_ok("load", cfg);
  const json e = eval_at(cfg, 1, 700);
  const double cycle = e["cycle_time_s"].get<double>();
  const double base = e["baseline_step_s"].get<double>();
  EXPECT_EQ(load["inputs"]["mean_context_tokens"], 700);
  // (1e-6 requests/s leaves a decode batch of ~1e-6 x e2e: a 1e-8 relative difference.)
  EXPECT_NEAR(load["speculative"]["at"]["tpot_s"].get<double>(), cycle / 2.5, 1e-7 * cycle);
  EXPECT_NEAR(load["plain"]["at"]["tpot_s"].get<double>(), base, 1e-7 * base);
  // TTFT alone: the 500-token prompt fits one step's 8192-token budget (H100 default), so one
  // step of one sequence plus the prompt's own compute.
  const double c_p = load["inputs"]["prefill_s_per_token"].get<double>();
  EXPECT_NEAR(load["speculative"]["at"]["ttft_s"].get<double>(), cycle + 500 * c_p, 1e-7 * cycle);
  // e2e = ttft + (400 - 1) / tau steps.
  const double e2e = cycle + 500 * c_p + 399.0 / 2.5 * cycle;
  EXPECT_NEAR(load["speculative"]["at"]["e2e_s"].get<double>(), e2e, 1e-7 * e2e);
  // The prompt compute of an 8B model is about 2 x 8e9 FLOPs per token: at the H100's 989e12
  // dense fp16 FLOP/s it is at least 16 us per token, and well under 1 ms.
  EXPECT_GT(c_p, 2 * 7.5e9 / 989e12);
  EXPECT_LT(c_p, 1e-3);
}

TEST(LoadModel, TheEnginesRequestSetupIsPaidOnceInTheFirstToken) {
  // TensorRT-LLM's profile carries request_overhead_s (its first-token latencies' constant,
  // fitted): a request alone waits for it once, before its first token, and never per step.
  json cfg = eagle_chain({{"tau", 2.5}},
                         {{"rate_rps", 1e-6}, {"input_tokens", 500}, {"output_tokens", 400}});
  cfg["runtime"] = "tensorrt-llm";
  const json load = run_ok("load", cfg);
  const double setup_s = load["inputs"]["request_overhead_s"].get<double>();
  EXPECT_GT(setup_s, 1e-4);
  json without = cfg;
  without["runtime"] = {{"profile", "tensorrt-llm"}, {"request_overhead_s", 0}};
  const json none = run_ok("load", without);
  EXPECT_FALSE(none["inputs"].contains("request_overhead_s"));
  for (const char* option : {"speculative", "plain"}) {
    const json& a = load[option]["at"];
    const json& b = none[option]["at"];
    EXPECT_NEAR(a["ttft_s"].get<double>() - b["ttft_s"].get<double>(), setup_s, 1e-9) << option;
    EXPECT_NEAR(a["tpot_s"].get<double>(), b["tpot_s"].get<double>(), 1e-12) << option;
  }
}

TEST(LoadModel, FixedConcurrencyIsEvalAtThatBatch) {
  // 16 requests in flight with a 1-token prompt and 20000 output tokens: a request spends one
  // step of about 20000 / tau in its first token, so the decode batch is 16 x (1 - ~1e-4) and
  // the TPOT is eval's at batch 16 (mean context 1 + 10000) within 1e-3.
  const json cfg = eagle_chain(
      {{"tau", 2.5}}, {{"concurrency", 16}, {"input_tokens", 1}, {"output_tokens", 20000}});
  const json load = run_ok("load", cfg);
  const json e = eval_at(cfg, 16, 10001);
  const double cycle = e["cycle_time_s"].get<double>();
  const double base = e["baseline_step_s"].get<double>();
  EXPECT_NEAR(load["speculative"]["at"]["tpot_s"].get<double>(), cycle / 2.5, 1e-3 * cycle);
  EXPECT_NEAR(load["plain"]["at"]["tpot_s"].get<double>(), base, 1e-3 * base);
  EXPECT_NEAR(load["speculative"]["at"]["in_flight"].get<double>(), 16, 1e-6);
  // Throughput at that concurrency: 16 sequences x tau / cycle, as eval's tokens_per_s.
  EXPECT_NEAR(load["speculative"]["at"]["output_tokens_per_s"].get<double>(),
              e["tokens_per_s"].get<double>(), 2e-3 * e["tokens_per_s"].get<double>());
}

TEST(LoadModel, LittlesLawHoldsOnEverySolvedPoint) {
  const json cfg =
      eagle_chain({{"workload", "sharegpt"}}, {{"rate_rps", 1}, {"workload", "sharegpt"}});
  const json load = run_ok("load", cfg);
  const json& rates = load["curve"]["rates_rps"];
  ASSERT_EQ(rates.size(), 200u);
  int steady = 0;
  for (const char* which : {"plain", "speculative"}) {
    const json& c = load["curve"][which];
    for (std::size_t i = 0; i < rates.size(); ++i) {
      if (c["state"][i] != "steady") continue;
      ++steady;
      const double rate = rates[i].get<double>();
      const double e2e = c["e2e_s"][i].get<double>();
      const double ttft = c["ttft_s"][i].get<double>();
      const double in_flight = c["in_flight"][i].get<double>();
      // L = lambda W, for the whole stay and for the decode phase (the fixed point).
      EXPECT_NEAR(in_flight, rate * e2e, 1e-9 * in_flight + 1e-12) << which << " point " << i;
      EXPECT_NEAR(c["decode_batch"][i].get<double>(), rate * (e2e - ttft), 1e-9 * in_flight + 1e-12)
          << which << " point " << i;
      EXPECT_NEAR(c["output_tokens_per_s"][i].get<double>(), rate * 727.6, 1e-9 * rate * 727.6);
    }
  }
  EXPECT_GT(steady, 200);  // both curves mostly below capacity (they reach 1.2 x the larger)
  // Beyond its capacity a curve says so instead of giving numbers.
  const double cap = load["plain"]["capacity_rps"].get<double>();
  const std::size_t last = rates.size() - 1;
  ASSERT_GT(rates[last].get<double>(), cap);
  EXPECT_EQ(load["curve"]["plain"]["state"][last], "over_capacity");
  EXPECT_TRUE(load["curve"]["plain"]["tpot_s"][last].is_null());
}

TEST(LoadModel, CrossoverExistsAndRisesWithTau) {
  // Speculation pays at low load and stops paying at high load (verify computes k + 1 tokens
  // per sequence; the batch grows until the step is compute-bound). A higher tau keeps it ahead
  // to a higher rate. GSM8K's short requests (94.5 prompt, 166.2 output tokens) leave the KV
  // cache small, so 1024 sequences fit and the step reaches the compute roof; with ShareGPT's
  // long outputs memory caps the batch first and at tau 2.5 speculation pays at every rate.
  double previous = 0;
  for (double tau : {1.8, 2.2, 2.6, 3.0}) {
    const json cfg = eagle_chain({{"tau", tau}}, {{"rate_rps", 1}, {"workload", "gsm8k"}});
    const json load = run_ok("load", cfg);
    ASSERT_EQ(load["crossover"]["state"], "stops_paying") << "tau " << tau;
    const double x = load["crossover"]["rate_rps"].get<double>();
    EXPECT_GT(x, previous) << "tau " << tau;
    previous = x;
    // Just below the crossover speculation is faster per token; just above it is not.
    const json below = run_ok(
        "load", eagle_chain({{"tau", tau}}, {{"rate_rps", 0.98 * x}, {"workload", "gsm8k"}}));
    EXPECT_LT(below["speculative"]["at"]["tpot_s"].get<double>(),
              below["plain"]["at"]["tpot_s"].get<double>());
    // The verdict at the chosen rate agrees with the crossover's bisection (another search):
    // it pays below, not above, and its ratio is the two TPOTs' at that rate.
    EXPECT_EQ(below["at_load"]["state"], "pays") << "tau " << tau;
    EXPECT_NEAR(below["at_load"]["tpot_speedup"].get<double>(),
                below["plain"]["at"]["tpot_s"].get<double>() /
                    below["speculative"]["at"]["tpot_s"].get<double>(),
                1e-12);
    EXPECT_GT(below["at_load"]["tpot_speedup"].get<double>(), 1.0);
    const json above = run_ok(
        "load", eagle_chain({{"tau", tau}}, {{"rate_rps", 1.02 * x}, {"workload", "gsm8k"}}));
    const json& s = above["speculative"]["at"];
    EXPECT_TRUE(s["state"] == "over_capacity" ||
                s["tpot_s"].get<double>() >= above["plain"]["at"]["tpot_s"].get<double>());
    EXPECT_NE(above["at_load"]["state"], "pays") << "tau " << tau;
    EXPECT_NE(above["at_load"]["state"], "only_speculative_keeps_up") << "tau " << tau;
  }
}

// SpecDecode-Bench (shared/data/production-engines.json, specdecode_bench.facts; vLLM v0.10.1,
// one H100, Llama-3.1-8B-Instruct, EAGLE k = 3): "By batch 128, EAGLE on Llama-3.1-8B (1xH100)
// on GSM8K drops to 1.21x" and "EAGLE on ShareGPT: going from batch 1 to batch 32 reduces
// speedup by 4.3% on Llama-3.1-8B". Their batch is the number of requests in flight: here a
// fixed concurrency with the workload's mean lengths and measured tau. Speedup = output tokens/s
// with EAGLE over without at the same concurrency.
double speedup_at(const std::string& workload, int64_t concurrency) {
  const json load =
      run_ok("load", eagle_chain({{"workload", workload}},
                                 {{"concurrency", concurrency}, {"workload", workload}}));
  return load["speculative"]["at"]["output_tokens_per_s"].get<double>() /
         load["plain"]["at"]["output_tokens_per_s"].get<double>();
}

TEST(LoadModel, SpecDecodeBenchConcurrencyFindings) {
  // GSM8K at 128 in flight: 1.21x measured; predicted 1.138 (-5.9 %), within 15 %.
  EXPECT_NEAR(speedup_at("gsm8k", 128), 1.21, 0.15 * 1.21);
  // ShareGPT, 1 -> 32 in flight: the speedup falls (direction), and the ratio
  // speedup(32) / speedup(1) = 1 - 0.043 = 0.957 measured is reproduced within 15 %
  // (predicted 1.478 / 1.716 = 0.861: the model's drop, 13.9 %, is larger than the measured
  // 4.3 %; eval's fixed-batch cost alone gives 12.5 %, so the excess is the step-cost model's,
  // not the load model's).
  const double s1 = speedup_at("sharegpt", 1);
  const double s32 = speedup_at("sharegpt", 32);
  EXPECT_LT(s32, s1);
  EXPECT_NEAR(s32 / s1, 0.957, 0.15 * 0.957);
}

TEST(LoadModel, WhatCannotBeServedIsAStateNotANumber) {
  // Llama-3.1-405B in fp16 (~810 GB) on one 80 GB H100: not one sequence fits.
  const json big = run_ok(
      "load", json{{"target", "llama3.1-405b-instruct"},
                   {"hardware", "h100-sxm"},
                   {"method", {{"family", "pld"}}},
                   {"acceptance", {{"alpha", 0.5}}},
                   {"load", {{"rate_rps", 1}, {"input_tokens", 100}, {"output_tokens", 100}}}});
  EXPECT_EQ(big["crossover"]["state"], "does_not_fit");
  EXPECT_EQ(big["plain"]["at"]["state"], "over_capacity");
  EXPECT_EQ(big["plain"]["at"]["limit"].get<std::string>().rfind("memory", 0), 0u);
  EXPECT_FALSE(big["plain"]["at"].contains("tpot_s"));
  EXPECT_EQ(big["plain"]["capacity_rps"], 0.0);
  EXPECT_EQ(big["at_load"]["state"], "neither_keeps_up");
  EXPECT_FALSE(big["at_load"].contains("tpot_speedup"));
  // 1000 requests of 8000 prompt tokens in flight on an 8B model: their KV cache (8005 mean
  // context tokens x 128 KiB each, ~1 GB per sequence) exceeds the ~56 GB left beside the weights.
  const json many = run_ok(
      "load",
      json{{"target", "llama3.1-8b-instruct"},
           {"hardware", "h100-sxm"},
           {"method", {{"family", "pld"}}},
           {"acceptance", {{"alpha", 0.5}}},
           {"load", {{"concurrency", 1000}, {"input_tokens", 8000}, {"output_tokens", 10}}}});
  EXPECT_EQ(many["plain"]["at"]["state"], "over_capacity");
  const int64_t fit = many["plain"]["memory_seqs"].get<int64_t>();
  EXPECT_GT(fit, 40);
  EXPECT_LT(fit, 70);
}

TEST(LoadModel, BadInputNamesTheField) {
  const json base = eagle_chain({{"tau", 2.5}}, {{"rate_rps", 1}, {"workload", "sharegpt"}});
  json neg = base;
  neg["load"]["rate_rps"] = -1;
  EXPECT_EQ(run_error("load", neg).field, "load.rate_rps");
  EXPECT_EQ(run_error("eval", neg).field, "load.rate_rps");
  json zero = base;
  zero["load"]["output_tokens"] = 0;
  EXPECT_EQ(run_error("load", zero).field, "load.output_tokens");
  json both = base;
  both["load"]["concurrency"] = 4;
  EXPECT_EQ(run_error("load", both).field, "load.rate_rps");
  json unknown = base;
  unknown["load"]["workload"] = "nope";
  EXPECT_EQ(run_error("load", unknown).field, "load.workload");
  // 1 ms per output token: an 8B model's weights (16 GB) alone take ~5 ms to stream on an H100
  // (3.35 TB/s), and tau 2.5 brings one request to ~2.9 ms per token at best.
  json fast = base;
  fast["load"]["slo"] = {{"tpot_s", 0.001}};
  const speccalc::Error e = run_error("eval", fast);
  EXPECT_EQ(e.field, "load.slo.tpot_s");
  EXPECT_NE(e.message.find("physical minimum"), std::string::npos);
  json no_load = base;
  no_load.erase("load");
  EXPECT_EQ(run_error("load", no_load).field, "load");
}

TEST(LoadModel, LinkRoundTripsTheLoadBlock) {
  const json cfg = eagle_chain({{"tau", 2.5}}, {{"rate_rps", 3.5},
                                                {"workload", "gsm8k"},
                                                {"max_num_seqs", 64},
                                                {"slo", {{"tpot_s", 0.02}, {"ttft_s", 0.5}}}});
  const speccalc::Response link = speccalc::run("link", cfg.dump());
  ASSERT_TRUE(link.ok);
  EXPECT_NE(link.output.find("load.workload=gsm8k"), std::string::npos);
  EXPECT_NE(link.output.find("load.slo.tpot_s=0.02"), std::string::npos);
  const json normalized = run_ok("normalize", cfg);
  const speccalc::Response decoded = speccalc::run("decode-link", link.output);
  ASSERT_TRUE(decoded.ok) << decoded.error.describe();
  EXPECT_EQ(json::parse(decoded.output), normalized);
  // Defaults stay implicit in the link (DefaultsFollowTheGpuAndTheWorkload); what was used is in
  // the load command's inputs.
  EXPECT_FALSE(normalized["load"].contains("input_tokens"));
  EXPECT_FALSE(normalized["load"].contains("max_num_batched_tokens"));
  EXPECT_EQ(normalized["load"]["max_num_seqs"], 64);  // given
  const json used = run_ok("load", cfg)["inputs"];
  EXPECT_EQ(used["input_tokens"], 94.5);            // gsm8k's mean prompt (workloads.json)
  EXPECT_EQ(used["max_num_batched_tokens"], 8192);  // vLLM on an H100 (>= 70 GiB, not an A100)
  // eval of the link and of the config agree, load block included.
  const speccalc::Response a = speccalc::run("eval", cfg.dump());
  const speccalc::Response b = speccalc::run("eval-link", link.output);
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.output, b.output);
  EXPECT_TRUE(json::parse(a.output).contains("load"));
}

// The page carries the normalized load block into the next edit: a GPU or workload changed
// later must bring its own defaults, not keep the ones filled in for the previous setup.
// vLLM's defaults (vllm/engine/arg_utils.py get_batch_defaults): 1024 sequences and 8192 tokens
// a step on a GPU of >= 70 GiB that is not an A100 (an H100: 80 GB), else 256 and 2048 (an
// A100 40 GB); the workloads' mean prompts: gsm8k 94.5, sharegpt 355.3 tokens.
TEST(LoadModel, DefaultsFollowTheGpuAndTheWorkload) {
  json cfg =
      run_ok("normalize", eagle_chain({{"tau", 2.5}}, {{"rate_rps", 1.0}, {"workload", "gsm8k"}}));
  EXPECT_EQ(run_ok("load", cfg)["inputs"]["max_num_seqs"], 1024);
  cfg["hardware"] = "a100-40gb-sxm";
  cfg["load"]["workload"] = "sharegpt";
  const json used = run_ok("load", cfg)["inputs"];
  EXPECT_EQ(used["max_num_seqs"], 256);
  EXPECT_EQ(used["max_num_batched_tokens"], 2048);
  EXPECT_EQ(used["input_tokens"], 355.3);
  // Given values stay given.
  cfg["load"]["max_num_seqs"] = 32;
  EXPECT_EQ(run_ok("normalize", cfg)["load"]["max_num_seqs"], 32);
}

}  // namespace

// A TPOT target is in seconds per output token. One above the TPOT either setup reaches at its
// capacity rate (TPOT grows with the rate: its slowest steady point) never binds and is said so;
// one of 1 s or more most likely meant milliseconds ("20" for 20 ms), and the note gives the value
// to type (20 / 1000 = 0.02).
TEST(LoadModel, ATpotTargetThatNeverBindsIsSaid) {
  const json tau = {{"tau", 3.0}};
  const json at = run_ok("load", eagle_chain(tau, {{"rate_rps", 2}, {"workload", "sharegpt"}}));
  ASSERT_TRUE(at.contains("notes"));
  EXPECT_EQ(at["notes"], json::array()) << "no SLO: nothing to say";
  // The slowest steady TPOT: each setup's TPOT just below its own capacity rate.
  double slowest_tpot_s = 0;
  for (const char* option : {"plain", "speculative"}) {
    const double cap = at[option]["capacity_rps"].get<double>();
    const json near = run_ok(
        "load", eagle_chain(tau, {{"rate_rps", cap * (1 - 1e-9)}, {"workload", "sharegpt"}}));
    ASSERT_EQ(near[option]["at"]["state"], "steady") << option;
    slowest_tpot_s = std::max(slowest_tpot_s, near[option]["at"]["tpot_s"].get<double>());
  }
  ASSERT_GT(slowest_tpot_s, 0.005);  // an 8B model at its capacity: milliseconds, not seconds
  ASSERT_LT(slowest_tpot_s, 1.0);
  auto notes = [&](double tpot_s) {
    return run_ok("load", eagle_chain(tau, {{"rate_rps", 2},
                                            {"workload", "sharegpt"},
                                            {"slo", {{"tpot_s", tpot_s}}}}))["notes"];
  };
  EXPECT_EQ(notes(slowest_tpot_s * 0.99), json::array()) << "binds near capacity";
  const json above = notes(slowest_tpot_s * 1.01);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_NE(above[0].get<std::string>().find("never binds"), std::string::npos) << above;
  EXPECT_EQ(above[0].get<std::string>().find(" ms target is"), std::string::npos) << above;
  const json typed_ms = notes(20);
  ASSERT_EQ(typed_ms.size(), 1u);
  EXPECT_NE(typed_ms[0].get<std::string>().find("a 20 ms target is 0.02"), std::string::npos)
      << typed_ms;
}

// The schedule's segments end where their choice really changes, not at the curve's grid points:
// a new user read "plain decoding serves up to 9.95 requests/s" above a schedule whose last row
// ended at 9.9 and whose "over capacity" began at 10.07. With a measured tau the schedule weighs
// plain decoding against the configured draft only, so its steady part ends at the larger of
// the two capacities the output gives, and each segment starts where the one before ends.
TEST(LoadModel, ScheduleEndsAtTheCapacityNotTheGrid) {
  const json out =
      run_ok("load", eagle_chain({{"tau", 3.0}},
                                 {{"rate_rps", 2}, {"workload", "sharegpt"}, {"curve_points", 7}}));
  const json& sched = out["schedule"];
  ASSERT_GE(sched.size(), 2u);
  const double capacity = std::max(out["plain"]["capacity_rps"].get<double>(),
                                   out["speculative"]["capacity_rps"].get<double>());
  EXPECT_EQ(sched.back()["choice"], "over_capacity");
  const double last_steady_to = sched[sched.size() - 2]["to_rps"].get<double>();
  EXPECT_NEAR(last_steady_to, capacity, 1e-9 * capacity);
  EXPECT_NEAR(sched.back()["from_rps"].get<double>(), capacity, 1e-9 * capacity);
  for (std::size_t i = 1; i < sched.size(); ++i) {
    const double from = sched[i]["from_rps"].get<double>();
    EXPECT_NEAR(from, sched[i - 1]["to_rps"].get<double>(), 1e-9 * from) << i;
  }
  // 7 grid points up to 1.2 x capacity are 0.17 x capacity apart: on the grid alone the last
  // steady row ended at 5/7 x 1.2 = 0.86 x capacity (the next point, 6/7 x 1.2 = 1.03 x, is over).
  const double grid_step = 1.2 * capacity / 7;
  EXPECT_GT(std::fabs(last_steady_to - 5 * grid_step), 0.1 * capacity);
}
