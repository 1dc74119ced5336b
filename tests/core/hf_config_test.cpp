// Models from a Hugging Face config.json (issue 20): each published config.json in
// tests/fixtures/hf-config reads into exactly its preset's fields, evaluates to the same bytes
// as the preset (apart from the target's name, which the assumptions and the echoed config
// carry), and what the model cannot represent is an error naming the config.json key.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config/hf_config.hpp"
#include "hf_fixtures.hpp"
#include "speccalc/api.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::fixture_text;
using test::preset;

json fixture_as_published(const std::string& name) { return json::parse(fixture_text(name)); }

// The fixture as the preset's model publishes it. qwen2.5-7b.json is the base Qwen/Qwen2.5-7B's
// config (max_position_embeddings 131072); the preset is Qwen2.5-7B-Instruct, whose config.json
// says 32768 and is otherwise the same ("The current config.json is set for context length up
// to 32,768 tokens", the Instruct model card; core/data/model-context.json).
json fixture(const std::string& name) {
  json cfg = fixture_as_published(name);
  if (name == "qwen2.5-7b.json") cfg["max_position_embeddings"] = 32768;
  return cfg;
}

ModelArch read(const json& cfg) {
  ModelArch m;
  Error err;
  EXPECT_TRUE(model_from_hf_config(cfg, "target", &m, &err)) << err.describe();
  return m;
}

// Every field the cost model reads, side by side.
void expect_same_arch(const ModelArch& a, const ModelArch& b, const std::string& what,
                      bool same_context = true) {
  EXPECT_EQ(a.num_layers, b.num_layers) << what;
  EXPECT_EQ(a.hidden, b.hidden) << what;
  EXPECT_EQ(a.intermediate, b.intermediate) << what;
  EXPECT_EQ(a.heads, b.heads) << what;
  EXPECT_EQ(a.kv_heads, b.kv_heads) << what;
  EXPECT_EQ(a.head_dim, b.head_dim) << what;
  EXPECT_EQ(a.vocab, b.vocab) << what;
  EXPECT_EQ(a.tied_embeddings, b.tied_embeddings) << what;
  EXPECT_EQ(a.experts, b.experts) << what;
  EXPECT_EQ(a.experts_per_token, b.experts_per_token) << what;
  EXPECT_EQ(a.qkv_bias, b.qkv_bias) << what;
  EXPECT_EQ(a.shared_experts, b.shared_experts) << what;
  EXPECT_EQ(a.first_dense_layers, b.first_dense_layers) << what;
  EXPECT_EQ(a.dense_intermediate, b.dense_intermediate) << what;
  EXPECT_EQ(a.kv_lora_rank, b.kv_lora_rank) << what;
  EXPECT_EQ(a.qk_rope_head_dim, b.qk_rope_head_dim) << what;
  EXPECT_EQ(a.q_lora_rank, b.q_lora_rank) << what;
  EXPECT_EQ(a.qk_nope_head_dim, b.qk_nope_head_dim) << what;
  EXPECT_EQ(a.v_head_dim, b.v_head_dim) << what;
  EXPECT_EQ(a.gated_mlp, b.gated_mlp) << what;
  EXPECT_EQ(a.mlp_bias, b.mlp_bias) << what;
  EXPECT_EQ(a.qk_norm, b.qk_norm) << what;
  EXPECT_EQ(a.router_bias, b.router_bias) << what;
  EXPECT_EQ(a.mtp_modules, b.mtp_modules) << what;
  EXPECT_EQ(a.sliding_window, b.sliding_window) << what;
  EXPECT_EQ(a.sliding_window_layers, b.sliding_window_layers) << what;
  EXPECT_EQ(a.shared_kv, b.shared_kv) << what;
  EXPECT_EQ(a.compressed_sparse_layers, b.compressed_sparse_layers) << what;
  EXPECT_EQ(a.heavily_compressed_layers, b.heavily_compressed_layers) << what;
  EXPECT_EQ(a.hca_ratio, b.hca_ratio) << what;
  EXPECT_EQ(a.o_lora_rank, b.o_lora_rank) << what;
  EXPECT_EQ(a.o_groups, b.o_groups) << what;
  EXPECT_EQ(a.hc_mult, b.hc_mult) << what;
  EXPECT_EQ(a.index_n_heads, b.index_n_heads) << what;
  EXPECT_EQ(a.index_head_dim, b.index_head_dim) << what;
  EXPECT_EQ(a.index_topk, b.index_topk) << what;
  if (same_context) {
    EXPECT_EQ(a.max_position_embeddings, b.max_position_embeddings) << what;
  }
}

