// DeepSeek-V4's compressed attention: its config.json read into the preset, the parameters, a
// decode pass's attention and the KV cache checked against hand calculations written out here
// (shapes from vLLM deepseek_v4_attention.py and deepseek_compressor.py, as presets.hpp cites),
// and the custom keys refused with the key named.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config/hf_config.hpp"
#include "hf_fixtures.hpp"
#include "speccalc/api.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::fixture_text;
using test::preset;

json flash_config_json() { return json::parse(fixture_text("deepseek-v4-flash.json")); }

ModelArch read_flash() {
  ModelArch m;
  Error err;
  EXPECT_TRUE(model_from_hf_config(flash_config_json(), "target", &m, &err)) << err.describe();
  return m;
}

json eval_ok(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe();
  return r.ok ? json::parse(r.output) : json();
}

TEST(DeepSeekV4, ConfigJsonReadsItsLayerMixIntoThePreset) {
  const ModelArch m = read_flash();
  // compress_ratios [0, 0] + [4, 128] x 20 + [4, 0]: the first 43 entries are 2 window-only
  // layers, 21 of ratio 4 and 20 of ratio 128 (the 44th, the MTP layer's, is not read).
  EXPECT_TRUE(m.shared_kv);
  EXPECT_EQ(m.compressed_sparse_layers, 21);
  EXPECT_EQ(m.heavily_compressed_layers, 20);
  EXPECT_EQ(m.hca_ratio, 128);
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.sliding_window_layers, 43);
  EXPECT_EQ(m.kv_heads, 1);
  EXPECT_EQ(m.intermediate, 2048);  // moe_intermediate_size: no intermediate_size key
  EXPECT_EQ(m.dense_intermediate, 0);
  const ModelArch& p = preset("deepseek-v4-flash");
  for (const auto& [a, b] : {std::pair{m.compressed_sparse_layers, p.compressed_sparse_layers},
                             {m.heavily_compressed_layers, p.heavily_compressed_layers},
                             {m.hca_ratio, p.hca_ratio},
                             {m.o_lora_rank, p.o_lora_rank},
                             {m.o_groups, p.o_groups},
                             {m.hc_mult, p.hc_mult},
                             {m.q_lora_rank, p.q_lora_rank},
                             {m.index_topk, p.index_topk},
                             {m.mtp_modules, p.mtp_modules}})
    EXPECT_EQ(a, b);
  EXPECT_EQ(m.shared_kv, p.shared_kv);
}

TEST(DeepSeekV4, FlashCountsByHand) {
  // Per layer (H 4096, 64 heads of d 512, q latent 1024, o_lora 1024 in 8 groups, 4 streams):
  //   wq_a 4096 x 1024 + q_norm 1024 + wq_b 1024 x 32768 + wkv 4096 x 512 + kv_norm 512
  //   + sinks 64 + wo_a 32768 x 1024 + wo_b 8192 x 4096                     = 106,956,352
  //   hyper-connections 2 x (24 x 16384 + 24 + 3)                              = 786,486
  //   two norms 8,192; router 256 x 4096 + bias 256                            = 1,057,024
  //   experts 256 x 3 x 4096 x 2048 + shared 3 x 4096 x 2048                   = 6,467,616,768
  // = 6,576,416,630 a layer, x 43 = 282,785,915,090. Compressors: a ratio-4 layer's
  // 2 x 2 x 512 x 4096 + 4 x 1024 + 512 = 8,393,216 and its indexer 1024 x 8192 + 4096 x 64
  // + (2 x 2 x 128 x 4096 + 4 x 256 + 128) = 10,749,056, x 21 = 401,987,712; a ratio-128
  // layer's 2 x 512 x 4096 + 128 x 512 + 512 = 4,260,352, x 20 = 85,207,040. Embedding and
  // head 2 x 129280 x 4096 = 1,059,061,760, final norm 4096, head mixer 4 x 16384 + 5 = 65,541.
  // Total 284,332,241,239.
  const ParamCounts p = count_params(preset("deepseek-v4-flash"));
  EXPECT_EQ(p.attn_per_layer, 106956352);
  EXPECT_EQ(p.hc_per_layer, 786486);
  EXPECT_EQ(p.compressor_total, 21LL * (8393216 + 10749056) + 20LL * 4260352);
  EXPECT_EQ(p.total, 43LL * 6576416630 + 401987712 + 85207040 + 1059061760 + 4096 + 65541);
  // Active: 6 of 256 routed experts, 43 x (6 + 1) x 25,165,824 = 7,574,913,024 of MLP.
  EXPECT_EQ(p.active, p.total - 43LL * 250 * 25165824);
}

