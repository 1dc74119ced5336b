#include "speccalc/config.hpp"

#include "config/acceptance_tau.hpp"
#include "speccalc/tree_optimize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "api/commands.hpp"
#include "api/json_write.hpp"
#include "config/acceptance_parse.hpp"
#include "config/config_json.hpp"
#include "config/families.hpp"
#include "config/hf_config.hpp"
#include "config/json_fields.hpp"
#include "config/load_parse.hpp"
#include "config/method_parse.hpp"
#include "config/tree_input.hpp"
#include "data/model_keys.hpp"
#include "engines/mlx_chip_kernels.hpp"
#include "speccalc/tree.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc {

using fields::json;

namespace {

// ---- target -------------------------------------------------------------------------------

// DeepSeek-V4's compressed attention keys (presets.hpp): what the cost model needs of them,
// refused with the key named otherwise.
bool check_compressed_attention(const json& obj, const std::string& path, const ModelArch* m,
                                Error* err) {
  const auto fail = [&](const char* key, const std::string& why) {
    *err = make_error(fields::join(path, key), why);
    return false;
  };
  if (!m->shared_kv) {
    for (const char* key : {"compressed_sparse_layers", "heavily_compressed_layers", "hca_ratio",
                            "o_lora_rank", "o_groups", "hc_mult"})
      if (obj.contains(key) && obj[key] != 0)
        return fail(key, "is modeled only with DeepSeek-V4's attention (shared_kv true)");
    return true;
  }
  if (m->kv_lora_rank > 0) return fail("kv_lora_rank", "must be 0 with shared_kv (not MLA)");
  if (m->kv_heads != 1)
    return fail("kv_heads", "must be 1 with shared_kv (one key = value vector a token)");
  if (m->hc_mult == 1) return fail("hc_mult", "must be 0 (none) or 2 and up (residual streams)");
  if ((m->o_lora_rank > 0) != (m->o_groups > 0))
    return fail(m->o_lora_rank > 0 ? "o_groups" : "o_lora_rank",
                "is required (> 0) with the other grouped-output key");
  if (!o_groups_divide_output(*m))
    return fail("o_groups",
                "must divide heads x head_dim (" + std::to_string(m->heads * m->head_dim) + ")");
  if (m->heavily_compressed_layers == 0 && m->hca_ratio != 0)
    return fail("hca_ratio", "is modeled only with heavily_compressed_layers > 0");
  if (!compressed_attention(*m)) return true;
  if (m->compressed_sparse_layers + m->heavily_compressed_layers > m->num_layers)
    return fail("heavily_compressed_layers",
                "with compressed_sparse_layers must not exceed num_layers (" +
                    std::to_string(m->num_layers) + ")");
  if (m->sliding_window == 0 || m->sliding_window_layers != m->num_layers)
    return fail(m->sliding_window == 0 ? "sliding_window" : "sliding_window_layers",
                "is required with compressed attention: every layer attends its window "
                "(sliding_window > 0, sliding_window_layers = num_layers)");
  if (m->compressed_sparse_layers > 0)
    for (const char* key : {"index_n_heads", "index_head_dim", "index_topk", "q_lora_rank"})
      if (!obj.contains(key) || obj[key] == 0)
        return fail(key, "is required (> 0) when compressed_sparse_layers > 0 (its indexer)");
  if (m->heavily_compressed_layers > 0 && m->hca_ratio < 2)
    return fail("hca_ratio", "is required (> 1) when heavily_compressed_layers > 0");
  return true;
}

// Every numeric and boolean key of a custom model (data/model_keys.hpp), with its range.
bool read_model_keys(const json& obj, const std::string& path, ModelArch* m, Error* err) {
  for (const ModelKey& k : kModelKeys) {
    const bool ok = k.int_member
                        ? fields::read_int(obj, k.key, path, k.min, k.max, &(m->*k.int_member), err)
                        : fields::read_bool(obj, k.key, path, &(m->*k.bool_member), err);
    if (!ok) return false;
  }
  return true;
}

// The MoE, MLA, MTP and attention keys of a custom model, read: what they require of each other.
bool check_custom_model_extras(const json& obj, const std::string& path, ModelArch* m, Error* err) {
  if (!check_compressed_attention(obj, path, m, err)) return false;
  if (m->index_topk > 0 && !m->shared_kv) {
    // DSA's indexer reads the q latent (wq_b) and sits beside MLA's latent cache.
    for (const char* key : {"index_n_heads", "index_head_dim", "kv_lora_rank", "q_lora_rank"}) {
      if (!obj.contains(key) || obj[key] == 0) {
        *err = make_error(fields::join(path, key),
                          "is required (> 0) when index_topk > 0 (DeepSeek Sparse Attention)");
        return false;
      }
    }
  }
  if (m->linear_attention_layers >= m->num_layers && m->linear_attention_layers > 0) {
    *err = make_error(fields::join(path, "linear_attention_layers"),
                      "must leave at least one softmax-attention layer (below num_layers, " +
                          std::to_string(m->num_layers) + ")");
    return false;
  }
  if (m->linear_attention_layers > 0) {
    // A Gated DeltaNet needs its head counts and widths (and its conv taps).
    for (const char* key : {"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                            "linear_value_head_dim", "linear_conv_kernel"}) {
      if (!obj.contains(key) || obj[key] == 0) {
        *err = make_error(fields::join(path, key),
                          "is required (> 0) when linear_attention_layers > 0");
        return false;
      }
    }
    if (m->linear_num_value_heads % m->linear_num_key_heads != 0) {
      *err = make_error(fields::join(path, "linear_num_value_heads"),
                        "must be a multiple of linear_num_key_heads (" +
                            std::to_string(m->linear_num_key_heads) + ")");
      return false;
    }
  }
  if (m->sliding_window_layers > m->num_layers) {
    *err = make_error(fields::join(path, "sliding_window_layers"),
                      "must not exceed num_layers (" + std::to_string(m->num_layers) + ")");
    return false;
  }
  if ((m->sliding_window > 0) != (m->sliding_window_layers > 0)) {
    *err = make_error(
        fields::join(path, m->sliding_window > 0 ? "sliding_window_layers" : "sliding_window"),
        "is required (> 0) with the other sliding-window key");
    return false;
  }
  if (m->first_dense_layers > m->num_layers) {
    *err = make_error(fields::join(path, "first_dense_layers"),
                      "must not exceed num_layers (" + std::to_string(m->num_layers) + ")");
    return false;
  }
  if (m->first_dense_layers > 0 && m->dense_intermediate == 0) {
    *err = make_error(fields::join(path, "dense_intermediate"),
                      "is required when first_dense_layers > 0");
    return false;
  }
  if (m->kv_lora_rank > 0) {
    // MLA: the q/k head is nope + rope wide; head_dim must agree so attention work matches.
    for (const char* key : {"qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"}) {
      if (!obj.contains(key)) {
        *err = make_error(fields::join(path, key), "is required when kv_lora_rank > 0 (MLA)");
        return false;
      }
    }
    const int64_t qk_head = m->qk_nope_head_dim + m->qk_rope_head_dim;
    if (obj.contains("head_dim") && m->head_dim != qk_head) {
      *err = make_error(fields::join(path, "head_dim"),
                        "must equal qk_nope_head_dim + qk_rope_head_dim (" +
                            std::to_string(qk_head) + ") for an MLA model");
      return false;
    }
    m->head_dim = qk_head;
  }
  return true;
}

bool parse_custom_model(const json& obj, const std::string& path, ModelArch* m, Error* err) {
  std::vector<const char*> allowed{"name", "released_dtype"};
  for (const ModelKey& k : kModelKeys) allowed.push_back(k.key);
  if (!fields::check_keys(obj, path, allowed, err)) return false;
  // The dtype its weights are released in (a config without dtype opens in it).
  if (!fields::read_string(obj, "released_dtype", path, &m->released_weights_dtype, err, 8))
    return false;
  DType released = DType::fp16;
  if (!m->released_weights_dtype.empty() &&
      !dtype_from_name(m->released_weights_dtype, &released)) {
    *err = make_error(fields::join(path, "released_dtype"), "must be one of: " + dtype_names());
    return false;
  }
  for (const char* required : {"num_layers", "hidden", "intermediate", "heads", "vocab"}) {
    if (!obj.contains(required)) {
      *err = make_error(fields::join(path, required), "is required for a custom model");
      return false;
    }
  }
  m->id = "custom";
  m->name = "custom";
  m->kv_heads = 0;
  m->head_dim = 0;
  if (!fields::read_string(obj, "name", path, &m->name, err, 64) ||
      !read_model_keys(obj, path, m, err) || !check_custom_model_extras(obj, path, m, err))
    return false;
  if (m->kv_heads == 0) m->kv_heads = m->heads;
  if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
    *err = make_error(fields::join(path, "kv_heads"),
                      "must divide heads (" + std::to_string(m->heads) + ")");
    return false;
  }
  if (m->head_dim == 0) {
    if (m->hidden % m->heads != 0) {
      *err = make_error(fields::join(path, "head_dim"),
                        "is required when hidden is not a multiple of heads");
      return false;
    }
    m->head_dim = m->hidden / m->heads;
  }
  if (m->experts_per_token > m->experts) {
    *err = make_error(fields::join(path, "experts_per_token"),
                      "must not exceed experts (" + std::to_string(m->experts) + ")");
    return false;
  }
  return true;
}

bool parse_target(const json& doc, const Catalog& catalog, Config* c, Error* err) {
  auto it = doc.find("target");
  // An omitted target is the default preset, looked up like a given id (never dereferenced
  // unchecked: a catalog without it is an error naming the field).
  if (it == doc.end() || it->is_string()) {
    const ModelArch* m =
        catalog.find_target(it == doc.end() ? "llama2-chat-7b" : it->get<std::string>());
    if (!m) {
      *err = make_error("target", "unknown model preset; known: " + target_ids(catalog));
      return false;
    }
    c->target = *m;
    return true;
  }
  if (it->is_object()) {
    c->target_preset = false;
    return parse_model_object(*it, "target", &c->target, err);
  }
  *err =
      make_error("target", "must be a preset id or an object, got " + fields::describe_type(*it));
  return false;
}

// ---- hardware -----------------------------------------------------------------------------

// A custom device's vendor (engines that run on one vendor's hardware check it): NVIDIA unless
// given; CPU for a processor without a GPU (llama.cpp's CPU engine).
bool read_vendor(const json& obj, const std::string& path, std::string* vendor, Error* err) {
  if (!obj.contains("vendor")) return true;
  const json& v = obj["vendor"];
  for (const char* known : {"NVIDIA", "AMD", "Apple", "Intel", "CPU"})
    if (v.is_string() && v.get<std::string>() == known) {
      *vendor = known;
      return true;
    }
  *err = make_error(fields::join(path, "vendor"), "must be one of: NVIDIA, AMD, Apple, Intel, CPU");
  return false;
}

// usable_memory_fraction: the part of a unified memory the GPU may use, in (0, 1]; only
// meaningful with unified_memory true, so it is refused without it rather than ignored.
bool read_usable_fraction(const json& obj, const std::string& path, Gpu* g, Error* err) {
  auto it = obj.find("usable_memory_fraction");
  if (it == obj.end()) return true;
  const std::string field = fields::join(path, "usable_memory_fraction");
  if (!it->is_number() || it->get<double>() <= 0 || it->get<double>() > 1) {
    *err = make_error(field, "must be a number in (0, 1], got " + it->dump());
    return false;
  }
  if (!g->unified_memory) {
    *err = make_error(field, "needs unified_memory: true (a discrete GPU uses all its memory)");
    return false;
  }
  g->usable_memory_fraction = it->get<double>();
  return true;
}

bool parse_hardware(const json& doc, const Catalog& catalog, Config* c, Error* err) {
  auto it = doc.find("hardware");
  // An omitted hardware is the default preset, looked up like a given id (see parse_target).
  if (it == doc.end() || it->is_string()) {
    const Gpu* g = catalog.find_gpu(it == doc.end() ? "a100-80gb-sxm" : it->get<std::string>());
    if (!g) {
      *err = make_error("hardware", "unknown GPU preset; known: " + gpu_ids(catalog));
      return false;
    }
    c->hardware = *g;
    return true;
  }
  if (!it->is_object()) {
    *err = make_error("hardware",
                      "must be a preset id or an object, got " + fields::describe_type(*it));
    return false;
  }
  c->hardware_preset = false;
  const json& obj = *it;
  const std::string path = "hardware";
  if (!fields::check_keys(
          obj, path,
          {"name", "fp16_tflops", "fp8_tflops", "fp4_tflops", "mem_gb", "mem_bw_gbps",
           "interconnect_gbps", "host_link_gbps", "vendor", "unified_memory",
           "usable_memory_fraction", "gpus_per_node", "network_gbps"},
          err))
    return false;
  for (const char* required : {"fp16_tflops", "mem_bw_gbps"}) {
    if (!obj.contains(required)) {
      *err = make_error(fields::join(path, required), "is required for a custom GPU");
      return false;
    }
  }
  Gpu& g = c->hardware;
  g = Gpu{};
  g.id = "custom";
  g.name = "custom";
  g.mem_gb = 80;
  // Lower bounds keep times finite: a zero bandwidth or peak would divide by zero.
  const bool ok =
      fields::read_string(obj, "name", path, &g.name, err, 64) &&
      fields::read_number(obj, "fp16_tflops", path, 0.001, 1e6, &g.fp16_tflops, err) &&
      fields::read_number(obj, "fp8_tflops", path, 0, 1e6, &g.fp8_tflops, err) &&
      fields::read_number(obj, "mem_gb", path, 0.001, 1e6, &g.mem_gb, err) &&
      fields::read_number(obj, "mem_bw_gbps", path, 0.001, 1e7, &g.mem_bw_gbps, err) &&
      fields::read_number(obj, "interconnect_gbps", path, 0, 1e7, &g.interconnect_gbps, err) &&
      fields::read_number(obj, "fp4_tflops", path, 0, 1e6, &g.fp4_tflops, err) &&
      fields::read_number(obj, "host_link_gbps", path, 0, 10000, &g.host_link_gbps, err) &&
      fields::read_int(obj, "gpus_per_node", path, 1, ConfigLimits::kMaxGpus, &g.gpus_per_node,
                       err) &&
      fields::read_number(obj, "network_gbps", path, 0.001, 1e7, &g.network_gbps, err) &&
      read_vendor(obj, path, &g.vendor, err) &&
      fields::read_bool(obj, "unified_memory", path, &g.unified_memory, err) &&
      read_usable_fraction(obj, path, &g, err);
  // A custom fp4 peak is taken to run both block-scaled formats (docs/config.md).
  g.nvfp4 = g.mxfp4 = g.fp4_tflops > 0;
  return ok;
}

// ---- runtime ------------------------------------------------------------------------------

bool parse_runtime(const json& doc, const Catalog& catalog, Config* c, Error* err) {
  auto it = doc.find("runtime");
  RuntimeSpec& r = c->runtime;
  auto known_profiles = [&] {
    std::string s;
    for (const auto& p : catalog.runtimes) s += (s.empty() ? "" : ", ") + p.id;
    return s;
  };
  if (it != doc.end() && it->is_string()) {
    r.profile = it->get<std::string>();
    if (!catalog.find_runtime(r.profile)) {
      *err = make_error("runtime", "unknown runtime profile; known: " + known_profiles());
      return false;
    }
  } else if (it != doc.end() && it->is_object()) {
    const json& obj = *it;
    for (auto f = obj.begin(); f != obj.end(); ++f) {
      const std::string key = f.key();
      const std::string path = "runtime." + key;
      if (key == "profile") {
        if (!f->is_string() || !catalog.find_runtime(f->get<std::string>())) {
          *err = make_error(path, "must be one of: " + known_profiles());
          return false;
        }
        r.profile = f->get<std::string>();
      } else if (key == "measured_decode_step_s") {
        if (!fields::number_value(*f, path, 1e-6, 100, &r.measured_decode_step_s, err))
          return false;
      } else if (key == "measured_decode_batch") {
        if (!fields::int_value(*f, path, 1, ConfigLimits::kMaxBatch, &r.measured_decode_batch, err))
          return false;
      } else {
        RuntimeParams probe;
        if (!runtime_param(probe, key)) {
          std::string list = "profile, measured_decode_step_s, measured_decode_batch";
          for (const char* const* n = runtime_param_names(); *n; ++n)
            list += std::string(", ") + *n;
          *err = make_error(path.size() > 80 ? path.substr(0, 80) + "..." : path,
                            "unknown field; expected one of: " + list);
          return false;
        }
        const bool is_efficiency = key.find("efficiency") != std::string::npos;
        double v = 0;
        if (key == "matvec_max_rows" || key == "matmul_tile_rows" || key == "kernels_per_layer" ||
            key == "gemm_kernels_per_layer" || key == "kernels_per_pass" ||
            key == "baseline_layer_syncs") {
          // Kernel-regime row counts are whole rows (0: the regime is not modeled); kernel
          // counts are whole kernels.
          int64_t rows = 0;
          if (!fields::int_value(*f, path, 0, ConfigLimits::kMaxKernelRows, &rows, err))
            return false;
          v = static_cast<double>(rows);
        } else if (key == "score_bytes_per_element") {
          if (!fields::number_value(*f, path, 0, ConfigLimits::kMaxScoreBytesPerElement, &v, err))
            return false;
        } else if (is_share_param(key)) {
          // Shares of the shorter time hidden under the longer: 0..1.
          if (!fields::number_value(*f, path, 0, 1, &v, err)) return false;
        } else if (!fields::number_value(*f, path, is_efficiency ? 0.001 : 0,
                                         is_efficiency ? 1 : 10, &v, err)) {
          return false;
        }
        r.overrides.emplace_back(key, v);
      }
    }
  } else if (it != doc.end()) {
    *err = make_error("runtime",
                      "must be a profile name or an object, got " + fields::describe_type(*it));
    return false;
  }
  if (r.measured_decode_batch > 0 && r.measured_decode_step_s == 0) {
    *err = make_error("runtime.measured_decode_batch", "needs runtime.measured_decode_step_s");
    return false;
  }
  const RuntimeProfile* profile = catalog.find_runtime(r.profile);
  if (!profile) {
    *err = make_error("runtime", "unknown runtime profile '" + r.profile + "'");
    return false;
  }
  r.resolved = profile->params;
  // MLX's small-batch kernels follow the Apple GPU (its generation and size), before any
  // override of the config's own.
  if (r.profile == "mlx") apply_mlx_chip_kernels(c->hardware, &r.resolved);
  for (const auto& o : r.overrides) *runtime_param(r.resolved, o.first) = o.second;
  c->engine = *profile;  // the dtype check reads the engine's formats
  return true;
}

// ---- dtype --------------------------------------------------------------------------------

// Local engines run their own formats: llama.cpp GGUF types (and f16/bf16, MXFP4 for
// gpt-oss), MLX its group-quantized types (and fp16/bf16); datacenter engines neither.
bool check_engine_formats(const Config& c, Error* err) {
  const std::string& formats = c.engine.weight_formats;
  const std::string engine = c.engine.name;
  auto refuse = [&](const char* field, DType d, const std::string& why) {
    *err = make_error(field, std::string(dtype_name(d)) + " " + why);
    return false;
  };
  for (const auto& [field, d] : {std::pair<const char*, DType>{"dtype.weights", c.dtype.weights},
                                 std::pair<const char*, DType>{"dtype.kv", c.dtype.kv}}) {
    const bool weights = std::string(field) == "dtype.weights";
    if (weights ? engine_runs_weights(formats, d) : engine_runs_kv(formats, d)) continue;
    std::string runs;
    for (const auto& n : weights ? engine_weight_dtypes(formats) : engine_kv_dtypes(formats))
      runs += (runs.empty() ? "" : ", ") + n;
    if (dtype_is_gguf(d) && formats != "gguf")
      return refuse(field, d,
                    "is a GGUF (llama.cpp) type; " + engine +
                        " does not run it: choose a llama.cpp runtime, or one of: " + runs);
    if (dtype_is_mlx(d) && formats != "mlx")
      return refuse(field, d,
                    "is an MLX type; " + engine + " does not run it: choose the mlx runtime");
    return refuse(field, d,
                  std::string("is not a ") + (weights ? "weight" : "KV-cache") + " format " +
                      engine + " runs; it runs: " + runs);
  }
  return true;
}

bool parse_dtype(const json& doc, Config* c, Error* err) {
  auto it = doc.find("dtype");
  if (it == doc.end()) {
    // A model released in a narrower dtype (DeepSeek-V3: fp8 weights) opens in it; the KV
    // cache stays 16-bit (vLLM's kv_cache_dtype "auto" follows the activations, bf16).
    DType released = DType::fp16;
    if (!c->target.released_weights_dtype.empty() &&
        dtype_from_name(c->target.released_weights_dtype, &released))
      c->dtype.weights = released;
    // Local engines open the model's 16-bit conversion unless they run its released format
    // (llama.cpp runs gpt-oss's MXFP4 GGUFs).
    if (!c->engine.weight_formats.empty() && c->dtype.weights != DType::bf16 &&
        !engine_runs_weights(c->engine.weight_formats, c->dtype.weights))
      c->dtype.weights = DType::fp16;
    return true;
  }
  auto one = [&](const json& v, const std::string& path, DType* out) {
    if (!v.is_string() || !dtype_from_name(v.get<std::string>(), out)) {
      *err = make_error(path, "must be one of: " + dtype_names());
      return false;
    }
    return true;
  };
  // 4-bit weight formats keep an fp16 KV cache unless dtype.kv says otherwise.
  auto four_bit = [](DType d) { return d == DType::int4 || dtype_is_fp4(d); };
  if (it->is_string()) {
    if (!one(*it, "dtype", &c->dtype.weights)) return false;
    const bool quantized = four_bit(c->dtype.weights) || dtype_is_gguf(c->dtype.weights) ||
                           dtype_is_mlx(c->dtype.weights);
    c->dtype.kv = quantized ? DType::fp16 : c->dtype.weights;
    return check_engine_formats(*c, err);
  }
  if (!it->is_object()) {
    *err = make_error("dtype", "must be a string or an object {weights, kv}");
    return false;
  }
  if (!fields::check_keys(*it, "dtype", {"weights", "kv"}, err)) return false;
  if (it->contains("weights") && !one((*it)["weights"], "dtype.weights", &c->dtype.weights))
    return false;
  if (it->contains("kv") && !one((*it)["kv"], "dtype.kv", &c->dtype.kv)) return false;
  if (four_bit(c->dtype.kv) || dtype_is_mlx(c->dtype.kv) ||
      (dtype_is_gguf(c->dtype.kv) && c->dtype.kv != DType::q8_0 && c->dtype.kv != DType::q4_0)) {
    *err = make_error("dtype.kv", std::string(dtype_name(c->dtype.kv)) +
                                      " KV cache is not modeled; use fp16, bf16, fp8 or int8 "
                                      "(llama.cpp: q8_0 or q4_0)");
    return false;
  }
  return check_engine_formats(*c, err);
}

json choices_json(const MethodConfig& m) {
  if (!m.tree_preset.empty()) return m.tree_preset;
  json arr = json::array();
  for (const auto& path : m.choices) arr.push_back(path);
  return arr;
}

}  // namespace

