// One fused-MoE call (one MoE layer's routed experts) as time_pass prices it under vLLM and
// SGLang, against the engines' own kernel benchmarks (core/data/moe-kernel-times.json; the
// call in a CUDA graph: top-k, align, two grouped GEMMs with their activation, the top-k sum;
// no router GEMM). The five batch-1 calls are what scripts/fit_moe_kernel.py fitted
// moe_bw_efficiency and moe_call_s on; the Mixtral curve over batch was never fitted on.
#include <gtest/gtest.h>

#include <string>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

// Device time of one call: `experts_read` experts of 3 x hidden x n weights each, at `bytes`
// per weight, for `tokens` tokens, under `runtime` on `gpu`.
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
  w.arch_kernels = 3;  // top-k, moe_align_block_size, the top-k sum (the router GEMM is not in)
  return time_pass(w, m).device_s * 1e6;
}

TEST(MoeCall, TheFiveBatchOneBenchmarksWithinFivePercent) {
  struct Point {
    const char *runtime, *gpu;
    DType dtype;
    double bytes, hidden, n, top_k, measured_us;
  };
  // SGLang PR #11730 (Qwen3-235B fp8, TP8, H200), vLLM PR #44830 (Qwen3-Next-80B fp8, TP4,
  // H100), PR #31448 (Qwen3-Omni-30B bf16, B200), PR #55511 (Qwen3.5-122B bf16, TP2, A100
  // PCIe, tuned), PR #24700 (Mixtral-8x7B bf16, TP2, H100, tuned).
  const Point points[] = {
      {"sglang", "h200-sxm", DType::fp8, 1, 4096, 192, 8, 31.70},
      {"vllm", "h100-sxm", DType::fp8, 1, 2048, 128, 10, 29.45},
      {"vllm", "b200", DType::bf16, 2, 2048, 768, 8, 39.61},
      {"vllm", "a100-80gb-pcie", DType::bf16, 2, 3072, 512, 8, 67.54},
      {"vllm", "h100-sxm", DType::bf16, 2, 4096, 7168, 2, 144.03},
  };
  for (const Point& p : points) {
    const double t =
        call_us(p.runtime, p.gpu, p.dtype, p.bytes, p.hidden, p.n, p.top_k, p.top_k, 1);
    EXPECT_NEAR(t / p.measured_us, 1.0, 0.05) << p.gpu << " " << p.n << ": " << t << " us";
  }
}

TEST(MoeCall, MixtralsTunedCurveOverBatchWasNeverFittedAndHolds) {
  // vLLM PR #24700, tuned E=8,N=7168 config on an H100: 144.03, 229.28, 351.10, 434.98, 471.49,
  // 487.35 us at batch 1, 2, 4, 8, 16, 32. The benchmark's tokens pick experts independently
  // (random gating): 8 (1 - (6/8)^b) distinct experts of 8 at top-2.
  const int batches[] = {1, 2, 4, 8, 16, 32};
  const double measured[] = {144.03, 229.28, 351.10, 434.98, 471.49, 487.35};
  for (int i = 0; i < 6; ++i) {
    const double read = expected_experts_touched(8, 2, batches[i], 1, 0.0);
    const double t = call_us("vllm", "h100-sxm", DType::bf16, 2, 4096, 7168, read, 2, batches[i]);
    EXPECT_NEAR(t / measured[i], 1.0, 0.05) << "batch " << batches[i] << ": " << t << " us";
  }
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
