#include "speccalc/presets.hpp"

#include "config/json_fields.hpp"
#include "data/model_keys.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {

using fields::json;

namespace {

// Attention weights of one layer. MLA (DeepSeek-V2/V3, modeling_deepseek.py DeepseekV3Attention):
// q_a_proj h x q_lora_rank, q_a_layernorm, q_b_proj q_lora_rank x heads*(nope+rope) (or one
// q_proj h x heads*(nope+rope) without a q latent); kv_a_proj_with_mqa h x (kv_lora_rank + rope),
// kv_a_layernorm, kv_b_proj kv_lora_rank x heads*(nope + v_head_dim); o_proj heads*v_head_dim x h.
int64_t attention_params(const ModelArch& m) {
  if (m.kv_lora_rank > 0) {
    const int64_t qk_head = m.qk_nope_head_dim + m.qk_rope_head_dim;
    const int64_t q = m.q_lora_rank > 0 ? m.hidden * m.q_lora_rank + m.q_lora_rank +
                                              m.q_lora_rank * m.heads * qk_head
                                        : m.hidden * m.heads * qk_head;
    const int64_t kv = m.hidden * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank +
                       m.kv_lora_rank * m.heads * (m.qk_nope_head_dim + m.v_head_dim);
    // DSA's lightning indexer (DeepSeek-V3.2 inference/model.py Indexer): wq_b q_lora_rank ->
    // heads x head_dim, wk h -> head_dim with its LayerNorm (weight and bias), weights_proj
    // h -> heads.
    const int64_t indexer = m.index_topk > 0 ? m.q_lora_rank * m.index_n_heads * m.index_head_dim +
                                                   m.hidden * m.index_head_dim +
                                                   2 * m.index_head_dim + m.hidden * m.index_n_heads
                                             : 0;
    return q + kv + m.heads * m.v_head_dim * m.hidden + indexer;
  }
  if (m.shared_kv) {
    // DeepSeek-V4 (vLLM deepseek_v4_attention.py): wq_a h x q_lora_rank, q_norm, wq_b
    // q_lora_rank x heads*head_dim (or one h x heads*head_dim without a q latent); wkv
    // h x head_dim (one vector, key and value) and kv_norm; a sink logit per head; wo_a
    // o_groups blocks of (heads*head_dim / o_groups) x o_lora_rank, wo_b
    // o_groups*o_lora_rank x h (or one heads*head_dim x h without o_lora_rank).
    const int64_t qd = m.heads * m.head_dim;
    const int64_t q = m.q_lora_rank > 0
                          ? m.hidden * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * qd
                          : m.hidden * qd;
    const int64_t o = m.o_lora_rank > 0 ? qd * m.o_lora_rank + m.o_groups * m.o_lora_rank * m.hidden
                                        : qd * m.hidden;
    return q + m.hidden * m.head_dim + m.head_dim + m.heads + o;
  }
  const int64_t q_dim = m.heads * m.head_dim;
  const int64_t kv_dim = m.kv_heads * m.head_dim;
  // q, k, v: hidden -> q_dim, kv_dim, kv_dim; o: q_dim -> hidden.
  int64_t p = m.hidden * (q_dim + 2 * kv_dim) + q_dim * m.hidden;
  if (m.attn_output_gate) p += m.hidden * q_dim;  // q_proj's gate half
  if (m.qkv_bias) p += q_dim + 2 * kv_dim;
  if (m.qk_norm) p += 2 * m.head_dim;
  return p;
}

// A Gated DeltaNet layer (modeling_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz
// h -> 2 x key_dim + 2 x value_dim, in_proj_ba h -> 2 x value heads, conv1d (no bias) over
// 2 x key_dim + value_dim channels x kernel, dt_bias and A_log per value head, the gated
// RMSNorm over value_head_dim, out_proj value_dim -> h.
int64_t linear_attention_params(const ModelArch& m) {
  if (m.linear_attention_layers == 0) return 0;
  const int64_t key_dim = m.linear_num_key_heads * m.linear_key_head_dim;
  const int64_t value_dim = m.linear_num_value_heads * m.linear_value_head_dim;
  return m.hidden * (2 * key_dim + 2 * value_dim) + m.hidden * 2 * m.linear_num_value_heads +
         (2 * key_dim + value_dim) * m.linear_conv_kernel + 2 * m.linear_num_value_heads +
         m.linear_value_head_dim + value_dim * m.hidden;
}

// One compressor pooling `ratio` tokens of width `dim` (vLLM deepseek_compressor.py, coff 2
// at kCsaRatio, else 1): fused_wkv_wgate 2 coff dim x h, ape ratio x coff dim, norm dim.
int64_t compressor_params(const ModelArch& m, int64_t ratio, int64_t dim) {
  const int64_t coff = compressor_overlap(ratio);
  return 2 * coff * dim * m.hidden + ratio * coff * dim + dim;
}

// Every compressed layer's compressor, and a sparse layer's indexer (wq_b q_lora_rank x
// index heads*index_head_dim, weights_proj h x index heads, its own compressor of
// index_head_dim at kCsaRatio), over the whole stack.
int64_t compressor_params_total(const ModelArch& m) {
  if (!compressed_attention(m)) return 0;
  const int64_t indexer = m.q_lora_rank * m.index_n_heads * m.index_head_dim +
                          m.hidden * m.index_n_heads +
                          compressor_params(m, kCsaRatio, m.index_head_dim);
  return m.compressed_sparse_layers * (compressor_params(m, kCsaRatio, m.head_dim) + indexer) +
         m.heavily_compressed_layers * compressor_params(m, m.hca_ratio, m.head_dim);
}

}  // namespace