bool parse_model_object(const json& obj, const std::string& path, ModelArch* m, Error* err) {
  // A Hugging Face config.json as published, or SpecCalc's own model keys.
  if (is_hf_config(obj)) return model_from_hf_config(obj, path, m, err);
  // Keys only a config.json uses, without its model_type (a part pasted, or a hand-written
  // one): say what is missing rather than listing SpecCalc's own keys as the fix.
  if (obj.is_object())
    for (const char* key :
         {"hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
          "intermediate_size", "vocab_size", "architectures"})
      if (obj.contains(key)) {
        *err = make_error(fields::join(path, "model_type"),
                          std::string("is required: '") + key +
                              "' is a Hugging Face config.json key, and SpecCalc reads a "
                              "config.json by its model_type (paste the whole file)");
        return false;
      }
  return parse_custom_model(obj, path, m, err);
}

json model_to_json(const ModelArch& m) {
  json out = json{{"name", m.name}};
  // The first release's keys always; later ones only when set, so plain models keep the v1 key
  // set (and links stay unchanged).
  for (const ModelKey& k : kModelKeys) {
    if (k.int_member) {
      const int64_t v = m.*k.int_member;
      if (k.v1 || v != k.int_absent) out[k.key] = v;
    } else {
      const bool v = m.*k.bool_member;
      if (k.v1 || v != k.bool_absent) out[k.key] = v;
    }
  }
  if (!m.released_weights_dtype.empty()) out["released_dtype"] = m.released_weights_dtype;
  return out;
}

