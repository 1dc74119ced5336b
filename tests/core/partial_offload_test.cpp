// llama.cpp's partial offload (--n-gpu-layers, issue 22 item 1): where the layers go, what the
// CPU's share of a pass costs, what the GPU holds. Expected values are hand calculations from
// Qwen3-32B's config.json (64 layers, hidden 5120, intermediate 25600, 64 query and 8 KV heads of
// 128, vocabulary 151936, untied) at Q4_K_M's 4.90 bits per weight (dtypes.cpp, llama.cpp's
// quantize table), on a CPU of 89.6 GB/s (dual-channel DDR5-5600) streamed at 60 %.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"
#include "model/method_cost.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::config_of;
using test::error_field;

std::string qwen32(const std::string& offload, const std::string& method = R"("ar")") {
  return R"({"target":"qwen3-32b","hardware":"rtx-4090","runtime":"llama.cpp-cuda",)"
         R"("dtype":{"weights":"q4_k_m"},"context":0,"method":)" +
         method + (offload.empty() ? "" : R"(,"offload":)" + offload) + "}";
}
std::string ngl(int n, double tflops = 2.0) {
  return R"({"gpu_layers":)" + std::to_string(n) + R"(,"host_memory_gbps":89.6,"host_tflops":)" +
         std::to_string(tflops) + "}";
}

// One Qwen3-32B decoder layer: q 5120 x 8192, k and v 5120 x 1024 each, o 8192 x 5120, the MLP
// 3 x 5120 x 25600, two RMSNorms of 5120 and the q/k norms of 128.
constexpr double kLayerParams =
    5120.0 * 8192 + 2 * 5120.0 * 1024 + 8192.0 * 5120 + 3 * 5120.0 * 25600 + 2 * 5120 + 2 * 128;
constexpr double kOutputParams = 151936.0 * 5120;
constexpr double kBytesPerWeight = 4.90 / 8;

TEST(PartialOffload, NGpuLayersCountsTheOutputLayerAsOneMoreSlot) {
  // llama.cpp: i_gpu_start = n_layer + 1 - n_gpu_layers; the output layer is slot n_layer.
  EXPECT_EQ(layer_split(config_of(qwen32(ngl(65)))).cpu_layers, 0);
  const LayerSplit all_but_one = layer_split(config_of(qwen32(ngl(64))));
  EXPECT_EQ(all_but_one.gpu_layers, 63);
  EXPECT_EQ(all_but_one.cpu_layers, 1);
  EXPECT_TRUE(all_but_one.lm_head_on_gpu);
  const LayerSplit output_only = layer_split(config_of(qwen32(ngl(1))));
  EXPECT_EQ(output_only.gpu_layers, 0);
  EXPECT_TRUE(output_only.lm_head_on_gpu);
  const LayerSplit none = layer_split(config_of(qwen32(ngl(0))));
  EXPECT_EQ(none.cpu_layers, 64);
  EXPECT_FALSE(none.lm_head_on_gpu);
}

TEST(PartialOffload, TheCpusShareOfADecodeStepStreamsItsWeightsAtSixtyPercent) {
  // Every layer and the output on the CPU, one token: the weights dominate (no cached context):
  // (64 x 487.6 M + 778 M) x 4.90 / 8 bytes = 19.59 GB at 0.6 x 89.6 GB/s = 364 ms.
  const Config c = config_of(qwen32(ngl(0)));
  const PassWork p = target_pass(c, Sharding{}, 1, 1);
  ASSERT_TRUE(p.on_host);
  const Machine m = machine_for(c, c.runtime.resolved);
  const double expected_s = (64 * kLayerParams + kOutputParams) * kBytesPerWeight / (0.6 * 89.6e9);
  EXPECT_NEAR(time_host_pass(p.host_work, m).time_s / expected_s, 1.0, 0.01);
  EXPECT_NEAR(expected_s, 0.364, 0.002);
  // eval reports the same share beside the pass's total.
  const auto r = test::eval_ok(qwen32(ngl(0)));
  EXPECT_EQ(r["baseline"]["scope"], "per_gpu_and_host");
  EXPECT_NEAR(r["baseline"]["host_time_per_pass_s"].get<double>() / expected_s, 1.0, 0.01);
  EXPECT_GE(r["baseline"]["time_per_pass_s"].get<double>(),
            r["baseline"]["host_time_per_pass_s"].get<double>());
}

TEST(PartialOffload, AVerifyOnASlowCpuIsBoundByItsMatmuls) {
  // Five positions on a CPU sustaining 0.1 TFLOP/s: 2 x 5 x (64 x 487.6 M + 778 M) FLOPs take
  // 3.2 s, far above the 0.36 s of reading the weights.
  const Config c = config_of(qwen32(ngl(0, 0.1)));
  const PassWork p = target_pass(c, Sharding{}, 5, 5);
  const Machine m = machine_for(c, c.runtime.resolved);
  const double flops_s = 2.0 * 5 * (64 * kLayerParams + kOutputParams) / 0.1e12;
  EXPECT_NEAR(time_host_pass(p.host_work, m).time_s / flops_s, 1.0, 0.01);
}

TEST(PartialOffload, TheGpuHoldsItsLayersAndTheOutputLayerOnly) {
  // -ngl 33: 32 decoder layers and the output layer on the GPU.
  const json r = json::parse(run("eval", qwen32(ngl(33))).output);
  EXPECT_NEAR(r["memory"]["weights_gb_per_gpu"].get<double>(),
              (32 * kLayerParams + kOutputParams) * kBytesPerWeight / 1e9, 0.01);
}

TEST(PartialOffload, SpeculationPaysMoreWhenTheTargetIsMemoryBoundOnTheCpu) {
  // A CPU-bound target reads the same weights for 5 positions as for 1 while its draft runs on
  // the GPU: the speedup with half the layers on the CPU exceeds the all-GPU one at the same
  // acceptance.
  const std::string sps =
      R"({"family":"sps","draft":"qwen3-0.6b","k":4},"acceptance":{"alpha":0.75})";
  const double all_gpu = json::parse(run("eval", qwen32("", sps)).output)["speedup"];
  const double half = json::parse(run("eval", qwen32(ngl(33), sps)).output)["speedup"];
  EXPECT_GT(half, all_gpu);
}

TEST(PartialOffload, TheExportWritesTheLayerCountPriced) {
  const json e = json::parse(
      run("export", qwen32(ngl(33), R"({"family":"sps","draft":"qwen3-0.6b","k":4})")).output);
  EXPECT_EQ(e["llama_server"]["--n-gpu-layers"], 33);
}

TEST(PartialOffload, SetupsThatCannotRunNameTheirField) {
  EXPECT_EQ(error_field(qwen32(R"({"gpu_layers":20})")), "offload.host_memory_gbps");
  EXPECT_EQ(error_field(qwen32(R"({"gpu_layers":20,"host_memory_gbps":60})")),
            "offload.host_tflops");
  EXPECT_EQ(error_field(qwen32(R"({"host_memory_gbps":60})")), "offload.host_memory_gbps");
  EXPECT_EQ(error_field(qwen32(R"({"gpu_layers":20,"target_weights":"host"})")),
            "offload.gpu_layers");
  EXPECT_EQ(error_field(R"({"target":"qwen3-32b","hardware":"h100-sxm","runtime":"vllm",)"
                        R"("offload":{"gpu_layers":20},"method":"ar"})"),
            "offload.gpu_layers");
  // Every layer on the GPU needs no CPU description.
  EXPECT_TRUE(run("eval", qwen32(R"({"gpu_layers":99})")).ok);
}

}  // namespace
}  // namespace speccalc