// eval output with the target's identity taken out: the echoed config's `target` (an id for
// the preset, the model's own keys for a config.json), the assumption naming the target and its
// citation, and the id or name that opens an assumption about the model ("deepseek-v3 ships 1
// MTP module(s)" / "custom ships ..."; "gpt-oss-20b: sliding-window ..." / "gpt_oss: ...").
json without_identity(json r, const std::string& id, const std::string& name) {
  r["config"].erase("target");
  json kept = json::array();
  for (const auto& a : r["assumptions"]) {
    std::string text = a.get<std::string>();
    if (text.rfind("target: ", 0) == 0) continue;
    for (const std::string& who : {id, name}) {
      if (text.rfind(who + " ", 0) == 0 || text.rfind(who + ":", 0) == 0) {
        text = "<model>" + text.substr(who.size());
        break;
      }
    }
    kept.push_back(text);
  }
  r["assumptions"] = kept;
  return r;
}

json eval(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump().substr(0, 200);
  return r.ok ? json::parse(r.output) : json();
}

struct Case {
  const char* file;
  const char* preset;
  const char* rest;  // the rest of the config: hardware, method (exercising the model's parts)
};

const Case kCases[] = {
    {"llama3.1-8b.json", "llama3.1-8b-instruct",
     R"({"hardware":"h100-sxm","method":{"family":"sps","draft":"llama3.2-1b","k":4},
         "acceptance":{"alpha":0.7}})"},
    {"qwen2.5-7b.json", "qwen2.5-7b",
     R"({"hardware":"a100-80gb-sxm","method":{"family":"pld","k":4},"acceptance":{"alpha":0.6}})"},
    {"qwen3-8b.json", "qwen3-8b",
     R"({"hardware":"h100-sxm","method":{"family":"sps","draft":"qwen3-0.6b","k":3},
         "acceptance":{"alpha":0.7}})"},
    {"qwen3-30b-a3b.json", "qwen3-30b-a3b",
     R"({"hardware":"h100-sxm","batch":8,"method":{"family":"pld","k":3},"acceptance":{"alpha":0.6}})"},
    {"qwen3-32b.json", "qwen3-32b",
     R"({"hardware":"h100-sxm","method":{"family":"sps","draft":"qwen3-0.6b","k":4},
         "acceptance":{"alpha":0.7}})"},
    {"deepseek-v3.json", "deepseek-v3",
     R"({"hardware":"h200-sxm","gpus":8,"dtype":"fp8","method":{"family":"mtp","k":2},
         "acceptance":{"alpha":0.8}})"},
    {"gpt-oss-20b.json", "gpt-oss-20b",
     R"({"hardware":"b200","dtype":"mxfp4","method":{"family":"pld","k":3},"acceptance":{"alpha":0.6}})"},
    {"qwen3-235b-a22b.json", "qwen3-235b-a22b",
     R"({"hardware":"h200-sxm","gpus":4,"dtype":"fp8","batch":16,"method":{"family":"pld","k":3},
         "acceptance":{"alpha":0.6}})"},
    {"kimi-k2-instruct.json", "kimi-k2-instruct",
     R"({"hardware":"b200","gpus":8,"dtype":"fp8","method":{"family":"pld","k":3},
         "acceptance":{"alpha":0.6}})"},
    {"gemma-3-27b-it.json", "gemma-3-27b-it",
     R"({"hardware":"h100-sxm","context":8192,"method":{"family":"pld","k":3},
         "acceptance":{"alpha":0.6}})"},
    {"mistral-small-24b.json", "mistral-small-3.1-24b",
     R"({"hardware":"l40s","method":{"family":"pld","k":4},"acceptance":{"alpha":0.6}})"},
    {"qwen3-coder-480b-a35b.json", "qwen3-coder-480b-a35b",
     R"({"hardware":"h200-sxm","gpus":8,"dtype":"fp8","batch":8,"method":{"family":"pld","k":4},
         "acceptance":{"alpha":0.6}})"},
    {"mixtral-8x22b.json", "mixtral-8x22b",
     R"({"hardware":"h100-sxm","gpus":4,"method":{"family":"pld","k":3},"acceptance":{"alpha":0.6}})"},
    {"minimax-m2.5.json", "minimax-m2.5",
     R"({"hardware":"h200-sxm","gpus":4,"dtype":"fp8","method":{"family":"mtp","k":3},
         "acceptance":{"alpha":0.8}})"},
    {"kimi-k2.5.json", "kimi-k2.5",
     R"({"hardware":"b200","gpus":8,"dtype":"fp8","method":{"family":"pld","k":3},
         "acceptance":{"alpha":0.6}})"},
    {"deepseek-r1.json", "deepseek-r1",
     R"({"hardware":"h200-sxm","gpus":8,"dtype":"fp8","batch":4,"method":{"family":"mtp","k":1},
         "acceptance":{"alpha":0.85}})"},
    {"opt-6.7b.json", "opt-6.7b",
     R"({"hardware":"a100-80gb-sxm","runtime":"vllm","method":{"family":"sps","draft":"opt-125m",
         "k":5},"acceptance":{"alpha":0.7}})"},
    {"deepseek-v4-flash.json", "deepseek-v4-flash",
     R"({"hardware":"h200-sxm","gpus":8,"dtype":"fp8","batch":8,"context":65536,"runtime":"vllm",
         "method":{"family":"mtp","k":2},"acceptance":{"alpha":0.8}})"},
    {"deepseek-v4-pro.json", "deepseek-v4-pro",
     R"({"hardware":"b300","gpus":8,"dtype":"mxfp4","batch":16,"context":131072,
         "runtime":"sglang","method":{"family":"mtp","k":3},"acceptance":{"alpha":0.8}})"},
    // Assembled from the copies cited, not byte copies (tests/fixtures/hf-config/README.md).
    {"assembled/glm-4.6.json", "glm-4.6",
     R"({"hardware":"h200-sxm","gpus":8,"dtype":"fp8","batch":8,"runtime":"sglang",
         "method":{"family":"mtp","k":3},"acceptance":{"alpha":0.8}})"},
    {"assembled/minicpm3-4b.json", "minicpm3-4b",
     R"({"hardware":"rtx-4090","runtime":"vllm","method":{"family":"eagle3","depth":3,"top_k":1,
         "total_token":4},"acceptance":{"tau":2.44}})"},
    {"assembled/qwen3-next-80b-a3b.json", "qwen3-next-80b-a3b",
     R"({"hardware":"h200-sxm","gpus":2,"runtime":"vllm","batch":4,
         "method":{"family":"mtp","k":2},"acceptance":{"alpha":0.8}})"},
};

