// A setup that does not fit says which narrower weight format, and which narrower KV cache,
// would make it fit on its own (memory.fits_with_weights / fits_with_kv and their sentences):
// the widest the engine runs, found here by brute force over every format with eval itself,
// and the gigabytes by hand.
#include <gtest/gtest.h>

#include <cstdio>

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::eval_ok;

// Qwen3-32B with a Qwen3-0.6B draft under llama.cpp on an RTX 5090 (32 GB, 90 % usable):
// 16-bit weights (65.5 GB) are more than twice the card.
json qwen32_on_5090(const std::string& weights) {
  return json{{"target", "qwen3-32b"},
              {"hardware", "rtx-5090"},
              {"runtime", "llama.cpp-cuda"},
              {"dtype", {{"weights", weights}, {"kv", "fp16"}}},
              {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 3}}},
              {"acceptance", {{"alpha", 0.7}}}};
}

TEST(NarrowerWeights, TheWidestGgufTypeThatFitsByBruteForce) {
  const json fp16 = eval_ok(qwen32_on_5090("fp16").dump());
  ASSERT_FALSE(fp16["memory"]["fits"].get<bool>());
  // llama.cpp's weight types with their bits (dtypes.cpp), widest first; MXFP4 is gpt-oss's.
  const std::vector<std::pair<std::string, double>> gguf = {
      {"q8_0", 8.5},    {"q6_k", 6.5625},    {"q5_k_m", 5.70}, {"q5_k_s", 5.57}, {"q5_0", 5.5},
      {"q4_k_s", 4.67}, {"q4_0", 4.5},       {"iq4_nl", 4.5},  {"q4_k_m", 4.90}, {"iq4_xs", 4.25},
      {"q3_k_m", 4.00}, {"iq3_xxs", 3.0625}, {"q2_k", 3.17}};
  std::string widest;
  double widest_bits = 0;
  for (const auto& [name, bits] : gguf) {
    if (bits <= widest_bits) continue;
    if (eval_ok(qwen32_on_5090(name).dump())["memory"]["fits"].get<bool>()) {
      widest = name;
      widest_bits = bits;
    }
  }
  ASSERT_EQ(widest, "q6_k");  // q8_0's 34.8 GB of target weights do not fit in 28.8 GB
  EXPECT_EQ(fp16["memory"]["fits_with_weights"], widest);
  // The sentence's gigabytes: 16-bit weights over 2 bytes give the parameters; at 6.5625 bits
  // they are 32.76e9 x 6.5625 / 8 = 26.87 GB, the draft's 0.596e9 x 6.5625 / 8 = 0.49 GB.
  const double target_params = fp16["memory"]["weights_gb_per_gpu"].get<double>() * 1e9 / 2;
  const double draft_params = fp16["memory"]["draft_weights_gb_per_gpu"].get<double>() * 1e9 / 2;
  const double weights_gb = (target_params + draft_params) * 6.5625 / 8 / 1e9;
  EXPECT_NEAR(weights_gb, 27.36, 0.01);
  const json q6 = eval_ok(qwen32_on_5090("q6_k").dump());
  const auto& suggestions = fp16["memory"]["suggestions"];
  ASSERT_FALSE(suggestions.empty());
  char expected[200];
  std::snprintf(expected, sizeof expected,
                "With q6_k weights (6.56 bits a weight, target and draft) it fits: %.1f GB of "
                "weights, %.1f GB in all per GPU.",
                weights_gb, q6["memory"]["total_gb_per_gpu"].get<double>());
  EXPECT_EQ(suggestions.back(), expected);
}

TEST(NarrowerWeights, ServerEnginesOfferFp8OnlyWhereTheGpuHasIt) {
  // Llama-3.1-70B at 16 bits on one 80 GB card: 141 GB. fp8 (70.6 GB) fits on an H100; an A100
  // has no fp8 tensor cores, so its 8-bit answer is int8.
  const auto on = [](const std::string& gpu) {
    return eval_ok(json{{"target", "llama3.1-70b-instruct"},
                        {"hardware", gpu},
                        {"runtime", "vllm"},
                        {"context", 1024},
                        {"method", {{"family", "ar"}}}}
                       .dump());
  };
  EXPECT_EQ(on("h100-sxm")["memory"]["fits_with_weights"], "fp8");
  EXPECT_EQ(on("a100-80gb-sxm")["memory"]["fits_with_weights"], "int8");
}

TEST(NarrowerWeights, NothingWhenItFitsOrNoFormatDoes) {
  const json fits = eval_ok(qwen32_on_5090("q4_k_m").dump());
  ASSERT_TRUE(fits["memory"]["fits"].get<bool>());
  EXPECT_FALSE(fits["memory"].contains("fits_with_weights"));
  // Llama-3.1-405B on one RTX 5090: even 3 bits a weight (152 GB) are five cards.
  const json huge = eval_ok(json{
      {"target", "llama3.1-405b-instruct"},
      {"hardware", "rtx-5090"},
      {"runtime", "llama.cpp-cuda"},
      {"method",
       {{"family", "ar"}}}}.dump());
  ASSERT_FALSE(huge["memory"]["fits"].get<bool>());
  EXPECT_FALSE(huge["memory"].contains("fits_with_weights"));
}