double compressor_state_bytes_per_seq(const ModelArch& m) {
  if (!compressed_attention(m)) return 0;
  const auto slots = [](int64_t ratio, int64_t dim) {
    const int64_t coff = compressor_overlap(ratio);
    return static_cast<double>(coff * ratio * 2 * coff * dim);
  };
  const double elems =
      static_cast<double>(m.compressed_sparse_layers) *
          (slots(kCsaRatio, m.head_dim) + slots(kCsaRatio, m.index_head_dim)) +
      static_cast<double>(m.heavily_compressed_layers) * slots(m.hca_ratio, m.head_dim);
  return elems * 4.0;  // fp32
}

ParamCounts count_params(const ModelArch& m) {
  ParamCounts p;
  p.attn_per_layer = attention_params(m);
  // gate, up: h->I; down: I->h (a plain MLP: fc1 h->I, fc2 I->h)
  p.mlp_per_expert = mlp_params(m, m.intermediate);
  p.router_per_layer = m.experts > 1 ? m.hidden * m.experts + (m.router_bias ? m.experts : 0) : 0;
  p.norms_per_layer = 2 * m.hidden;
  p.shared_mlp_per_layer = m.shared_experts * p.mlp_per_expert;
  p.dense_mlp_per_layer = mlp_params(m, m.dense_intermediate);
  p.moe_layers = m.num_layers - m.first_dense_layers;
  p.linear_attn_per_layer = linear_attention_params(m);
  p.embedding = m.vocab * m.hidden;
  p.lm_head = m.tied_embeddings ? 0 : m.vocab * m.hidden;
  p.compressor_total = compressor_params_total(m);
  // Hyper-connections (vLLM mhc.py): per sub-layer a mixer fn of (2 + hc) hc x hc h with its
  // base ((2 + hc) hc) and 3 scales, two sub-layers a layer; the head's hc x hc h, hc, 1.
  const int64_t hc = m.hc_mult > 1 ? m.hc_mult : 0;
  p.hc_per_layer = hc > 0 ? 2 * ((2 + hc) * hc * hc * m.hidden + (2 + hc) * hc + 3) : 0;
  p.hc_head = hc > 0 ? hc * hc * m.hidden + hc + 1 : 0;
  const int64_t common = p.attn_per_layer + p.norms_per_layer + p.hc_per_layer;
  const int64_t dense_layer = common + p.dense_mlp_per_layer;
  const int64_t moe_layer =
      common + m.experts * p.mlp_per_expert + p.shared_mlp_per_layer + p.router_per_layer;
  const int64_t active_moe_layer =
      common + m.experts_per_token * p.mlp_per_expert + p.shared_mlp_per_layer + p.router_per_layer;
  const int64_t outside =
      p.embedding + p.lm_head + m.hidden /* final norm */ + p.compressor_total + p.hc_head;
  // Linear-attention layers swap their softmax attention for a Gated DeltaNet.
  const int64_t linear_swap =
      m.linear_attention_layers * (p.linear_attn_per_layer - p.attn_per_layer);
  p.total = m.first_dense_layers * dense_layer + p.moe_layers * moe_layer + outside + linear_swap;
  p.mlp_total = m.first_dense_layers * p.dense_mlp_per_layer +
                p.moe_layers * (m.experts * p.mlp_per_expert + p.shared_mlp_per_layer);
  p.active =
      m.first_dense_layers * dense_layer + p.moe_layers * active_moe_layer + outside + linear_swap;
  // DeepSeek-V3 MTP module (README_WEIGHTS.md): enorm, hnorm, eh_proj, one decoder layer of the
  // main model's kind, shared_head.norm; embed_tokens and shared_head.head shared.
  // DeepSeek-V4's module also mixes its own hc_mult streams at its head (deepseek_v4_mtp.py).
  if (m.mtp_modules > 0)
    p.mtp_per_module = 3 * m.hidden + 2 * m.hidden * m.hidden + moe_layer + p.hc_head;
  return p;
}