json gpu_to_json(const Gpu& g) {
  json out = json{{"name", g.name},
                  {"fp16_tflops", g.fp16_tflops},
                  {"fp8_tflops", g.fp8_tflops},
                  {"mem_gb", g.mem_gb},
                  {"mem_bw_gbps", g.mem_bw_gbps},
                  {"interconnect_gbps", g.interconnect_gbps}};
  // Only when set, so GPUs without them keep the v1 key set (and links stay unchanged). A
  // custom GPU's fp4 peak runs both nvfp4 and mxfp4; a preset running only one keeps its name.
  if (g.fp4_tflops > 0 && g.nvfp4 && g.mxfp4) out["fp4_tflops"] = g.fp4_tflops;
  if (g.host_link_gbps > 0) out["host_link_gbps"] = g.host_link_gbps;
  if (g.vendor != "NVIDIA") out["vendor"] = g.vendor;
  if (g.gpus_per_node != Gpu{}.gpus_per_node) out["gpus_per_node"] = g.gpus_per_node;
  if (g.network_gbps != Gpu{}.network_gbps) out["network_gbps"] = g.network_gbps;
  if (g.unified_memory) {
    out["unified_memory"] = true;
    out["usable_memory_fraction"] = g.usable_memory_fraction;
  }
  return out;
}

