#pragma once
// A model's numeric and boolean keys, written once. A custom model's parser reads them in this
// order with these ranges, its unknown-key check allows them, model_to_json writes them and the
// preset table reader fills them: a new architecture key is one row here (plus the cost model
// that uses it), not four lists that must agree. `name` and `released_dtype` are strings with
// their own rules and stay beside the callers.
#include <cstdint>

#include "speccalc/presets.hpp"

namespace speccalc {

struct ModelKey {
  const char* key;
  int64_t ModelArch::*int_member;  // null for a boolean key
  bool ModelArch::*bool_member;    // null for an integer key
  int64_t min;                     // an integer key's range in a custom model
  int64_t max;
  int64_t int_absent;  // value when a preset table row leaves it out; model_to_json omits it
  bool bool_absent;
  bool v1;  // one of the first release's shape keys: always written, so old links stay the same
};

// Integer key: range [min, max], `absent` when not given.
constexpr ModelKey int_key(const char* key, int64_t ModelArch::*member, int64_t min, int64_t max,
                           bool v1 = false, int64_t absent = 0) {
  return ModelKey{key, member, nullptr, min, max, absent, false, v1};
}

// Boolean key, `absent` when not given.
constexpr ModelKey bool_key(const char* key, bool ModelArch::*member, bool absent = false,
                            bool v1 = false) {
  return ModelKey{key, nullptr, member, 0, 0, 0, absent, v1};
}

// Ranges: shapes from 1 (a layer, a head); every later key from 0 (= the feature is absent).
inline constexpr ModelKey kModelKeys[] = {
    int_key("num_layers", &ModelArch::num_layers, 1, 1024, true),
    int_key("hidden", &ModelArch::hidden, 1, 131072, true),
    int_key("intermediate", &ModelArch::intermediate, 1, 1048576, true),
    int_key("heads", &ModelArch::heads, 1, 1024, true),
    int_key("kv_heads", &ModelArch::kv_heads, 1, 1024, true),
    int_key("head_dim", &ModelArch::head_dim, 1, 4096, true),
    int_key("vocab", &ModelArch::vocab, 1, 4194304, true),
    bool_key("tied_embeddings", &ModelArch::tied_embeddings, false, true),
    int_key("experts", &ModelArch::experts, 1, 1024, true, 1),
    int_key("experts_per_token", &ModelArch::experts_per_token, 1, 1024, true, 1),
    bool_key("qkv_bias", &ModelArch::qkv_bias, false, true),
    int_key("shared_experts", &ModelArch::shared_experts, 0, 64),
    int_key("first_dense_layers", &ModelArch::first_dense_layers, 0, 1024),
    int_key("dense_intermediate", &ModelArch::dense_intermediate, 0, 1048576),
    int_key("kv_lora_rank", &ModelArch::kv_lora_rank, 0, 65536),
    int_key("q_lora_rank", &ModelArch::q_lora_rank, 0, 65536),
    int_key("qk_rope_head_dim", &ModelArch::qk_rope_head_dim, 0, 4096),
    int_key("qk_nope_head_dim", &ModelArch::qk_nope_head_dim, 0, 4096),
    int_key("v_head_dim", &ModelArch::v_head_dim, 0, 4096),
    bool_key("gated_mlp", &ModelArch::gated_mlp, true),
    bool_key("mlp_bias", &ModelArch::mlp_bias),
    bool_key("qk_norm", &ModelArch::qk_norm),
    bool_key("router_bias", &ModelArch::router_bias),
    bool_key("quantized_experts_only", &ModelArch::quantized_experts_only),
    int_key("mtp_modules", &ModelArch::mtp_modules, 0, 16),
    int_key("sliding_window", &ModelArch::sliding_window, 0, 1 << 24),
    int_key("sliding_window_layers", &ModelArch::sliding_window_layers, 0, 1024),
    int_key("linear_attention_layers", &ModelArch::linear_attention_layers, 0, 1024),
    int_key("linear_num_key_heads", &ModelArch::linear_num_key_heads, 0, 1024),
    int_key("linear_num_value_heads", &ModelArch::linear_num_value_heads, 0, 1024),
    int_key("linear_key_head_dim", &ModelArch::linear_key_head_dim, 0, 4096),
    int_key("linear_value_head_dim", &ModelArch::linear_value_head_dim, 0, 4096),
    int_key("linear_conv_kernel", &ModelArch::linear_conv_kernel, 0, 64),
    bool_key("attn_output_gate", &ModelArch::attn_output_gate),
    int_key("index_n_heads", &ModelArch::index_n_heads, 0, 1024),
    int_key("index_head_dim", &ModelArch::index_head_dim, 0, 4096),
    int_key("index_topk", &ModelArch::index_topk, 0, 1 << 24),
    bool_key("shared_kv", &ModelArch::shared_kv),
    int_key("compressed_sparse_layers", &ModelArch::compressed_sparse_layers, 0, 1024),
    int_key("heavily_compressed_layers", &ModelArch::heavily_compressed_layers, 0, 1024),
    int_key("hca_ratio", &ModelArch::hca_ratio, 0, 65536),
    int_key("o_lora_rank", &ModelArch::o_lora_rank, 0, 65536),
    int_key("o_groups", &ModelArch::o_groups, 0, 1024),
    int_key("hc_mult", &ModelArch::hc_mult, 0, 16),
    int_key("max_position_embeddings", &ModelArch::max_position_embeddings, 0, 1 << 27),
};

// Whether two models have one architecture: every key of the table equal (names, released
// dtypes and tokenizers aside). DeepSeek-R1 and DeepSeek-V3 are one set of shapes, so one cost.
inline bool same_architecture(const ModelArch& a, const ModelArch& b) {
  for (const ModelKey& k : kModelKeys) {
    const bool equal =
        k.int_member ? a.*k.int_member == b.*k.int_member : a.*k.bool_member == b.*k.bool_member;
    if (!equal) return false;
  }
  return true;
}

}  // namespace speccalc
