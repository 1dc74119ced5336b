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

// Plain decode step (pass + engine step) of `config` at `batch` under `params`.
double decode_step_s(const Config& config, int64_t batch, const RuntimeParams& params) {
  Config c = config;
  c.batch = batch;
  const Machine m = machine_for(c, params);
  const Placement place = placement_for(c, m.tensor_parallel);
  const Work w =
      decoder_work(c.target, c.target.num_layers, batch, 1, c.context, 1, c.dtype, place.target);
  return time_pass(w, m, params.baseline_layer_syncs).time_s +
         method_host_s(decode_host_ops(), params) + params.step_overhead_s +
         static_cast<double>(batch) * params.seq_overhead_s;
}

// Testbed calibration: scale the profile's host overheads so the modeled decode step at the
// measured batch equals the measured one; when the measurement is faster than the profile's
// device time, drop the overheads and fit the bandwidth efficiency instead. The result holds
// at every batch of sweeps and sizing.
Expected<RuntimeParams> calibrate(const Config& config, RuntimeParams params,
                                  std::vector<std::string>* notes) {
  const double measured = config.runtime.measured_decode_step_s;
  if (measured <= 0) return params;
  const int64_t batch = config.runtime.measured_decode_batch > 0
                            ? config.runtime.measured_decode_batch
                            : config.batch;
  const std::string field = "runtime.measured_decode_step_s";
  auto scaled = [&](double s) {
    RuntimeParams p = params;
    p.pass_overhead_s *= s;
    p.layer_overhead_s *= s;
    p.step_overhead_s *= s;
    p.seq_overhead_s *= s;
    p.cycle_overhead_s *= s;
    p.tree_overhead_s *= s;
    p.method_op_s *= s;
    p.host_sync_s *= s;
    return p;
  };
  const double device_only = decode_step_s(config, batch, scaled(0));
  const bool has_host = params.pass_overhead_s > 0 || params.layer_overhead_s > 0 ||
                        params.step_overhead_s > 0 || params.seq_overhead_s > 0 ||
                        params.method_op_s > 0 || params.host_sync_s > 0;
  if (measured >= device_only && has_host) {
    // The step grows monotonically with the common scale s of the host overheads (launches
    // overlap device time, so not linearly): bisection.
    double lo = 0, hi = 1;
    for (int i = 0; i < 64 && decode_step_s(config, batch, scaled(hi)) < measured; ++i) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (decode_step_s(config, batch, scaled(mid)) < measured ? lo : hi) = mid;
    }
    const double scale = 0.5 * (lo + hi);
    notes->push_back("testbed calibration: host overheads scaled by " +
                     fields::format_significant(scale) + " so the decode step at batch " +
                     std::to_string(batch) + " equals the measured " +
                     fields::format_seconds(measured) + "; used at every batch");
    return scaled(scale);
  }
  // Fit the bandwidth efficiency with no host overhead: the step falls monotonically as the
  // efficiency rises. Bisection on [0.001, 1].
  RuntimeParams p = scaled(0);
  auto step_at = [&](double eff) {
    RuntimeParams q = p;
    q.bw_efficiency = eff;
    q.kv_bw_efficiency = eff;
    return decode_step_s(config, batch, q);
  };
  if (step_at(1.0) > measured) {
    return make_error(field,
                      "is faster than this GPU's memory bandwidth allows for this model at batch " +
                          std::to_string(batch) + " (" + fields::format_seconds(step_at(1.0)) +
                          " at 100% of peak bandwidth)");
  }
  double lo = 0.001, hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = 0.5 * (lo + hi);
    (step_at(mid) > measured ? lo : hi) = mid;
  }
  p.bw_efficiency = 0.5 * (lo + hi);
  p.kv_bw_efficiency = p.bw_efficiency;
  notes->push_back(
      "testbed calibration: host overheads set to 0 and bandwidth efficiency fitted to " +
      fields::format_significant(p.bw_efficiency) + " to match the measured " +
      fields::format_seconds(measured) + " decode step at batch " + std::to_string(batch));
  return p;
}

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

