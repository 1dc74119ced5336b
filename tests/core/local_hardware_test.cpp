// Local inference hardware and models (issue 22, items 2 and 6): Apple silicon presets with
// their unified memory and Metal's working-set limit, consumer GPUs, and local target presets.
// Expected values are the cited figures (core/data/hardware-extra.json,
// scripts/preset_configs.py) or hand counts written out in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;

const Catalog& catalog() {
  static const Catalog c = load_catalog().value();
  return c;
}

json eval_ok(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump();
  return r.ok ? json::parse(r.output) : json();
}

TEST(LocalHardware, ApplePresetsCarryTheCitedBandwidthAndCapacity) {
  // id -> {GPU-core config's unified memory bandwidth GB/s, max memory GB} as cited in
  // core/data/hardware-extra.json (M1: LPDDR4X-4266 x 128 bit / 8, see its notes).
  const std::pair<const char*, std::pair<double, double>> cited[] = {
      {"apple-m1", {68.25, 16}},    {"apple-m1-pro", {200, 32}},
      {"apple-m1-max", {400, 64}},  {"apple-m1-ultra", {800, 128}},
      {"apple-m2", {100, 24}},      {"apple-m2-pro", {200, 32}},
      {"apple-m2-max", {400, 96}},  {"apple-m2-ultra", {800, 192}},
      {"apple-m3", {100, 24}},      {"apple-m3-pro", {150, 36}},
      {"apple-m3-max", {400, 128}}, {"apple-m3-ultra", {819, 512}},
      {"apple-m4", {120, 32}},      {"apple-m4-pro", {273, 64}},
      {"apple-m4-max", {546, 128}}};
  for (const auto& [id, v] : cited) {
    const Gpu* g = catalog().find_gpu(id);
    ASSERT_NE(g, nullptr) << id;
    EXPECT_EQ(g->mem_bw_gbps, v.first) << id;
    EXPECT_EQ(g->mem_gb, v.second) << id;
    EXPECT_EQ(g->vendor, "Apple") << id;
    EXPECT_TRUE(g->unified_memory) << id;
    // Metal's recommendedMaxWorkingSetSize: 2/3 up to 36 GB, 3/4 above.
    EXPECT_EQ(g->usable_memory_fraction, v.second <= 36 ? 0.6667 : 0.75) << id;
    EXPECT_EQ(g->host_link_gbps, g->mem_bw_gbps) << id;  // one memory pool
    EXPECT_EQ(g->fp8_tflops, 0) << id;
  }
  // fp16 = cores x 128 x 2 x clock: M2 Ultra 76 x 256 x 1.398 GHz = 27.2 TFLOP/s (Apple's figure).
  EXPECT_EQ(catalog().find_gpu("apple-m2-ultra")->fp16_tflops, 27.2);
  EXPECT_NEAR(76 * 256 * 1.398e9 / 1e12, 27.2, 0.01);
}

TEST(LocalHardware, ConsumerGpusAreDiscreteWithTheirPcieLinks) {
  // PCIe Gen4 x8 = 16 GB/s per direction (RTX 4060 Ti), Gen4 x16 = 32, Gen5 x16 = 64.
  const std::pair<const char*, double> links[] = {{"rtx-3060-12gb", 32}, {"rtx-4060-ti-16gb", 16},
                                                  {"rtx-5080", 64},      {"rx-7900-xtx", 32},
                                                  {"rx-7900-xt", 32},    {"rx-9070-xt", 64}};
  for (const auto& [id, link] : links) {
    const Gpu* g = catalog().find_gpu(id);
    ASSERT_NE(g, nullptr) << id;
    EXPECT_EQ(g->host_link_gbps, link) << id;
    EXPECT_FALSE(g->unified_memory) << id;
    EXPECT_EQ(g->usable_memory_fraction, 1) << id;
  }
  // RTX 3060: 28 SMs x 4 tensor cores x 128 FMA x 2 x 1.777 GHz / 2 (fp32 accumulate) = 25.47.
  EXPECT_NEAR(catalog().find_gpu("rtx-3060-12gb")->fp16_tflops, 28 * 512 * 1.777e9 / 1e12, 0.05);
}