double linear_state_elems_per_layer(const ModelArch& m) {
  return static_cast<double>(m.linear_num_value_heads * m.linear_key_head_dim *
                             m.linear_value_head_dim);
}

double linear_conv_elems_per_layer(const ModelArch& m) {
  if (m.linear_conv_kernel == 0) return 0;
  return static_cast<double>((2 * m.linear_num_key_heads * m.linear_key_head_dim +
                              m.linear_num_value_heads * m.linear_value_head_dim) *
                             (m.linear_conv_kernel - 1));
}

bool tp_splits_query_heads(const ModelArch& m, int64_t tp) { return tp <= 1 || m.heads % tp == 0; }

bool tp_splits_kv_heads(const ModelArch& m, int64_t tp) {
  if (tp <= 1 || m.kv_lora_rank > 0 || m.kv_heads <= 0) return true;
  return m.kv_heads >= tp ? m.kv_heads % tp == 0 : tp % m.kv_heads == 0;
}

double softmax_layer_share(const ModelArch& m) {
  if (m.linear_attention_layers == 0 || m.num_layers == 0) return 1.0;
  return static_cast<double>(m.num_layers - m.linear_attention_layers) /
         static_cast<double>(m.num_layers);
}

double sliding_layer_share(const ModelArch& m) {
  if (m.sliding_window_layers == 0 || m.num_layers == 0) return 0.0;
  return static_cast<double>(m.sliding_window_layers) / static_cast<double>(m.num_layers);
}

double non_mlp_weight_bytes(const ModelArch& m, double weights_bytes) {
  return m.quantized_experts_only && weights_bytes < 2 ? 2.0 : weights_bytes;
}

double kv_elems_per_token_layer(const ModelArch& m) {
  if (m.kv_lora_rank > 0) return static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim);
  if (m.shared_kv) return static_cast<double>(m.head_dim);  // key = value
  return 2.0 * static_cast<double>(m.kv_heads * m.head_dim);
}

const ModelArch* Catalog::find_target(const std::string& id) const {
  for (const auto& m : targets)
    if (m.id == id) return &m;
  return nullptr;
}
const ModelArch* Catalog::find_draft(const std::string& id) const {
  for (const auto& m : drafts)
    if (m.id == id) return &m;
  return nullptr;
}
const SpeculatorHead* Catalog::find_head(const std::string& family,
                                         const std::string& target) const {
  const SpeculatorHead* first = nullptr;
  for (const auto& h : heads) {
    if (h.family != family || h.target != target) continue;
    if (h.official) return &h;
    if (!first) first = &h;
  }
  return first;
}
const Gpu* Catalog::find_gpu(const std::string& id) const {
  for (const auto& g : gpus)
    if (g.id == id) return &g;
  return nullptr;
}

const RuntimeProfile* Catalog::find_runtime(const std::string& id) const {
  for (const auto& r : runtimes)
    if (r.id == id) return &r;
  return nullptr;
}