void add_setup_assumptions(const Config& config, const Evaluation& e,
                           std::vector<std::string>* out) {
  const RuntimeParams& r = e.runtime;
  out->push_back("engine '" + config.engine.id + "' (" + config.engine.name +
                 "): each kernel class (GEMMs, attention, LM head, "
                 "other) costs bytes / (peak bandwidth x efficiency: weights " +
                 fields::format_significant(r.bw_efficiency) + ", KV " +
                 fields::format_significant(r.kv_bw_efficiency) + ") + FLOPs / (peak x " +
                 fields::format_significant(r.flops_efficiency) + "); a pass adds " +
                 fields::format_seconds(r.pass_overhead_s) + ", an engine step " +
                 fields::format_seconds(r.step_overhead_s) + " + " +
                 fields::format_seconds(r.seq_overhead_s) + " per sequence" +
                 (r.layer_overhead_s > 0
                      ? "; kernel launches " + fields::format_seconds(r.layer_overhead_s) +
                            " per layer overlap the GPU's work"
                      : ""));
  if (!config.engine.validated)
    out->push_back("no published speculative measurement validates the '" + config.engine.id +
                   "' profile: " + config.engine.validated_by);
  if (config.method.family != Family::ar)
    out->push_back(
        "each cycle adds " + fields::format_seconds(e.cycle_overhead_s) +
        " of speculative bookkeeping (proposer, rejection sampling, acceptance, cache update" +
        std::string(config.method.family == Family::eagle2 ||
                            config.method.family == Family::eagle3 ||
                            family_uses_tree(config.method.family)
                        ? ", tree build and mask)"
                        : ")"));
  if (family_has_draft_passes(config.method.family))
    out->push_back("draft passes run under '" + config.method.draft_profile.id + "' on " +
                   std::to_string(config.engine.tensor_parallel
                                      ? config.method.draft_tensor_parallel_size
                                      : 1) +
                   " GPU(s)");
  if (config.gpus > 1)
    out->push_back(config.engine.tensor_parallel
                       ? "tensor parallel over " + std::to_string(config.gpus) +
                             " GPUs: heads, MLP and vocabulary split evenly (KV heads replicated "
                             "when fewer than "
                             "GPUs); 2 ring all-reduces per layer; bytes and FLOPs are per GPU"
                       : "layers split over " + std::to_string(config.gpus) +
                             " GPUs and run one GPU after another (HF device_map), as eager "
                             "research code does");
  if (config.offload_target)
    out->push_back("target weights in host memory, streamed over the host link at " +
                   fields::format_number(config.host_link_gbps) +
                   " GB/s (its peak) once per pass; the draft and the KV "
                   "cache stay on the GPU");
  if (config.target.experts > 1)
    out->push_back(
        "MoE: a pass reads the experts its tokens touch, E(1 - (1 - k/E)^tokens) per layer, "
        "assuming "
        "uniform routing (real routers are skewed and touch fewer)");
  if (config.batch > 1)
    out->push_back(
        "every sequence in the batch has the same expected acceptance; the cycle waits for the "
        "whole batch");
  for (const ModelArch* m :
       {&config.target,
        family_has_draft_passes(config.method.family) ? &config.method.draft_model : nullptr}) {
    if (m && m->sliding_window_layers > 0)
      out->push_back(m->name + ": sliding-window attention (" + std::to_string(m->sliding_window) +
                     " tokens on " + std::to_string(m->sliding_window_layers) + " of " +
                     std::to_string(m->num_layers) +
                     " layers) is costed as full attention: its KV cache and attention work are "
                     "upper bounds");
  }
  if (dtype_is_fp4(config.dtype.weights))
    out->push_back(
        fp4_native(config.dtype.weights, config.hardware)
            ? std::string(dtype_name(config.dtype.weights)) + " weights (" +
                  fields::format_number(dtype_bytes(config.dtype.weights) * 8) +
                  " bits a weight with block scales) on fp4 tensor cores: " +
                  fields::format_number(config.hardware.fp4_tflops) + " TFLOP/s dense peak"
            : std::string(dtype_name(config.dtype.weights)) + " weights (" +
                  fields::format_number(dtype_bytes(config.dtype.weights) * 8) +
                  " bits a weight with block scales) on a GPU whose tensor cores do not run " +
                  dtype_name(config.dtype.weights) +
                  ": dequantized to fp16 in the kernel (weight-only, like int4): fp16 peak "
                  "FLOPs, int4 bandwidth factor");
  if (config.dtype.weights == DType::fp8 && config.hardware.fp8_tflops <= 0)
    out->push_back(
        "fp8 weights on a GPU without fp8 tensor cores: dequantized to fp16 (weight-only, like "
        "int8): "
        "fp16 peak FLOPs, int8 bandwidth factor");
  // Engines bound to a vendor (the local Apple engines) are fitted on that vendor's hardware.
  const auto& vendors = config.engine.vendors;
  const bool fitted_here = config.hardware.vendor == "NVIDIA" ||
                           (vendors.size() == 1 && vendors[0] == config.hardware.vendor);
  if (!fitted_here)
    out->push_back("the runtime efficiencies were fitted on NVIDIA GPUs; on " +
                   config.hardware.vendor + " hardware they are an assumption, not a measurement");
  out->push_back("target: " + config.target.name +
                 (config.target.citation.empty() ? "" : " (" + config.target.citation + ")"));
  out->push_back("hardware: " + config.hardware.name +
                 (config.hardware.citation.empty() ? "" : " (" + config.hardware.citation + ")"));
}

