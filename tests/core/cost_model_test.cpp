// Physics of the cost model (issue 3, item 7). Every expected number is derived by hand in
// the comment above its check, from the architecture (Llama-2-7B: hidden 4096, 32 layers,
// 32 heads of 128, MLP 11008, vocab 32000, untied LM head; Mixtral: 8 experts, top 2, MLP
// 14336), the GPU datasheet (A100-80GB SXM: 2039 GB/s, 312 TFLOP/s fp16) and the fitted
// runtime profile values in core/data/runtimes.json (compiled: bw 0.8222, FLOPs 0.6514,
// 1.432 ms per pass, 0.5 ms per cycle).
#include <gtest/gtest.h>

#include <string>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

Evaluation eval_text(const std::string& text) {
  auto catalog = load_catalog();
  EXPECT_TRUE(catalog.ok());
  auto config = parse_config_text(text, catalog.value());
  EXPECT_TRUE(config.ok()) << (config.ok() ? "" : config.error().describe());
  auto e = evaluate(config.value());
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().describe());
  return e.value();
}

std::string a100_7b_compiled(const std::string& method, const std::string& acceptance,
                             int batch = 1) {
  return R"({"target":"llama2-chat-7b","hardware":"a100-80gb-sxm","runtime":"compiled","batch":)" +
         std::to_string(batch) + R"(,"context":1024,"method":)" + method + R"(,"acceptance":)" +
         acceptance + "}";
}

ModelArch target(const std::string& id) {
  auto catalog = load_catalog();
  EXPECT_TRUE(catalog.ok());
  const ModelArch* m = catalog.value().find_target(id);
  EXPECT_NE(m, nullptr) << id;
  return m ? *m : ModelArch{};
}

TEST(CostModel, Llama2SevenBDecodeStepWorkByHand) {
  const Work w = decoder_work(target("llama2-chat-7b"), 32, 1, 1, 1024, 1, DTypes{});
  // Weights read once per step, fp16 (2 bytes), everything except the embedding table:
  //   per layer q,k,v,o 4 x 4096^2 = 67,108,864; gate,up,down 3 x 4096 x 11008 = 135,266,304;
  //   two RMSNorms 2 x 4096 = 8,192 -> 202,383,360; x 32 layers = 6,476,267,520;
  //   LM head 32000 x 4096 = 131,072,000 -> 6,607,339,520 params -> 13,214,679,040 bytes.
  EXPECT_DOUBLE_EQ(w.weights_bytes, 13214679040.0);
  // FLOPs: 2 per multiply-add. Matmuls 2 x 32 x (67,108,864 + 135,266,304) = 12,952,010,752;
  // LM head 2 x 131,072,000 = 262,144,000; attention QK^T and PV over 1024 cached + 1 new
  // token: 4 x 4096 x 32 x 1025 = 537,395,200. Total 13,751,549,952 (about 2 x 6.74e9 x 1.02).
  EXPECT_DOUBLE_EQ(w.flops, 13751549952.0);
  // KV cache: K and V, 32 layers x 2 x 4096 x 2 bytes = 524,288 bytes per token, read for
  // 1024 cached tokens and written for 1 new one: 524,288 x 1025 = 537,395,200.
  EXPECT_DOUBLE_EQ(w.kv_cache_bytes, 537395200.0);
}

TEST(CostModel, MixtralExpectedExpertsGrowWithVerifiedTokens) {
  // E (1 - (1 - k/E)^n) with E = 8, k = 2: n = 1 -> 2; n = 2 -> 8 (1 - 0.5625) = 3.5;
  // n = 4 -> 8 (1 - 0.31640625) = 5.46875; n = 60 -> 8 (1 - 0.75^60), 0.75^60 = 3.2e-8.
  EXPECT_DOUBLE_EQ(expected_experts_touched(8, 2, 1), 2.0);
  EXPECT_DOUBLE_EQ(expected_experts_touched(8, 2, 2), 3.5);
  EXPECT_DOUBLE_EQ(expected_experts_touched(8, 2, 4), 5.46875);
  EXPECT_NEAR(expected_experts_touched(8, 2, 60), 8.0, 1e-6);
  // A 4-token Mixtral pass reads 5.46875 - 2 = 3.46875 more experts per layer than a 1-token
  // pass: 32 layers x 3.46875 = 111 experts of 3 x 4096 x 14336 = 176,160,768 params, fp16:
  // 111 x 176,160,768 x 2 = 39,107,690,496 more bytes (no LM head in either pass).
  const ModelArch m = target("mixtral-8x7b");
  const double one = decoder_work(m, 32, 1, 1, 1024, 0, DTypes{}).weights_bytes;
  const double four = decoder_work(m, 32, 1, 4, 1024, 0, DTypes{}).weights_bytes;
  EXPECT_DOUBLE_EQ(four - one, 39107690496.0);
}

