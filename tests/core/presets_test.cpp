// Parameter counts of the model presets against the vendors' published totals (issue 11), and
// the MLA / MoE-extras paths of count_params checked against hand calculations from the
// modeling code's weight shapes. A published "671B" is a rounded figure, so those checks use
// the rounding of the statement as tolerance; the hand calculations are exact.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "config/config_json.hpp"
#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

const Catalog& catalog() {
  static const Catalog c = load_catalog().value();
  return c;
}

const ModelArch& model(const std::string& id) {
  const ModelArch* m = catalog().find_target(id);
  if (!m) m = catalog().find_draft(id);
  EXPECT_NE(m, nullptr) << id;
  static const ModelArch none;
  return m ? *m : none;
}

constexpr double kB = 1e9;

TEST(Presets, DeepSeekV3MlaAttentionMatchesWeightShapes) {
  // modeling_deepseek.py DeepseekV3Attention with config.json (hidden 7168, 128 heads,
  // q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head_dim 128):
  //   q_a_proj 7168 x 1536 = 11,010,048; q_a_layernorm 1,536;
  //   q_b_proj 1536 x 128*192 = 37,748,736;
  //   kv_a_proj_with_mqa 7168 x (512 + 64) = 4,128,768; kv_a_layernorm 512;
  //   kv_b_proj 512 x 128*(128 + 128) = 16,777,216; o_proj 128*128 x 7168 = 117,440,512.
  //   Sum = 187,107,328.
  const ParamCounts p = count_params(model("deepseek-v3"));
  EXPECT_EQ(p.attn_per_layer, 187107328);
  // One routed expert: 3 x 7168 x 2048 = 44,040,192; router 7168 x 256 + 256 bias = 1,835,264.
  EXPECT_EQ(p.mlp_per_expert, 44040192);
  EXPECT_EQ(p.router_per_layer, 1835264);
  EXPECT_EQ(p.shared_mlp_per_layer, 44040192);
  EXPECT_EQ(p.dense_mlp_per_layer, 3 * 7168 * int64_t{18432});
  EXPECT_EQ(p.moe_layers, 58);
}

TEST(Presets, DeepSeekV3TotalsMatchPublished) {
  const ParamCounts p = count_params(model("deepseek-v3"));
  // DeepSeek-V3 README: "671B total parameters with 37B activated for each token".
  EXPECT_NEAR(p.total, 671 * kB, 0.5 * kB);
  // README_WEIGHTS.md: main model activated parameters 36.6B including the 0.9B output head;
  // the input embedding lookup is not counted there, so subtract it from `active`.
  EXPECT_NEAR(static_cast<double>(p.active - p.embedding), 36.6 * kB, 0.05 * kB);
  // README_WEIGHTS.md: the MTP module has "11.5B unique parameters" (its decoder layer is
  // 187,107,328 + 257 x 44,040,192 + 1,835,264 + 2 x 7168 = 11,507,286,272; eh_proj 2 x 7168^2
  // = 102,760,448 and three norms bring ours to 11.61B).
  EXPECT_NEAR(static_cast<double>(p.mtp_per_module), 11.5 * kB, 0.15 * kB);
  // README: the Hugging Face checkpoint is 685B = 671B main + 14B MTP, the MTP layer storing
  // its own copies of the embedding and the output head.
  const int64_t checkpoint = p.total + p.mtp_per_module + p.embedding + p.lm_head;
  EXPECT_NEAR(static_cast<double>(checkpoint), 685 * kB, 1 * kB);
}

TEST(Presets, DeepSeekV3KvCacheIsTheMlaLatent) {
  // kv_lora_rank 512 + qk_rope_head_dim 64 = 576 elements per token per layer, not
  // 2 x 128 heads x 192.
  EXPECT_EQ(kv_elems_per_token_layer(model("deepseek-v3")), 576.0);
}

TEST(Presets, Glm45AirTotalsMatchPublished) {
  const ParamCounts p = count_params(model("glm-4.5-air"));
  // GLM-4.5 README / transformers glm4_moe docs: "106 billion total parameters and 12 billion
  // active parameters". Active there excludes the embedding and the output head:
  // 13,424,129,664 - 2 x 151552 x 4096 = 12.18B.
  EXPECT_NEAR(p.total, 106 * kB, 1 * kB);
  EXPECT_NEAR(static_cast<double>(p.active - p.embedding - p.lm_head), 12 * kB, 0.5 * kB);
  // Hugging Face lists the checkpoint (with its MTP layer and that layer's embedding and head
  // copies) as 110B params.
  EXPECT_NEAR(static_cast<double>(p.total + p.mtp_per_module + p.embedding + p.lm_head), 110 * kB,
              0.5 * kB);
}