const char* family_name(Family f) { return family_spec(f).id; }

bool family_from_name(const std::string& s, Family* out) {
  const FamilySpec* f = find_family(s);
  if (f) *out = f->family;
  return f != nullptr;
}

bool family_has_draft_passes(Family f) { return family_spec(f).draft_network; }

bool method_is_tree(const MethodConfig& m) {
  if (m.family == Family::eagle2 || m.family == Family::eagle3) return m.top_k > 1;
  if (m.family == Family::retrieval) return m.source == "rest" || m.source == "token-recycling";
  if (m.family == Family::medusa || m.family == Family::hydra || m.family == Family::eagle1 ||
      m.sps_token_tree()) {
    for (const auto& path : m.choices)
      for (int r : path)
        if (r > 0) return true;
  }
  return false;
}

bool family_uses_tree(Family f) { return family_spec(f).static_tree; }

namespace {
// parallelism: {"tensor": T, "data_attention": D, "expert": E}, each optional. The setup runs
// on gpus = T x D GPUs: attention in D groups of T GPUs (D = 1: plain tensor parallelism), the
// MLP and experts over all of them; E = gpus keeps whole experts on every GPU (expert
// parallelism), E = 1 splits every expert by tensor parallelism. gpus may be left out (then
// T x D, or D when T is left out too); given, it must equal T x D.
bool parse_parallelism(const json& doc, Config* c, Error* err) {
  auto it = doc.find("parallelism");
  if (it == doc.end()) return true;
  if (!it->is_object() ||
      !fields::check_keys(*it, "parallelism", {"tensor", "data_attention", "expert"}, err)) {
    if (err->message.empty())
      *err = make_error("parallelism", "must be an object {tensor, data_attention, expert}");
    return false;
  }
  constexpr int64_t kMax = ConfigLimits::kMaxGpus;
  int64_t tensor = 0, data = 1, expert = 1;
  if (!fields::read_int(*it, "tensor", "parallelism", 1, kMax, &tensor, err) ||
      !fields::read_int(*it, "data_attention", "parallelism", 1, kMax, &data, err) ||
      !fields::read_int(*it, "expert", "parallelism", 1, kMax, &expert, err))
    return false;
  const bool gpus_given = doc.contains("gpus");
  if (tensor > 0) {
    if (tensor * data > kMax) {
      *err =
          make_error("parallelism", "tensor x data_attention = " + std::to_string(tensor * data) +
                                        " exceeds " + std::to_string(kMax) + " GPUs");
      return false;
    }
    if (gpus_given && tensor * data != c->gpus) {
      *err = make_error("parallelism.tensor",
                        std::to_string(tensor) + " x data_attention " + std::to_string(data) +
                            " = " + std::to_string(tensor * data) + " GPUs, but gpus is " +
                            std::to_string(c->gpus) + " (gpus must equal tensor x data_attention)");
      return false;
    }
    c->gpus = tensor * data;
  } else if (!gpus_given) {
    c->gpus = data;
  }
  if (c->gpus % data != 0) {
    *err = make_error("parallelism.data_attention",
                      "must divide gpus " + std::to_string(c->gpus) +
                          " (each attention group gets gpus / data_attention GPUs), got " +
                          std::to_string(data));
    return false;
  }
  if (expert != 1 && expert != c->gpus) {
    *err = make_error("parallelism.expert",
                      "must be 1 (every expert split by tensor parallelism) or gpus " +
                          std::to_string(c->gpus) +
                          " (whole experts on every GPU: engines spread experts over all the "
                          "setup's GPUs), got " +
                          std::to_string(expert));
    return false;
  }
  c->data_attention = data;
  c->expert_parallel = expert > 1;
  return true;
}

// offload: {"target_weights": "host", "host_link_gbps": x} (weights streamed to the GPU each
// pass; the link defaults to the GPU's host link from the hardware preset), or
// {"gpu_layers": n, "host_memory_gbps": x, "host_tflops": y} (llama.cpp's partial offload:
// the layers --n-gpu-layers leaves out run on the CPU; check_partial_offload validates).
bool parse_offload(const json& doc, Config* c, Error* err) {
  auto it = doc.find("offload");
  if (it == doc.end()) return true;
  if (!it->is_object() || !fields::check_keys(*it, "offload",
                                              {"target_weights", "host_link_gbps", "gpu_layers",
                                               "host_memory_gbps", "host_tflops"},
                                              err)) {
    if (err->message.empty())
      *err = make_error("offload",
                        "must be an object {target_weights, host_link_gbps} or {gpu_layers, "
                        "host_memory_gbps, host_tflops}");
    return false;
  }
  if (!fields::read_int(*it, "gpu_layers", "offload", 0, 100000, &c->gpu_layers, err) ||
      !fields::read_number(*it, "host_memory_gbps", "offload", 0.1, 100000, &c->host_memory_gbps,
                           err) ||
      !fields::read_number(*it, "host_tflops", "offload", 0.001, 10000, &c->host_tflops, err))
    return false;
  if (c->gpu_layers < 0 && (it->contains("host_memory_gbps") || it->contains("host_tflops"))) {
    *err = make_error(
        it->contains("host_memory_gbps") ? "offload.host_memory_gbps" : "offload.host_tflops",
        "describes the CPU that runs the layers offload.gpu_layers leaves out; "
        "give gpu_layers too");
    return false;
  }
  std::string where = "gpu";
  if (!fields::read_string(*it, "target_weights", "offload", &where, err, 16)) return false;
  if (where != "host" && where != "gpu") {
    *err = make_error("offload.target_weights",
                      "must be \"host\" (stream from host memory) or \"gpu\"");
    return false;
  }
  c->offload_target = where == "host";
  if (c->offload_target && c->gpu_layers >= 0) {
    *err = make_error("offload.gpu_layers",
                      "is llama.cpp's partial offload (layers run on the CPU); "
                      "target_weights \"host\" streams every layer to the GPU instead: give one");
    return false;
  }
  c->host_link_gbps = c->hardware.host_link_gbps;
  if (!fields::read_number(*it, "host_link_gbps", "offload", 0.1, 10000, &c->host_link_gbps, err))
    return false;
  if (c->offload_target && c->host_link_gbps <= 0) {
    *err = make_error("offload.host_link_gbps",
                      c->hardware_preset
                          ? "is required: the hardware preset has no host link bandwidth on record"
                          : "is required: the custom GPU has no host_link_gbps");
    return false;
  }
  return true;
}

// sps with tree_size + depth: the optimal tree for the acceptance, built once at parse time.
bool resolve_sps_tree(Config* c, Error* err) {
  MethodConfig& m = c->method;
  if (m.family != Family::sps || m.sps_tree != MethodConfig::SpsTree::optimal) return true;
  if (c->acceptance.kind == Acceptance::Kind::tau) {
    *err = make_error("method.tree_size",
                      "needs an acceptance model (alpha, per_position or p) to build the optimal "
                      "tree; a single tau does not say which branches pay");
    return false;
  }
  auto matrix = acceptance_matrix(c->acceptance);
  if (!matrix.ok()) {
    *err = matrix.error();
    return false;
  }
  auto opt = tree::optimize_tree(matrix.value(), static_cast<int>(m.tree_size),
                                 static_cast<int>(m.depth), tree::kMaxRank);
  if (!opt.ok()) {
    *err = opt.error();
    err->field = "method.tree_size";
    return false;
  }
  const auto all = opt.value().tree.choices();
  m.choices.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(
                                                  std::min<std::size_t>(all.size(), m.tree_size)));
  return true;
}

