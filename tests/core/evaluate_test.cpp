// End-to-end evaluation through speccalc::run: tau from acceptance, how a cycle's time and
// the speedup are composed, share-link round trips, and field-named errors. Expected values
// are derived by hand in the comments, independently of the cost model's internals.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "config/json_fields.hpp"
#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json eval_ok(const std::string& config) {
  const speccalc::Response r = speccalc::run("eval", config);
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config;
  return r.ok ? json::parse(r.output) : json();
}

speccalc::Error eval_error(const std::string& config) {
  const speccalc::Response r = speccalc::run("eval", config);
  EXPECT_FALSE(r.ok) << "expected an error for " << config;
  return r.error;
}

TEST(Evaluate, EachPassIsLabelledAndPlainDecodingsTargetPassIsItsDecodeStep) {
  // The page names the passes by these labels (pass table, cycle bar, roofline). Plain
  // decoding verifies nothing: its cycle's target pass is the decode step (the walk: the cycle
  // bar said "Verify: 6.08 ms" for plain decoding); its time is the baseline step's.
  const json ar = eval_ok(R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm",
    "runtime":"vllm","method":{"family":"ar"}})");
  EXPECT_EQ(ar["baseline"]["label"], "Baseline (plain decoding)");
  EXPECT_EQ(ar["draft"]["label"], "Draft");
  EXPECT_EQ(ar["verify"]["label"], "Decode step");
  EXPECT_EQ(ar["verify"]["time_s"], ar["baseline"]["time_s"]);
  EXPECT_EQ(ar["cycle"]["label"],
            "one decode step of the whole batch (plain decoding drafts nothing)");
  const json spec = eval_ok(R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm",
    "runtime":"vllm","method":{"family":"eagle3"}})");
  EXPECT_EQ(spec["verify"]["label"], "Verify");
  EXPECT_EQ(spec["draft"]["label"], "Draft");
  EXPECT_EQ(spec["cycle"]["label"], "one draft-verify round of the whole batch");
}

TEST(Evaluate, ChainTauFollowsClosedForm) {
  // alpha = 0.6, k = 4: tau = 1 + 0.6 + 0.36 + 0.216 + 0.1296 = 2.3056
  // (= (1 - 0.6^5) / (1 - 0.6) = (1 - 0.07776) / 0.4 = 2.3056).
  const json r = eval_ok(R"({"method":{"family":"sps","k":4},"acceptance":{"alpha":0.6}})");
  EXPECT_NEAR(r["tau"].get<double>(), 2.3056, 1e-12);
  EXPECT_EQ(r["max_tokens_per_cycle"], 5);
}

TEST(Evaluate, AlphaLimitsGiveOneAndKPlusOne) {
  // alpha -> 0: only the bonus token, tau = 1; alpha -> 1: every draft accepted, tau = k + 1.
  EXPECT_DOUBLE_EQ(
      eval_ok(R"({"method":{"family":"sps","k":6},"acceptance":{"alpha":0}})")["tau"].get<double>(),
      1.0);
  EXPECT_DOUBLE_EQ(
      eval_ok(R"({"method":{"family":"sps","k":6},"acceptance":{"alpha":1}})")["tau"].get<double>(),
      7.0);
  EXPECT_DOUBLE_EQ(eval_ok(R"({"method":{"family":"pld","k":10},"acceptance":{"alpha":1}})")["tau"]
                       .get<double>(),
                   11.0);
  // Near the limits the closed form stays continuous: alpha = 1e-9 adds ~1e-9 to tau.
  EXPECT_NEAR(eval_ok(R"({"method":{"family":"sps","k":6},"acceptance":{"alpha":1e-9}})")["tau"]
                  .get<double>(),
              1.0 + 1e-9, 1e-15);
}

TEST(Evaluate, PerPositionRatesMultiplyAlongTheChain) {
  // Conditional rates 0.9 then 0.5, k = 2: tau = 1 + 0.9 + 0.9 * 0.5 = 2.35.
  const json r =
      eval_ok(R"({"method":{"family":"sps","k":2},"acceptance":{"per_position":[0.9,0.5]}})");
  EXPECT_NEAR(r["tau"].get<double>(), 2.35, 1e-12);
}

TEST(Evaluate, GivenTauIsUsedAndBoundedByDraftLength) {
  EXPECT_DOUBLE_EQ(eval_ok(R"({"method":{"family":"sps","k":4},"acceptance":{"tau":3.25}})")["tau"]
                       .get<double>(),
                   3.25);
  const speccalc::Error e =
      eval_error(R"({"method":{"family":"sps","k":4},"acceptance":{"tau":5.5}})");
  EXPECT_EQ(e.field, "acceptance.tau");
  EXPECT_NE(e.message.find("at most 5 tokens"), std::string::npos) << e.message;
}

