// Hybrid linear attention (Qwen3-Next / Qwen3.5, issue 20): Gated DeltaNet layers hold a
// recurrent state per sequence instead of a KV cache. Parameter counts, pass bytes and memory
// of a small hybrid model checked against hand calculations written out here, the Qwen3.5
// presets against their model cards, and their config.json against the presets.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config/hf_config.hpp"
#include "hf_fixtures.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::fixture_text;
using test::preset;

// 4 layers, 3 of them Gated DeltaNet: hidden 64, 4 heads / 2 KV heads of 16, MLP 128, vocab
// 100; linear: 2 key heads of 8, 4 value heads of 8, conv of 4 taps; no output gate.
ModelArch tiny_hybrid() {
  ModelArch m;
  m.id = m.name = "tiny-hybrid";
  m.num_layers = 4;
  m.hidden = 64;
  m.intermediate = 128;
  m.heads = 4;
  m.kv_heads = 2;
  m.head_dim = 16;
  m.vocab = 100;
  m.linear_attention_layers = 3;
  m.linear_num_key_heads = 2;
  m.linear_num_value_heads = 4;
  m.linear_key_head_dim = 8;
  m.linear_value_head_dim = 8;
  m.linear_conv_kernel = 4;
  return m;
}

TEST(HybridAttention, ParametersByHand) {
  // Softmax layer: q/k/v/o 64 x (64 + 2 x 32) + 64 x 64 = 12,288; norms 128; MLP 3 x 64 x 128
  // = 24,576 -> 36,992. Gated DeltaNet: in_proj_qkvz 64 x (2 x 16 + 2 x 32) = 6,144, in_proj_ba
  // 64 x 2 x 4 = 512, conv (2 x 16 + 32) x 4 = 256, dt_bias + A_log 8, norm 8, out_proj 32 x 64
  // = 2,048 -> 8,976; its layer 8,976 + 128 + 24,576 = 33,680. Embedding and head 2 x 6,400,
  // final norm 64. Total 36,992 + 3 x 33,680 + 12,864 = 150,896.
  const ParamCounts p = count_params(tiny_hybrid());
  EXPECT_EQ(p.attn_per_layer, 12288);
  EXPECT_EQ(p.linear_attn_per_layer, 8976);
  EXPECT_EQ(p.total, 150896);
  EXPECT_EQ(p.active, p.total);
}

TEST(HybridAttention, ADecodeStepReadsTheSoftmaxKvAndTheLinearStates) {
  // Batch 2, context 100, one token, fp16 weights and KV, one GPU.
  const ModelArch m = tiny_hybrid();
  const Work w = decoder_work(m, 4, 2, 1, 100, 0, DTypes{});
  // KV of the one softmax layer: 2 x 2 x 16 = 64 elements x 2 bytes x 2 sequences x 101 tokens
  // = 25,856. States of the 3 linear layers: 4 x 8 x 8 = 256 fp32 elements (1,024 bytes) and a
  // conv window of (2 x 16 + 32) x 3 = 192 fp16 elements (384 bytes), read once and written
  // once (1 + 1) for 2 sequences: 3 x 2 x 2 x 1,408 = 16,896. Total 42,752.
  EXPECT_DOUBLE_EQ(w[Kernel::attention].kv_cache_bytes, 25856.0 + 16896.0);
  // Weights: 1 softmax attention (12,288) + 3 DeltaNets (3 x 8,976) + 4 MLPs (4 x 24,576) =
  // 137,520 parameters x 2 bytes.
  EXPECT_DOUBLE_EQ(w[Kernel::gemm].weights_bytes, 137520.0 * 2);
  // A 4-token verify writes a state checkpoint per token: (1 + 4) copies.
  const Work v = decoder_work(m, 4, 2, 4, 100, 0, DTypes{});
  EXPECT_DOUBLE_EQ(v[Kernel::attention].kv_cache_bytes, 64.0 * 2 * 2 * 104 + 3.0 * 2 * 5 * 1408);
}

json eval_ok(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump().substr(0, 300);
  return r.ok ? json::parse(r.output) : json();
}

json custom(const ModelArch& m) {
  return {{"name", m.name},
          {"num_layers", m.num_layers},
          {"hidden", m.hidden},
          {"intermediate", m.intermediate},
          {"heads", m.heads},
          {"kv_heads", m.kv_heads},
          {"head_dim", m.head_dim},
          {"vocab", m.vocab},
          {"linear_attention_layers", m.linear_attention_layers},
          {"linear_num_key_heads", m.linear_num_key_heads},
          {"linear_num_value_heads", m.linear_num_value_heads},
          {"linear_key_head_dim", m.linear_key_head_dim},
          {"linear_value_head_dim", m.linear_value_head_dim},
          {"linear_conv_kernel", m.linear_conv_kernel}};
}