// Data-parallel attention and expert parallelism: only engines that run them, only for
// mixture-of-experts targets (a dense model's data parallelism is independent replicas:
// evaluate one replica on gpus / D GPUs at batch / D), experts spread evenly.
bool check_parallelism(const RuntimeProfile& engine, const Config& c, Error* err) {
  if (c.data_attention == 1 && !c.expert_parallel) return true;
  const ModelArch& t = c.target;
  const char* field = c.data_attention > 1 ? "parallelism.data_attention" : "parallelism.expert";
  if (!engine.data_expert_parallel) {
    *err = make_error(field, engine.name +
                                 " runs no data-parallel attention or expert parallelism "
                                 "(vLLM, SGLang and TensorRT-LLM do)");
    return false;
  }
  if (t.experts <= 1) {
    *err = make_error(field, t.id +
                                 " has no experts: data-parallel attention and expert "
                                 "parallelism are for mixture-of-experts targets (a dense "
                                 "model's data parallelism is independent replicas: evaluate "
                                 "one on gpus / D GPUs at batch / D)");
    return false;
  }
  if (c.expert_parallel && t.experts % c.gpus != 0) {
    *err = make_error("parallelism.expert", "the target's " + std::to_string(t.experts) +
                                                " experts do not split evenly over " +
                                                std::to_string(c.gpus) + " GPUs");
    return false;
  }
  return true;
}

// llama.cpp's partial offload: only where the engine runs layers on the CPU, and with the CPU
// described when a layer lands there (n_gpu_layers counts the output layer as one more slot:
// llama.cpp src/llama-model.cpp, i_gpu_start = n_layer + 1 - n_gpu_layers).
bool check_partial_offload(const RuntimeProfile& engine, const Config& c, Error* err) {
  if (c.gpu_layers < 0) return true;
  if (!engine.partial_offload) {
    *err = make_error("offload.gpu_layers", engine.name +
                                                " keeps every layer on the GPU; layers on the CPU "
                                                "(--n-gpu-layers) are llama.cpp's (CUDA build)");
    return false;
  }
  if (c.gpu_layers > c.target.num_layers) return true;  // every layer and the output on the GPU
  if (c.host_memory_gbps <= 0) {
    *err = make_error("offload.host_memory_gbps",
                      "is required: " + std::to_string(c.target.num_layers + 1 - c.gpu_layers) +
                          " of the target's layers run on the CPU from host memory; give its "
                          "peak bandwidth (channels x MT/s x 8 bytes: dual-channel DDR5-5600 is "
                          "89.6 GB/s)");
    return false;
  }
  if (c.host_tflops <= 0) {
    *err = make_error("offload.host_tflops",
                      "is required: the TFLOP/s the CPU's matmuls sustain in llama.cpp (a "
                      "CPU-only llama-bench: pp512 tokens/s x 2 x the model's parameters)");
    return false;
  }
  return true;
}

// llama.cpp's variable draft length: only where the engine drafts that way, and only for a
// chain (a draft tree has a fixed size).
bool check_variable_draft(const RuntimeProfile& engine, const Config& c, Error* err) {
  const MethodConfig& m = c.method;
  if (m.family != Family::sps || (m.draft_p_min <= 0 && m.draft_min <= 0)) return true;
  const char* field = m.draft_p_min > 0 ? "method.draft_p_min" : "method.draft_min";
  if (!engine.variable_draft_length) {
    *err = make_error(field, engine.name +
                                 " drafts k tokens every cycle; a variable draft length "
                                 "(--draft-p-min, --draft-min) is llama.cpp's");
    return false;
  }
  if (m.sps_tree != MethodConfig::SpsTree::chain) {
    *err = make_error(field, "applies to a chain of k drafted tokens, not to a draft tree");
    return false;
  }
  return true;
}