TEST(HfConfig, EachPublishedConfigReadsIntoItsPresetsFields) {
  for (const Case& c : kCases) expect_same_arch(read(fixture(c.file)), preset(c.preset), c.file);
}

TEST(HfConfig, PresetAndItsConfigJsonEvaluateIdentically) {
  for (const Case& c : kCases) {
    json with_preset = json::parse(c.rest);
    with_preset["target"] = c.preset;
    json with_config = json::parse(c.rest);
    with_config["target"] = fixture(c.file);
    const json a = eval(with_preset);
    const json b = eval(with_config);
    ASSERT_FALSE(a.is_null() || b.is_null()) << c.file;
    const ModelArch& p = preset(c.preset);
    const ModelArch r = read(fixture(c.file));
    EXPECT_EQ(without_identity(a, p.id, p.name).dump(), without_identity(b, r.id, r.name).dump())
        << c.file;
    // Only the identity differs: the preset's echo is its id, the config.json's its own keys.
    EXPECT_EQ(a["config"]["target"], c.preset);
    EXPECT_TRUE(b["config"]["target"].is_object()) << c.file;
  }
}

TEST(HfConfig, AConfigJsonTargetRoundTripsThroughItsShareLink) {
  // The link carries the model's own keys (not the config.json), and evaluates to the same bytes.
  json config = json::parse(kCases[5].rest);
  config["target"] = fixture("deepseek-v3.json");
  const Response link = run("link", config.dump());
  ASSERT_TRUE(link.ok) << link.error.describe();
  const Response a = run("eval", config.dump());
  const Response b = run("eval-link", link.output);
  ASSERT_TRUE(a.ok && b.ok) << b.error.describe();
  EXPECT_EQ(a.output, b.output);
}

TEST(HfConfig, DeepSeekV3FieldsByHand) {
  // config.json: intermediate_size 18432 is the 3 (first_k_dense_replace) dense layers' MLP;
  // routed experts are moe_intermediate_size 2048 wide; q/k heads qk_nope 128 + qk_rope 64.
  const ModelArch m = read(fixture("deepseek-v3.json"));
  EXPECT_EQ(m.first_dense_layers, 3);
  EXPECT_EQ(m.dense_intermediate, 18432);
  EXPECT_EQ(m.intermediate, 2048);
  EXPECT_EQ(m.experts, 256);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.shared_experts, 1);
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.kv_lora_rank, 512);
  EXPECT_EQ(m.mtp_modules, 1);
  EXPECT_TRUE(m.router_bias);
  EXPECT_FALSE(m.tied_embeddings);
}