// Qwen2.5-32B (config.json: 64 layers, hidden 5120, intermediate 27648, 40 heads, 8 KV heads of
// 128, vocab 152064, untied, qkv bias) at 4.5 bits per weight (nvfp4: 16 x 4 bits + an 8-bit
// scale):
//   per layer q,k,v,o 5120 x (5120 + 2 x 1024) + 5120 x 5120 = 62,914,560, biases 7,168,
//   MLP 3 x 5120 x 27648 = 424,673,280, norms 10,240 -> 487,605,248; x 64 = 31,206,735,872;
//   embedding + head 2 x 152064 x 5120 = 1,557,135,360; final norm 5,120 -> 32,763,876,352.
//   Weights: x 9/16 byte = 18,429,680,448 B = 18.43 GB.
//   KV cache fp16: 64 layers x 2 x 8 x 128 x 2 B = 262,144 B per token; at context 16384,
//   batch 1: (16384 + 1 in flight) x 262,144 = 4,295,229,440 B = 4.30 GB.
//   Needed ~22.7 GB + activations. M1 Pro 32 GB: the GPU may use 2/3 -> 0.6667 x 32 = 21.33 GB:
//   does not fit (it would at the 28.8 GB of memory_utilization 0.9 alone). M1 Max 64 GB:
//   3/4 -> 48 GB: fits.
TEST(LocalHardware, UnifiedMemoryCapsWhatTheGpuMayUse) {
  json config = {{"target", "qwen2.5-32b"},
                 {"dtype", {{"weights", "nvfp4"}, {"kv", "fp16"}}},
                 {"runtime", "compiled"},
                 {"context", 16384},
                 {"memory_utilization", 0.9}};
  config["hardware"] = "apple-m1-pro";
  const json small = eval_ok(config)["memory"];
  EXPECT_DOUBLE_EQ(small["weights_gb_per_gpu"].get<double>(), 18.429680448);
  EXPECT_NEAR(small["kv_cache_gb_per_gpu"].get<double>(), 4.29522944, 1e-9);
  EXPECT_DOUBLE_EQ(small["usable_gb_per_gpu"].get<double>(), 32 * 0.6667);
  EXPECT_EQ(small["memory_utilization"], 0.6667);
  EXPECT_FALSE(small["fits"].get<bool>());
  const std::string why = small["suggestions"][0].get<std::string>();
  EXPECT_NE(why.find("21.3 GB usable of 32.0 GB unified memory (the GPU may use 67%: Metal's "
                     "working-set limit)"),
            std::string::npos)
      << why;
  config["hardware"] = "apple-m1-max";
  const json large = eval_ok(config)["memory"];
  EXPECT_DOUBLE_EQ(large["usable_gb_per_gpu"].get<double>(), 48);
  EXPECT_TRUE(large["fits"].get<bool>());
  // A lower memory_utilization than the Metal limit is kept, and the message says which.
  config["memory_utilization"] = 0.5;
  config["context"] = 32000;  // Qwen2.5-32B-Instruct is configured for 32768 positions
  config["batch"] = 4;
  const json low = eval_ok(config)["memory"];
  EXPECT_EQ(low["memory_utilization"], 0.5);
  EXPECT_NE(low["suggestions"][0].get<std::string>().find("memory_utilization 50.0% is lower"),
            std::string::npos);
}

TEST(LocalHardware, TooBigForOneDeviceNeverSuggestsGpusItCannotAdd) {
  // 405B in fp16 is ~812 GB of weights. On a Mac (MLX runs on one device; unified memory is
  // one pool) or a CPU no GPU count can fix it; on H100s (80 GB, 72 usable) tensor parallelism
  // over a count dividing its 128 heads can: 812 / 16 = 51 GB per GPU fits, 812 / 8 does not.
  auto advice = [](const std::string& hw, const std::string& rt) {
    const json e = eval_ok(json::parse(R"({"target":"llama3.1-405b-instruct","hardware":")" + hw +
                                       R"(","runtime":")" + rt + R"("})"));
    EXPECT_FALSE(e["memory"]["fits"].get<bool>()) << hw;
    std::string all;
    for (const json& s : e["memory"]["suggestions"]) all += s.get<std::string>() + " | ";
    return all;
  };
  for (const auto& [hw, rt] :
       std::vector<std::pair<std::string, std::string>>{{"apple-m4-max", "mlx"},
                                                        {"apple-m4-max", "llama.cpp-metal"},
                                                        {"ryzen-9-7950x", "llama.cpp-cpu"}}) {
    const std::string a = advice(hw, rt);
    EXPECT_EQ(a.find("GPUs ("), std::string::npos) << hw << " " << rt << ": " << a;
    EXPECT_NE(a.find("a machine with more memory"), std::string::npos) << a;
  }
  EXPECT_NE(advice("h100-sxm", "vllm").find("fit on 16 GPUs (tensor parallel)"), std::string::npos);
}