// Why a runtime cannot run on this device ("" when it can): one that names no vendors runs on
// any GPU, and a CPU device only under the runtimes that list it (llama.cpp's CPU backend).
std::string vendor_refusal(const RuntimeProfile& r, const Gpu& hw) {
  if (r.vendors.empty())
    return hw.vendor == "CPU" ? r.name + " runs on GPUs; " + hw.name + " is a CPU" : "";
  if (std::find(r.vendors.begin(), r.vendors.end(), hw.vendor) != r.vendors.end()) return "";
  std::string on;
  for (const auto& v : r.vendors) on += (on.empty() ? "" : " or ") + v;
  return r.name + " runs on " + on + " hardware; " + hw.name + " is " + hw.vendor;
}

// A draft runtime other than the engine: it must run on the setup's hardware, and the engines
// that hold target and draft in one process (llama.cpp, MLX: their own weight formats) neither
// hand their drafts to another runtime nor run another engine's.
enum class DraftRuntimeRefusal { none, engine_runs_its_own, draft_runs_its_own, vendor };

DraftRuntimeRefusal draft_runtime_refusal(const RuntimeProfile& engine, const RuntimeProfile& draft,
                                          const Gpu& hw) {
  if (draft.id == engine.id) return DraftRuntimeRefusal::none;
  if (!engine.weight_formats.empty()) return DraftRuntimeRefusal::engine_runs_its_own;
  if (!draft.weight_formats.empty()) return DraftRuntimeRefusal::draft_runs_its_own;
  return vendor_refusal(draft, hw).empty() ? DraftRuntimeRefusal::none
                                           : DraftRuntimeRefusal::vendor;
}

// The runtimes the draft cannot run under, as the JSON text of {id: reason in a few words}
// (the form greys them out: the eval's engine.supports.unavailable_draft_runtimes).
std::string draft_runtimes_unavailable_json(const Catalog& catalog, const RuntimeProfile& engine,
                                            const Gpu& hw) {
  json_write::Object out;
  for (const RuntimeProfile& r : catalog.runtimes) {
    switch (draft_runtime_refusal(engine, r, hw)) {
      case DraftRuntimeRefusal::none:
        break;
      case DraftRuntimeRefusal::engine_runs_its_own:
        out.string(r.id, engine.name + " runs its drafts itself");
        break;
      case DraftRuntimeRefusal::draft_runs_its_own:
        out.string(r.id, "runs target and draft in its own process");
        break;
      case DraftRuntimeRefusal::vendor:
        out.string(r.id, vendor_refusal(r, hw));
        break;
    }
  }
  std::string text;
  out.write(text);
  return text;
}

bool check_draft_runtime(const RuntimeProfile& engine, const RuntimeProfile& draft, const Config& c,
                         Error* err) {
  const std::string field = "method.draft_runtime";
  const DraftRuntimeRefusal refusal = draft_runtime_refusal(engine, draft, c.hardware);
  if (refusal == DraftRuntimeRefusal::none) return true;
  if (refusal == DraftRuntimeRefusal::engine_runs_its_own) {
    *err = make_error(field, engine.name +
                                 " holds target and draft in one process and runs its drafts "
                                 "itself: leave draft_runtime out or set it to '" +
                                 engine.id + "', got '" + draft.id + "'");
    return false;
  }
  if (refusal == DraftRuntimeRefusal::draft_runs_its_own) {
    *err = make_error(field, draft.name +
                                 " runs target and draft in its own process; it does not "
                                 "run the drafts of " +
                                 engine.name + ", got '" + draft.id + "'");
    return false;
  }
  *err = make_error(field, vendor_refusal(draft, c.hardware));
  return false;
}

// The draft's tensor parallelism: the engine's own default when none is given (vLLM, SGLang
// and TensorRT-LLM shard the draft like the target; runtimes.json cites each engine's code),
// and only the values the engine accepts when one is.
bool check_draft_placement(const RuntimeProfile& engine, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const int64_t target_tp = engine.tensor_parallel ? c->gpus : 1;
  if (!m.draft_tensor_parallel_given)
    m.draft_tensor_parallel_size = engine.draft_tp_follows_target ? target_tp : 1;
  const std::string field = "method.draft_tensor_parallel_size";
  const std::string why =
      m.draft_tensor_parallel_given
          ? ""
          : " (" + engine.name + "'s default: the draft runs at " +
                (engine.draft_tp_follows_target ? "the target's" : "one GPU's") +
                " tensor parallelism)";
  if (m.draft_tensor_parallel_size > c->gpus) {
    *err = make_error(field, "exceeds the " + std::to_string(c->gpus) + " GPU(s) of the setup");
    return false;
  }
  // A draft runtime without tensor parallelism (research code, the graph-captured one) runs the
  // draft whole on one GPU, whatever the engine would do with its own drafts.
  const RuntimeProfile& runs = m.draft_profile;
  if (engine.tensor_parallel && !runs.tensor_parallel && runs.id != engine.id) {
    if (m.draft_tensor_parallel_given && m.draft_tensor_parallel_size != 1) {
      *err = make_error(field, "must be 1 or left out: the draft runtime, " + runs.name +
                                   ", has no tensor parallelism and runs the draft whole on one "
                                   "GPU, got " +
                                   std::to_string(m.draft_tensor_parallel_size));
      return false;
    }
    m.draft_tensor_parallel_size = 1;
  }
  if (c->data_attention > 1 && m.draft_tensor_parallel_size != c->gpus) {
    *err = make_error(field, "must be left out or " + std::to_string(c->gpus) +
                                 " under data-parallel attention: the draft runs in the "
                                 "target's layout (attention data-parallel, the rest over all "
                                 "GPUs), got " +
                                 std::to_string(m.draft_tensor_parallel_size));
    return false;
  }
  if (m.draft_tensor_parallel_given && !engine.draft_tp_allowed.empty() && engine.tensor_parallel) {
    bool ok = false;
    std::string allowed;
    for (const std::string& a : engine.draft_tp_allowed) {
      const int64_t v = a == "target" ? target_tp : std::strtoll(a.c_str(), nullptr, 10);
      ok = ok || v == m.draft_tensor_parallel_size;
      allowed += (allowed.empty() ? "" : " or ") +
                 (a == "target" ? "the target's " + std::to_string(target_tp) : a);
    }
    if (!ok) {
      *err = make_error(field, "must be " + allowed + " under " + engine.name + " (" +
                                   engine.draft_tp_source + "), got " +
                                   std::to_string(m.draft_tensor_parallel_size));
      return false;
    }
  }
  const ModelArch& d = m.family == Family::sps ? m.draft_model : c->target;
  const int64_t draft_attn_tp = m.draft_tensor_parallel_size / c->data_attention;
  if (!tp_splits_query_heads(d, draft_attn_tp)) {
    *err = make_error(
        field,
        "is " + std::to_string(m.draft_tensor_parallel_size) + why +
            " and must divide the draft's " + std::to_string(d.heads) + " attention heads" +
            (c->data_attention > 1 ? " (per attention group: " + std::to_string(draft_attn_tp) + ")"
                                   : std::string()));
    return false;
  }
  return true;
}