TEST(HybridAttention, MemoryHoldsTheStateAndOneCheckpointPerVerifiedToken) {
  // KV per cached token: only the softmax layer, 64 elements x 2 bytes = 128. The state per
  // sequence: 3 x 1,408 = 4,224 bytes decoding; a PLD verify of k = 3 (4 tokens in flight)
  // keeps 4 checkpoints more: 5 x 4,224 = 21,120.
  json config = {{"target", custom(tiny_hybrid())},
                 {"hardware", "h100-sxm"},
                 {"batch", 10},
                 {"context", 1000},
                 {"method", {{"family", "ar"}}}};
  const double ar_kv_gb = eval_ok(config)["memory"]["kv_cache_gb_per_gpu"].get<double>();
  EXPECT_NEAR(ar_kv_gb, (10.0 * 1001 * 128 + 10.0 * 4224) / 1e9, 1e-15);
  config["method"] = {{"family", "pld"}, {"k", 3}};
  const double pld_kv_gb = eval_ok(config)["memory"]["kv_cache_gb_per_gpu"].get<double>();
  EXPECT_NEAR(pld_kv_gb, (10.0 * 1004 * 128 + 10.0 * 21120) / 1e9, 1e-15);
}

TEST(HybridAttention, CustomKeysAreCheckedAndRoundTrip) {
  json t = custom(tiny_hybrid());
  json config = {{"target", t}, {"hardware", "h100-sxm"}, {"method", {{"family", "ar"}}}};
  const Response link = run("link", config.dump());
  ASSERT_TRUE(link.ok) << link.error.describe();
  EXPECT_EQ(run("eval", config.dump()).output, run("eval-link", link.output).output);
  t.erase("linear_value_head_dim");
  config["target"] = t;
  Response r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.linear_value_head_dim");
  t = custom(tiny_hybrid());
  t["linear_attention_layers"] = 4;  // no softmax layer left
  config["target"] = t;
  r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.linear_attention_layers");
  t = custom(tiny_hybrid());
  t["linear_num_value_heads"] = 3;  // not a multiple of the 2 key heads
  config["target"] = t;
  r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.linear_num_value_heads");
}

TEST(HybridAttention, Qwen35ConfigJsonReadsIntoItsPresetAndEvaluatesIdentically) {
  for (const auto& [file, id] :
       {std::pair<const char*, const char*>{"qwen3.5-27b.json", "qwen3.5-27b"},
        {"qwen3.5-35b-a3b.json", "qwen3.5-35b-a3b"},
        {"qwen3.5-397b-a17b.json", "qwen3.5-397b-a17b"},
        {"qwen3.5-122b-a10b.json", "qwen3.5-122b-a10b"}}) {
    ModelArch m;
    Error err;
    ASSERT_TRUE(model_from_hf_config(json::parse(fixture_text(file)), "target", &m, &err))
        << err.describe();
    const ModelArch& p = preset(id);
    EXPECT_EQ(m.linear_attention_layers, p.linear_attention_layers) << file;
    EXPECT_EQ(m.linear_num_key_heads, p.linear_num_key_heads) << file;
    EXPECT_EQ(m.linear_num_value_heads, p.linear_num_value_heads) << file;
    EXPECT_EQ(m.linear_key_head_dim, p.linear_key_head_dim) << file;
    EXPECT_EQ(m.linear_value_head_dim, p.linear_value_head_dim) << file;
    EXPECT_EQ(m.linear_conv_kernel, p.linear_conv_kernel) << file;
    EXPECT_EQ(m.attn_output_gate, p.attn_output_gate) << file;
    EXPECT_EQ(m.mtp_modules, p.mtp_modules) << file;
    EXPECT_EQ(m.shared_experts, p.shared_experts) << file;
    EXPECT_EQ(m.experts, p.experts) << file;
    EXPECT_EQ(m.intermediate, p.intermediate) << file;
    EXPECT_EQ(count_params(m).total, count_params(p).total) << file;
    // The same memory and cycle: eval of the config.json and of the preset agree on speedup.
    json a = {{"target", id},
              {"hardware", "h200-sxm"},
              {"gpus", 4},
              {"dtype", "fp8"},
              {"method", {{"family", "mtp"}, {"k", 2}}},
              {"acceptance", {{"alpha", 0.8}}}};
    json b = a;
    b["target"] = json::parse(fixture_text(file));
    EXPECT_EQ(eval_ok(a)["speedup"], eval_ok(b)["speedup"]) << file;
  }
}

// Qwen3-Next-80B-A3B-Instruct's config.json as assembled from the copies cited (not a byte copy;
// tests/fixtures/hf-config/README.md). It names no MTP key: the release's one mtp.* layer comes
// from vLLM's default (qwen3_next_mtp.py, getattr(config, "num_nextn_predict_layers", 1)).
json qwen3_next_config() { return json::parse(fixture_text("assembled/qwen3-next-80b-a3b.json")); }