TEST(HfConfig, Qwen2HasQkvBiasWithoutSayingSoAndItsWindowIsOff) {
  // modeling_qwen2.py: q/k/v projections bias=True (no attention_bias key in the config);
  // sliding_window 131072 is inert while use_sliding_window is false.
  const ModelArch m = read(fixture("qwen2.5-7b.json"));
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_EQ(m.sliding_window, 0);
  EXPECT_EQ(m.sliding_window_layers, 0);
  EXPECT_EQ(m.head_dim, 3584 / 28);
}

TEST(HfConfig, GptOssSlidingLayersAreCountedAndStated) {
  // layer_types alternates sliding_attention / full_attention over 24 layers: 12 sliding, 128.
  const ModelArch m = read(fixture("gpt-oss-20b.json"));
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.sliding_window_layers, 12);
  EXPECT_EQ(m.experts, 32);
  EXPECT_EQ(m.experts_per_token, 4);
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_TRUE(m.router_bias);
  json config = json::parse(R"({"hardware":"h100-sxm"})");
  config["target"] = fixture("gpt-oss-20b.json");
  const json r = eval(config);
  bool stated = false;
  for (const auto& a : r["assumptions"])
    stated = stated || a.get<std::string>().find(
                           "local attention over 128 tokens on 12 of 24 layers: those "
                           "layers attend to and cache at most that window") != std::string::npos;
  EXPECT_TRUE(stated) << r["assumptions"].dump();
}

TEST(HfConfig, GptOssQuantizationConfigKeepsAttentionAndHeads16Bit) {
  // openai/gpt-oss-20b's config.json: quant_method mxfp4, modules_to_not_convert
  // [model.layers.*.self_attn, model.layers.*.mlp.router, model.embed_tokens, lm_head]. The
  // fixture is a re-upload whose quant_method says gptq: the kept modules are read either way,
  // the released dtype only from a method that is one (fp8, mxfp4).
  json cfg = fixture("gpt-oss-20b.json");
  ModelArch m = read(cfg);
  EXPECT_TRUE(m.quantized_experts_only);
  EXPECT_EQ(m.released_weights_dtype, "");
  cfg["quantization_config"]["quant_method"] = "mxfp4";
  m = read(cfg);
  EXPECT_TRUE(m.quantized_experts_only);
  EXPECT_EQ(m.released_weights_dtype, "mxfp4");
  // Without kept modules every weight is quantized; a dense model has no experts to single out.
  cfg["quantization_config"].erase("modules_to_not_convert");
  EXPECT_FALSE(read(cfg).quantized_experts_only);
  json dense = fixture("qwen3-8b.json");
  dense["quantization_config"] = cfg["quantization_config"];
  dense["quantization_config"]["modules_to_not_convert"] = {"model.layers.*.self_attn"};
  EXPECT_FALSE(read(dense).quantized_experts_only);
  // The preset and the config.json (with openai's quant_method) open in the same dtype and cost.
  json with_config = json::parse(R"({"hardware":"h100-sxm","runtime":"vllm"})");
  cfg = fixture("gpt-oss-20b.json");
  cfg["quantization_config"]["quant_method"] = "mxfp4";
  with_config["target"] = cfg;
  const json b = eval(with_config);
  const json a = eval(json::parse(R"({"target":"gpt-oss-20b","hardware":"h100-sxm",
                                      "runtime":"vllm"})"));
  EXPECT_EQ(b["config"]["dtype"]["weights"], "mxfp4");
  EXPECT_EQ(a["memory"]["weights_gb_per_gpu"], b["memory"]["weights_gb_per_gpu"]);
}

Error read_error(const json& cfg) {
  ModelArch m;
  Error err;
  EXPECT_FALSE(model_from_hf_config(cfg, "target", &m, &err)) << cfg.dump().substr(0, 120);
  return err;
}

TEST(HfConfig, MlpBiasesAreCountedOnePerOutput) {
  // Llama's mlp_bias puts a bias on gate, up (14336 each) and down (4096): 32 layers x 32,768.
  json c = fixture("llama3.1-8b.json");
  const ModelArch plain = read(c);
  c["mlp_bias"] = true;
  const ModelArch biased = read(c);
  EXPECT_TRUE(biased.mlp_bias);
  EXPECT_EQ(count_params(biased).total - count_params(plain).total, 32LL * (2 * 14336 + 4096));
}

