// The 2025-26 GPUs (issue 20, item 3): every preset knows its host link, offloading streams over
// it without a number from the user, and nvfp4 / mxfp4 weights are counted with their block
// scales and run on fp4 tensor cores where the GPU has them. Expected values are hand counts.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;

json eval_ok(const std::string& config) {
  const Response r = run("eval", config);
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config;
  return r.ok ? json::parse(r.output) : json();
}

Error eval_error(const std::string& config) {
  const Response r = run("eval", config);
  EXPECT_FALSE(r.ok) << "expected an error for " << config;
  return r.error;
}

const Gpu& gpu(const std::string& id) {
  static const Catalog c = load_catalog().value();
  const Gpu* g = c.find_gpu(id);
  EXPECT_NE(g, nullptr) << id;
  static const Gpu none;
  return g ? *g : none;
}

json kernel(const json& pass, const std::string& kind) {
  for (const auto& k : pass["kernels"])
    if (k["kind"] == kind) return k;
  ADD_FAILURE() << "no " << kind << " kernel";
  return json();
}

TEST(Fp4, BytesPerWeightCountTheBlockScales) {
  // NVFP4: 16 x 4 bits + one 8-bit E4M3 scale = 72 bits / 16 = 4.5 bits; MXFP4: 32 x 4 + 8 = 136
  // bits / 32 = 4.25 bits.
  EXPECT_EQ(dtype_bytes(DType::nvfp4), 4.5 / 8);
  EXPECT_EQ(dtype_bytes(DType::mxfp4), 4.25 / 8);
}

TEST(Fp4, WeightBytesOfADecodePassInNvfp4AndMxfp4) {
  // Llama-2-7B (h 4096, I 11008, 32 layers, vocab 32000, untied), batch 1: a decode pass reads
  // per layer 4 h^2 = 67,108,864 (attention) + 3 h I = 135,266,304 (MLP) + 2 h = 8,192 (norms),
  // and the LM head vocab h = 131,072,000: 32 x 202,383,360 + 131,072,000 = 6,607,339,520
  // weights. x 9/16 byte (nvfp4) = 3,716,628,480 B; x 17/32 byte (mxfp4) = 3,510,149,120 B.
  const json nv = eval_ok(R"({"target":"llama2-chat-7b","hardware":"b200","dtype":"nvfp4"})");
  EXPECT_DOUBLE_EQ(nv["baseline"]["weights_bytes"].get<double>(), 3716628480.0);
  const json mx = eval_ok(R"({"target":"llama2-chat-7b","hardware":"b200","dtype":"mxfp4"})");
  EXPECT_DOUBLE_EQ(mx["baseline"]["weights_bytes"].get<double>(), 3510149120.0);
  // A 4-bit weight dtype given as a string keeps an fp16 KV cache, like int4.
  EXPECT_EQ(nv["config"]["dtype"]["kv"], "fp16");
}

TEST(Fp4, TensorCorePeaksWhereTheGpuRunsTheFormatAndInt4LikeDequantElsewhere) {
  Machine m;
  m.dtype.weights = DType::nvfp4;
  m.gpu = gpu("b200");  // HGX B200: FP4 9000 dense TFLOPS, NVFP4 and MXFP4
  EXPECT_DOUBLE_EQ(m.peak_flops(), 9000e12);
  EXPECT_DOUBLE_EQ(weight_bandwidth_factor(DType::nvfp4, m.gpu), 1.0);
  m.gpu = gpu("h100-sxm");  // Hopper: no fp4 tensor cores -> fp16 peak, int4's 863/1397
  EXPECT_DOUBLE_EQ(m.peak_flops(), 989.4e12);
  EXPECT_DOUBLE_EQ(weight_bandwidth_factor(DType::nvfp4, m.gpu), 863.0 / 1397.0);
  m.gpu = gpu("mi355x");  // CDNA4 runs MXFP4 (10 PF dense), not NVFP4
  m.dtype.weights = DType::mxfp4;
  EXPECT_DOUBLE_EQ(m.peak_flops(), 10000e12);
  m.dtype.weights = DType::nvfp4;
  EXPECT_DOUBLE_EQ(m.peak_flops(), 2500e12);
  EXPECT_DOUBLE_EQ(weight_bandwidth_factor(DType::nvfp4, m.gpu), 863.0 / 1397.0);
}

TEST(Fp4, TheFallbackIsStatedInTheAssumptions) {
  const json r = eval_ok(R"({"target":"llama2-chat-7b","hardware":"h100-sxm","dtype":"nvfp4"})");
  bool stated = false;
  for (const auto& a : r["assumptions"])
    stated = stated || a.get<std::string>().find("do not run nvfp4: dequantized to fp16") !=
                           std::string::npos;
  EXPECT_TRUE(stated) << r["assumptions"].dump();
  // And the GEMMs' memory time shows it: fp16 / nvfp4 = (2 / 0.5625) x (863 / 1397) on H100.
  const json f = eval_ok(R"({"target":"llama2-chat-7b","hardware":"h100-sxm"})");
  const double ratio = kernel(f["baseline"], "gemm")["memory_time_s"].get<double>() /
                       kernel(r["baseline"], "gemm")["memory_time_s"].get<double>();
  EXPECT_NEAR(ratio, (2 / 0.5625) * (863.0 / 1397.0), 1e-12);
}

