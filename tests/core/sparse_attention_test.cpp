// DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5; issue 20): a lightning indexer scores every
// cached token, each query attends to the index_topk best. Parameters, pass bytes and KV memory
// against hand calculations written out here; the config.json readers against the presets.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(SparseAttention, TheIndexerAddsItsWeightsToEveryLayer) {
  // DeepSeek-V3.2 inference/model.py Indexer: wq_b 1536 x 64 x 128 = 12,582,912, wk 7168 x 128
  // = 917,504, its LayerNorm 2 x 128 = 256, weights_proj 7168 x 64 = 458,752: 13,959,424 a
  // layer, x 61 = 851,524,864 over DeepSeek-V3's count.
  const ParamCounts v3 = count_params(preset("deepseek-v3"));
  const ParamCounts v32 = count_params(preset("deepseek-v3.2"));
  EXPECT_EQ(v32.attn_per_layer - v3.attn_per_layer, 13959424);
  EXPECT_EQ(v32.total - v3.total, 61LL * 13959424);
}

TEST(SparseAttention, ADecodeReadsTheTopkLatentsAndEveryIndexerKey) {
  // One layer, batch 2, context 4095 + 1 new token, fp16 KV: the latent (512 + 64 = 576
  // elements, 2 bytes) of min(4096, 2048) = 2048 tokens and the fp8 indexer key (128 bytes) of
  // all 4096: 2 x (2048 x 1152 + 4096 x 128) = 5,767,168 bytes.
  const ModelArch& m = preset("deepseek-v3.2");
  const Work w = decoder_work(m, 1, 2, 1, 4095, 0, DTypes{});
  EXPECT_DOUBLE_EQ(w[Kernel::attention].kv_cache_bytes, 2.0 * (2048 * 1152 + 4096 * 128));
  // Attention FLOPs: 2 x 128 heads x (576 + 512) x 2048 attended, and the indexer's
  // 2 x 64 x 128 x 4096 scores, per sequence.
  EXPECT_DOUBLE_EQ(w[Kernel::attention].flops,
                   2.0 * (2.0 * 128 * 1088 * 2048 + 2.0 * 64 * 128 * 4096));
  // Below the top-k the latent reads are DeepSeek-V3's dense ones; only the indexer adds.
  const Work dense = decoder_work(preset("deepseek-v3"), 1, 2, 1, 999, 0, DTypes{});
  const Work sparse = decoder_work(m, 1, 2, 1, 999, 0, DTypes{});
  EXPECT_DOUBLE_EQ(sparse[Kernel::attention].kv_cache_bytes,
                   dense[Kernel::attention].kv_cache_bytes + 2.0 * 1000 * 128);
}

json eval_ok(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump().substr(0, 300);
  return r.ok ? json::parse(r.output) : json();
}

TEST(SparseAttention, TheKvCacheHoldsTheIndexerKeysToo) {
  // Per cached token: 61 layers x (576 latent elements x 1 byte fp8 + 128 indexer bytes) =
  // 42,944 bytes; batch 4 x (8192 + 1) tokens, 8 GPUs each holding the whole latent (MLA is
  // not split by heads).
  const json r = eval_ok({{"target", "deepseek-v3.2"},
                          {"hardware", "h200-sxm"},
                          {"gpus", 8},
                          {"dtype", "fp8"},
                          {"batch", 4},
                          {"context", 8192},
                          {"method", {{"family", "ar"}}}});
  EXPECT_NEAR(r["memory"]["kv_cache_gb_per_gpu"].get<double>(), 4.0 * 8193 * 42944 / 1e9, 1e-12);
}

TEST(SparseAttention, ConfigJsonReadsIntoThePresets) {
  for (const auto& [file, id] :
       {std::pair<const char*, const char*>{"deepseek-v3.2.json", "deepseek-v3.2"},
        {"glm-5-nvfp4.json", "glm-5"}}) {
    ModelArch m;
    Error err;
    ASSERT_TRUE(model_from_hf_config(json::parse(fixture_text(file)), "target", &m, &err))
        << err.describe();
    const ModelArch& p = preset(id);
    EXPECT_EQ(m.index_n_heads, p.index_n_heads) << file;
    EXPECT_EQ(m.index_head_dim, p.index_head_dim) << file;
    EXPECT_EQ(m.index_topk, p.index_topk) << file;
    EXPECT_EQ(m.head_dim, p.head_dim) << file;
    EXPECT_EQ(m.q_lora_rank, p.q_lora_rank) << file;
    EXPECT_EQ(count_params(m).total, count_params(p).total) << file;
    json a = {{"target", id},
              {"hardware", "b200"},
              {"gpus", 8},
              {"dtype", "fp8"},
              {"method", {{"family", "mtp"}, {"k", 1}}},
              {"acceptance", {{"alpha", 0.85}}}};
    json b = a;
    b["target"] = json::parse(fixture_text(file));
    EXPECT_EQ(eval_ok(a)["speedup"], eval_ok(b)["speedup"]) << file;
  }
  // GLM-5 by hand: MLA q/k width 192 + 64 = 256, v 256, q latent 2048.
  const ModelArch& g = preset("glm-5");
  EXPECT_EQ(g.head_dim, 256);
  EXPECT_EQ(g.v_head_dim, 256);
  EXPECT_EQ(g.index_n_heads, 32);
}

TEST(SparseAttention, CustomKeysNeedTheIndexerAndMla) {
  json t = json::parse(run("list", "models").output);
  json custom;
  for (const auto& m : t)
    if (m["id"] == "deepseek-v3.2") custom = m["custom"];
  ASSERT_TRUE(custom.is_object());
  EXPECT_EQ(custom["index_topk"], 2048);
  json config = {{"target", custom}, {"hardware", "h200-sxm"}, {"gpus", 8}, {"dtype", "fp8"}};
  const Response link = run("link", config.dump());
  ASSERT_TRUE(link.ok) << link.error.describe();
  EXPECT_EQ(run("eval", config.dump()).output, run("eval-link", link.output).output);
  custom.erase("index_head_dim");
  config["target"] = custom;
  const Response r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.index_head_dim");
}

}  // namespace
TEST(SparseAttention, ConfigJsonWithoutTheQLatentIsRefused) {
  // Found by the eval fuzzer (its normalize oracle): a DeepSeek-V3.2 config.json whose
  // q_lora_rank was misspelled read into a model whose normalized form the model's own keys then
  // refused (the indexer reads the q latent). The config.json reader now refuses it, naming it.
  json hf = json::parse(fixture_text("deepseek-v3.2.json"));
  hf.erase("q_lora_rank");
  json config = {{"target", hf}, {"hardware", "h200-sxm"}, {"gpus", 8}, {"dtype", "fp8"}};
  const Response r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.q_lora_rank");
  // With it, normalize is idempotent: its output reads back to itself.
  config["target"] = json::parse(fixture_text("deepseek-v3.2.json"));
  const Response once = run("normalize", config.dump());
  ASSERT_TRUE(once.ok) << once.error.describe();
  const Response twice = run("normalize", once.output);
  ASSERT_TRUE(twice.ok) << twice.error.describe();
  EXPECT_EQ(once.output, twice.output);
}

}  // namespace speccalc