TEST(HfConfig, WhatItDoesNotModelIsAnErrorNamingTheKey) {
  // Jamba's Mamba layers are not modeled.
  json c = fixture("deepseek-v3.json");
  c["model_type"] = "jamba";
  Error e = read_error(c);
  EXPECT_EQ(e.field, "target.model_type");
  EXPECT_NE(e.message.find("jamba"), std::string::npos) << e.message;
  // A hybrid without its Gated DeltaNet widths names the missing key.
  c = json::parse(fixture_text("qwen3.5-35b-a3b.json"));
  c["text_config"].erase("linear_num_value_heads");
  EXPECT_EQ(read_error(c).field, "target.text_config.linear_num_value_heads");
  c = json::parse(fixture_text("qwen3.5-35b-a3b.json"));
  c["text_config"]["shared_expert_intermediate_size"] = 1024;
  EXPECT_EQ(read_error(c).field, "target.text_config.shared_expert_intermediate_size");

  c = fixture("gpt-oss-20b.json");
  c["layer_types"][1] = "linear_attention";
  e = read_error(c);
  EXPECT_EQ(e.field, "target.layer_types");
  EXPECT_NE(e.message.find("linear_attention"), std::string::npos) << e.message;

  c = fixture("qwen3-30b-a3b.json");
  c["decoder_sparse_step"] = 2;
  EXPECT_EQ(read_error(c).field, "target.decoder_sparse_step");
  c = fixture("qwen3-30b-a3b.json");
  c["mlp_only_layers"] = json::array({0});
  EXPECT_EQ(read_error(c).field, "target.mlp_only_layers");

  c = fixture("deepseek-v3.json");
  c["moe_layer_freq"] = 2;
  EXPECT_EQ(read_error(c).field, "target.moe_layer_freq");
  c = fixture("deepseek-v3.json");
  c.erase("kv_lora_rank");
  EXPECT_EQ(read_error(c).field, "target.kv_lora_rank");

  c = fixture("llama3.1-8b.json");
  c.erase("hidden_size");
  e = read_error(c);
  EXPECT_EQ(e.field, "target.hidden_size");
  EXPECT_EQ(e.message, "is required in a config.json");

  c = fixture("llama3.1-8b.json");
  c["num_key_value_heads"] = 7;
  EXPECT_EQ(read_error(c).field, "target.num_key_value_heads");
}

TEST(HfConfig, ErrorsReachTheCliAsTheFieldPath) {
  json c = fixture("llama3.1-8b.json");
  c["num_hidden_layers"] = "32";
  json config;
  config["target"] = c;
  const Response r = run("eval", config.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target.num_hidden_layers");
}

TEST(HfConfig, ConfigJsonKeysWithoutModelTypeAskForIt) {
  // The walk pasted {"hidden_size": 4096} and was told SpecCalc's own key list; a config.json
  // without its model_type (target or draft) now names the key that is missing.
  for (const char* path : {"target", "method.draft"}) {
    json c = fixture("llama3.1-8b.json");
    c.erase("model_type");
    json config = json::parse(R"({"method": {"family": "sps"}})");
    if (std::string(path) == "target")
      config["target"] = c;
    else
      config["method"]["draft"] = c;
    const Response r = run("eval", config.dump());
    ASSERT_FALSE(r.ok) << path;
    EXPECT_EQ(r.error.field, std::string(path) + ".model_type");
    EXPECT_NE(r.error.message.find("Hugging Face config.json key"), std::string::npos)
        << r.error.message;
  }
  // SpecCalc's own keys are still read as before (max_position_embeddings is shared by both).
  const Response own = run("eval", R"({"target": {"num_layers": 2, "hidden": 64,
      "intermediate": 128, "heads": 4, "vocab": 1000, "max_position_embeddings": 4096}})");
  EXPECT_TRUE(own.ok) << own.error.field << ": " << own.error.message;
}

