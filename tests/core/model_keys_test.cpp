// The model key table (core/src/data/model_keys.hpp) is the one list the custom-model parser,
// its key check, model_to_json and the preset table reader share: every preset must survive
// being written as keys and read back, every row must be used by some preset (so the round
// trip covers it), and the ranges refuse with the key named.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "config/config_json.hpp"
#include "data/model_keys.hpp"
#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

const Catalog& catalog() {
  static const Catalog c = load_catalog().value();
  return c;
}

std::vector<const ModelArch*> every_preset() {
  std::vector<const ModelArch*> out;
  for (const auto& m : catalog().targets) out.push_back(&m);
  for (const auto& m : catalog().drafts) out.push_back(&m);
  return out;
}

bool set_in(const ModelArch& m, const ModelKey& k) {
  return k.int_member ? m.*k.int_member != k.int_absent : m.*k.bool_member != k.bool_absent;
}

TEST(ModelKeys, EveryPresetSurvivesBeingWrittenAsKeysAndReadBack) {
  for (const ModelArch* m : every_preset()) {
    const nlohmann::json doc = {{"target", model_to_json(*m)}};
    auto parsed = parse_config(doc, catalog());
    ASSERT_TRUE(parsed.ok()) << m->id << ": " << parsed.error().describe();
    const ModelArch& back = parsed.value().target;
    for (const ModelKey& k : kModelKeys) {
      if (k.int_member)
        EXPECT_EQ(back.*k.int_member, m->*k.int_member) << m->id << " " << k.key;
      else
        EXPECT_EQ(back.*k.bool_member, m->*k.bool_member) << m->id << " " << k.key;
    }
    EXPECT_EQ(count_params(back).total, count_params(*m).total) << m->id;
    EXPECT_EQ(back.released_weights_dtype, m->released_weights_dtype) << m->id;
  }
}

TEST(ModelKeys, EveryKeyIsSetBySomePresetSoTheRoundTripCoversIt) {
  for (const ModelKey& k : kModelKeys) {
    bool used = false;
    for (const ModelArch* m : every_preset()) used = used || set_in(*m, k);
    EXPECT_TRUE(used) << k.key << " is set by no preset";
  }
}

TEST(ModelKeys, PresetTableValuesAreTheirConfigJsons) {
  // Hand values from the config.json files the presets cite: DeepSeek-V4-Flash's
  // (tests/fixtures/hf-config/deepseek-v4-flash.json: hc_mult 4, o_groups 8, o_lora_rank 1024,
  // index_topk 512, sliding_window 128) and Qwen3-Next-80B-A3B's
  // (assembled/qwen3-next-80b-a3b.json: linear_conv_kernel_dim 4, 16 key heads, 32 value heads).
  const ModelArch* v4 = catalog().find_target("deepseek-v4-flash");
  ASSERT_NE(v4, nullptr);
  EXPECT_EQ(v4->hc_mult, 4);
  EXPECT_EQ(v4->o_groups, 8);
  EXPECT_EQ(v4->o_lora_rank, 1024);
  EXPECT_EQ(v4->index_topk, 512);
  EXPECT_EQ(v4->sliding_window, 128);
  EXPECT_TRUE(v4->shared_kv);
  const ModelArch* next = catalog().find_target("qwen3-next-80b-a3b");
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->linear_conv_kernel, 4);
  EXPECT_EQ(next->linear_num_key_heads, 16);
  EXPECT_EQ(next->linear_num_value_heads, 32);
  EXPECT_TRUE(next->gated_mlp);
}

TEST(ModelKeys, OutOfRangeValuesAreRefusedWithTheKeyNamed) {
  const nlohmann::json base = {{"name", "x"},         {"num_layers", 2}, {"hidden", 64},
                               {"intermediate", 128}, {"heads", 2},      {"vocab", 100}};
  const std::vector<std::pair<const char*, nlohmann::json>> bad = {
      {"num_layers", 0},
      {"num_layers", 1025},
      {"experts", 0},
      {"shared_experts", 65},
      {"mtp_modules", -1},
      {"hc_mult", 17},
      {"linear_conv_kernel", 65},
      {"gated_mlp", 1},
      {"shared_kv", "yes"},
      {"sliding_window", 1 << 25},
      {"max_position_embeddings", 1LL << 28}};
  for (const auto& [key, value] : bad) {
    nlohmann::json target = base;
    target[key] = value;
    auto parsed = parse_config(nlohmann::json{{"target", target}}, catalog());
    ASSERT_FALSE(parsed.ok()) << key;
    EXPECT_EQ(parsed.error().field, std::string("target.") + key);
  }
}

}  // namespace
}  // namespace speccalc
