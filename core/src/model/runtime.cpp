#include "speccalc/runtime.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <utility>

#include <nlohmann/json.hpp>

#include "speccalc/cost.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {

namespace {
// When a parameter belongs in a printed list (shown_runtime_params): always, or only where the
// profile models what it belongs to (where_set: the parameter itself is non-zero), so a profile
// prints what it always printed.
enum class Shown { always, regime, floor, host, method_path, where_set };

// Every parameter a profile, an override or a fit names, in RuntimeParams order. `own_path`: a
// cost of one engine's own code path, never copied to another profile as a prior
// (is_method_path_param).
struct ParamField {
  const char* name;
  double RuntimeParams::*field;
  Shown shown;
  bool own_path = false;
};
constexpr ParamField kParams[] = {
    {"bw_efficiency", &RuntimeParams::bw_efficiency, Shown::always},
    {"kv_bw_efficiency", &RuntimeParams::kv_bw_efficiency, Shown::always},
    {"flops_efficiency", &RuntimeParams::flops_efficiency, Shown::always},
    {"overlap", &RuntimeParams::overlap, Shown::always},
    {"pass_overhead_s", &RuntimeParams::pass_overhead_s, Shown::always},
    {"layer_overhead_s", &RuntimeParams::layer_overhead_s, Shown::always},
    {"step_overhead_s", &RuntimeParams::step_overhead_s, Shown::always},
    {"seq_overhead_s", &RuntimeParams::seq_overhead_s, Shown::always},
    {"request_overhead_s", &RuntimeParams::request_overhead_s, Shown::where_set},
    {"cycle_overhead_s", &RuntimeParams::cycle_overhead_s, Shown::always},
    {"tree_overhead_s", &RuntimeParams::tree_overhead_s, Shown::always},
    {"proposer_cycle_s", &RuntimeParams::proposer_cycle_s, Shown::method_path, true},
    {"eagle3_step_overhead_s", &RuntimeParams::eagle3_step_overhead_s, Shown::method_path, true},
    {"draft_model_step_s", &RuntimeParams::draft_model_step_s, Shown::method_path, true},
    {"unoverlapped_sched_s", &RuntimeParams::unoverlapped_sched_s, Shown::where_set, true},
    {"allreduce_latency_s", &RuntimeParams::allreduce_latency_s, Shown::always},
    {"score_bytes_per_element", &RuntimeParams::score_bytes_per_element, Shown::where_set, true},
    {"matvec_max_rows", &RuntimeParams::matvec_max_rows, Shown::regime},
    {"matvec_flops_efficiency", &RuntimeParams::matvec_flops_efficiency, Shown::regime},
    {"matmul_tile_rows", &RuntimeParams::matmul_tile_rows, Shown::regime},
    {"matvec_overlap", &RuntimeParams::matvec_overlap, Shown::regime},
    {"kernel_floor_s", &RuntimeParams::kernel_floor_s, Shown::floor},
    {"kernels_per_layer", &RuntimeParams::kernels_per_layer, Shown::floor},
    {"gemm_kernels_per_layer", &RuntimeParams::gemm_kernels_per_layer, Shown::floor},
    {"kernels_per_pass", &RuntimeParams::kernels_per_pass, Shown::floor},
    {"arch_kernel_s", &RuntimeParams::arch_kernel_s, Shown::where_set},
    // vLLM's and SGLang's unfused activation quantization: not a prior for another engine's.
    {"act_quant_kernel_s", &RuntimeParams::act_quant_kernel_s, Shown::where_set, true},
    // vLLM's and SGLang's own Triton fused-MoE kernel: not a prior for another engine's.
    {"moe_bw_efficiency", &RuntimeParams::moe_bw_efficiency, Shown::where_set, true},
    {"moe_call_s", &RuntimeParams::moe_call_s, Shown::where_set, true},
    {"moe_slice_k_s", &RuntimeParams::moe_slice_k_s, Shown::where_set, true},
    {"method_op_s", &RuntimeParams::method_op_s, Shown::host},
    {"host_sync_s", &RuntimeParams::host_sync_s, Shown::host},
    {"baseline_layer_syncs", &RuntimeParams::baseline_layer_syncs, Shown::where_set},
};
// runtime_param_names(): the same names, null-terminated, built from kParams at compile time.
template <std::size_t... I>
constexpr std::array<const char*, sizeof...(I) + 1> names_of(std::index_sequence<I...>) {
  return {kParams[I].name..., nullptr};
}
constexpr auto kParamNames = names_of(std::make_index_sequence<std::size(kParams)>());
}  // namespace

const char* const* runtime_param_names() { return kParamNames.data(); }

double* runtime_param(RuntimeParams& p, std::string_view name) {
  for (const ParamField& f : kParams)
    if (name == f.name) return &(p.*f.field);
  return nullptr;
}

bool is_method_path_param(std::string_view name) {
  for (const ParamField& f : kParams)
    if (name == f.name) return f.own_path;
  return false;
}

bool is_share_param(std::string_view name) { return name == "overlap" || name == "matvec_overlap"; }

double runtime_param_value(const RuntimeParams& p, std::string_view name) {
  for (const ParamField& f : kParams)
    if (name == f.name) return p.*f.field;
  return 0.0;
}

bool has_kernel_regimes(const RuntimeParams& p) { return p.matvec_max_rows > 0; }

bool in_matvec_regime(double rows, const RuntimeParams& p) {
  return p.matvec_max_rows > 0 && rows > 0 && rows <= p.matvec_max_rows;
}