// Llama-3.1-8B with EAGLE-3 under vLLM on one H100 at batch 24 and 32k tokens of context: the
// weights fit, the 16-bit KV cache (106 GB) does not.
json long_context(const std::string& gpu, const std::string& kv) {
  return json{{"target", "llama3.1-8b-instruct"},
              {"hardware", gpu},
              {"runtime", "vllm"},
              {"batch", 24},
              {"context", 32768},
              {"dtype", {{"weights", "fp16"}, {"kv", kv}}},
              {"method", {{"family", "eagle3"}}}};
}

TEST(NarrowerKv, AnFp8CacheWhereTheWeightsFitAndTheCacheDoesNot) {
  const json fp16 = eval_ok(long_context("h100-sxm", "fp16").dump());
  ASSERT_FALSE(fp16["memory"]["fits"].get<bool>());
  EXPECT_FALSE(fp16["memory"].contains("fits_with_weights"));  // 8 GB less of weights: short
  EXPECT_EQ(fp16["memory"]["fits_with_kv"], "fp8");
  // Brute force: vLLM caches in fp8 or int8 (both 8 bits; fp8 first in the table); fp8 fits.
  const json fp8 = eval_ok(long_context("h100-sxm", "fp8").dump());
  ASSERT_TRUE(fp8["memory"]["fits"].get<bool>());
  // Every cached value goes from 2 bytes to 1: half the gigabytes of the 16-bit cache.
  const double kv_gb = fp16["memory"]["kv_cache_gb_per_gpu"].get<double>() / 2;
  EXPECT_NEAR(kv_gb, fp8["memory"]["kv_cache_gb_per_gpu"].get<double>(), 1e-9);
  char expected[200];
  std::snprintf(
      expected, sizeof expected,
      "With the KV cache in fp8 (8 bits a value) it fits: %.1f GB of KV cache, %.1f GB in "
      "all per GPU.",
      kv_gb, fp8["memory"]["total_gb_per_gpu"].get<double>());
  EXPECT_EQ(fp16["memory"]["suggestions"].back(), expected);
  // An A100 has no fp8 tensor cores: its 8-bit cache is int8.
  EXPECT_EQ(eval_ok(long_context("a100-80gb-sxm", "fp16").dump())["memory"]["fits_with_kv"],
            "int8");
}

}  // namespace
}  // namespace speccalc

namespace speccalc {
namespace {

// "The weights fit on N GPUs (tensor parallel) or more." names a count the config check takes,
// and the smallest that fits: for every target preset on one 24 GB L4 under vLLM (16-bit, an
// n-gram draft), brute force over 2..64 GPUs with eval itself. GLM-4.6 (96 heads, 8 KV heads)
// once got "12 GPUs", which divides its query heads but neither divides nor is a multiple of
// its 8 KV heads, so eval refused the count the sentence had offered.
TEST(MoreGpus, TheSuggestedCountIsTheSmallestEvalTakesThatFits) {
  const json models = json::parse(run("list", "models").output);
  int suggested = 0;
  for (const json& m : models) {
    const std::string id = m["id"].get<std::string>();
    auto config = [&](int64_t gpus) {
      return json{{"target", id},
                  {"hardware", "l4"},
                  {"gpus", gpus},
                  {"runtime", "vllm"},
                  {"context", 1024},
                  {"method", {{"family", "pld"}, {"k", 3}}},
                  {"acceptance", {{"alpha", 0.6}}}}
          .dump();
    };
    const Response one = run("eval", config(1));
    ASSERT_TRUE(one.ok) << id << ": " << one.error.describe();
    const json at_one = json::parse(one.output);
    std::string sentence;
    for (const json& s : at_one["memory"]["suggestions"])
      if (s.get<std::string>().rfind("The weights fit on ", 0) == 0) sentence = s;
    if (sentence.empty()) continue;
    const int64_t n = std::stoll(sentence.substr(std::string("The weights fit on ").size()));
    int64_t smallest = 0;
    for (int64_t g = 2; g <= 64 && smallest == 0; ++g) {
      const Response r = run("eval", config(g));
      if (!r.ok) continue;  // a count the config check refuses (heads that do not split)
      const json mem = json::parse(r.output)["memory"];
      if (mem["weights_gb_per_gpu"].get<double>() + mem["draft_weights_gb_per_gpu"].get<double>() <
          mem["usable_gb_per_gpu"].get<double>())
        smallest = g;
    }
    EXPECT_EQ(n, smallest) << id << ": " << sentence;
    ++suggested;
  }
  EXPECT_GE(suggested, 20);  // most presets need more than one 24 GB card at 16 bits
}

}  // namespace
}  // namespace speccalc