TEST(DeepSeekV4, ProCountsByHand) {
  // The same terms at H 7168, 128 heads, q latent 1536, 16 output groups, 384 experts of 3072:
  //   attention 7168 x 1536 + 1536 + 1536 x 65536 + 7168 x 512 + 512 + 128 + 65536 x 1024
  //   + 16 x 1024 x 7168                                                   = 299,894,912
  //   mixers 2 x (24 x 28672 + 27) = 1,376,310; norms 14,336; router 384 x 7168 + 384 =
  //   2,752,896; experts (384 + 1) x 3 x 7168 x 3072 = 25,433,210,880    -> 25,737,249,334
  // x 61; 30 sparse layers x (2 x 2 x 512 x 7168 + 4 x 1024 + 512 = 14,684,672, indexer
  // 1536 x 8192 + 7168 x 64 + 2 x 2 x 128 x 7168 + 4 x 256 + 128 = 16,712,832); 31 heavy x
  // (2 x 512 x 7168 + 128 x 512 + 512 = 7,406,080); embedding and head 2 x 129280 x 7168,
  // final norm 7168, head mixer 4 x 28672 + 5. Total 1,572,997,202,915.
  const ParamCounts p = count_params(preset("deepseek-v4-pro"));
  EXPECT_EQ(p.attn_per_layer, 299894912);
  EXPECT_EQ(p.total, 61LL * 25737249334 + 30LL * (14684672 + 16712832) + 31LL * 7406080 +
                         2LL * 129280 * 7168 + 7168 + 4 * 28672 + 5);
  EXPECT_EQ(p.total, 1572997202915LL);
}

TEST(DeepSeekV4, DecodeAttentionReadsItsWindowAndCompressedEntriesByHand) {
  // One sequence, one new token at context 4096 (ctx 4097), fp16 cache, one GPU:
  //   window: min(4097, 128 + 1) = 129 tokens read in each of 43 layers       = 5,547
  //   sparse: min(floor(4097 / 4) = 1024, top-k 512) = 512 entries x 21        = 10,752
  //   heavy: floor(4097 / 128) = 32 entries x 20                               = 640
  // = 16,939 entries of 512 x 2 bytes = 17,345,536, plus the indexer's fp8 keys 21 x 1024 x
  // 128 = 2,752,512: 20,098,048 bytes. FLOPs: keys per query 43 x 128 + 10,752 + 640 = 16,896,
  // x 2 x 64 heads x (512 + 512) = 2,214,592,512, plus the indexer 2 x 64 x 128 x 21 x 1024 =
  // 352,321,536.
  const ModelArch& m = preset("deepseek-v4-flash");
  const Work w = decoder_work(m, 43, 1, 1, 4096, 0, DTypes{});
  EXPECT_DOUBLE_EQ(w[Kernel::attention].kv_cache_bytes, 17345536.0 + 2752512.0);
  EXPECT_DOUBLE_EQ(w[Kernel::attention].flops, 2214592512.0 + 352321536.0);
  // Short of a window (context 100): 101 tokens, no compressed entry past floor(101 / 4) = 25
  // sparse ones and floor(101 / 128) = 0 heavy ones.
  const Work s = decoder_work(m, 43, 1, 1, 100, 0, DTypes{});
  EXPECT_DOUBLE_EQ(s[Kernel::attention].kv_cache_bytes,
                   (43.0 * 101 + 21.0 * 25) * 1024 + 21.0 * 25 * 128);
}

TEST(DeepSeekV4, KvCacheHoldsEntriesWindowsAndCompressorStateByHand) {
  // Plain decoding (one token in flight) at context 131072, fp16 cache, one B200:
  //   per cached token: 21 x (512 x 2 + 128) / 4 + 20 x 512 x 2 / 128 = 6,048 + 160 = 6,208
  //     bytes, for 131,073 tokens                                         = 813,701,184
  //   windows: (128 + 1) tokens x 43 layers x 1,024 bytes                 = 5,680,128
  //   compressor state, fp32: a ratio-4 layer 2 x 4 slots x 2 x 2 x 512 (65,536 bytes) and its
  //     indexer's 2 x 4 x 2 x 2 x 128 (16,384), x 21; a ratio-128 layer 128 x 2 x 512
  //     (524,288), x 20                                                    = 12,206,080
  // = 831,587,392 bytes.
  const json out = eval_ok(json::parse(R"({"target":"deepseek-v4-flash","hardware":"b200",
      "runtime":"vllm","context":131072,"dtype":{"weights":"mxfp4","kv":"fp16"},
      "method":{"family":"ar"}})"));
  EXPECT_DOUBLE_EQ(out["memory"]["kv_cache_gb_per_gpu"].get<double>(), 831587392.0 / 1e9);
  // The window and the state are whole on every GPU (one key = value stream): 8 GPUs hold
  // the same cache each.
  const json tp8 = eval_ok(json::parse(R"({"target":"deepseek-v4-flash","hardware":"b200",
      "gpus":8,"runtime":"vllm","context":131072,"dtype":{"weights":"mxfp4","kv":"fp16"},
      "method":{"family":"ar"}})"));
  EXPECT_DOUBLE_EQ(tp8["memory"]["kv_cache_gb_per_gpu"].get<double>(), 831587392.0 / 1e9);
}