TEST(CostModel, VerifyUpTo32TokensCostsAboutOneDecodeStep) {
  // A100, 7B, compiled, batch 1. PLD with k = 31 verifies 32 tokens. Extra bytes per extra
  // token: activations 2 x 2 bytes x 32 layers x (5 x 4096 + 256 x 128 + 3 x 11008) =
  // 8,945,664, logits 4 x 32000 = 128,000, KV write 524,288 -> ~9.6 MB; 31 tokens -> 0.30 GB,
  // 2.2 % of the step's 13.75 GB. Compute 2 x 6.6e9 x 32 / (312e12 x 0.6514) = 2.1 ms stays
  // under memory 13.75e9 / (2039e9 x 0.8222) = 8.2 ms; both passes add 1.43 ms. Ratio about
  // (8.2 x 1.022 + 1.43) / (8.2 + 1.43) = 1.019.
  const Evaluation e = eval_text(a100_7b_compiled(R"({"family":"pld","k":31})", R"({"tau":2})"));
  EXPECT_EQ(e.verify.tokens_per_pass, 32);
  EXPECT_EQ(e.verify.bound, "memory");
  const double ratio = e.verify.time_s / e.baseline.time_s;
  EXPECT_GT(ratio, 1.0);
  EXPECT_LT(ratio, 1.03);
}

TEST(CostModel, VerifyArithmeticIntensityGrowsLinearlyUntilRidge) {
  // AI(t) = FLOPs / bytes ~ (13.5e9 t) / (13.75e9 + 9.6e6 t): doubling t from 1 to 32
  // doubles AI within 1.5 % (bytes grow 0.07 % per token). Ridge of this machine:
  // 312e12 x 0.6514 / (2039e9 x 0.8222) = 121 FLOP/byte, so a 64-token verify (AI ~ 61) is
  // memory bound and a 192-token one (AI ~ 165) is compute bound.
  double prev = 0;
  for (int tokens : {1, 2, 4, 8, 16, 32, 64}) {
    const Evaluation e = eval_text(a100_7b_compiled(
        R"({"family":"pld","k":)" + std::to_string(tokens - 1) + "}", R"({"tau":1})"));
    const double ai = e.verify.arithmetic_intensity;
    if (prev > 0) {
      EXPECT_GT(ai / prev, 1.9) << tokens;
      EXPECT_LT(ai / prev, 2.02) << tokens;
    }
    prev = ai;
    EXPECT_EQ(e.verify.bound, "memory") << tokens;
  }
  const Evaluation wide = eval_text(a100_7b_compiled(
      R"({"family":"eagle2","total_token":192,"depth":6,"top_k":10})", R"({"tau":1})"));
  EXPECT_EQ(wide.verify.bound, "compute");
  EXPECT_GT(wide.verify.arithmetic_intensity, 121.0);
}

TEST(CostModel, PromptLookupSpeedupIsNearTauWhenCompiled) {
  // Baseline 8.2 + 1.43 = 9.66 ms (memory part 13.75e9 / (2039e9 x 0.8222) = 8.20 ms).
  // Verify of 11 tokens adds 10 x 9.6 MB = 0.7 % of bytes: 8.26 + 1.43 = 9.69 ms; the
  // n-gram match 0.2 ms and the cycle bookkeeping 0.5 ms -> cycle 10.39 ms.
  // Speedup = tau x 9.66 / 10.39 = 0.930 tau.
  const Evaluation e =
      eval_text(a100_7b_compiled(R"({"family":"pld","k":10,"ngram":3})", R"({"tau":3})"));
  EXPECT_NEAR(e.speedup / 3.0, 0.930, 0.01);
}

