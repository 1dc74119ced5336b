// One fused-MoE call (one MoE layer's routed experts) as time_pass prices it under vLLM and
// SGLang, against the engines' own kernel benchmarks (core/data/moe-kernel-times.json; the
// call in a CUDA graph: top-k, align, two grouped GEMMs with their activation, the top-k sum;
// no router GEMM; random gating). scripts/fit_moe_kernel.py fitted moe_call_s, moe_slice_k_s
// and moe_bw_efficiency on these curves (tokens 1-128); the tests check that the C++ prices
// the published times, not the fit's own output.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

// Device time of one call: `experts_read` experts of 3 x hidden x n weights each (one slice per
// expert on this GPU), at `bytes` per weight, for `tokens` tokens, under `runtime` on `gpu`.
double call_us(const std::string& runtime, const std::string& gpu, DType dtype, double bytes,
               double hidden, double n, double experts_read, double top_k, double tokens) {
  const auto& catalog = load_catalog();
  auto c = parse_config_text(R"({"hardware":")" + gpu + R"(","runtime":")" + runtime + R"("})",
                             catalog.value());
  EXPECT_TRUE(c.ok()) << c.error().describe();
  Machine m = machine_for(c.value(), c.value().runtime.resolved);
  m.dtype = DTypes{dtype, DType::fp16};
  Work w;
  KernelWork& g = w[Kernel::gemm];
  const double params = 3.0 * hidden * n;
  g.weights_bytes = experts_read * params * bytes;
  g.expert_weights_bytes = g.weights_bytes;
  g.flops = 2.0 * tokens * top_k * params;
  g.rows = tokens;
  w.moe_layers = 1;
  w.moe_slice_k = experts_read * hidden;
  w.arch_kernels = 3;  // top-k, moe_align_block_size, the top-k sum (the router GEMM is not in)
  return time_pass(w, m).device_s * 1e6;
}

struct Curve {
  const char *name, *runtime, *gpu;
  DType dtype;
  double bytes, experts, top_k, hidden, n;
  std::vector<std::pair<int, double>> points;  // tokens, published us
};

// Four of the fitted curves, as published (core/data/moe-kernel-times.json has the sources).
std::vector<Curve> published_curves() {
  return {
      // vLLM PR #24700, Qwen3-30B-A3B fp8 (E=128, N=768), H100, the PR's default configs.
      {"qwen3-30b fp8 h100",
       "vllm",
       "h100-sxm",
       DType::fp8,
       1,
       128,
       8,
       2048,
       768,
       {{1, 40.44}, {4, 78.10}, {16, 164.64}, {32, 210.07}, {64, 237.26}, {128, 247.67}}},
      // vLLM PR #24700, Mixtral-8x7B bf16 TP2 (E=8, N=7168), H100, tuned.
      {"mixtral bf16 h100",
       "vllm",
       "h100-sxm",
       DType::bf16,
       2,
       8,
       2,
       4096,
       7168,
       {{1, 144.03}, {2, 229.28}, {4, 351.10}, {8, 434.98}, {16, 471.49}, {32, 487.35}}},
      // SGLang PR #11730, Qwen3-235B fp8 TP8 (E=128, N=192), H200, default config.
      {"qwen3-235b fp8 tp8 h200",
       "sglang",
       "h200-sxm",
       DType::fp8,
       1,
       128,
       8,
       4096,
       192,
       {{1, 31.70}, {4, 49.67}, {8, 66.87}, {16, 92.36}, {32, 124.99}}},
      // vLLM PR #36559, DeepSeek-R1 fp8 TP2 (E=256, N=1024), H200, main.
      {"deepseek-r1 fp8 tp2 h200",
       "vllm",
       "h200-sxm",
       DType::fp8,
       1,
       256,
       8,
       7168,
       1024,
       {{1, 77.48}, {4, 190.71}, {8, 350.35}, {16, 569.30}, {32, 877.37}}},
  };
}

double priced_us(const Curve& c, int tokens) {
  // The benchmarks' random gating: each token picks top_k of `experts` uniformly.
  const double read = expected_experts_touched(static_cast<int64_t>(c.experts),
                                               static_cast<int64_t>(c.top_k), tokens, 1, 0.0);
  return call_us(c.runtime, c.gpu, c.dtype, c.bytes, c.hidden, c.n, read, c.top_k, tokens);
}