void set_verdict(const Config& config, Evaluation* e) {
  if (!e->memory.fits) {
    e->verdict = "infeasible";
    // The numbers and what would fit are in memory.suggestions (the page lists them with it).
    e->verdict_reason =
        "This setup does not fit in GPU memory, so no speedup applies; what would fit is listed "
        "with the memory breakdown.";
  } else if (config.method.family == Family::ar) {
    e->verdict = "baseline";
    e->verdict_reason = "Plain decoding: the baseline every speculative method is compared with.";
  } else if (e->speedup > 1.0) {
    e->verdict = "pays";
    // The page heads the verdict with its state ("Speculation pays off"): the reason gives
    // the number without repeating it.
    e->verdict_reason = fields::format_number(std::round(e->speedup * 100) / 100) +
                        "x the plain decoding speed on this setup.";
  } else {
    e->verdict = "loses";
    e->verdict_reason = fields::format_number(std::round(e->speedup * 100) / 100) +
                        "x, slower than plain decoding on this setup.";
  }
}

}  // namespace

Expected<Evaluation> evaluate(const Config& config, TauMemo* memo) {
  Evaluation e;
  auto params = calibrate(config, config.runtime.resolved, &e.assumptions);
  if (!params.ok()) return params.error();
  e.runtime = params.value();
  e.draft_runtime = family_has_draft_passes(config.method.family)
                        ? config.method.draft_profile.params
                        : e.runtime;
  if (config.method.draft_runtime.empty() &&
      config.method.draft_profile.id == config.runtime.profile)
    e.draft_runtime = e.runtime;  // calibration carries to drafts on the same stack
  const Machine target = machine_for(config, e.runtime);
  const Machine draft = draft_machine_for(config, e.draft_runtime);

  TauResult computed;
  const TauResult* tau = &computed;
  if (memo) {
    auto remembered = memo->get(config);
    if (!remembered.ok()) return remembered.error();
    tau = remembered.value();
  } else {
    auto fresh = expected_tau(config);
    if (!fresh.ok()) return fresh.error();
    computed = std::move(fresh.value());
  }
  e.tau = tau->tau;
  e.tau_source = tau->source;
  e.max_tokens_per_cycle = tau->max_tokens;

  const CycleWork work = cycle_work(config, placement_for(config, target.tensor_parallel), e.tau);
  const CycleTime t = time_cycle(work, target, draft, config.batch);
  e.baseline = t.baseline;
  e.baseline.name = "autoregressive decode step (target, 1 token per sequence)";
  e.draft = t.draft;
  e.draft.name = work.draft_name;
  e.verify = t.verify;
  e.verify.name = work.has_verify ? work.verify_name : "none";
  for (const auto& a : work.assumptions) e.assumptions.push_back(a);
  e.step_overhead_s = t.step_overhead_s;
  e.cycle_overhead_s = t.spec_overhead_s;
  e.baseline_step_s = t.baseline_step_s;
  e.cycle_time_s = t.cycle_s;
  if (config.method.family == Family::ar) {
    e.verify = e.baseline;  // plain decoding "verifies" its one token
  }
  const double batch = static_cast<double>(config.batch);
  e.speedup = e.tau * e.baseline_step_s / e.cycle_time_s;
  e.tokens_per_s = batch * e.tau / e.cycle_time_s;
  e.baseline_tokens_per_s = batch / e.baseline_step_s;

  if (tau->has_band) {
    // The cycle's cost barely depends on tau (only the draft's first pass re-reads the
    // accepted tokens), so the band scales the speedup with tau at this cycle time.
    e.has_band = true;
    e.tau_p5 = tau->tau_p5;
    e.tau_p95 = tau->tau_p95;
    e.speedup_p5 = e.tau_p5 * e.baseline_step_s / e.cycle_time_s;
    e.speedup_p95 = e.tau_p95 * e.baseline_step_s / e.cycle_time_s;
    e.band_label = tau->band_label;
  }
  e.tau_from_data = tau->from_data;
  const MemoryReport m = memory_report(config, work.memory);
  e.memory = MemorySummary{m.capacity_gb,    m.usable_gb,        m.utilization,
                           m.weights_gb,     m.draft_weights_gb, m.kv_cache_gb,
                           m.activations_gb, m.total_gb,         m.fits,
                           m.max_batch,      m.max_context,      m.suggestions};
  e.fits_in_memory = m.fits;
  set_verdict(config, &e);

  e.assumptions.push_back(
      "tau counts the bonus token: tokens per cycle per sequence = accepted drafts + 1; " +
      e.tau_source);
  add_setup_assumptions(config, e, &e.assumptions);
  return e;
}

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
  auto catalog = load_catalog();
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