TEST(HfConfig, Gemma3DefaultsWhatItsConfigLeavesOut) {
  // Gemma-3 27B's text_config has no vocab_size and no sliding_window_pattern:
  // Gemma3TextConfig's defaults (262_208; every 6th layer global) apply, so 62 - 62 / 6 = 52
  // layers slide over 1024 tokens, and the embeddings are tied (no tie_word_embeddings key).
  const ModelArch big = read(fixture("gemma-3-27b-it.json"));
  EXPECT_EQ(big.vocab, 262208);
  EXPECT_EQ(big.sliding_window, 1024);
  EXPECT_EQ(big.sliding_window_layers, 52);
  EXPECT_TRUE(big.tied_embeddings);
  EXPECT_TRUE(big.qk_norm);
  // Gemma-3 1B (gemma3_text, no wrapper): pattern 6 stated, 26 layers -> 4 global, 22 sliding.
  const ModelArch small = read(fixture("gemma-3-1b-it.json"));
  EXPECT_EQ(small.vocab, 262144);
  EXPECT_EQ(small.sliding_window, 512);
  EXPECT_EQ(small.sliding_window_layers, 22);
  EXPECT_EQ(small.head_dim, 256);
  EXPECT_EQ(small.kv_heads, 1);
}

TEST(HfConfig, MiniMaxM2ReadsItsRoutingBiasQkNormAndMtpModules) {
  // configuration_minimax_m2.py keys: 256 local experts, top-8, use_routing_bias,
  // use_qk_norm, use_mtp with num_mtp_modules 3; shared_intermediate_size 0.
  const ModelArch m = read(fixture("minimax-m2.5.json"));
  EXPECT_EQ(m.experts, 256);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_TRUE(m.router_bias);
  EXPECT_TRUE(m.qk_norm);
  EXPECT_EQ(m.mtp_modules, 3);
  json c = fixture("minimax-m2.5.json");
  c["use_mtp"] = false;
  EXPECT_EQ(read(c).mtp_modules, 0);
  c["shared_intermediate_size"] = 1536;
  Error err;
  ModelArch out;
  EXPECT_FALSE(model_from_hf_config(c, "target", &out, &err));
  EXPECT_EQ(err.field, "target.shared_intermediate_size");
}

TEST(HfConfig, WrappersAndAliasesReadTheirLanguageModel) {
  // Mistral-Small-3.1 (mistral3): the text_config is a plain mistral model, no window.
  const ModelArch mistral = read(fixture("mistral-small-24b.json"));
  EXPECT_EQ(mistral.num_layers, 40);
  EXPECT_EQ(mistral.intermediate, 32768);
  EXPECT_EQ(mistral.sliding_window, 0);
  EXPECT_FALSE(mistral.tied_embeddings);
  // Kimi-K2 publishes model_type kimi_k2 over DeepSeek-V3's architecture: 384 routed experts,
  // one dense layer, MLA q/k width 128 + 64, no MTP module.
  const ModelArch kimi = read(fixture("kimi-k2-instruct.json"));
  EXPECT_EQ(kimi.experts, 384);
  EXPECT_EQ(kimi.first_dense_layers, 1);
  EXPECT_EQ(kimi.dense_intermediate, 18432);
  EXPECT_EQ(kimi.head_dim, 192);
  EXPECT_EQ(kimi.mtp_modules, 0);
  // Kimi-K2.5 (kimi_k25) wraps the same language model in text_config.
  // (K2.5 is configured for 262144 positions, K2 for 131072.)
  expect_same_arch(read(fixture("kimi-k2.5.json")), kimi, "kimi-k2.5 text_config", false);
  EXPECT_EQ(read(fixture("kimi-k2.5.json")).max_position_embeddings, 262144);
}

// Llama-4: no published config.json was readable here, so this one is written in the test from
// transformers' configuration_llama4.py keys, with Maverick's geometry (meta-llama model card:
// 48 layers, 128 experts, an MoE layer every 2nd layer, 17B active of 400B).
json llama4_maverick_like() {
  return json::parse(R"({"model_type": "llama4", "tie_word_embeddings": false,
    "text_config": {"model_type": "llama4_text", "num_hidden_layers": 48, "hidden_size": 5120,
      "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_attention_heads": 40,
      "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048, "num_local_experts": 128,
      "num_experts_per_tok": 1, "interleave_moe_layer_step": 2, "attention_chunk_size": 8192,
      "max_position_embeddings": 1048576}})");
}