TEST(MoeCall, ThePublishedCurvesOverTokensWithinTenPercentOnAverage) {
  for (const Curve& c : published_curves()) {
    double sum = 0;
    for (const auto& [tokens, us] : c.points) {
      const double t = priced_us(c, tokens);
      sum += std::abs(t / us - 1.0);
      EXPECT_NEAR(t / us, 1.0, 0.15) << c.name << " at " << tokens << " tokens: " << t << " us";
    }
    EXPECT_LT(sum / static_cast<double>(c.points.size()), 0.10) << c.name;
  }
}

TEST(MoeCall, ManySmallSlicesCostMoreThanTheirBytes) {
  // Qwen3-235B's TP8 slices (N = 192) at 32 tokens: 111.8 of 128 experts touched
  // (128 x (1 - (120 / 128)^32)), 111.8 x 3 x 4096 x 192 bytes = 263.8 MB, 55.0 us at the
  // H200's 4800 GB/s peak; the call measures 124.99 us. Bytes and a fixed time alone price it
  // at 27.06 + 55.0 / 0.9053 = 87.8 us (the batch-1 fit this replaced, -30 %); the slice term
  // adds 111.8 x 4096 x moe_slice_k_s.
  const Curve c = published_curves()[2];
  const double t = priced_us(c, 32);
  const double bytes_only_us = 27.06 + 263.8e6 / 4800e9 * 1e6 / 0.9053;
  EXPECT_NEAR(bytes_only_us, 87.8, 0.1);
  EXPECT_NEAR(t / 124.99, 1.0, 0.10) << t;
  const auto& catalog = load_catalog();
  const double slice_us = catalog.value().find_runtime("sglang")->params.moe_slice_k_s * 4096 * 1e6;
  EXPECT_GT(slice_us, 0.1);  // a slice at hidden 4096: a fraction of a microsecond, not nothing
  EXPECT_LT(slice_us, 1.0);
}

// What eval says about the call, in the numbers the profile prices it with.
std::string moe_assumption(const std::string& config) {
  const Response r = run("eval", config);
  EXPECT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json out = nlohmann::json::parse(r.output);
  for (const auto& a : out["assumptions"]) {
    const std::string s = a.get<std::string>();
    if (s.find("fused-MoE call") != std::string::npos) return s;
  }
  return "";
}

TEST(MoeCall, EvalSaysWhatTheCallCostsForAnMoeTargetOnly) {
  // DeepSeek-V3 on SGLang: a slice at hidden 7168 costs 7168 x 6.427e-11 s = 461 ns; the fixed
  // part is 25.91 us less three 2.5 us kernels = 18.4 us; the bytes stream at 0.898 of peak.
  const std::string ds =
      moe_assumption(R"({"target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"runtime":"sglang",)"
                     R"("dtype":{"weights":"fp8"},"method":{"family":"mtp","k":1}})");
  EXPECT_NE(ds.find("18.4 µs fixed, 461 ns per expert slice"), std::string::npos) << ds;
  EXPECT_NE(ds.find("at hidden 7168"), std::string::npos) << ds;
  EXPECT_NE(ds.find("0.898 of peak"), std::string::npos) << ds;
  // A dense target, and an MoE target on an engine without the terms, say nothing of it.
  EXPECT_EQ(moe_assumption(R"({"target":"llama3.1-8b-instruct","runtime":"sglang"})"), "");
  EXPECT_EQ(moe_assumption(R"({"target":"qwen3-30b-a3b","runtime":"tensorrt-llm"})"), "");
}

TEST(MoeCall, ProfilesWithoutTheTermsPriceExpertsAsBefore) {
  // TensorRT-LLM states no fused-MoE terms: its experts stream at its bw_efficiency and no call
  // time is added (Mixtral at batch 1 on an H100: 352,321,536 bytes / (3350e9 x bw_efficiency)
  // plus three small kernels' arch_kernel_s and the FLOPs' unhidden share).
  const auto& catalog = load_catalog();
  const RuntimeProfile* trt = catalog.value().find_runtime("tensorrt-llm");
  ASSERT_NE(trt, nullptr);
  EXPECT_EQ(trt->params.moe_call_s, 0.0);
  EXPECT_EQ(trt->params.moe_bw_efficiency, 0.0);
  const double with_moe = call_us("tensorrt-llm", "h100-sxm", DType::bf16, 2, 4096, 7168, 2, 2, 1);
  const double stream_us = 352321536.0 / (3350e9 * trt->params.bw_efficiency) * 1e6;
  EXPECT_GE(with_moe, stream_us);
  EXPECT_LT(with_moe, stream_us + 3 * trt->params.arch_kernel_s * 1e6 + 1.0);
}

}  // namespace
}  // namespace speccalc