TEST(HybridAttention, Qwen3NextConfigJsonReadsIntoItsPresetWithItsMtpLayer) {
  ModelArch m;
  Error err;
  ASSERT_TRUE(model_from_hf_config(qwen3_next_config(), "target", &m, &err)) << err.describe();
  const ModelArch& p = preset("qwen3-next-80b-a3b");
  // 48 layers, every 4th full: 36 Gated DeltaNet + 12 softmax layers.
  EXPECT_EQ(m.linear_attention_layers, 36);
  EXPECT_EQ(p.linear_attention_layers, 36);
  EXPECT_EQ(m.mtp_modules, 1);
  EXPECT_EQ(p.mtp_modules, 1);
  EXPECT_EQ(m.shared_experts, 1);
  EXPECT_EQ(m.intermediate, 512);  // the experts' width, not the unused dense 5120
  EXPECT_EQ(m.attn_output_gate, p.attn_output_gate);
  EXPECT_EQ(m.linear_conv_kernel, p.linear_conv_kernel);
  EXPECT_EQ(count_params(m).total, count_params(p).total);
  json a = {{"target", "qwen3-next-80b-a3b"},
            {"hardware", "h200-sxm"},
            {"gpus", 2},
            {"runtime", "vllm"},
            {"method", {{"family", "mtp"}, {"k", 2}}},
            {"acceptance", {{"alpha", 0.8}}}};
  json b = a;
  b["target"] = qwen3_next_config();
  EXPECT_EQ(eval_ok(a)["speedup"], eval_ok(b)["speedup"]);
  // A config that does name the key is read as it says.
  json none = qwen3_next_config();
  none["num_nextn_predict_layers"] = 0;
  ASSERT_TRUE(model_from_hf_config(none, "target", &m, &err)) << err.describe();
  EXPECT_EQ(m.mtp_modules, 0);
}

TEST(HybridAttention, Qwen3NextTotalsMatchItsName) {
  // "80B total parameters, only 3B active" (transformers docs, qwen3_next.md). A hand count of
  // the routed experts alone: 48 layers x 512 experts x 3 x 2048 x 512 = 77,309,411,328.
  const ParamCounts p = count_params(preset("qwen3-next-80b-a3b"));
  EXPECT_EQ(p.moe_layers, 48);
  EXPECT_EQ(p.mlp_per_expert, 3LL * 2048 * 512);
  EXPECT_GT(p.total, 77309411328);
  EXPECT_NEAR(static_cast<double>(p.total), 80e9, 1.5e9);
  // Active without the embedding and the untied head (2 x 151936 x 2048), by hand per layer:
  // 11 experts x 3 x 2048 x 512 = 34.6M; 36 DeltaNet layers of about 33.7M (qkvz 2048 x 12288,
  // ba 2048 x 64, out 4096 x 2048); 12 softmax layers of 27.3M (q with its gate 2048 x 8192,
  // k and v 2048 x 512 each, o 4096 x 2048); router 2048 x 512: about 3.25B.
  EXPECT_NEAR(static_cast<double>(p.active - p.embedding - p.lm_head), 3.25e9, 0.1e9);
}

TEST(HybridAttention, Qwen35TotalsMatchModelCards) {
  // Model cards: 27B; 35B total with 3B activated; 397B total with 17B activated (each name
  // includes the vision encoder, about 0.4-0.6B, which SpecCalc does not cost).
  EXPECT_NEAR(static_cast<double>(count_params(preset("qwen3.5-27b")).total), 27e9, 1e9);
  const ParamCounts small = count_params(preset("qwen3.5-35b-a3b"));
  EXPECT_NEAR(static_cast<double>(small.total), 35e9, 1e9);
  EXPECT_NEAR(static_cast<double>(small.active - small.embedding), 3e9, 0.5e9);
  const ParamCounts big = count_params(preset("qwen3.5-397b-a17b"));
  EXPECT_NEAR(static_cast<double>(big.total), 397e9, 2e9);
  EXPECT_NEAR(static_cast<double>(big.active - big.embedding), 17e9, 1e9);
  // Qwen3.5-122B-A10B (the name: 122B total, 10B activated). A hand count of its routed
  // experts alone: 48 layers x 256 experts x 3 x 3072 x 1024 = 115,964,116,992.
  const ParamCounts mid = count_params(preset("qwen3.5-122b-a10b"));
  EXPECT_EQ(mid.moe_layers, 48);
  EXPECT_EQ(mid.mlp_per_expert, 3LL * 3072 * 1024);
  EXPECT_GT(mid.total, 115964116992);
  EXPECT_NEAR(static_cast<double>(mid.total), 122e9, 2e9);
  EXPECT_NEAR(static_cast<double>(mid.active - mid.embedding), 10e9, 1e9);
}

}  // namespace
}  // namespace speccalc