TEST(Fp4, AnFp4KvCacheIsRefusedNamingTheField) {
  const Error e = eval_error(R"({"dtype":{"weights":"nvfp4","kv":"mxfp4"}})");
  EXPECT_EQ(e.field, "dtype.kv");
  EXPECT_EQ(eval_error(R"({"dtype":"fp3"})").field, "dtype");
}

TEST(HostLink, OffloadStreamsOverThePresetsHostLinkWithoutANumber) {
  // L4: PCIe Gen4 x16 = 32 GB/s per direction. Llama-2-7B fp16 GEMM weights of a decode pass:
  // 32 x (67,108,864 + 135,266,304) x 2 B = 12,952,010,752 B -> / 32e9 = 0.404750336 s; the LM
  // head 131,072,000 x 2 B / 32e9 = 0.008192 s, plus its logits (32,000 x 2 B written and read,
  // 128 kB at the GPU's bandwidth: under 1 us on an L4's 300 GB/s).
  const json r = eval_ok(R"({"target":"llama2-chat-7b","hardware":"l4",
                             "offload":{"target_weights":"host"}})");
  EXPECT_EQ(r["config"]["offload"]["host_link_gbps"], 32);
  EXPECT_NEAR(kernel(r["baseline"], "gemm")["memory_time_s"].get<double>(), 0.404750336, 1e-12);
  const double lm = kernel(r["baseline"], "lm_head")["memory_time_s"].get<double>();
  EXPECT_GT(lm, 0.008192);
  EXPECT_LT(lm, 0.008192 + 128000 / 300e9 / 0.5);  // any bandwidth efficiency above 0.5
  // GB200: NVLink-C2C 900 GB/s bidirectional per Grace, shared by 2 GPUs -> 225 per direction.
  const json g = eval_ok(R"({"target":"llama2-chat-7b","hardware":"gb200",
                             "offload":{"target_weights":"host"}})");
  EXPECT_EQ(g["config"]["offload"]["host_link_gbps"], 225);
  // GEMM weights over C2C: 12,952,010,752 B / 225e9 = 0.05756449223... s.
  EXPECT_NEAR(kernel(g["baseline"], "gemm")["memory_time_s"].get<double>(), 12952010752.0 / 225e9,
              1e-15);
}

TEST(HostLink, ACustomGpuNeedsOneAndCanGiveIt) {
  const Error e = eval_error(R"({"hardware":{"fp16_tflops":100,"mem_bw_gbps":1000},
                                 "offload":{"target_weights":"host"}})");
  EXPECT_EQ(e.field, "offload.host_link_gbps");
  EXPECT_NE(e.message.find("custom GPU"), std::string::npos) << e.message;
  const json r = eval_ok(R"({"hardware":{"fp16_tflops":100,"mem_bw_gbps":1000,"host_link_gbps":50},
                             "offload":{"target_weights":"host"}})");
  EXPECT_EQ(r["config"]["offload"]["host_link_gbps"], 50);
  EXPECT_EQ(r["config"]["hardware"]["host_link_gbps"], 50);
}

TEST(HostLink, EveryPresetHasOneAndTheNewGpusAreListed) {
  const Response r = run("list", "hardware");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json list = json::parse(r.output);
  for (const auto& g : list) {
    EXPECT_GT(g["host_link_gbps"].get<double>(), 0) << g["id"];
    EXPECT_FALSE(g["host_link"].get<std::string>().empty()) << g["id"];
    EXPECT_FALSE(g["source"].get<std::string>().empty()) << g["id"];
  }
  for (const char* id : {"b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x", "a10g",
                         "l4", "rtx-5090", "rtx-pro-6000", "dgx-spark", "h20"}) {
    bool found = false;
    for (const auto& g : list) found = found || g["id"] == id;
    EXPECT_TRUE(found) << id;
  }
  // fp4 formats: Blackwell runs both, CDNA4 MXFP4 only, Hopper none.
  for (const auto& g : list) {
    if (g["id"] == "rtx-5090") {
      EXPECT_EQ(g["fp4_formats"], json::array({"nvfp4", "mxfp4"}));
    }
    if (g["id"] == "mi355x") {
      EXPECT_EQ(g["fp4_formats"], json::array({"mxfp4"}));
    }
    if (g["id"] == "h20") {
      EXPECT_EQ(g["fp4_formats"], json::array());
    }
  }
}

TEST(HostLink, APresetsCustomTwinEvaluatesLikeThePreset) {
  // list hardware's `custom` object carries the host link and fp4 peak, so a GPU copied from a
  // preset offloads and runs fp4 the same way.
  const json list = json::parse(run("list", "hardware").output);
  json twin;
  for (const auto& g : list)
    if (g["id"] == "rtx-5090") twin = g["custom"];
  ASSERT_FALSE(twin.is_null());
  json a =
      eval_ok(R"({"hardware":"rtx-5090","dtype":"nvfp4","offload":{"target_weights":"host"}})");
  json config = json::parse(R"({"dtype":"nvfp4","offload":{"target_weights":"host"}})");
  config["hardware"] = twin;
  json b = eval_ok(config.dump());
  EXPECT_EQ(a["baseline"].dump(), b["baseline"].dump());
  EXPECT_EQ(a["speedup"], b["speedup"]);
}

}  // namespace
}  // namespace speccalc
