#include "config/hf_config.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "config/json_fields.hpp"

namespace speccalc {

using fields::json;

namespace {

// The config.json key each ModelArch field comes from, per model_type (transformers'
// configuration_<type>.py names; DeepSeek-V3's configuration_deepseek.py):
//   num_layers num_hidden_layers        hidden     hidden_size       heads num_attention_heads
//   kv_heads   num_key_value_heads (default heads)  head_dim   head_dim (default hidden / heads;
//   MLA: qk_nope_head_dim + qk_rope_head_dim)       vocab      vocab_size
//   intermediate  intermediate_size (dense, mixtral, gpt_oss: per expert) or moe_intermediate_size
//   experts    num_local_experts (mixtral, gpt_oss), num_experts (qwen3_moe), n_routed_experts
//              (deepseek_v3, glm4_moe)          experts_per_token num_experts_per_tok
//   shared_experts n_shared_experts   first_dense_layers first_k_dense_replace
//   dense_intermediate intermediate_size of those dense layers   mtp_modules
//   num_nextn_predict_layers qkv_bias   attention_bias (qwen2: always true, modeling_qwen2.py q/k/v
//   Linear bias=True) qk_norm    qwen3 / qwen3_moe / gemma3 always (q_norm, k_norm); glm4_moe
//   use_qk_norm router_bias deepseek_v3 / glm4_moe (e_score_correction_bias), gpt_oss (router.bias)
struct TypeSpec {
  const char* model_type;
  enum Moe { dense, mixtral, qwen3_moe, deepseek, gpt_oss, llama4, minimax, qwen3_next } moe;
  bool mla;
  bool qkv_bias_always;
  bool qk_norm_always;
  bool tied_default;
};

const TypeSpec kTypes[] = {
    {"llama", TypeSpec::dense, false, false, false, false},
    {"mistral", TypeSpec::dense, false, false, false, false},
    {"qwen2", TypeSpec::dense, false, true, false, false},
    {"qwen3", TypeSpec::dense, false, false, true, false},
    {"qwen3_moe", TypeSpec::qwen3_moe, false, false, true, false},
    // Hybrid Gated DeltaNet + gated softmax attention (transformers configuration_qwen3_next.py,
    // Qwen3.5's qwen3_5_text / qwen3_5_moe_text): q/k norms, linear_* keys, layer_types.
    {"qwen3_next", TypeSpec::qwen3_next, false, false, true, false},
    {"qwen3_5_moe_text", TypeSpec::qwen3_next, false, false, true, false},
    {"qwen3_5_text", TypeSpec::dense, false, false, true, false},
    {"mixtral", TypeSpec::mixtral, false, false, false, false},
    // MiniMax-M2 (configuration_minimax_m2.py): Mixtral-style experts with a routing bias, a q/k
    // norm (use_qk_norm, per layer: its weights are counted per head, a 0.0002 % difference)
    // and MTP modules (num_mtp_modules when use_mtp).
    {"minimax_m2", TypeSpec::minimax, false, false, false, false},
    {"deepseek_v3", TypeSpec::deepseek, true, false, false, false},
    // DeepSeek-V3.2 and GLM-5 (glm_moe_dsa): DeepSeek-V3's MLA and MoE plus DeepSeek Sparse
    // Attention's lightning indexer (index_n_heads, index_head_dim, index_topk).
    {"deepseek_v32", TypeSpec::deepseek, true, false, false, false},
    {"glm_moe_dsa", TypeSpec::deepseek, true, false, false, false},
    // Kimi-K2 publishes its own model_type over DeepSeek-V3's architecture (DeepseekV3ForCausalLM,
    // configuration_deepseek.py): the same keys, read the same way.
    {"kimi_k2", TypeSpec::deepseek, true, false, false, false},
    {"glm4_moe", TypeSpec::deepseek, false, false, false, false},
    // DeepSeek-V4 (vLLM deepseek_v4.py; transformers configuration_deepseek_v4.py): DeepSeek's
    // routed + shared experts (no dense layers, no intermediate_size) with compressed
    // attention read by read_v4_attention. Its first num_hash_layers route by a token-id table
    // and still run the router matmul: costed like the others. swiglu_limit, scoring_func and
    // the rope keys cost nothing; expert_dtype is left to the config's dtype.
    {"deepseek_v4", TypeSpec::deepseek, false, false, false, false},
    // MiniCPM3 (transformers configuration_minicpm3.py, whose defaults "match the
    // openbmb/MiniCPM3-4B checkpoint"): a dense Llama-style model with DeepSeek-V2's MLA
    // (q_lora_rank, kv_lora_rank, qk_nope/qk_rope_head_dim), v_head_dim hidden / heads when
    // absent, and a tied LM head (tie_word_embeddings defaults to true). Its muP scalars
    // (scale_emb, scale_depth, dim_model_base) multiply activations and cost nothing.
    {"minicpm3", TypeSpec::dense, true, false, false, true},
    {"gpt_oss", TypeSpec::gpt_oss, false, false, false, false},
    {"gemma3_text", TypeSpec::dense, false, false, true, true},
    // StarCoder2 (configuration_starcoder2.py / modeling_starcoder2.py): Llama's keys, a
    // two-matrix GELU MLP (c_fc, c_proj), use_bias on every linear layer (default true), tied
    // by default, sliding_window on every layer.
    {"starcoder2", TypeSpec::dense, false, false, false, true},
    // Llama-4's q/k norm (use_qk_norm) is an L2 norm without weights (modeling_llama4.py
    // Llama4TextL2Norm): nothing to count, so qk_norm stays off.
    {"llama4_text", TypeSpec::llama4, false, false, false, false},
};

bool present(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && !it->is_null();
}

// An integer key; null or absent leaves *out as it is. lo..hi as the custom model's limits.
bool int_key(const json& o, const char* key, const std::string& path, int64_t lo, int64_t hi,
             int64_t* out, Error* err) {
  if (!present(o, key)) return true;
  return fields::read_int(o, key, path, lo, hi, out, err);
}

bool required_int(const json& o, const char* key, const std::string& path, int64_t lo, int64_t hi,
                  int64_t* out, Error* err) {
  if (!present(o, key)) {
    *err = make_error(fields::join(path, key), "is required in a config.json");
    return false;
  }
  return fields::read_int(o, key, path, lo, hi, out, err);
}

bool bool_key(const json& o, const char* key, const std::string& path, bool* out, Error* err) {
  if (!present(o, key)) return true;
  return fields::read_bool(o, key, path, out, err);
}

Error not_modeled(const std::string& path, const char* key, const std::string& what) {
  return make_error(fields::join(path, key), what + " is not modeled");
}

// Qwen3-Next / Qwen3.5 hybrid layers: layer_types lists linear_attention and full_attention
// layers (or, without it, every full_attention_interval-th layer is full); the Gated DeltaNet
// widths come from the linear_* keys; attn_output_gate gates the softmax layers' output
// (default true in Qwen3NextConfig); the MTP layers from mtp_num_hidden_layers (Qwen3.5).
// Qwen3-Next's released config.json names no MTP key although the release ships one mtp.* layer:
// vLLM's qwen3_next_mtp.py reads getattr(config, "num_nextn_predict_layers", 1), and so does this.
bool read_linear_attention(const json& o, const std::string& path, bool qwen3_next, ModelArch* m,
                           Error* err) {
  int64_t linear = 0;
  if (present(o, "layer_types")) {
    const json& types = o["layer_types"];
    if (!types.is_array() || static_cast<int64_t>(types.size()) != m->num_layers) {
      *err = make_error(fields::join(path, "layer_types"),
                        "must list one type per layer (" + std::to_string(m->num_layers) + ")");
      return false;
    }
    for (const auto& v : types) {
      if (v == "linear_attention") {
        ++linear;
      } else if (v != "full_attention") {
        *err = not_modeled(path, "layer_types",
                           v.is_string() ? "'" + fields::excerpt(v.get<std::string>()) +
                                               "' layers (only linear_attention and "
                                               "full_attention are read here)"
                                         : std::string("a non-string layer type"));
        return false;
      }
    }
  } else {
    int64_t interval = 4;
    if (!int_key(o, "full_attention_interval", path, 1, 1024, &interval, err)) return false;
    linear = m->num_layers - m->num_layers / interval;
  }
  if (linear >= m->num_layers) {
    *err = not_modeled(path, "layer_types", "a model without a softmax-attention layer");
    return false;
  }
  m->linear_attention_layers = linear;
  if (linear > 0 &&
      (!required_int(o, "linear_num_key_heads", path, 1, 1024, &m->linear_num_key_heads, err) ||
       !required_int(o, "linear_num_value_heads", path, 1, 1024, &m->linear_num_value_heads, err) ||
       !required_int(o, "linear_key_head_dim", path, 1, 4096, &m->linear_key_head_dim, err) ||
       !required_int(o, "linear_value_head_dim", path, 1, 4096, &m->linear_value_head_dim, err)))
    return false;
  if (linear > 0 && m->linear_num_value_heads % m->linear_num_key_heads != 0) {
    *err = make_error(fields::join(path, "linear_num_value_heads"),
                      "must be a multiple of linear_num_key_heads (" +
                          std::to_string(m->linear_num_key_heads) + ")");
    return false;
  }
  m->linear_conv_kernel = linear > 0 ? 4 : 0;  // Qwen3NextConfig's default linear_conv_kernel_dim
  if (linear > 0 && !int_key(o, "linear_conv_kernel_dim", path, 1, 64, &m->linear_conv_kernel, err))
    return false;
  m->attn_output_gate = true;
  if (!bool_key(o, "attn_output_gate", path, &m->attn_output_gate, err)) return false;
  if (!qwen3_next) return int_key(o, "mtp_num_hidden_layers", path, 0, 16, &m->mtp_modules, err);
  m->mtp_modules = 1;
  return int_key(o, "num_nextn_predict_layers", path, 0, 16, &m->mtp_modules, err);
}

// Llama-4's chunked attention (modeling_llama4.py): RoPE layers attend within chunks of
// attention_chunk_size tokens, the NoPE layers (no_rope_layers[i] == 0; by default every
// no_rope_layer_interval-th layer, 4) over the whole context. A chunked layer keeps at most one
// chunk of keys, so it is carried as a window of attention_chunk_size (its upper bound: a token
// late in a chunk sees the chunk so far).
bool read_chunked_attention(const json& o, const std::string& path, ModelArch* m, Error* err) {
  if (!present(o, "attention_chunk_size")) return true;
  int64_t chunked = 0;
  if (present(o, "no_rope_layers")) {
    const json& flags = o["no_rope_layers"];
    if (!flags.is_array() || static_cast<int64_t>(flags.size()) != m->num_layers) {
      *err = make_error(fields::join(path, "no_rope_layers"),
                        "must list one 0/1 flag per layer (" + std::to_string(m->num_layers) + ")");
      return false;
    }
    for (const auto& v : flags) {
      if (v != 0 && v != 1) {
        *err = make_error(fields::join(path, "no_rope_layers"), "must hold only 0 and 1");
        return false;
      }
      chunked += v == 1 ? 1 : 0;
    }
  } else {
    int64_t interval = 4;
    if (!int_key(o, "no_rope_layer_interval", path, 1, 1024, &interval, err)) return false;
    chunked = m->num_layers - m->num_layers / interval;
  }
  if (!fields::read_int(o, "attention_chunk_size", path, 1, 1 << 24, &m->sliding_window, err))
    return false;
  m->sliding_window_layers = chunked;
  if (chunked == 0) m->sliding_window = 0;
  return true;
}

// Sliding-window attention: the window and how many layers use it (layer_types, Gemma-3's
// sliding_window_pattern, Qwen2's use_sliding_window + max_window_layers, or every layer).
bool read_sliding_window(const json& o, const std::string& path, const TypeSpec& t, ModelArch* m,
                         Error* err) {
  if (t.moe == TypeSpec::llama4) return read_chunked_attention(o, path, m, err);
  if (std::string(t.model_type).rfind("qwen3_next", 0) == 0 ||
      std::string(t.model_type).rfind("qwen3_5", 0) == 0)
    return read_linear_attention(o, path, std::string(t.model_type) == "qwen3_next", m, err);
  if (present(o, "layer_types")) {
    const json& types = o["layer_types"];
    if (!types.is_array() || static_cast<int64_t>(types.size()) != m->num_layers) {
      *err = make_error(fields::join(path, "layer_types"),
                        "must list one type per layer (" + std::to_string(m->num_layers) + ")");
      return false;
    }
    int64_t sliding = 0;
    for (const auto& v : types) {
      if (v == "sliding_attention") {
        ++sliding;
      } else if (v != "full_attention") {
        *err = not_modeled(path, "layer_types",
                           v.is_string() ? "'" + fields::excerpt(v.get<std::string>()) +
                                               "' layers (only full_attention and "
                                               "sliding_attention are read)"
                                         : std::string("a non-string layer type"));
        return false;
      }
    }
    if (sliding > 0 && !present(o, "sliding_window")) {
      *err = make_error(fields::join(path, "sliding_window"),
                        "is required when layer_types has sliding_attention layers");
      return false;
    }
    m->sliding_window_layers = sliding;
  }
  if (!present(o, "sliding_window")) return true;
  // Qwen2/Qwen3 publish a sliding_window that is off unless use_sliding_window is true.
  if (std::string(t.model_type).rfind("qwen", 0) == 0) {
    bool use = false;
    if (!bool_key(o, "use_sliding_window", path, &use, err)) return false;
    if (!use) return true;
    int64_t full = m->num_layers;
    if (!int_key(o, "max_window_layers", path, 0, m->num_layers, &full, err)) return false;
    m->sliding_window_layers = m->num_layers - full;
  } else if (!present(o, "layer_types")) {
    // Gemma-3: every pattern-th layer is global (Gemma3TextConfig's default 6 when the key is
    // left out, as in Gemma-3 27B's config.json); other types: every layer slides.
    int64_t pattern = std::string(t.model_type) == "gemma3_text" ? 6 : 0;
    if (!int_key(o, "sliding_window_pattern", path, 1, 1024, &pattern, err)) return false;
    m->sliding_window_layers =
        pattern > 0 ? m->num_layers - m->num_layers / pattern : m->num_layers;
  }
  if (!fields::read_int(o, "sliding_window", path, 1, 1 << 24, &m->sliding_window, err))
    return false;
  if (m->sliding_window_layers == 0) m->sliding_window = 0;
  return true;
}

// Qwen3-MoE's experts (also Qwen3-Next's and Qwen3.5's): num_experts of moe_intermediate_size,
// top num_experts_per_tok, on every layer (decoder_sparse_step 1, no mlp_only_layers).
bool read_qwen_experts(const json& o, const std::string& path, ModelArch* m, Error* err) {
  if (!required_int(o, "num_experts", path, 1, 1024, &m->experts, err) ||
      !required_int(o, "num_experts_per_tok", path, 1, 1024, &m->experts_per_token, err) ||
      !required_int(o, "moe_intermediate_size", path, 1, 1048576, &m->intermediate, err))
    return false;
  int64_t step = 1;
  if (!int_key(o, "decoder_sparse_step", path, 1, 1024, &step, err)) return false;
  if (step != 1) {
    *err = not_modeled(path, "decoder_sparse_step",
                       "a dense layer every " + std::to_string(step) + " layers");
    return false;
  }
  if (present(o, "mlp_only_layers") &&
      !(o["mlp_only_layers"].is_array() && o["mlp_only_layers"].empty())) {
    *err = not_modeled(path, "mlp_only_layers", "dense layers among the MoE layers");
    return false;
  }
  return true;
}

bool read_moe(const json& o, const std::string& path, const TypeSpec& t, ModelArch* m, Error* err) {
  switch (t.moe) {
    case TypeSpec::dense:
      return true;
    case TypeSpec::minimax: {
      if (!required_int(o, "num_local_experts", path, 1, 1024, &m->experts, err) ||
          !required_int(o, "num_experts_per_tok", path, 1, 1024, &m->experts_per_token, err) ||
          !bool_key(o, "use_routing_bias", path, &m->router_bias, err) ||
          !bool_key(o, "use_qk_norm", path, &m->qk_norm, err))
        return false;
      int64_t shared = 0;
      if (!int_key(o, "shared_intermediate_size", path, 0, 1048576, &shared, err)) return false;
      if (shared > 0) {
        *err = not_modeled(path, "shared_intermediate_size", "a shared expert of its own width");
        return false;
      }
      bool mtp = false;
      if (!bool_key(o, "use_mtp", path, &mtp, err)) return false;
      if (mtp && !int_key(o, "num_mtp_modules", path, 0, 16, &m->mtp_modules, err)) return false;
      return true;
    }
    case TypeSpec::mixtral:
    case TypeSpec::gpt_oss: {
      if (!required_int(o, "num_local_experts", path, 1, 1024, &m->experts, err)) return false;
      const char* topk =
          present(o, "num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
      if (!required_int(o, topk, path, 1, 1024, &m->experts_per_token, err)) return false;
      m->router_bias = t.moe == TypeSpec::gpt_oss;
      return true;
    }
    case TypeSpec::qwen3_moe:
      return read_qwen_experts(o, path, m, err);
    case TypeSpec::qwen3_next: {
      // Qwen3-Next / Qwen3.5-MoE: routed experts of moe_intermediate_size plus one shared expert
      // of shared_expert_intermediate_size (Qwen3NextSparseMoeBlock.shared_expert, gated);
      // carried as shared_experts = 1 when the widths agree (they do in every published config).
      if (!read_qwen_experts(o, path, m, err)) return false;
      int64_t shared = 0;
      if (!int_key(o, "shared_expert_intermediate_size", path, 0, 1048576, &shared, err))
        return false;
      if (shared != 0 && shared != m->intermediate) {
        *err = not_modeled(path, "shared_expert_intermediate_size",
                           "a shared expert wider or narrower than the routed ones (" +
                               std::to_string(m->intermediate) + ")");
        return false;
      }
      m->shared_experts = shared > 0 ? 1 : 0;
      return true;
    }
    case TypeSpec::llama4: {
      // transformers configuration_llama4.py / modeling_llama4.py: MoE layers hold
      // num_local_experts routed experts of intermediate_size plus one shared expert of the same
      // width (Llama4TextMoe.shared_expert); the other layers a dense MLP of
      // intermediate_size_mlp. moe_layers defaults to every interleave_moe_layer_step-th layer
      // (range(step - 1, layers, step)). Only the count of dense layers enters the cost, so they
      // are carried as first_dense_layers wherever they sit.
      if (!required_int(o, "num_local_experts", path, 1, 1024, &m->experts, err) ||
          !required_int(o, "num_experts_per_tok", path, 1, 1024, &m->experts_per_token, err))
        return false;
      int64_t moe_layers = 0;
      if (present(o, "moe_layers")) {
        const json& list = o["moe_layers"];
        if (!list.is_array()) {
          *err = make_error(fields::join(path, "moe_layers"), "must be a list of layer indices");
          return false;
        }
        std::vector<bool> seen(static_cast<size_t>(m->num_layers), false);
        for (const auto& v : list) {
          if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= m->num_layers ||
              seen[static_cast<size_t>(v.get<int64_t>())]) {
            *err = make_error(fields::join(path, "moe_layers"),
                              "must list distinct layer indices below num_hidden_layers (" +
                                  std::to_string(m->num_layers) + ")");
            return false;
          }
          seen[static_cast<size_t>(v.get<int64_t>())] = true;
          ++moe_layers;
        }
      } else {
        int64_t step = 1;
        if (!int_key(o, "interleave_moe_layer_step", path, 1, 1024, &step, err)) return false;
        moe_layers = m->num_layers / step;  // |range(step - 1, layers, step)|
      }
      m->first_dense_layers = m->num_layers - moe_layers;
      m->shared_experts = m->experts > 1 && moe_layers > 0 ? 1 : 0;
      if (m->first_dense_layers > 0 &&
          !required_int(o, "intermediate_size_mlp", path, 1, 1048576, &m->dense_intermediate, err))
        return false;
      return true;
    }
    case TypeSpec::deepseek: {
      m->dense_intermediate = m->intermediate;  // intermediate_size: the dense layers' MLP
      if (!required_int(o, "n_routed_experts", path, 1, 1024, &m->experts, err) ||
          !required_int(o, "num_experts_per_tok", path, 1, 1024, &m->experts_per_token, err) ||
          !required_int(o, "moe_intermediate_size", path, 1, 1048576, &m->intermediate, err) ||
          !int_key(o, "n_shared_experts", path, 0, 64, &m->shared_experts, err) ||
          !int_key(o, "first_k_dense_replace", path, 0, m->num_layers, &m->first_dense_layers,
                   err) ||
          !int_key(o, "num_nextn_predict_layers", path, 0, 16, &m->mtp_modules, err))
        return false;
      int64_t freq = 1;
      if (!int_key(o, "moe_layer_freq", path, 1, 1024, &freq, err)) return false;
      if (freq != 1) {
        *err = not_modeled(path, "moe_layer_freq",
                           "an MoE layer every " + std::to_string(freq) + " layers");
        return false;
      }
      if (m->first_dense_layers == 0) m->dense_intermediate = 0;
      m->router_bias = true;
      return true;
    }
  }
  return true;
}

// The lightning indexer reads MLA's q latent (wq_b), so a DSA model needs q_lora_rank > 0, as
// the model's own fields require (config.cpp): a config.json without it is refused here, never
// read into a model its normalized form could not parse back.
bool read_dsa(const json& o, const std::string& path, ModelArch* m, Error* err) {
  return required_int(o, "index_n_heads", path, 1, 1024, &m->index_n_heads, err) &&
         required_int(o, "index_head_dim", path, 1, 4096, &m->index_head_dim, err) &&
         required_int(o, "index_topk", path, 1, 1 << 24, &m->index_topk, err) &&
         required_int(o, "q_lora_rank", path, 1, 65536, &m->q_lora_rank, err);
}

// value_dim_default: MiniCPM3 leaves v_head_dim out of its config.json (hidden / heads, 64);
// DeepSeek's configs name it.
bool read_mla(const json& o, const std::string& path, bool value_dim_default, ModelArch* m,
              Error* err) {
  m->v_head_dim = m->hidden / m->heads;
  if (!required_int(o, "kv_lora_rank", path, 1, 65536, &m->kv_lora_rank, err) ||
      !int_key(o, "q_lora_rank", path, 0, 65536, &m->q_lora_rank, err) ||
      !required_int(o, "qk_rope_head_dim", path, 1, 4096, &m->qk_rope_head_dim, err) ||
      !required_int(o, "qk_nope_head_dim", path, 1, 4096, &m->qk_nope_head_dim, err) ||
      !(value_dim_default ? int_key(o, "v_head_dim", path, 1, 4096, &m->v_head_dim, err)
                          : required_int(o, "v_head_dim", path, 1, 4096, &m->v_head_dim, err)))
    return false;
  m->head_dim = m->qk_nope_head_dim + m->qk_rope_head_dim;
  return true;
}

// DeepSeek-V4's attention (presets.hpp): one key = value vector (num_key_value_heads 1) of
// head_dim, q through q_lora_rank, the output through o_groups x o_lora_rank, hc_mult
// residual streams, every layer a sliding_window, and per layer compress_ratios[i]: 0 or 1 the
// window alone (vLLM: max(1, ratio), no compressed cache at 1), 4 a sparse layer with the
// lightning indexer (index_*), any other ratio a heavily compressed layer (one such ratio
// modeled). The list's entries past num_hidden_layers are the MTP layer's (vLLM gives it
// ratio 1) and are not read.
bool read_v4_attention(const json& o, const std::string& path, ModelArch* m, Error* err) {
  if (m->kv_heads != 1) {
    *err = not_modeled(path, "num_key_value_heads",
                       "DeepSeek-V4 attention with " + std::to_string(m->kv_heads) +
                           " key = value heads (1 is read)");
    return false;
  }
  m->shared_kv = true;
  if (!required_int(o, "q_lora_rank", path, 1, 65536, &m->q_lora_rank, err) ||
      !required_int(o, "o_lora_rank", path, 1, 65536, &m->o_lora_rank, err) ||
      !required_int(o, "o_groups", path, 1, 1024, &m->o_groups, err) ||
      !int_key(o, "hc_mult", path, 0, 16, &m->hc_mult, err) ||
      !required_int(o, "sliding_window", path, 1, 1 << 24, &m->sliding_window, err))
    return false;
  if (!o_groups_divide_output(*m)) {
    *err = make_error(fields::join(path, "o_groups"),
                      "must divide num_attention_heads x head_dim (" +
                          std::to_string(m->heads * m->head_dim) + ")");
    return false;
  }
  m->sliding_window_layers = m->num_layers;
  const std::string key = fields::join(path, "compress_ratios");
  if (!present(o, "compress_ratios") || !o["compress_ratios"].is_array() ||
      static_cast<int64_t>(o["compress_ratios"].size()) < m->num_layers) {
    *err = make_error(key, "is required: one ratio per layer (" + std::to_string(m->num_layers) +
                               " or more entries)");
    return false;
  }
  for (int64_t i = 0; i < m->num_layers; ++i) {
    const json& r = o["compress_ratios"][static_cast<std::size_t>(i)];
    if (!r.is_number_integer() || r.get<int64_t>() < 0 || r.get<int64_t>() > 65536) {
      *err = make_error(key, "must hold integers from 0 to 65536");
      return false;
    }
    const int64_t ratio = r.get<int64_t>();
    if (ratio <= 1) continue;
    if (ratio == kCsaRatio) {
      ++m->compressed_sparse_layers;
    } else if (m->hca_ratio == 0 || m->hca_ratio == ratio) {
      m->hca_ratio = ratio;
      ++m->heavily_compressed_layers;
    } else {
      *err = not_modeled(path, "compress_ratios",
                         "more than one heavily compressed ratio (" + std::to_string(m->hca_ratio) +
                             " and " + std::to_string(ratio) + ")");
      return false;
    }
  }
  if (m->compressed_sparse_layers > 0 &&
      (!required_int(o, "index_n_heads", path, 1, 1024, &m->index_n_heads, err) ||
       !required_int(o, "index_head_dim", path, 1, 4096, &m->index_head_dim, err) ||
       !required_int(o, "index_topk", path, 1, 1 << 24, &m->index_topk, err)))
    return false;
  return true;
}

}  // namespace

// OPT (transformers configuration_opt.py / modeling_opt.py): multi-head attention with q, k, v and
// out biases (enable_bias, default true; q/k/v's are counted, as for every model, the out
// projection's is not), a plain two-matrix MLP (fc1 hidden -> ffn_dim, ReLU, fc2) with its biases,
// learned positions (max_position_embeddings + 2 rows, 0.1-1.3 % of the weights: not counted)
// and a tied LM head (OPTConfig's default). A word_embed_proj_dim other than hidden_size
// (OPT-350M) adds projections in and out that are not modeled. Its keys are not Llama's
// (ffn_dim), so it has this reader instead of a TypeSpec row.
bool read_opt(const json& o, const std::string& path, ModelArch* m, Error* err) {
  if (!required_int(o, "vocab_size", path, 1, 4194304, &m->vocab, err) ||
      !required_int(o, "num_hidden_layers", path, 1, 1024, &m->num_layers, err) ||
      !required_int(o, "hidden_size", path, 1, 131072, &m->hidden, err) ||
      !required_int(o, "num_attention_heads", path, 1, 1024, &m->heads, err) ||
      !required_int(o, "ffn_dim", path, 1, 1048576, &m->intermediate, err) ||
      !int_key(o, "max_position_embeddings", path, 1, 1 << 27, &m->max_position_embeddings, err))
    return false;
  int64_t projected = m->hidden;
  if (!int_key(o, "word_embed_proj_dim", path, 1, 131072, &projected, err)) return false;
  if (projected != m->hidden) {
    *err = not_modeled(path, "word_embed_proj_dim",
                       "an embedding width other than hidden_size (" + std::to_string(m->hidden) +
                           ": projections in and out)");
    return false;
  }
  if (m->hidden % m->heads != 0) {
    *err = make_error(fields::join(path, "num_attention_heads"),
                      "must divide hidden_size (" + std::to_string(m->hidden) + ")");
    return false;
  }
  m->kv_heads = m->heads;
  m->head_dim = m->hidden / m->heads;
  m->gated_mlp = false;
  m->qkv_bias = true;
  m->tied_embeddings = true;
  if (!bool_key(o, "enable_bias", path, &m->qkv_bias, err)) return false;
  m->mlp_bias = m->qkv_bias;  // enable_bias: every linear layer's bias
  return bool_key(o, "tie_word_embeddings", path, &m->tied_embeddings, err);
}

const char* hf_model_types() {
  return "llama, mistral, qwen2, qwen3, qwen3_moe, mixtral, deepseek_v3, kimi_k2, glm4_moe, opt, "
         "starcoder2, minicpm3, "
         "gpt_oss, minimax_m2, gemma3_text (or gemma3 with a text_config), llama4_text (or llama4 "
         "with a text_config), mistral3 with a mistral text_config, kimi_k25 with a kimi_k2 "
         "text_config, qwen3_next, qwen3_5_text and qwen3_5_moe_text (or qwen3_5 / qwen3_5_moe "
         "with a text_config), deepseek_v32, glm_moe_dsa, deepseek_v4";
}

bool is_hf_config(const json& obj) { return obj.is_object() && obj.contains("model_type"); }

// quantization_config, as the checkpoint was published: quant_method "fp8" or "mxfp4" is the
// dtype its weights are released in (DeepSeek-V3: fp8, block-wise e4m3; gpt-oss: mxfp4), and a
// MoE model whose modules_to_not_convert keeps attention unquantized ("model.layers.*.self_attn",
// gpt-oss) quantizes its experts only. Other methods (gptq, awq, ...) open at 16 bits as before.
void read_quantization(const json& outer, ModelArch* m) {
  auto q = outer.find("quantization_config");
  if (q == outer.end() || !q->is_object()) return;
  auto method = q->find("quant_method");
  if (method != q->end() && method->is_string()) {
    const std::string name = method->get<std::string>();
    if (name == "fp8" || name == "mxfp4") {
      m->released_weights_dtype = name;
      m->released_dtype_source = "its config.json quantization_config quant_method " + name;
    }
  }
  auto kept = q->find("modules_to_not_convert");
  if (m->experts > 1 && kept != q->end() && kept->is_array())
    for (const json& k : *kept)
      if (k.is_string() && k.get<std::string>().find("self_attn") != std::string::npos)
        m->quantized_experts_only = true;
}

bool model_from_hf_config(const json& outer, const std::string& outer_path, ModelArch* m,
                          Error* err) {
  std::string type;
  if (!fields::read_string(outer, "model_type", outer_path, &type, err, 64)) return false;
  // Multimodal wrappers keep the language model in text_config (Gemma-3 4B and up, Llama-4,
  // Mistral-Small-3.1, Kimi-K2.5, Qwen3.5); the vision tower is not costed.
  const char* inner = type == "gemma3"        ? "gemma3_text"
                      : type == "llama4"      ? "llama4_text"
                      : type == "mistral3"    ? "mistral"
                      : type == "kimi_k25"    ? "kimi_k2"
                      : type == "qwen3_5"     ? "qwen3_5_text"
                      : type == "qwen3_5_moe" ? "qwen3_5_moe_text"
                                              : nullptr;
  const bool wrapped = inner && outer.contains("text_config");
  const json& o = wrapped ? outer["text_config"] : outer;
  const std::string path = wrapped ? fields::join(outer_path, "text_config") : outer_path;
  if (wrapped) {
    if (!o.is_object()) {
      *err = make_error(path, "must be an object");
      return false;
    }
    type = inner;
  }
  const TypeSpec* t = nullptr;
  for (const auto& s : kTypes)
    if (type == s.model_type) t = &s;
  if (!t && type != "opt") {  // OPT: read_opt below
    *err =
        make_error(fields::join(outer_path, "model_type"),
                   "'" + fields::excerpt(type) + "' is not read; supported: " + hf_model_types());
    return false;
  }
  *m = ModelArch{};
  m->id = "custom";
  m->name = type;
  // The name the checkpoint was saved under, when the config.json carries it.
  if (present(outer, "_name_or_path") && outer["_name_or_path"].is_string()) {
    const std::string n = outer["_name_or_path"].get<std::string>();
    if (!n.empty() && n.size() <= 64 && fields::valid_utf8(n)) m->name = n;
  }
  if (type == "opt") return read_opt(o, path, m, err);
  // A published config.json leaves out keys at their class defaults: Gemma-3 27B's text_config
  // has no vocab_size (transformers configuration_gemma3.py Gemma3TextConfig: vocab_size
  // 262_208).
  if (t->moe == TypeSpec::dense && type == "gemma3_text" && !present(o, "vocab_size"))
    m->vocab = 262208;
  else if (!required_int(o, "vocab_size", path, 1, 4194304, &m->vocab, err))
    return false;
  if (!required_int(o, "num_hidden_layers", path, 1, 1024, &m->num_layers, err) ||
      !required_int(o, "hidden_size", path, 1, 131072, &m->hidden, err) ||
      !required_int(o, "num_attention_heads", path, 1, 1024, &m->heads, err))
    return false;
  // Qwen3.5-MoE and DeepSeek-V4 publish only the experts' widths (moe_intermediate_size,
  // read below).
  if (t->moe == TypeSpec::qwen3_next || type == "deepseek_v4"
          ? !int_key(o, "intermediate_size", path, 1, 1048576, &m->intermediate, err)
          : !required_int(o, "intermediate_size", path, 1, 1048576, &m->intermediate, err))
    return false;
  m->kv_heads = m->heads;
  if (!int_key(o, "num_key_value_heads", path, 1, 1024, &m->kv_heads, err)) return false;
  if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
    *err = make_error(fields::join(path, "num_key_value_heads"),
                      "must divide num_attention_heads (" + std::to_string(m->heads) + ")");
    return false;
  }
  if (present(o, "head_dim")) {
    if (!fields::read_int(o, "head_dim", path, 1, 4096, &m->head_dim, err)) return false;
  } else if (m->hidden % m->heads != 0) {
    *err = make_error(fields::join(path, "head_dim"),
                      "is required when hidden_size is not a multiple of num_attention_heads");
    return false;
  } else {
    m->head_dim = m->hidden / m->heads;
  }
  m->tied_embeddings = t->tied_default;
  // tie_word_embeddings sits on the outer config of a wrapped model.
  if (!bool_key(outer, "tie_word_embeddings", outer_path, &m->tied_embeddings, err)) return false;
  m->qkv_bias = t->qkv_bias_always;
  if (type == "starcoder2") {
    m->gated_mlp = false;
    m->qkv_bias = true;
    if (!bool_key(o, "use_bias", path, &m->qkv_bias, err)) return false;
    m->mlp_bias = m->qkv_bias;
  } else if (!t->qkv_bias_always && !bool_key(o, "attention_bias", path, &m->qkv_bias, err)) {
    return false;
  }
  m->qk_norm = t->qk_norm_always;
  if (type == "glm4_moe" && !bool_key(o, "use_qk_norm", path, &m->qk_norm, err)) return false;
  if (!bool_key(o, "mlp_bias", path, &m->mlp_bias, err)) return false;
  // The longest context it is configured for; Gemma-3 27B's text_config leaves it at
  // Gemma3TextConfig's default, 131072 (transformers configuration_gemma3.py).
  if (type == "gemma3_text" && !present(o, "max_position_embeddings"))
    m->max_position_embeddings = 131072;
  else if (!int_key(o, "max_position_embeddings", path, 1, 1 << 27, &m->max_position_embeddings,
                    err))
    return false;
  if (t->mla && !read_mla(o, path, type == "minicpm3", m, err)) return false;
  if (type == "deepseek_v4" && !read_v4_attention(o, path, m, err)) return false;
  if ((type == "deepseek_v32" || type == "glm_moe_dsa") && !read_dsa(o, path, m, err)) return false;
  if (!read_moe(o, path, *t, m, err)) return false;
  if (m->experts_per_token > m->experts) {
    *err = make_error(fields::join(path, "num_experts_per_tok"),
                      "must not exceed the number of experts (" + std::to_string(m->experts) + ")");
    return false;
  }
  read_quantization(outer, m);
  return read_sliding_window(o, path, *t, m, err);
}

}  // namespace speccalc