namespace {

std::string first_source(const json& entry) {
  auto it = entry.find("source");
  if (it == entry.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_array() && !it->empty() && (*it)[0].is_string()) return (*it)[0].get<std::string>();
  return "";
}

ModelArch model_from_table(const json& e) {
  ModelArch m;
  m.id = e.value("id", "");
  m.name = e.value("name", "");
  for (const ModelKey& k : kModelKeys) {
    if (k.int_member)
      m.*k.int_member = e.value(k.key, k.int_absent);
    else
      m.*k.bool_member = e.value(k.key, k.bool_absent);
  }
  if (e.contains("released_dtype") && e["released_dtype"].is_object()) {
    m.released_weights_dtype = e["released_dtype"].value("weights", "");
    m.released_dtype_source = e["released_dtype"].value("source", "");
  }
  auto repo = e.find("hf_repo");
  if (repo != e.end() && repo->is_string()) m.repo_id = repo->get<std::string>();
  m.citation = first_source(e);
  return m;
}

std::string ids(const std::vector<ModelArch>& v) {
  std::string s;
  for (const auto& m : v) s += (s.empty() ? "" : ", ") + m.id;
  return s;
}

Expected<Catalog> parse_catalog() {
  Catalog c;
  json models = json::parse(data::models(), nullptr, false);
  json hw = json::parse(data::hardware(), nullptr, false);
  if (models.is_discarded() || hw.is_discarded())
    return make_error("", "internal error: embedded preset tables are not valid JSON");
  for (const auto& e : models["targets"]) c.targets.push_back(model_from_table(e));
  for (const auto& e : models["drafts"]) c.drafts.push_back(model_from_table(e));
  for (const auto& e : models["heads"]) {
    SpeculatorHead h;
    h.family = e.value("family", "");
    h.target = e.value("target", "");
    h.repo_id = e.value("repo_id", "");
    h.official = e.value("official", false);
    h.citation = e.value("source", "");
    h.neighbour_of = e.value("neighbour_of", "");
    h.note = e.value("note", "");
    c.heads.push_back(h);
  }
  for (const auto& e : hw["gpus"]) {
    Gpu g;
    g.id = e.value("id", "");
    g.name = e.value("name", "");
    g.fp16_tflops = e.value("fp16_tflops", 0.0);
    g.fp8_tflops = e["fp8_tflops"].is_number() ? e["fp8_tflops"].get<double>() : 0.0;
    g.mem_gb = e["mem_GB"].is_number() ? e["mem_GB"].get<double>() : 0.0;
    g.mem_bw_gbps = e.value("mem_bw_GBps", 0.0);
    g.interconnect_gbps = e.value("interconnect_GBps", 0.0);
    g.vendor = e.value("vendor", std::string("NVIDIA"));
    // hardware-extra.json _meta.scale_out: 8 GPUs per NVLink domain (HGX) and 400 Gb/s per GPU
    // (ConnectX-7) unless a preset says otherwise.
    g.gpus_per_node = e.value("gpus_per_node", int64_t{8});
    g.network_gbps = e.value("network_GBps", 50.0);
    if (e.contains("host_link_GBps") && e["host_link_GBps"].is_number())
      g.host_link_gbps = e["host_link_GBps"].get<double>();
    g.host_link = e.value("host_link", std::string());
    if (e.contains("fp4_tflops") && e["fp4_tflops"].is_number())
      g.fp4_tflops = e["fp4_tflops"].get<double>();
    if (e.contains("fp4_formats") && e["fp4_formats"].is_array())
      for (const auto& f : e["fp4_formats"]) {
        g.nvfp4 = g.nvfp4 || f == "nvfp4";
        g.mxfp4 = g.mxfp4 || f == "mxfp4";
      }
    g.unified_memory = e.value("unified_memory", false);
    if (e.contains("usable_memory_fraction") && e["usable_memory_fraction"].is_number())
      g.usable_memory_fraction = e["usable_memory_fraction"].get<double>();
    g.apple_gpu_generation = e.value("apple_gpu_generation", int64_t{0});
    g.apple_gpu_ultra = e.value("apple_gpu_ultra", false);
    g.citation = first_source(e);
    c.gpus.push_back(g);
  }
  auto runtimes = load_runtime_profiles();
  if (!runtimes.ok()) return runtimes.error();
  c.runtimes = runtimes.value();
  return c;
}

}  // namespace

// Parsed once per process: the tables are compiled-in constants, so the result never changes,
// and parsing ~35 KB of JSON was most of a single eval's time (bench/: eval 330 us -> see
// docs/benchmarks.md). A function-local const (thread-safe initialization, no mutable state).
const Expected<Catalog>& load_catalog() {
  static const Expected<Catalog> parsed = parse_catalog();
  return parsed;
}

std::string target_ids(const Catalog& c) { return ids(c.targets); }
std::string draft_ids(const Catalog& c) { return ids(c.drafts); }
std::string device_noun(const Gpu& g) {
  if (g.vendor == "CPU") return "CPU";
  return g.unified_memory ? "chip" : "GPU";
}

std::string memory_noun(const Gpu& g) {
  if (g.vendor == "CPU") return "CPU memory";
  return g.unified_memory ? "unified memory" : "GPU memory";
}

std::string gpu_ids(const Catalog& c) {
  std::string s;
  for (const auto& g : c.gpus) s += (s.empty() ? "" : ", ") + g.id;
  return s;
}

}  // namespace speccalc