// Whether the setup can run at all: parallelism the model supports, a draft that shares the
// target's tokenizer, a method the engine runs. Each failure names the field to change.
bool check_setup(const Catalog& catalog, Config* c, Error* err) {
  c->engine = *catalog.find_runtime(c->runtime.profile);
  const RuntimeProfile& engine = c->engine;
  const ModelArch& t = c->target;
  if (c->gpus > 1 && engine.single_device) {
    *err = make_error("gpus", engine.name + " runs on one device, got " + std::to_string(c->gpus));
    return false;
  }
  if (c->gpus > 1 && c->hardware.interconnect_gbps <= 0) {
    *err = make_error("hardware.interconnect_gbps",
                      "must be positive when gpus > 1 (tensor parallelism needs a link)");
    return false;
  }
  if (!check_parallelism(engine, *c, err)) return false;
  if (!check_partial_offload(engine, *c, err)) return false;
  if (!check_variable_draft(engine, *c, err)) return false;
  // Attention's tensor parallelism: all the GPUs, or one attention group's.
  const int64_t attn_tp = c->gpus / c->data_attention;
  const char* tp_field = c->data_attention > 1 ? "parallelism.tensor" : "gpus";
  if (attn_tp > 1 && engine.tensor_parallel) {
    // Query heads split evenly, KV heads split or replicated (presets.hpp tp_splits_*).
    if (!tp_splits_query_heads(t, attn_tp)) {
      *err = make_error(tp_field, "must divide the target's " + std::to_string(t.heads) +
                                      " attention heads for tensor parallelism, got " +
                                      std::to_string(attn_tp));
      return false;
    }
    if (!tp_splits_kv_heads(t, attn_tp)) {
      *err = make_error(tp_field, "must divide the target's " + std::to_string(t.kv_heads) +
                                      " KV heads or be a multiple of them, got " +
                                      std::to_string(attn_tp));
      return false;
    }
  }
  if (std::string why = vendor_refusal(engine, c->hardware); !why.empty()) {
    if (engine.vendors.empty()) why += " (its engine: llama.cpp-cpu)";
    *err = make_error("runtime", why);
    return false;
  }
  if (!engine.tensor_parallel && c->gpus > t.num_layers) {
    *err = make_error("gpus", "exceeds the target's " + std::to_string(t.num_layers) + " layers");
    return false;
  }
  MethodConfig& m = c->method;
  const std::string fam = family_name(m.family);
  if (!engine.supports(fam)) {
    std::string runs;
    for (const auto& f : engine.families) runs += (runs.empty() ? "" : ", ") + f;
    *err = make_error("method.family", engine.name + " does not run " + fam + "; it runs: " + runs);
    return false;
  }
  if (!engine.trees && method_is_tree(m)) {
    // Name the field that makes it a tree, so the page can mark it.
    const bool eagle_topk = m.family == Family::eagle2 || m.family == Family::eagle3;
    const bool retrieval = m.family == Family::retrieval;
    *err = make_error(eagle_topk  ? "method.top_k"
                      : retrieval ? "method.source"
                                  : "method.choices",
                      engine.name + " verifies chains only (one candidate per position); " +
                          (eagle_topk  ? std::string("use top_k 1")
                           : retrieval ? std::string("use source suffix (suffix decoding drafts a "
                                                     "chain)")
                                       : std::string("use a chain of choices")));
    return false;
  }
  if (m.sps_token_tree() && !engine.draft_model_trees) {
    const char* field = m.sps_tree == MethodConfig::SpsTree::optimal     ? "method.tree_size"
                        : m.sps_tree == MethodConfig::SpsTree::sequences ? "method.sequences"
                                                                         : "method.choices";
    *err = make_error(field, engine.name +
                                 " drafts a draft model's tokens as one chain (max_draft_len), "
                                 "no tree; use k");
    return false;
  }
  if (m.family == Family::mtp && t.mtp_modules <= 0) {
    *err = make_error("method.family",
                      t.id +
                          " ships no multi-token-prediction module; mtp needs a model that "
                          "does (e.g. deepseek-v3)");
    return false;
  }
  if (family_has_draft_passes(m.family)) {
    const std::string draft_id =
        !m.draft_runtime.empty()
            ? m.draft_runtime
            : (engine.draft_runtime.empty() ? engine.id : engine.draft_runtime);
    m.draft_profile = *catalog.find_runtime(draft_id);
    if (!m.draft_runtime.empty() && !check_draft_runtime(engine, m.draft_profile, *c, err))
      return false;
    if (m.draft_runtime.empty() && draft_id == c->runtime.profile)
      m.draft_profile.params = c->runtime.resolved;  // the target's overrides apply to its drafts
    if (!check_draft_placement(engine, c, err)) return false;
    m.draft_runtimes_unavailable_json =
        draft_runtimes_unavailable_json(catalog, engine, c->hardware);
  }
  // A draft must share the target's tokenizer. Engines that compare token texts (llama.cpp)
  // accept embedding tables padded to different sizes within a margin; the others need equal
  // sizes.
  if (m.family == Family::sps && !shares_tokenizer(m.draft_model, t, engine)) {
    *err = make_error("method.draft",
                      (m.draft_preset                        ? m.draft_model.id
                       : m.draft.rfind("your draft", 0) == 0 ? m.draft  // unnamed: said so once
                                                             : "your draft (" + m.draft + ")") +
                          " has a " + std::to_string(m.draft_model.vocab) +
                          "-token vocabulary and " + t.id + " a " + std::to_string(t.vocab) +
                          "-token one: a draft model must share the target's tokenizer" +
                          (engine.draft_vocab_max_difference > 0
                               ? " (" + engine.name + " allows sizes up to " +
                                     std::to_string(engine.draft_vocab_max_difference) + " apart)"
                               : std::string()));
    return false;
  }
  if (m.family == Family::sps) {
    json_write::Object drafts;
    for (const ModelArch& d : catalog.drafts) {
      if (!shares_tokenizer(d, t, engine))
        drafts.string(d.id, "another tokenizer: " + std::to_string(d.vocab) +
                                " tokens, the target's " + std::to_string(t.vocab));
    }
    drafts.write(m.drafts_unavailable_json);
  }
  return true;
}
}  // namespace

// A context the model is not configured for (config.json max_position_embeddings) cannot
// run: the engine refuses it (vLLM's max_model_len defaults to it) or the positions extrapolate.
// The draft model reads the same context.
bool check_context(const Config& c, Error* err) {
  auto over = [&](const ModelArch& m, const std::string& field, const std::string& what) {
    if (m.max_position_embeddings <= 0 || c.context < m.max_position_embeddings) return false;
    *err = make_error(field, what + " " + m.name + " is configured for at most " +
                                 std::to_string(m.max_position_embeddings) +
                                 " tokens (max_position_embeddings in its config.json): a "
                                 "context of " +
                                 std::to_string(c.context) +
                                 " must stay below that, with room for the new tokens. A "
                                 "config.json whose rope scaling (YaRN) allows more lifts it");
    return true;
  };
  if (over(c.target, "context", "the target")) return false;
  if (c.method.family == Family::sps && over(c.method.draft_model, "method.draft", "the draft"))
    return false;
  return true;
}

bool shares_tokenizer(const ModelArch& draft, const ModelArch& target,
                      const RuntimeProfile& engine) {
  const int64_t gap =
      draft.vocab > target.vocab ? draft.vocab - target.vocab : target.vocab - draft.vocab;
  return gap <= engine.draft_vocab_max_difference;
}