TEST(Presets, Glm46TotalsMatchPublished) {
  // GLM-4.6 keeps GLM-4.5's 355B architecture (GLM-4.5 README: "355 billion total parameters and
  // 32 billion active parameters"; xorbitsai/inference's GLM-4.6 page: 355 billion). A hand
  // count of the routed experts alone: 89 MoE layers x 160 experts x 3 x 5120 x 1536 =
  // 335,913,369,600.
  const ParamCounts p = count_params(model("glm-4.6"));
  EXPECT_EQ(p.moe_layers, 89);
  EXPECT_EQ(p.mlp_per_expert, 3LL * 5120 * 1536);
  EXPECT_GT(p.total, 335913369600);
  EXPECT_NEAR(p.total, 355 * kB, 3 * kB);
  EXPECT_NEAR(static_cast<double>(p.active - p.embedding - p.lm_head), 32 * kB, 1 * kB);
}

TEST(Presets, OptCountsTwoMlpMatricesByHand) {
  // OPT-6.7B (config.json: 32 layers, hidden 4096, ffn_dim 16384, 32 heads, vocab 50272, tied):
  // per layer q/k/v/o 4 x 4096^2, q/k/v biases 3 x 4096, fc1 + fc2 2 x 4096 x 16384 (no gate)
  // with their biases 16384 + 4096, two LayerNorms 2 x 4096 = 201,367,552; x 32 + the tied
  // embedding 50272 x 4096 (205,914,112) + the final norm 4096 = 6,649,679,872. Learned
  // positions (2050 x 4096) and the out projection's bias are not counted.
  const ParamCounts big = count_params(model("opt-6.7b"));
  EXPECT_EQ(big.mlp_per_expert, 2LL * 4096 * 16384 + 16384 + 4096);
  EXPECT_EQ(big.total, 32LL * 201367552 + 205914112 + 4096);
  EXPECT_NEAR(big.total, 6.7 * kB, 0.1 * kB);  // the name
  // OPT-125M the same way: 12 x (4 x 768^2 + 3 x 768 + 2 x 768 x 3072 + 3072 + 768 + 2 x 768)
  // + 50272 x 768 + 768 = 123,636,480; with its learned positions (2050 x 768 = 1.6M) 125.2M,
  // the name's 125M.
  const ParamCounts small = count_params(model("opt-125m"));
  EXPECT_EQ(small.total, 12LL * (4 * 768 * 768 + 3 * 768 + 2 * 768 * 3072 + 3072 + 768 + 2 * 768) +
                             50272LL * 768 + 768);
  EXPECT_NEAR(small.total + 2050.0 * 768, 125e6, 0.3e6);
}

TEST(Presets, MiniCpm3CountsItsLatentAttentionByHand) {
  // MiniCPM3-4B (transformers MiniCPM3Config defaults): 62 layers, hidden 2560, 40 heads,
  // q latent 768, KV latent 256, qk_nope 64 + qk_rope 32, v_head_dim 2560 / 40 = 64,
  // intermediate 6400, vocab 73448, tied. Per layer:
  //   q_a_proj 2560 x 768 + its norm 768 + q_b_proj 768 x 40 x 96      = 4,915,968
  //   kv_a_proj 2560 x (256 + 32) + its norm 256 + kv_b_proj 256 x 40 x (64 + 64) = 2,048,256
  //   o_proj 40 x 64 x 2560                                              = 6,553,600
  //   gate, up, down 3 x 2560 x 6400                                     = 49,152,000
  //   two RMSNorms 2 x 2560                                              = 5,120
  // = 62,674,944; x 62 + the tied embedding 73448 x 2560 (188,026,880) + the final norm 2560
  // = 4,073,875,968, the name's 4B.
  const ParamCounts p = count_params(model("minicpm3-4b"));
  EXPECT_EQ(p.attn_per_layer, 4915968 + 2048256 + 6553600);
  EXPECT_EQ(p.mlp_per_expert, 49152000);
  EXPECT_EQ(p.lm_head, 0);
  EXPECT_EQ(p.total, 62LL * 62674944 + 188026880 + 2560);
  EXPECT_NEAR(p.total, 4.0 * kB, 0.1 * kB);
}