// A Mac's memory is one pool the CPU, the GPU and the operating system share: the result calls
// the device a chip and the memory unified (not "GPU memory", which a new user read as a
// separate VRAM), in the memory block, the verdict and the suggestions (which still say what
// share the GPU may use: Metal's working-set limit); a discrete GPU keeps "GPU", a CPU "CPU".
TEST(LocalHardware, UnifiedMemoryIsCalledSo) {
  auto memory = [](const std::string& hw, const std::string& rt, const std::string& target) {
    return eval_ok(json{{"target", target}, {"hardware", hw}, {"runtime", rt}});
  };
  const json mac = memory("apple-m4-max", "mlx", "llama3.1-8b-instruct");
  EXPECT_EQ(mac["memory"]["device"], "chip");
  EXPECT_EQ(mac["memory"]["pool"], "unified memory");
  const json big = memory("apple-m4-max", "mlx", "llama3.1-405b-instruct");
  EXPECT_EQ(big["verdict"], "infeasible");
  const std::string reason = big["verdict_reason"].get<std::string>();
  EXPECT_NE(reason.find("does not fit in unified memory"), std::string::npos) << reason;
  const std::string first = big["memory"]["suggestions"][0].get<std::string>();
  EXPECT_NE(first.find("GB per chip needed"), std::string::npos) << first;
  EXPECT_EQ(first.find("per GPU"), std::string::npos) << first;
  const json rtx = memory("rtx-4090", "llama.cpp-cuda", "llama3.1-8b-instruct");
  EXPECT_EQ(rtx["memory"]["device"], "GPU");
  EXPECT_EQ(rtx["memory"]["pool"], "GPU memory");
  const json cpu = memory("ryzen-9-7950x", "llama.cpp-cpu", "llama3.1-8b-instruct");
  EXPECT_EQ(cpu["memory"]["pool"], "CPU memory");
}

TEST(LocalHardware, ACustomUnifiedGpuIsValidatedAndRoundTrips) {
  json hw = {{"fp16_tflops", 10}, {"mem_bw_gbps", 400}, {"mem_gb", 64}};
  hw["unified_memory"] = true;
  hw["usable_memory_fraction"] = 0;
  Response r = run("eval", json{{"hardware", hw}}.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "hardware.usable_memory_fraction");
  EXPECT_EQ(r.error.message, "must be a number in (0, 1], got 0");
  hw["usable_memory_fraction"] = 1.5;
  EXPECT_EQ(run("eval", json{{"hardware", hw}}.dump()).error.field,
            "hardware.usable_memory_fraction");
  hw.erase("unified_memory");
  hw["usable_memory_fraction"] = 0.8;
  r = run("eval", json{{"hardware", hw}}.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.message, "needs unified_memory: true (a discrete GPU uses all its memory)");
  hw["unified_memory"] = true;
  const json out = eval_ok(json{{"hardware", hw}});
  EXPECT_EQ(out["config"]["hardware"]["unified_memory"], true);
  EXPECT_EQ(out["config"]["hardware"]["usable_memory_fraction"], 0.8);
  EXPECT_EQ(out["memory"]["memory_utilization"], 0.8);
  // The preset's custom twin (list hardware) evaluates like the preset.
  const json list = json::parse(run("list", "hardware").output);
  json twin;
  for (const auto& g : list)
    if (g["id"] == "apple-m4-max") twin = g["custom"];
  ASSERT_FALSE(twin.is_null());
  const json a = eval_ok(json{{"hardware", "apple-m4-max"}, {"runtime", "compiled"}});
  const json b = eval_ok(json{{"hardware", twin}, {"runtime", "compiled"}});
  EXPECT_EQ(a["memory"].dump(), b["memory"].dump());
  EXPECT_EQ(a["baseline"].dump(), b["baseline"].dump());
}

TEST(LocalModels, ParameterCountsWithinTwoPercentOfTheModelCards) {
  // Model cards: Qwen2.5-14B 14.7B, Qwen2.5-32B 32.5B, Qwen3-4B 4.0B, Qwen3-14B 14.8B.
  const std::pair<const char*, double> published[] = {
      {"qwen2.5-14b", 14.7e9}, {"qwen2.5-32b", 32.5e9}, {"qwen3-4b", 4.0e9}, {"qwen3-14b", 14.8e9}};
  for (const auto& [id, n] : published) {
    const ModelArch* m = catalog().find_target(id);
    ASSERT_NE(m, nullptr) << id;
    const double total = static_cast<double>(count_params(*m).total);
    EXPECT_LT(std::fabs(total - n) / n, 0.02) << id << ": " << total;
  }
  EXPECT_EQ(count_params(*catalog().find_target("qwen2.5-32b")).total, 32763876352);
  // Qwen3-1.7B model card: 1.7B total, 1.4B non-embedding; the tied 151936 x 2048 embedding is
  // 0.311B, so 1.4 + 0.31 = 1.71B.
  const ModelArch* d = catalog().find_draft("qwen3-1.7b");
  ASSERT_NE(d, nullptr);
  EXPECT_LT(std::fabs(static_cast<double>(count_params(*d).total) - 1.72e9) / 1.72e9, 0.02);
}

}  // namespace
}  // namespace speccalc