TEST(HfConfig, Llama4InterleavedMoeAndChunkedAttentionByHand) {
  // moe_layers = range(1, 48, 2): 24 MoE layers (128 routed experts of 8192 + 1 shared of 8192),
  // 24 dense layers of intermediate_size_mlp 16384. RoPE layers (3 of every 4) attend within
  // 8192-token chunks: 48 - 48 / 4 = 36 of them.
  const ModelArch m = read(llama4_maverick_like());
  EXPECT_EQ(m.experts, 128);
  EXPECT_EQ(m.experts_per_token, 1);
  EXPECT_EQ(m.shared_experts, 1);
  EXPECT_EQ(m.first_dense_layers, 24);
  EXPECT_EQ(m.dense_intermediate, 16384);
  EXPECT_EQ(m.intermediate, 8192);
  EXPECT_EQ(m.sliding_window, 8192);
  EXPECT_EQ(m.sliding_window_layers, 36);
  EXPECT_FALSE(m.qk_norm);  // an L2 norm without weights
  // Parameters by hand, per layer: attention 5120 x (5120 + 2 x 1024) + 5120 x 5120 =
  // 62,914,560; one expert 3 x 5120 x 8192 = 125,829,120; dense MLP 3 x 5120 x 16384 =
  // 251,658,240; router 5120 x 128 = 655,360; norms 10,240. Embedding and head 2 x 202048 x
  // 5120 = 2,068,971,520; final norm 5,120.
  const int64_t attn = 62914560, expert = 125829120, dense = 251658240, router = 655360,
                norms = 10240;
  const int64_t total =
      24 * (attn + dense + norms) + 24 * (attn + 129 * expert + router + norms) + 2068971520 + 5120;
  const ParamCounts p = count_params(m);
  EXPECT_EQ(p.total, total);
  // 400B total and 17B active on the model card (the vision tower's ~1B apart).
  EXPECT_NEAR(static_cast<double>(p.total), 400e9, 5e9);
  EXPECT_NEAR(static_cast<double>(p.active), 17e9, 0.5e9);
  expect_same_arch(m, preset("llama-4-maverick"), "llama-4-maverick");
  // Scout's step of 1 (the default) makes every layer MoE; an explicit moe_layers list wins.
  json scout = llama4_maverick_like();
  scout["text_config"]["num_local_experts"] = 16;
  scout["text_config"].erase("interleave_moe_layer_step");
  scout["text_config"]["max_position_embeddings"] = 10485760;  // Scout's 10M context
  EXPECT_EQ(read(scout).first_dense_layers, 0);
  expect_same_arch(read(scout), preset("llama-4-scout"), "llama-4-scout");
  json listed = llama4_maverick_like();
  listed["text_config"]["moe_layers"] = json::array({0, 5, 47});
  EXPECT_EQ(read(listed).first_dense_layers, 45);
  listed["text_config"]["moe_layers"] = json::array({0, 48});
  Error err;
  ModelArch out;
  EXPECT_FALSE(model_from_hf_config(listed, "target", &out, &err));
  EXPECT_EQ(err.field, "target.text_config.moe_layers");
}

TEST(HfConfig, OptReadsAsATwoMatrixMlpAndItsDraftAsPublished) {
  // OPT (modeling_opt.py): fc1 -> ReLU -> fc2, q/k/v/out biases, a tied head, no GQA.
  const ModelArch draft = read(fixture("opt-125m.json"));
  expect_same_arch(draft, preset("opt-125m"), "opt-125m.json");
  EXPECT_FALSE(draft.gated_mlp);
  EXPECT_TRUE(draft.qkv_bias);
  EXPECT_TRUE(draft.mlp_bias);
  EXPECT_TRUE(draft.tied_embeddings);
  EXPECT_EQ(draft.kv_heads, 12);
  EXPECT_EQ(draft.head_dim, 64);
  EXPECT_EQ(draft.name, "facebook/opt-125m");
  // As the draft of vLLM's own example (OPT-6.7B, 5 speculative tokens) the config.json and the
  // preset price the same cycle.
  json a = json::parse(R"({"target":"opt-6.7b","hardware":"a100-80gb-sxm","runtime":"vllm",
                           "method":{"family":"sps","draft":"opt-125m","k":5}})");
  json b = a;
  b["method"]["draft"] = fixture("opt-125m.json");
  EXPECT_EQ(eval(a)["cycle_time_s"], eval(b)["cycle_time_s"]);
  EXPECT_EQ(eval(a)["speedup"], eval(b)["speedup"]);
  // OPT-350M projects a 512-wide embedding into its 1024-wide layers: not modeled, said so.
  json narrow = fixture("opt-125m.json");
  narrow["word_embed_proj_dim"] = 512;
  ModelArch m;
  Error err;
  EXPECT_FALSE(model_from_hf_config(narrow, "draft", &m, &err));
  EXPECT_EQ(err.field, "draft.word_embed_proj_dim");
  EXPECT_NE(err.message.find("not modeled"), std::string::npos) << err.message;
  // A hidden size its heads do not divide.
  json odd = fixture("opt-125m.json");
  odd["num_attention_heads"] = 7;
  EXPECT_FALSE(model_from_hf_config(odd, "draft", &m, &err));
  EXPECT_EQ(err.field, "draft.num_attention_heads");
}