TEST(Presets, Qwen3TotalsMatchModelCards) {
  // Qwen3-30B-A3B model card: 30.5B total, 3.3B activated, 29.9B non-embedding (the model
  // cards count the untied LM head as embedding too).
  const ParamCounts moe = count_params(model("qwen3-30b-a3b"));
  EXPECT_NEAR(moe.total, 30.5 * kB, 0.05 * kB);
  EXPECT_NEAR(moe.active, 3.3 * kB, 0.06 * kB);
  EXPECT_NEAR(static_cast<double>(moe.total - moe.embedding - moe.lm_head), 29.9 * kB, 0.05 * kB);
  // Qwen3-8B model card: 8.2B total, 6.95B non-embedding (embedding and untied head).
  const ParamCounts dense = count_params(model("qwen3-8b"));
  EXPECT_NEAR(dense.total, 8.2 * kB, 0.05 * kB);
  EXPECT_NEAR(static_cast<double>(dense.total - dense.embedding - dense.lm_head), 6.95 * kB,
              0.005 * kB);
  // q_norm and k_norm: 2 x head_dim 128 per layer on top of q/k/v/o.
  EXPECT_EQ(dense.attn_per_layer, 4096 * (4096 + 2 * 1024) + 4096 * 4096 + 256);
  // Qwen3-0.6B model card: 0.6B total, 0.44B non-embedding (tied embeddings).
  const ParamCounts small = count_params(model("qwen3-0.6b"));
  EXPECT_EQ(small.lm_head, 0);
  EXPECT_NEAR(small.total, 0.6 * kB, 0.05 * kB);
  EXPECT_NEAR(static_cast<double>(small.total - small.embedding), 0.44 * kB, 0.005 * kB);
}

TEST(Presets, FleetMoeTotalsMatchModelCards) {
  // Qwen3-235B-A22B model card: 235B total, 22B activated (rounded to 1B).
  const ParamCounts qwen = count_params(model("qwen3-235b-a22b"));
  EXPECT_NEAR(qwen.total, 235 * kB, 0.5 * kB);
  EXPECT_NEAR(qwen.active, 22 * kB, 0.5 * kB);
  // Kimi-K2 model card: 1T total, 32B activated. Hand count of the routed experts alone:
  // 60 MoE layers x 384 experts x 3 x 7168 x 2048 = 1,014,686,023,680.
  const ParamCounts kimi = count_params(model("kimi-k2-instruct"));
  EXPECT_EQ(kimi.moe_layers, 60);
  EXPECT_EQ(kimi.mlp_per_expert, 3LL * 7168 * 2048);
  EXPECT_GT(kimi.total, 1014686023680);
  EXPECT_NEAR(kimi.total, 1000 * kB, 50 * kB);
  // Counted like DeepSeek-V3's 36.6B (README_WEIGHTS.md): the input embedding lookup
  // (163840 x 7168 = 1.17B) is not an activated parameter.
  EXPECT_NEAR(static_cast<double>(kimi.active - kimi.embedding), 32 * kB, 0.5 * kB);
  // Qwen3-Coder-480B-A35B model card: 480B total, 35B activated.
  const ParamCounts coder = count_params(model("qwen3-coder-480b-a35b"));
  EXPECT_NEAR(coder.total, 480 * kB, 1 * kB);
  EXPECT_NEAR(coder.active, 35 * kB, 0.5 * kB);
  // Mixtral 8x22B announcement: 141B total, 39B active.
  const ParamCounts mixtral = count_params(model("mixtral-8x22b"));
  EXPECT_NEAR(mixtral.total, 141 * kB, 0.5 * kB);
  EXPECT_NEAR(mixtral.active, 39 * kB, 0.5 * kB);
  // MiniMax-M2 model card: 230B total, 10B active; like DeepSeek's figure the active count
  // leaves out the input embedding lookup (200064 x 3072 = 0.61B): 10.4B by count.
  const ParamCounts minimax = count_params(model("minimax-m2.5"));
  EXPECT_NEAR(minimax.total, 230 * kB, 2 * kB);
  EXPECT_NEAR(static_cast<double>(minimax.active - minimax.embedding), 10 * kB, 0.5 * kB);
  // DeepSeek-R1 and DeepSeek-V3.1 are DeepSeek-V3's architecture: the same counts.
  EXPECT_EQ(count_params(model("deepseek-r1")).total, count_params(model("deepseek-v3")).total);
  EXPECT_EQ(count_params(model("deepseek-v3.1")).total, count_params(model("deepseek-v3")).total);
}

TEST(Presets, GptOss120bTotalMatchesModelCard) {
  // gpt-oss model card Table 1: 116.83B total, 5.13B active per token. count_params leaves
  // out o_proj biases (2880), attention sinks (64) and expert biases (128 x (2 x 2880 + 2880))
  // per layer: 36 x 1,108,864 = 39,919,104 parameters.
  const ParamCounts p = count_params(model("gpt-oss-120b"));
  EXPECT_NEAR(static_cast<double>(p.total + 39919104), 116.83 * kB, 0.005 * kB);
  // Active per token there excludes the input embedding (201088 x 2880).
  EXPECT_NEAR(static_cast<double>(p.active - p.embedding), 5.13 * kB, 0.01 * kB);
}