double matmul_kernel_time_s(double memory_s, double compute_s, double rows,
                            const RuntimeParams& p) {
  if (!in_matvec_regime(rows, p)) return kernel_time_s(memory_s, compute_s, p.overlap);
  const double per_row = compute_s / rows;
  // Additive: the first row's dot products ride on the stream, each further row adds its own.
  // Overlapped: every row's arithmetic runs under the stream until it outlasts it.
  const double additive = std::max(memory_s, per_row) + per_row * (rows - 1.0);
  const double overlapped = std::max(memory_s, compute_s);
  return additive - p.matvec_overlap * (additive - overlapped);
}

double small_kernel_floor_s(double layers, const RuntimeParams& p) {
  return (layers * p.kernels_per_layer + p.kernels_per_pass) * p.kernel_floor_s;
}

double gemm_kernel_floor_s(double layers, const RuntimeParams& p) {
  return layers * p.gemm_kernels_per_layer * p.kernel_floor_s;
}

double matmul_compute_s(double flops, double peak_flops_s, double rows, const RuntimeParams& p) {
  if (in_matvec_regime(rows, p)) return flops / (peak_flops_s * p.matvec_flops_efficiency);
  if (p.matmul_tile_rows > 0 && rows > 0) {
    // The tile computes padded rows too: ceil(rows / tile) x tile of them.
    const double padded = std::ceil(rows / p.matmul_tile_rows) * p.matmul_tile_rows;
    return flops * (padded / rows) / (peak_flops_s * p.flops_efficiency);
  }
  return flops / (peak_flops_s * p.flops_efficiency);
}

namespace {
bool shown(const ParamField& f, const RuntimeParams& p) {
  switch (f.shown) {
    case Shown::always:
      return true;
    case Shown::regime:  // the local kernel regimes
      return has_kernel_regimes(p);
    case Shown::floor:  // the GPU-side kernel floor
      return p.kernel_floor_s > 0;
    case Shown::host:  // counted host ops and syncs
      return p.method_op_s > 0 || p.host_sync_s > 0;
    case Shown::method_path:  // an engine's fitted method-path costs, where it has them
      return p.proposer_cycle_s > 0 || p.eagle3_step_overhead_s > 0 || p.draft_model_step_s > 0;
    case Shown::where_set:  // a term only some profiles have (SGLang's scheduling, eager scores)
      return p.*f.field > 0;
  }
  return true;
}
}  // namespace

std::vector<std::pair<const char*, double>> shown_runtime_params(const RuntimeParams& p) {
  std::vector<std::pair<const char*, double>> out;
  out.reserve(std::size(kParams));
  for (const ParamField& f : kParams)
    if (shown(f, p)) out.emplace_back(f.name, p.*f.field);
  return out;
}

const char* calibration_paste_key(const RuntimeProfile& r) {
  if (r.weight_formats == "gguf") return "llama_bench";
  if (r.weight_formats == "mlx") return "mlx_lm";
  return nullptr;
}

bool RuntimeProfile::supports(const std::string& family) const {
  return std::find(families.begin(), families.end(), family) != families.end();
}

Expected<std::vector<RuntimeProfile>> load_runtime_profiles() {
  using nlohmann::json;
  json doc = json::parse(data::runtimes(), nullptr, false);
  if (doc.is_discarded() || !doc.contains("profiles"))
    return make_error("", "internal error: embedded runtimes table is not valid");
  std::vector<RuntimeProfile> out;
  for (const auto& e : doc["profiles"]) {
    RuntimeProfile r;
    r.id = e.value("id", "");
    r.name = e.value("name", r.id);
    r.description = e.value("description", "");
    r.fitted_on = e.value("fitted_on", "");
    r.validated = e.value("validated", false);
    r.validated_by = e.value("validated_by", "");
    r.tensor_parallel = e.value("tensor_parallel", true);
    r.draft_runtime = e.value("draft_runtime", "");
    r.trees = e.value("trees", true);
    r.draft_model_trees = e.value("draft_model_trees", r.trees);
    r.weight_formats = e.value("weight_formats", "");
    r.single_device = e.value("single_device", false);
    r.data_expert_parallel = e.value("data_expert_parallel", false);
    r.partial_offload = e.value("partial_offload", false);
    r.variable_draft_length = e.value("variable_draft_length", false);
    r.draft_vocab_max_difference = e.value("draft_vocab_max_difference", int64_t{0});
    r.draft_vocab_source = e.value("draft_vocab_source", "");
    r.default_hardware = e.value("default_hardware", "");
    if (e.contains("vendors"))
      for (const auto& v : e["vendors"]) r.vendors.push_back(v.get<std::string>());
    r.draft_tp_follows_target = !e.contains("draft_tensor_parallel_default") ||
                                e["draft_tensor_parallel_default"] == "target";
    if (e.contains("draft_tensor_parallel_allowed"))
      for (const auto& a : e["draft_tensor_parallel_allowed"])
        r.draft_tp_allowed.push_back(a.is_string() ? a.get<std::string>() : a.dump());
    r.draft_tp_source = e.value("draft_tensor_parallel_source", "");
    auto knobs = [](const json& k) {
      EagleKnobs out;
      out.depth = k.value("depth", int64_t{0});
      out.top_k = k.value("top_k", int64_t{0});
      out.total_token = k.value("total_token", int64_t{0});
      return out;
    };
    if (e.contains("eagle_defaults")) {
      const json& k = e["eagle_defaults"];
      r.eagle_defaults = knobs(k);
      r.eagle_defaults_mla = k.contains("mla") ? knobs(k["mla"]) : r.eagle_defaults;
      r.eagle_defaults_source = k.value("source", "");
    }
    if (e.contains("families") && e["families"].is_array())
      for (const auto& f : e["families"]) r.families.push_back(f.get<std::string>());
    for (const char* const* n = kParamNames.data(); *n; ++n) {
      *runtime_param(r.params, *n) = e["params"].value(*n, 0.0);
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace speccalc