TEST(Evaluate, SpeedupIsTokensPerCycleOverCycleTimeInBaselineSteps) {
  // speedup = (tau / cycle) / (1 / baseline step) with cycle = draft + verify + engine step +
  // speculative bookkeeping and baseline step = one decode pass + the engine step.
  for (const char* family :
       {"sps", "pld", "lookahead", "medusa", "hydra", "eagle1", "eagle2", "eagle3"}) {
    const json r = eval_ok(std::string(R"({"method":{"family":")") + family +
                           R"("},"acceptance":{"alpha":0.7}})");
    const double cycle = r["draft"]["time_s"].get<double>() + r["verify"]["time_s"].get<double>() +
                         r["step_overhead_s"].get<double>() + r["cycle_overhead_s"].get<double>();
    EXPECT_NEAR(r["cycle_time_s"].get<double>(), cycle, 1e-15) << family;
    const double step = r["baseline"]["time_s"].get<double>() + r["step_overhead_s"].get<double>();
    EXPECT_NEAR(r["baseline_step_s"].get<double>(), step, 1e-15) << family;
    const double speedup = r["tau"].get<double>() * step / cycle;
    EXPECT_NEAR(r["speedup"].get<double>(), speedup, 1e-12) << family;
    // tokens/s at batch 1 = tau / cycle; the baseline makes 1 / step.
    EXPECT_NEAR(r["tokens_per_s"].get<double>(), r["tau"].get<double>() / cycle, 1e-9) << family;
    EXPECT_NEAR(r["baseline_tokens_per_s"].get<double>(), 1.0 / step, 1e-9) << family;
  }
}

TEST(Evaluate, PlainDecodingHasSpeedupOneAndNoDraft) {
  const json r = eval_ok(R"({"method":{"family":"ar"}})");
  EXPECT_DOUBLE_EQ(r["speedup"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["tau"].get<double>(), 1.0);
  EXPECT_EQ(r["draft"]["passes_per_cycle"], 0);
  EXPECT_DOUBLE_EQ(r["draft"]["time_s"].get<double>(), 0.0);
}

TEST(Evaluate, FreeDraftWithoutOverheadsGivesTauTimesStepOverVerify) {
  // PLD with no CPU draft time and no bookkeeping: cycle = verify + engine step, so
  // speedup = tau * (baseline + step) / (verify + step) exactly.
  const json r = eval_ok(
      R"({"method":{"family":"pld","k":3,"draft_cpu_s":0},"acceptance":{"alpha":0.5},
          "runtime":{"profile":"compiled","cycle_overhead_s":0}})");
  const double step = r["step_overhead_s"].get<double>();
  const double expected = r["tau"].get<double>() * (r["baseline"]["time_s"].get<double>() + step) /
                          (r["verify"]["time_s"].get<double>() + step);
  EXPECT_NEAR(r["speedup"].get<double>(), expected, 1e-12);
  // tau for k = 3, alpha = 0.5: 1 + 0.5 + 0.25 + 0.125 = 1.875.
  EXPECT_NEAR(r["tau"].get<double>(), 1.875, 1e-12);
}

TEST(Evaluate, DecodeStepWeightsAreTheParameterCountInFp16) {
  // Llama-2-7B (models.json, from config.json: 32 layers, hidden 4096, intermediate 11008,
  // vocab 32000, 6,738,415,616 parameters). Per layer: q/k/v/o 4 x 4096^2 = 67,108,864, MLP
  // 3 x 4096 x 11008 = 135,266,304, two RMSNorms 2 x 4096 = 8,192: 202,383,360; x 32 layers =
  // 6,476,267,520. Plus the LM head 32000 x 4096 = 131,072,000 (the embedding table is a lookup,
  // not read): 6,607,339,520 weights x 2 bytes = 13,214,679,040 bytes, exactly.
  // Not counted: the final RMSNorm (4,096 weights, 8,192 bytes; 6,738,415,616 - 131,072,000
  // embedding - 6,607,339,520 = 4,096), which cost.cpp leaves out (it counts norms per layer).
  // If the model starts counting it, this becomes 13,214,687,232.
  const json r = eval_ok(R"({"target":"llama2-chat-7b","method":{"family":"ar"}})");
  EXPECT_DOUBLE_EQ(r["baseline"]["weights_bytes"].get<double>(), 13214679040.0);
  // FLOPs: at least 2 per weight for the one token (13.2e9), plus attention over 1024 cached
  // tokens: 4 x 32 layers x 4096 x 1024 = 0.54e9.
  EXPECT_GT(r["baseline"]["flops"].get<double>(), 2.0 * 6.6e9);
  EXPECT_LT(r["baseline"]["flops"].get<double>(), 2.0 * 6.74e9 + 0.6e9);
  // KV cache read at context 1024: 32 layers x 2 (K, V) x 4096 x 2 bytes = 524,288 B/token
  // (models.json kv_cache_bytes_per_token_fp16), x (1024 + 1) tokens = 537,395,200 bytes.
  EXPECT_DOUBLE_EQ(r["baseline"]["kv_cache_bytes"].get<double>(), 537395200.0);
}

