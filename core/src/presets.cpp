#include "speccalc/presets.hpp"

#include "json_fields.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {

using fields::json;

ParamCounts count_params(const ModelArch& m) {
  ParamCounts p;
  const int64_t q_dim = m.heads * m.head_dim;
  const int64_t kv_dim = m.kv_heads * m.head_dim;
  // q, k, v: hidden -> q_dim, kv_dim, kv_dim; o: q_dim -> hidden.
  p.attn_per_layer = m.hidden * (q_dim + 2 * kv_dim) + q_dim * m.hidden;
  if (m.qkv_bias) p.attn_per_layer += q_dim + 2 * kv_dim;
  p.mlp_per_expert = 3 * m.hidden * m.intermediate;  // gate, up: h->I; down: I->h
  p.router_per_layer = m.experts > 1 ? m.hidden * m.experts : 0;
  p.norms_per_layer = 2 * m.hidden;
  p.embedding = m.vocab * m.hidden;
  p.lm_head = m.tied_embeddings ? 0 : m.vocab * m.hidden;
  const int64_t per_layer =
      p.attn_per_layer + m.experts * p.mlp_per_expert + p.router_per_layer + p.norms_per_layer;
  p.total = m.num_layers * per_layer + p.embedding + p.lm_head + m.hidden /* final norm */;
  return p;
}

double kv_elems_per_token_layer(const ModelArch& m) {
  if (m.kv_lora_rank > 0) return static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim);
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
  m.num_layers = e.value("num_layers", int64_t{0});
  m.hidden = e.value("hidden", int64_t{0});
  m.intermediate = e.value("intermediate", int64_t{0});
  m.heads = e.value("heads", int64_t{0});
  m.kv_heads = e.value("kv_heads", int64_t{0});
  m.head_dim = e.value("head_dim", int64_t{0});
  m.vocab = e.value("vocab", int64_t{0});
  m.tied_embeddings = e.value("tied_embeddings", false);
  m.experts = e.value("experts", int64_t{1});
  m.experts_per_token = e.value("experts_per_token", int64_t{1});
  m.qkv_bias = e.value("qkv_bias", false);
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
    if (e.contains("host_link_GBps") && e["host_link_GBps"].is_number()) g.host_link_gbps = e["host_link_GBps"].get<double>();
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
Expected<Catalog> load_catalog() {
  static const Expected<Catalog> parsed = parse_catalog();
  return parsed;
}

std::string target_ids(const Catalog& c) { return ids(c.targets); }
std::string draft_ids(const Catalog& c) { return ids(c.drafts); }
std::string gpu_ids(const Catalog& c) {
  std::string s;
  for (const auto& g : c.gpus) s += (s.empty() ? "" : ", ") + g.id;
  return s;
}

}  // namespace speccalc