Expected<Config> parse_config(const json& doc, const Catalog& catalog) {
  if (!doc.is_object()) return make_error("", "the config must be a JSON object");
  Error err;
  if (!fields::check_keys(
          doc, "",
          {"version", "target", "hardware", "gpus", "parallelism", "runtime", "batch", "context",
           "memory_utilization", "temperature", "offload", "dtype", "method", "acceptance", "load"},
          &err))
    return err;
  int64_t version = 1;
  if (!fields::read_int(doc, "version", "", 1, 1, &version, &err)) {
    err.message = "unsupported config version; this build reads version 1";
    return err;
  }
  Config c;
  if (!parse_target(doc, catalog, &c, &err) || !parse_hardware(doc, catalog, &c, &err) ||
      !fields::read_int(doc, "gpus", "", 1, ConfigLimits::kMaxGpus, &c.gpus, &err) ||
      !parse_parallelism(doc, &c, &err) || !parse_runtime(doc, catalog, &c, &err) ||
      !fields::read_int(doc, "batch", "", 1, ConfigLimits::kMaxBatch, &c.batch, &err) ||
      !fields::read_int(doc, "context", "", 0, ConfigLimits::kMaxContext, &c.context, &err) ||
      !fields::read_number(doc, "memory_utilization", "", 0.05, 1, &c.memory_utilization, &err) ||
      !fields::read_number(doc, "temperature", "", 0, 2, &c.temperature, &err) ||
      !parse_offload(doc, &c, &err) || !parse_dtype(doc, &c, &err) ||
      !parse_method(doc, catalog, &c, &err) || !parse_acceptance(doc, &c, &err) ||
      !resolve_sps_tree(&c, &err) || !parse_load(doc, &c, &err))
    return err;
  if (c.runtime.measured_decode_step_s > 0 && c.runtime.measured_decode_batch == 0)
    c.runtime.measured_decode_batch = c.batch;  // v1 links: measured at the config's batch
  if (!check_setup(catalog, &c, &err) || !check_context(c, &err)) return err;
  return c;
}

Expected<Config> parse_config_text(const std::string& text, const Catalog& catalog) {
  auto doc = fields::parse_document(text, "the config");
  if (!doc.ok()) return doc.error();
  return parse_config(doc.value(), catalog);
}

json config_to_json(const Config& c) {
  json out;
  out["version"] = 1;
  out["target"] = c.target_preset ? json(c.target.id) : model_to_json(c.target);
  if (c.hardware_preset) {
    out["hardware"] = c.hardware.id;
  } else {
    out["hardware"] = gpu_to_json(c.hardware);
  }
  out["gpus"] = c.gpus;
  if (c.data_attention > 1 || c.expert_parallel)
    out["parallelism"] = json{{"tensor", c.gpus / c.data_attention},
                              {"data_attention", c.data_attention},
                              {"expert", c.expert_parallel ? c.gpus : 1}};
  if (c.runtime.overrides.empty() && c.runtime.measured_decode_step_s == 0) {
    out["runtime"] = c.runtime.profile;
  } else {
    json r = json{{"profile", c.runtime.profile}};
    for (const auto& o : c.runtime.overrides) r[o.first] = o.second;
    if (c.runtime.measured_decode_step_s > 0) {
      r["measured_decode_step_s"] = c.runtime.measured_decode_step_s;
      r["measured_decode_batch"] = c.runtime.measured_decode_batch;
    }
    out["runtime"] = r;
  }
  out["batch"] = c.batch;
  out["context"] = c.context;
  out["memory_utilization"] = c.memory_utilization;
  if (c.temperature > 0) out["temperature"] = c.temperature;
  if (c.offload_target)
    out["offload"] = json{{"target_weights", "host"}, {"host_link_gbps", c.host_link_gbps}};
  if (c.gpu_layers >= 0) {
    json o = json{{"gpu_layers", c.gpu_layers}};
    if (c.host_memory_gbps > 0) o["host_memory_gbps"] = c.host_memory_gbps;
    if (c.host_tflops > 0) o["host_tflops"] = c.host_tflops;
    out["offload"] = o;
  }
  out["dtype"] = json{{"weights", dtype_name(c.dtype.weights)}, {"kv", dtype_name(c.dtype.kv)}};
  const MethodConfig& m = c.method;
  json method = json{{"family", family_name(m.family)}};
  switch (m.family) {
    case Family::ar:
      break;
    case Family::sps:
      method["draft"] = m.draft_preset ? json(m.draft) : model_to_json(m.draft_model);
      // k sizes a chain and SpecInfer's sequences; a tree of choices or of tree_size + depth
      // never reads it (echoed, the page showed "k" beside a 35-node tree).
      if (m.sps_tree == MethodConfig::SpsTree::chain ||
          m.sps_tree == MethodConfig::SpsTree::sequences)
        method["k"] = m.k;
      if (m.sps_tree == MethodConfig::SpsTree::choices) method["choices"] = m.choices;
      if (m.sps_tree == MethodConfig::SpsTree::optimal) {
        method["tree_size"] = m.tree_size;
        method["depth"] = m.depth;
      }
      if (m.sps_tree == MethodConfig::SpsTree::sequences) method["sequences"] = m.sequences;
      // Shown wherever the engine drafts a variable length (so the page offers them), and
      // wherever they are set (so the core's refusal names a field in view).
      if ((c.engine.variable_draft_length && m.sps_tree == MethodConfig::SpsTree::chain) ||
          m.draft_p_min > 0 || m.draft_min > 0) {
        method["draft_p_min"] = m.draft_p_min;
        method["draft_min"] = m.draft_min;
      }
      break;
    case Family::mtp:
      method["k"] = m.k;
      break;
    case Family::layerskip:
      method["exit_layer"] = m.exit_layer;
      method["k"] = m.k;
      break;
    case Family::streaming:
      method["k"] = m.k;
      method["kv_budget"] = m.kv_budget;
      break;
    case Family::retrieval:
      method["k"] = m.k;
      method["source"] = m.source;
      method["draft_cpu_s"] = m.draft_cpu_s;
      break;
    case Family::pld:
      method["k"] = m.k;
      method["ngram"] = m.ngram;
      method["draft_cpu_s"] = m.draft_cpu_s;
      break;
    case Family::lookahead:
      method["window"] = m.window;
      method["ngram"] = m.ngram;
      method["guess"] = m.guess;
      break;
    case Family::medusa:
    case Family::hydra:
      method["heads"] = m.heads;
      method["choices"] = choices_json(m);
      method["typical_acceptance"] = m.typical_acceptance;
      break;
    case Family::eagle1:
      method["choices"] = choices_json(m);
      break;
    case Family::eagle2:
    case Family::eagle3:
      method["total_token"] = m.total_token;
      method["depth"] = m.depth;
      method["top_k"] = m.top_k;
      break;
  }
  if (family_has_draft_passes(m.family)) {
    if (!m.draft_runtime.empty()) method["draft_runtime"] = m.draft_runtime;
    if (m.draft_tensor_parallel_given)
      method["draft_tensor_parallel_size"] = m.draft_tensor_parallel_size;
  }
  out["method"] = method;
  out["acceptance"] = acceptance_to_json(c.acceptance);
  if (c.load.present) out["load"] = load_to_json(c.load);
  return out;
}

namespace commands {
Response normalize(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  return ok_json(config_to_json(config.value()).dump());
}
}  // namespace commands

}  // namespace speccalc
