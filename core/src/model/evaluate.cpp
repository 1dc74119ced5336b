#include "speccalc/evaluate.hpp"

#include <algorithm>
#include <cmath>

#include "api/commands.hpp"
#include "api/load_report.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "config/link_codec.hpp"
#include "model/cycle_time.hpp"
#include "model/evaluation_json.hpp"
#include "model/fidelity.hpp"
#include "model/memory.hpp"
#include "model/method_cost.hpp"

namespace speccalc {

using nlohmann::json;

Machine machine_for(const Config& config, const RuntimeParams& params) {
  Machine m;
  m.gpu = config.hardware;
  m.gpus = config.gpus;
  // Research code spreads big models over GPUs with HF device_map, which runs the layers one
  // GPU after another; engines use tensor parallelism.
  m.tensor_parallel = config.engine.tensor_parallel;
  m.runtime = params;
  m.dtype = config.dtype;
  if (config.offload_target) m.weights_link_gbps = config.host_link_gbps;
  return m;
}

Machine draft_machine_for(const Config& config, const RuntimeParams& params) {
  Machine m = machine_for(config, params);
  m.gpus = m.tensor_parallel ? config.method.draft_tensor_parallel_size : 1;
  m.weights_link_gbps = 0;  // the draft stays resident on the GPU
  return m;
}

namespace {

std::string limited_by(const PassCost& p) {
  if (p.passes_per_cycle == 0 && p.overhead_s == 0) return "none";
  const double device = p.memory_time_s + p.compute_time_s;
  // Launch-bound passes wait on the host even when their exposed overhead is small.
  if (p.launch_bound || (p.overhead_s >= device && p.overhead_s >= p.comm_time_s))
    return "overhead";
  if (p.comm_time_s > device) return "communication";
  return p.compute_time_s > p.memory_time_s ? "compute" : "memory";
}

json kernels_json(const PassCost& p) {
  json out = json::array();
  const double n = p.passes_per_cycle > 0 ? static_cast<double>(p.passes_per_cycle) : 1.0;
  for (const KernelCost& k : p.kernels) {
    out.push_back(json{{"kind", kernel_name(k.kind)},
                       {"time_s", k.time_s / n},
                       {"flops", k.flops / n},
                       {"bytes", k.bytes / n},
                       {"memory_time_s", k.memory_time_s / n},
                       {"compute_time_s", k.compute_time_s / n},
                       {"bound", k.bytes > 0 || k.flops > 0 ? k.bound() : "none"}});
  }
  return out;
}

json pass_json(const PassCost& p) {
  const double n = p.passes_per_cycle > 0 ? static_cast<double>(p.passes_per_cycle) : 1.0;
  return json{{"name", p.name},
              {"scope", "per_gpu"},
              {"tokens_per_pass", p.tokens_per_pass},
              {"passes_per_cycle", p.passes_per_cycle},
              {"time_s", p.time_s},
              {"time_per_pass_s", p.time_s / n},
              {"flops", p.flops},
              {"flops_per_pass", p.flops / n},
              {"bytes", p.bytes},
              {"bytes_per_pass", p.bytes / n},
              {"weights_bytes", p.weights_bytes},
              {"kv_cache_bytes", p.kv_cache_bytes},
              {"activations_bytes", p.activations_bytes},
              {"arithmetic_intensity", p.arithmetic_intensity},
              {"achieved_flops_per_s", p.time_s > 0 ? p.flops / p.time_s : 0.0},
              {"bound", p.bound},
              {"limited_by", limited_by(p)},
              {"memory_time_s", p.memory_time_s},
              {"compute_time_s", p.compute_time_s},
              {"comm_time_s", p.comm_time_s},
              {"overhead_s", p.overhead_s},
              {"kernels", kernels_json(p)}};
}

}  // namespace

namespace {
// The roofline chart's extent in arithmetic intensity: every pass lies inside it (a decode
// pass reads each weight byte for ~2 FLOPs per sequence, so even batch 1 is above 0.1; a
// verify of 4096 tokens at batch 256 stays below 1e5).
constexpr double kRoofMinFlopsPerByte = 0.1;
constexpr double kRoofMaxFlopsPerByte = 1e5;

// One roof as the chart draws it: its ridge (peak / bandwidth) and the vertices of
// min(peak, intensity * bandwidth) over the chart's extent (a straight line on log-log axes
// between them), so the page joins points and computes nothing.
json roof_json(const char* name, const char* label, double peak, double bw) {
  const double ridge = peak / bw;
  json vertices = json::array();
  vertices.push_back({kRoofMinFlopsPerByte, std::min(peak, kRoofMinFlopsPerByte * bw)});
  if (ridge > kRoofMinFlopsPerByte && ridge < kRoofMaxFlopsPerByte)
    vertices.push_back({ridge, peak});
  vertices.push_back({kRoofMaxFlopsPerByte, std::min(peak, kRoofMaxFlopsPerByte * bw)});
  return json{{"name", name},
              {"label", label},
              {"peak_flops_per_s", peak},
              {"bandwidth_bytes_per_s", bw},
              {"ridge_flops_per_byte", ridge},
              {"vertices", vertices}};
}

// The roof a page draws: per-GPU peaks and the effective ones this runtime reaches.
json roofline_json(const Config& config, const RuntimeParams& p) {
  const Machine m = machine_for(config, p);
  const double peak = m.peak_flops();
  const double bw = m.bandwidth_bytes_s();
  const double eff_peak = peak * p.flops_efficiency;
  const double eff_bw = bw * m.weight_bw_efficiency();
  return json{
      {"peak_flops_per_s", peak},
      {"bandwidth_bytes_per_s", bw},
      {"effective_flops_per_s", eff_peak},
      {"effective_bandwidth_bytes_per_s", eff_bw},
      {"ridge_point_flops_per_byte", eff_peak / eff_bw},
      {"roofs", json::array({roof_json("datasheet", "Roof, datasheet", peak, bw),
                             roof_json("effective", "Roof, effective", eff_peak, eff_bw)})}};
}

json runtime_json(const std::string& profile, const RuntimeParams& p) {
  json r = json::object();
  r["profile"] = profile;
  for (const char* const* n = runtime_param_names(); *n; ++n)
    if (runtime_param_shown(p, *n)) r[*n] = runtime_param_value(p, *n);
  return r;
}

json engine_json(const RuntimeProfile& e) {
  return json{
      {"id", e.id},
      {"name", e.name},
      {"summary", e.description},
      {"validated", e.validated},
      {"validated_by", e.validated_by},
      {"supports",
       json{{"families", e.families}, {"trees", e.trees}, {"tensor_parallel", e.tensor_parallel}}}};
}

json memory_json(const MemorySummary& m) {
  return json{{"capacity_gb_per_gpu", m.capacity_gb},
              {"usable_gb_per_gpu", m.usable_gb},
              {"memory_utilization", m.utilization},
              {"weights_gb_per_gpu", m.weights_gb},
              {"draft_weights_gb_per_gpu", m.draft_weights_gb},
              {"kv_cache_gb_per_gpu", m.kv_cache_gb},
              {"activations_gb_per_gpu", m.activations_gb},
              {"total_gb_per_gpu", m.total_gb},
              {"fits", m.fits},
              {"max_batch", m.max_batch},
              {"max_context", m.max_context},
              {"suggestions", m.suggestions}};
}
}  // namespace

json evaluation_to_json(const Evaluation& e, const Config& config) {
  const bool spec = config.method.family != Family::ar;
  const double comm = e.draft.comm_time_s + (spec ? e.verify.comm_time_s : e.baseline.comm_time_s);
  json cycle = json{{"draft_s", spec ? e.draft.time_s - e.draft.comm_time_s : 0.0},
                    {"verify_s", (spec ? e.verify.time_s - e.verify.comm_time_s
                                       : e.baseline.time_s - e.baseline.comm_time_s)},
                    {"overhead_s", e.step_overhead_s + e.cycle_overhead_s},
                    {"comm_s", comm},
                    {"total_s", e.cycle_time_s}};
  json out = json{{"tau", e.tau},
                  {"tau_definition",
                   "expected tokens per draft-verify cycle per sequence, bonus token included"},
                  {"max_tokens_per_cycle", e.max_tokens_per_cycle},
                  {"speedup", e.speedup},
                  {"verdict", e.verdict},
                  {"verdict_reason", e.verdict_reason},
                  {"tokens_per_s", e.tokens_per_s},
                  {"baseline_tokens_per_s", e.baseline_tokens_per_s},
                  {"cycle_time_s", e.cycle_time_s},
                  {"baseline_step_s", e.baseline_step_s},
                  {"step_overhead_s", e.step_overhead_s},
                  {"cycle_overhead_s", e.cycle_overhead_s},
                  {"cycle", cycle},
                  {"baseline", pass_json(e.baseline)},
                  {"draft", pass_json(e.draft)},
                  {"verify", pass_json(e.verify)},
                  {"memory", memory_json(e.memory)},
                  {"engine", engine_json(config.engine)},
                  {"runtime", runtime_json(config.runtime.profile, e.runtime)},
                  {"draft_runtime", runtime_json(family_has_draft_passes(config.method.family)
                                                     ? config.method.draft_profile.id
                                                     : config.runtime.profile,
                                                 e.draft_runtime)},
                  {"roofline", roofline_json(config, e.runtime)},
                  {"assumptions", e.assumptions},
                  {"tau_source", e.tau_source},
                  {"config", config_to_json(config)}};
  if (family_has_draft_passes(config.method.family)) {
    // Where the draft runs, as priced: the export writes the same placement.
    const MethodConfig& m = config.method;
    out["draft_placement"] = json{
        {"tensor_parallel_size", config.engine.tensor_parallel ? m.draft_tensor_parallel_size : 1},
        {"given", m.draft_tensor_parallel_given},
        {"rule", m.draft_tensor_parallel_given
                     ? "draft_tensor_parallel_size as given"
                     : config.engine.name + "'s default: " + config.engine.draft_tp_source}};
  }
  if (config.method.family != Family::ar) out["fidelity"] = fidelity_json(e, config);
  if (e.has_band)
    out["band"] = json{{"what", "the spread of tau (" + e.band_label +
                                    ") and the speedup at each end, at this cycle time"},
                       {"label", e.band_label},
                       {"tau_p5", e.tau_p5},
                       {"tau_p95", e.tau_p95},
                       {"speedup_p5", e.speedup_p5},
                       {"speedup_p95", e.speedup_p95}};
  return out;
}

namespace commands {

Response eval(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  auto result = evaluate(config.value());
  if (!result.ok()) return fail(result.error());
  if (config.value().load.present) {
    // The load block: the load model's summary at the configured rate or concurrency.
    auto load = load_report(config.value(), catalog.value(), false);
    if (!load.ok()) return fail(load.error());
    json out = evaluation_to_json(result.value(), config.value());
    out["load"] = std::move(load.value());
    return ok_json(out.dump());
  }
  // A workload preset's fixed chains, oracle and best of two: the `bounds` command.
  return ok_json(evaluation_to_json(result.value(), config.value()).dump());
}

Response eval_link(const std::string& link) {
  auto config_doc = speccalc::decode_link(link);
  if (!config_doc.ok()) return fail(config_doc.error());
  return eval(config_doc.value().dump());
}

}  // namespace commands

}  // namespace speccalc