TEST(CostModel, SpeculationLosesAtLargeBatchEagle2BreakEven) {
  // EAGLE-2 (60 verified tokens, depth 6, top_k 10) on an A100 with Llama-2-7B, compiled,
  // context 1024, tau 4. Per sequence the 60-token verify costs 2 x 6.6e9 x 60 /
  // (312e12 x 0.6514) = 3.9 ms once compute bound, while a decode step costs 8.2 ms + 1.43 ms
  // for the weights plus 524,288 x 1025 / (2039e9 x 0.8222) = 0.32 ms of KV per sequence.
  // At B = 1: verify 14.32e9 bytes -> 8.54 + 1.43 = 9.97 ms; 6 draft passes of the head
  // (0.2e9 layer params + 0.13e9 LM head, 0.67 GB -> 0.4 ms) at 1.43 + 0.4 = 1.83 ms each =
  // 11 ms; bookkeeping 0.5 ms -> cycle 21.5 ms, speedup 4 x 9.63 / 21.5 = 1.79.
  // tau x step = 4 x (9.6 + 0.32 B) ms against cycle ~ 3.9 B + ~12 ms once the verify is
  // compute bound: equal near B = (38.5 - 12) / (3.9 - 1.28) ~ 10.
  auto speedup_at = [](int batch) {
    return eval_text(
               a100_7b_compiled(R"({"family":"eagle2","total_token":60,"depth":6,"top_k":10})",
                                R"({"tau":4})", batch))
        .speedup;
  };
  EXPECT_NEAR(speedup_at(1), 1.79, 0.03);
  EXPECT_LT(speedup_at(256), 1.0);
  int break_even = 0;
  for (int b = 1; b <= 256; ++b) {
    if (speedup_at(b) < 1.0) {
      break_even = b;
      break;
    }
  }
  std::printf(
      "EAGLE-2, Llama-2-7B, A100-80GB SXM, compiled, tau 4, context 1024: break-even batch %d\n",
      break_even);
  EXPECT_GE(break_even, 6);
  EXPECT_LE(break_even, 16);
}

TEST(CostModel, EagerLaunchTimeOverlapsDeviceTime) {
  // hf-eager, RTX 3090, Llama-2-7B: device 13.75e9 / (936e9 x 0.6484) = 22.66 ms; launches
  // 32 x 0.7708 ms = 24.67 ms hide it, so the step is 24.67 + 0.36 = 25.03 ms, not the sum
  // 22.66 + 24.67 + 0.36 = 47.7 ms.
  const Evaluation e = eval_text(
      R"({"target":"llama2-chat-7b","hardware":"rtx-3090","runtime":"hf-eager","method":{"family":"ar"},"acceptance":{"tau":1}})");
  EXPECT_NEAR(e.baseline.time_s, 0.02503, 0.0002);
}

TEST(CostModel, SpsDraftMayBeATargetPreset) {
  // 70B target drafted by Llama-2-7B-chat (a target preset), k = 4, tensor parallel over 2
  // GPUs: the draft cycle reads the 7B's 13,214,679,040 weight bytes (see the decode-work
  // test) once per pass, split over 2 GPUs: 4 x 13,214,679,040 / 2 = 26,429,358,080 per GPU.
  const Evaluation e = eval_text(
      R"({"target":"llama2-chat-70b","hardware":"a100-80gb-sxm","gpus":2,"runtime":"compiled",)"
      R"("method":{"family":"sps","draft":"llama2-chat-7b","k":4},"acceptance":{"tau":3}})");
  EXPECT_EQ(e.draft.passes_per_cycle, 4);
  EXPECT_DOUBLE_EQ(e.draft.weights_bytes, 26429358080.0);
  auto catalog = load_catalog();
  auto bad = parse_config_text(R"({"method":{"family":"sps","draft":"gpt-9"}})", catalog.value());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "method.draft");
}

}  // namespace
}  // namespace speccalc