TEST(Evaluate, ShareLinkReproducesTheSameResultBytes) {
  const char* configs[] = {
      R"({"method":{"family":"sps","k":5,"draft":"llama-68m"},"acceptance":{"alpha":0.72},"batch":3})",
      R"({"target":"llama3-instruct-70b","hardware":"h100-sxm","gpus":4,"method":{"family":"eagle2","total_token":48},"acceptance":{"tau":4.1}})",
      R"({"method":{"family":"medusa","choices":[[0],[1],[0,0]]},"acceptance":{"p":[[0.6,0.2],[0.5]]},"dtype":"int4"})",
      R"({"target":{"num_layers":4,"hidden":256,"intermediate":512,"heads":4,"vocab":1000},"hardware":{"fp16_tflops":10,"mem_bw_gbps":100},"method":{"family":"pld"}})",
      R"({"runtime":{"profile":"hf-eager","measured_decode_step_s":0.03},"method":{"family":"lookahead","window":15,"guess":15}})",
  };
  for (const char* config : configs) {
    const speccalc::Response link = speccalc::run("link", config);
    ASSERT_TRUE(link.ok) << link.error.describe();
    EXPECT_EQ(link.output.rfind("v=1&", 0), 0u) << link.output;
    const speccalc::Response direct = speccalc::run("eval", config);
    const speccalc::Response via_link =
        speccalc::run("eval-link", "https://example.test/#" + link.output);
    ASSERT_TRUE(direct.ok && via_link.ok) << config;
    EXPECT_EQ(direct.output, via_link.output) << config;
    // Decoding and re-encoding is a fixed point.
    const speccalc::Response normalized = speccalc::run("decode-link", link.output);
    ASSERT_TRUE(normalized.ok);
    EXPECT_EQ(speccalc::run("link", normalized.output).output, link.output);
  }
}

TEST(Evaluate, ErrorsNameTheFieldAndReason) {
  speccalc::Error e = eval_error(R"({"method":{"family":"sps","k":65}})");
  EXPECT_EQ(e.field, "method.k");
  EXPECT_EQ(e.message, "must be between 0 and 64, got 65");
  e = eval_error(R"({"batch":0})");
  EXPECT_EQ(e.field, "batch");
  e = eval_error(R"({"hardware":"a200"})");
  EXPECT_EQ(e.field, "hardware");
  EXPECT_NE(e.message.find("unknown GPU preset"), std::string::npos);
  e = eval_error(R"({"method":{"family":"sps","kk":3}})");
  EXPECT_EQ(e.field, "method.kk");
  e = eval_error(R"({"acceptance":{"alpha":1.5}})");
  EXPECT_EQ(e.field, "acceptance.alpha");
  e = eval_error(R"({"hardware":{"fp16_tflops":0,"mem_bw_gbps":100}})");
  EXPECT_EQ(e.field, "hardware.fp16_tflops");
}

}  // namespace

// Issue 23 (the page decides nothing): each roof comes with its ridge and the vertices of
// min(peak, intensity x bandwidth) over the chart's extent, so the page only joins points.
TEST(Evaluate, EachRoofHasItsRidgeAndVertices) {
  const json r = eval_ok(
      R"({"target":"llama2-chat-7b","hardware":"a100-80gb-sxm","method":{"family":"pld"}})");
  const json& roofs = r["roofline"]["roofs"];
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_EQ(roofs[0]["name"], "datasheet");
  // A100-SXM4-80GB datasheet: 312 TFLOP/s fp16 dense, 2039 GB/s -> ridge 153.0 FLOP/byte.
  EXPECT_NEAR(roofs[0]["ridge_flops_per_byte"].get<double>(), 312e12 / 2039e9, 1e-9);
  for (const json& roof : roofs) {
    const double peak = roof["peak_flops_per_s"], bw = roof["bandwidth_bytes_per_s"];
    const json& v = roof["vertices"];
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0][0], 0.1);
    EXPECT_DOUBLE_EQ(v[0][1].get<double>(), 0.1 * bw);
    EXPECT_EQ(v[1][0], roof["ridge_flops_per_byte"]);
    EXPECT_EQ(v[1][1].get<double>(), peak);
    EXPECT_EQ(v[2][0], 1e5);
    EXPECT_EQ(v[2][1].get<double>(), peak);
  }
}

// Issue 18 (polish): durations in the assumptions carry a unit and 3 significant digits.
TEST(Evaluate, AssumptionsWriteDurationsWithUnits) {
  const json r = eval_ok(
      R"({"target":"llama2-chat-7b","hardware":"a100-80gb-sxm","method":{"family":"pld"}})");
  for (const json& a : r["assumptions"]) {
    const std::string s = a;
    EXPECT_EQ(s.find("e-0"), std::string::npos) << s;
  }
  EXPECT_EQ(speccalc::fields::format_seconds(6.46498e-05), "64.6 \u00b5s");
  EXPECT_EQ(speccalc::fields::format_seconds(0.0242), "24.2 ms");
  EXPECT_EQ(speccalc::fields::format_seconds(0.9996), "1 s");
  EXPECT_EQ(speccalc::fields::format_seconds(2.02275e-10), "< 1 ns");  // a fit at its bound 0
  EXPECT_EQ(speccalc::fields::format_seconds(1.5e-9), "1.5 ns");
  EXPECT_EQ(speccalc::fields::format_seconds(2.5e-9), "2.5 ns");
}