TEST(DeepSeekV4, ItsMtpLayerAttendsItsWindowOnly) {
  // vLLM gives the MTP layer compress ratio 1: at context 131072 a draft step of k = 1 over
  // the 2 accepted tokens (tau 1.8975 rounded) reads min(131074, 128 + 2) = 130 window tokens
  // of 1,024 bytes, not the 131,074 of a full-attention layer.
  const json out = eval_ok(json::parse(R"({"target":"deepseek-v4-flash","hardware":"b200",
      "gpus":8,"runtime":"vllm","context":131072,"dtype":{"weights":"mxfp4","kv":"fp16"},
      "method":{"family":"mtp","k":1}})"));
  double attention_bytes = -1;
  for (const json& k : out["draft"]["kernels"])
    if (k["kind"] == "attention") attention_bytes = k["bytes"].get<double>();
  EXPECT_DOUBLE_EQ(attention_bytes, 130.0 * 1024);
}

TEST(DeepSeekV4, CustomKeysAreRefusedWithTheirReason) {
  json base = json::parse(R"({"name":"v4-like","num_layers":4,"hidden":256,"intermediate":512,
      "heads":4,"kv_heads":1,"head_dim":64,"vocab":1000,"shared_kv":true,
      "compressed_sparse_layers":2,"heavily_compressed_layers":1,"hca_ratio":16,"q_lora_rank":64,
      "o_lora_rank":64,"o_groups":2,"hc_mult":2,"sliding_window":8,"sliding_window_layers":4,
      "index_n_heads":2,"index_head_dim":32,"index_topk":16})");
  const auto error_field = [](const json& model) {
    const Response r = run("eval", json{{"target", model}, {"method", "ar"}}.dump());
    return r.ok ? std::string("(accepted)") : r.error.field;
  };
  EXPECT_EQ(error_field(base), "(accepted)");
  const std::pair<json, const char*> bad[] = {
      {{{"shared_kv", false}}, "target.compressed_sparse_layers"},
      {{{"kv_heads", 2}}, "target.kv_heads"},
      {{{"sliding_window_layers", 3}}, "target.sliding_window_layers"},
      {{{"index_topk", 0}}, "target.index_topk"},
      {{{"hca_ratio", 0}}, "target.hca_ratio"},
      {{{"o_groups", 3}}, "target.o_groups"},
      {{{"o_groups", 0}}, "target.o_groups"},
      {{{"hc_mult", 1}}, "target.hc_mult"},
      {{{"heavily_compressed_layers", 3}}, "target.heavily_compressed_layers"},
      {{{"kv_lora_rank", 32}}, "target.kv_lora_rank"},
  };
  for (const auto& [patch, field] : bad) {
    json m = base;
    m.merge_patch(patch);
    EXPECT_EQ(error_field(m), field) << patch.dump();
  }
  // The keys round-trip through a share link.
  const Response link = run("link", json{{"target", base}, {"method", "ar"}}.dump());
  ASSERT_TRUE(link.ok) << link.error.describe();
  const Response a = run("eval", json{{"target", base}, {"method", "ar"}}.dump());
  const Response b = run("eval-link", link.output);
  ASSERT_TRUE(a.ok && b.ok) << b.error.describe();
  EXPECT_EQ(a.output, b.output);
}

TEST(DeepSeekV4, ConfigJsonRefusesWhatItDoesNotModel) {
  const auto error_field = [](const json& cfg) {
    ModelArch m;
    Error err;
    return model_from_hf_config(cfg, "target", &m, &err) ? std::string("(read)") : err.field;
  };
  json two_kv = flash_config_json();
  two_kv["num_key_value_heads"] = 2;
  two_kv["num_attention_heads"] = 64;
  EXPECT_EQ(error_field(two_kv), "target.num_key_value_heads");
  json mixed = flash_config_json();
  mixed["compress_ratios"][3] = 64;  // a second heavy ratio beside 128
  EXPECT_EQ(error_field(mixed), "target.compress_ratios");
  json short_list = flash_config_json();
  short_list["compress_ratios"] = json::array({0, 4});
  EXPECT_EQ(error_field(short_list), "target.compress_ratios");
  json no_window = flash_config_json();
  no_window.erase("sliding_window");
  EXPECT_EQ(error_field(no_window), "target.sliding_window");
}

}  // namespace
}  // namespace speccalc