TEST(HfConfig, StarCoder2ReadsAsATwoMatrixMlpWithBiasesAndAWindow) {
  // StarCoder2-3B's keys as a TensorRT-LLM test of Starcoder2ForCausalLM copies them (stored
  // copy, find_string id 19388661341: "Base config for all StarCoder2 models (based on
  // HuggingFace configs)", 30 layers at full size): hidden 3072, intermediate 12288, 24 heads
  // over 2 KV heads, vocab 49152, use_bias, a 4096-token window.
  const json c = json::parse(R"({"architectures":["Starcoder2ForCausalLM"],
      "hidden_act":"gelu_pytorch_tanh","max_position_embeddings":16384,"model_type":"starcoder2",
      "num_hidden_layers":30,"sliding_window":4096,"use_bias":true,"vocab_size":49152,
      "hidden_size":3072,"intermediate_size":12288,"num_attention_heads":24,
      "num_key_value_heads":2})");
  const ModelArch m = read(c);
  EXPECT_FALSE(m.gated_mlp);
  EXPECT_TRUE(m.mlp_bias);
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_TRUE(m.tied_embeddings);  // Starcoder2Config's default
  EXPECT_EQ(m.sliding_window, 4096);
  EXPECT_EQ(m.sliding_window_layers, 30);
  // By hand, per layer: q and o 2 x 3072^2, k and v 2 x 3072 x 256, their biases 3072 + 512,
  // c_fc and c_proj 2 x 3072 x 12288 with biases 12288 + 3072, two norms 2 x 3072 =
  // 95,969,792; x 30 + the tied embedding 49152 x 3072 + the final norm 3072 = 3,030,091,776
  // (the name: 3B).
  EXPECT_EQ(count_params(m).total, 30LL * 95969792 + 49152LL * 3072 + 3072);
  json no_bias = c;
  no_bias["use_bias"] = false;
  const ModelArch plain = read(no_bias);
  EXPECT_FALSE(plain.qkv_bias);
  EXPECT_FALSE(plain.mlp_bias);
}

TEST(HfConfig, MiniCpm3ReadsLatentAttentionWithItsValueWidthDefault) {
  // MiniCPM3's config.json names no v_head_dim: MiniCPM3Config's __post_init__ sets it to
  // hidden_size // num_attention_heads (2560 / 40 = 64), not DeepSeek's explicit 128.
  const json c = fixture("assembled/minicpm3-4b.json");
  ASSERT_FALSE(c.contains("v_head_dim"));
  const ModelArch m = read(c);
  EXPECT_EQ(m.v_head_dim, 64);
  EXPECT_EQ(m.head_dim, 64 + 32);  // qk_nope + qk_rope, as every MLA model
  EXPECT_EQ(m.kv_lora_rank, 256);
  EXPECT_EQ(m.q_lora_rank, 768);
  EXPECT_TRUE(m.tied_embeddings);
  // A config that names it is read as given; an untied one is untied.
  json named = c;
  named["v_head_dim"] = 128;
  named["tie_word_embeddings"] = false;
  const ModelArch wide = read(named);
  EXPECT_EQ(wide.v_head_dim, 128);
  EXPECT_FALSE(wide.tied_embeddings);
  // Without the tie key MiniCPM3Config's default (true) holds.
  json untold = c;
  untold.erase("tie_word_embeddings");
  EXPECT_TRUE(read(untold).tied_embeddings);
  // The default is MiniCPM3's alone: a DeepSeek-V3 config.json without v_head_dim is refused.
  json deepseek = fixture("deepseek-v3.json");
  deepseek.erase("v_head_dim");
  ModelArch out;
  Error err;
  EXPECT_FALSE(model_from_hf_config(deepseek, "target", &out, &err));
  EXPECT_EQ(err.field, "target.v_head_dim");
  // MLA without its latent width is refused with the key named.
  json no_latent = c;
  no_latent.erase("kv_lora_rank");
  EXPECT_FALSE(model_from_hf_config(no_latent, "target", &out, &err));
  EXPECT_EQ(err.field, "target.kv_lora_rank");
}

}  // namespace
}  // namespace speccalc