TEST(Presets, Llama31LargeTotalsMatchModelCards) {
  // Llama 3.1 model card: 70B and 405B. Hand count for 405B: per layer q/k/v/o
  // 16384 x (16384 + 2 x 1024) + 16384^2 = 570,425,344, MLP 3 x 16384 x 53248 = 2,617,245,696,
  // norms 32,768 -> 3,187,703,808 x 126 = 401,650,679,808; embedding + head 2 x 128256 x 16384
  // = 4,202,692,608; final norm 16,384. Total 405,853,388,800.
  EXPECT_EQ(count_params(model("llama3.1-405b-instruct")).total, 405853388800);
  EXPECT_NEAR(count_params(model("llama3.1-70b-instruct")).total, 70.55 * kB, 0.01 * kB);
}

TEST(Presets, ExistingPresetCountsUnchanged) {
  // shared/data/models.json computed totals (from the HF configs), copied into total_params.
  EXPECT_EQ(count_params(model("llama2-chat-7b")).total, 6738415616);
  EXPECT_EQ(count_params(model("mixtral-8x7b")).total, 46702792704);
  EXPECT_EQ(count_params(model("qwen2.5-7b")).total, 7615616512);
  EXPECT_EQ(count_params(model("vicuna-68m")).total, 68030208);
  // Dense models use everything per token.
  const ParamCounts dense = count_params(model("llama2-chat-7b"));
  EXPECT_EQ(dense.active, dense.total);
  EXPECT_EQ(dense.mtp_per_module, 0);
}

TEST(Presets, EveryPresetNamesItsRepository) {
  for (const auto* list : {&catalog().targets, &catalog().drafts}) {
    for (const auto& m : *list) {
      EXPECT_FALSE(m.repo_id.empty()) << m.id;
      EXPECT_NE(m.repo_id.find('/'), std::string::npos) << m.id << ": " << m.repo_id;
    }
  }
  EXPECT_EQ(model("vicuna-68m").repo_id, "double7/vicuna-68m");
  EXPECT_EQ(model("deepseek-v3").repo_id, "deepseek-ai/DeepSeek-V3");
}

TEST(Presets, SpeculatorHeadsNameRealRepositories) {
  const Catalog& c = catalog();
  ASSERT_NE(c.find_head("eagle3", "llama3.1-8b-instruct"), nullptr);
  EXPECT_EQ(c.find_head("eagle3", "llama3.1-8b-instruct")->repo_id,
            "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
  EXPECT_EQ(c.find_head("eagle", "llama3.1-8b-instruct")->repo_id,
            "yuhuili/EAGLE-LLaMA3.1-Instruct-8B");
  EXPECT_EQ(c.find_head("eagle3", "qwen3-8b")->repo_id, "Tengyunw/qwen3_8b_eagle3");
  EXPECT_EQ(c.find_head("medusa", "vicuna-7b-v1.3")->repo_id,
            "FasterDecoding/medusa-vicuna-7b-v1.3");
  EXPECT_EQ(c.find_head("eagle3", "llama3.1-405b-instruct"), nullptr);
  for (const auto& h : c.heads) EXPECT_NE(c.find_target(h.target), nullptr) << h.repo_id;
}

TEST(Presets, CustomMlaModelRoundTrips) {
  // list models prints a preset's architecture as custom-target keys; feeding those back as a
  // custom target must give the same counts.
  const ModelArch& ds = model("deepseek-v3");
  nlohmann::json doc = {{"target", model_to_json(ds)}};
  auto parsed = parse_config(doc, catalog());
  ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
  EXPECT_EQ(count_params(parsed.value().target).total, count_params(ds).total);
  EXPECT_EQ(kv_elems_per_token_layer(parsed.value().target), 576.0);
  EXPECT_EQ(config_to_json(parsed.value())["target"], model_to_json(ds));
}

TEST(Presets, CustomMlaModelNeedsItsHeadDims) {
  nlohmann::json target = model_to_json(model("deepseek-v3"));
  target.erase("v_head_dim");
  auto parsed = parse_config(nlohmann::json{{"target", target}}, catalog());
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().field, "target.v_head_dim");
  EXPECT_EQ(parsed.error().message, "is required when kv_lora_rank > 0 (MLA)");
}

}  // namespace
}  // namespace speccalc
