#include "speccalc/evaluate.hpp"

#include <algorithm>
#include <cmath>

#include "acceptance_tau.hpp"
#include "commands.hpp"
#include "json_fields.hpp"
#include "method_cost.hpp"
#include "speccalc/link.hpp"

namespace speccalc {

using nlohmann::json;

Machine machine_for(const Config& config, const RuntimeParams& params) {
  Machine m;
  m.gpu = config.hardware;
  m.gpus = config.gpus;
  // PyTorch eager research code spreads big models over GPUs with HF device_map, which runs
  // the layers one GPU after another; compiled stacks use tensor parallelism.
  m.tensor_parallel = config.runtime.profile != "hf-eager";
  m.runtime = params;
  m.dtype = config.dtype;
  return m;
}

namespace {

// Testbed calibration: scale the profile's host overheads so the modeled decode step equals
// the measured one; when the measurement is faster than the profile's roofline part, drop
// the overheads and fit the bandwidth efficiency instead.
Expected<RuntimeParams> calibrate(const Config& config, RuntimeParams params,
                                  std::vector<std::string>* notes) {
  const double measured = config.runtime.measured_decode_step_s;
  if (measured <= 0) return params;
  const Machine machine = machine_for(config, params);
  const PassCost step = baseline_pass(config, machine);
  const double host = step.overhead_s;
  const double device = step.time_s - host;
  const std::string field = "runtime.measured_decode_step_s";
  const bool has_host = params.pass_overhead_s > 0 || params.layer_overhead_s > 0;
  if (measured >= device && has_host) {
    // The step time grows monotonically with a common scale s of the host overheads (launch
    // time overlaps device time, so it is not linear in s): find s by bisection.
    auto step_at = [&](double s) {
      RuntimeParams p = params;
      p.pass_overhead_s *= s;
      p.layer_overhead_s *= s;
      return baseline_pass(config, machine_for(config, p)).time_s;
    };
    double lo = 0, hi = 1;
    for (int i = 0; i < 64 && step_at(hi) < measured; ++i) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (step_at(mid) < measured ? lo : hi) = mid;
    }
    const double scale = 0.5 * (lo + hi);
    params.pass_overhead_s *= scale;
    params.layer_overhead_s *= scale;
    params.cycle_overhead_s *= scale;
    notes->push_back("testbed calibration: host overheads scaled by " + fields::format_number(scale) +
                     " so the decode step equals the measured " + fields::format_number(measured) + " s");
    return params;
  }
  // Fit bandwidth efficiency with zero host overhead: measured = bytes / (bw * eff) + comm.
  const double comm = step.comm_time_s;
  const double needed = step.bytes / (machine.bandwidth_bytes_s() * (measured - comm));
  if (!(measured > comm) || needed > 1.0) {
    return make_error(field, "is faster than this GPU's memory bandwidth allows for this model (" +
                                 fields::format_number(step.bytes / machine.bandwidth_bytes_s() + comm) +
                                 " s at 100% of peak bandwidth)");
  }
  params.pass_overhead_s = 0;
  params.layer_overhead_s = 0;
  params.bw_efficiency = needed;
  notes->push_back("testbed calibration: host overheads set to 0 and bandwidth efficiency fitted to " +
                   fields::format_number(needed) + " to match the measured " +
                   fields::format_number(measured) + " s decode step");
  return params;
}

std::string limited_by(const PassCost& p) {
  if (p.passes_per_cycle == 0 && p.overhead_s == 0) return "none";
  const double device = std::max(p.memory_time_s, p.compute_time_s);
  // Launch-bound passes wait on the host even when their exposed overhead is small.
  if (p.launch_bound || (p.overhead_s >= device && p.overhead_s >= p.comm_time_s)) return "overhead";
  if (p.comm_time_s > device) return "communication";
  return p.compute_time_s > p.memory_time_s ? "compute" : "memory";
}

json pass_json(const PassCost& p) {
  return json{{"name", p.name},
              {"tokens_per_pass", p.tokens_per_pass},
              {"passes_per_cycle", p.passes_per_cycle},
              {"time_s", p.time_s},
              {"flops", p.flops},
              {"bytes", p.bytes},
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
              {"overhead_s", p.overhead_s}};
}

}  // namespace

Expected<Evaluation> evaluate(const Config& config, TauMemo* memo) {
  Evaluation e;
  auto params = calibrate(config, config.runtime.resolved, &e.assumptions);
  if (!params.ok()) return params.error();
  e.runtime = params.value();
  const Machine machine = machine_for(config, e.runtime);

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

  e.baseline = baseline_pass(config, machine);
  MethodPasses passes = method_passes(config, machine, e.tau);
  e.draft = passes.draft;
  e.verify = passes.verify;
  for (const auto& a : passes.assumptions) e.assumptions.push_back(a);

  if (config.method.family == Family::ar) {
    e.cycle_overhead_s = 0;
    e.cycle_time_s = e.baseline.time_s;
  } else {
    e.cycle_overhead_s = e.runtime.cycle_overhead_s;
    e.cycle_time_s = e.draft.time_s + e.verify.time_s + e.cycle_overhead_s;
  }
  const double batch = static_cast<double>(config.batch);
  e.speedup = e.tau * e.baseline.time_s / e.cycle_time_s;
  e.tokens_per_s = batch * e.tau / e.cycle_time_s;
  e.baseline_tokens_per_s = batch / e.baseline.time_s;

  const double split = machine.tensor_parallel ? static_cast<double>(config.gpus) : 1.0;
  const double g = static_cast<double>(config.gpus);
  e.weights_memory_gb = passes.resident_weights_bytes / g / 1e9;
  e.kv_memory_gb = passes.resident_kv_bytes / split / 1e9;
  if (!machine.tensor_parallel) e.kv_memory_gb = passes.resident_kv_bytes / g / 1e9;
  e.fits_in_memory = e.weights_memory_gb + e.kv_memory_gb <= config.hardware.mem_gb;

  e.assumptions.push_back("tau counts the bonus token: tokens per cycle per sequence = accepted drafts + 1; " +
                          e.tau_source);
  e.assumptions.push_back(
      "pass time = max(device, decoder layers x " + fields::format_number(e.runtime.layer_overhead_s) +
      " s of kernel launches, which overlap the GPU's work) + " + fields::format_number(e.runtime.pass_overhead_s) +
      " s per pass; device = max(bytes / (peak bandwidth x " + fields::format_number(e.runtime.bw_efficiency) +
      "), FLOPs / (peak x " + fields::format_number(e.runtime.flops_efficiency) +
      ")) + all-reduces (runtime '" + config.runtime.profile + "')");
  if (config.method.family != Family::ar)
    e.assumptions.push_back("each cycle adds " + fields::format_number(e.cycle_overhead_s) +
                            " s of speculative bookkeeping (tree building, acceptance, cache update)");
  if (config.gpus > 1)
    e.assumptions.push_back(machine.tensor_parallel
                                ? "tensor parallel over " + std::to_string(config.gpus) +
                                      " GPUs: weights, KV heads and FLOPs split evenly; 2 ring all-reduces per layer"
                                : "layers split over " + std::to_string(config.gpus) +
                                      " GPUs and run one GPU after another (HF device_map), as eager research code does");
  if (config.batch > 1)
    e.assumptions.push_back("every sequence in the batch has the same expected acceptance; the cycle waits for the whole batch");
  if (!e.fits_in_memory)
    e.assumptions.push_back("WARNING: weights (" + fields::format_number(e.weights_memory_gb) + " GB) + KV cache (" +
                            fields::format_number(e.kv_memory_gb) + " GB) per GPU exceed its " +
                            fields::format_number(config.hardware.mem_gb) + " GB");
  e.assumptions.push_back("target: " + config.target.name +
                          (config.target.citation.empty() ? "" : " (" + config.target.citation + ")"));
  e.assumptions.push_back("hardware: " + config.hardware.name +
                          (config.hardware.citation.empty() ? "" : " (" + config.hardware.citation + ")"));
  return e;
}

namespace {
// The roof a page draws: per-GPU peaks and the effective ones this runtime reaches.
json roofline_json(const Config& config, const RuntimeParams& p) {
  const Machine m = machine_for(config, p);
  const double peak = m.peak_flops();
  const double bw = m.bandwidth_bytes_s();
  return json{{"peak_flops_per_s", peak},
              {"bandwidth_bytes_per_s", bw},
              {"effective_flops_per_s", peak * p.flops_efficiency},
              {"effective_bandwidth_bytes_per_s", bw * p.bw_efficiency},
              {"ridge_point_flops_per_byte", peak * p.flops_efficiency / (bw * p.bw_efficiency)}};
}
}  // namespace

json evaluation_to_json(const Evaluation& e, const Config& config) {
  json runtime = json::object();
  const RuntimeParams& p = e.runtime;
  runtime["profile"] = config.runtime.profile;
  runtime["bw_efficiency"] = p.bw_efficiency;
  runtime["flops_efficiency"] = p.flops_efficiency;
  runtime["pass_overhead_s"] = p.pass_overhead_s;
  runtime["layer_overhead_s"] = p.layer_overhead_s;
  runtime["cycle_overhead_s"] = p.cycle_overhead_s;
  runtime["allreduce_latency_s"] = p.allreduce_latency_s;
  return json{{"tau", e.tau},
              {"tau_definition", "expected tokens per draft-verify cycle per sequence, bonus token included"},
              {"max_tokens_per_cycle", e.max_tokens_per_cycle},
              {"speedup", e.speedup},
              {"tokens_per_s", e.tokens_per_s},
              {"baseline_tokens_per_s", e.baseline_tokens_per_s},
              {"cycle_time_s", e.cycle_time_s},
              {"cycle_overhead_s", e.cycle_overhead_s},
              {"baseline", pass_json(e.baseline)},
              {"draft", pass_json(e.draft)},
              {"verify", pass_json(e.verify)},
              {"memory", json{{"weights_gb_per_gpu", e.weights_memory_gb},
                              {"kv_cache_gb_per_gpu", e.kv_memory_gb},
                              {"fits", e.fits_in_memory}}},
              {"runtime", runtime},
              {"roofline", roofline_json(config, e.runtime)},
              {"assumptions", e.assumptions},
              {"config", config_to_json(config)}};
}

namespace commands {

Response eval(const std::string& config_json) {
  auto catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  auto result = evaluate(config.value());
  if (!result.ok()) return fail(result.error());
  return ok_json(evaluation_to_json(result.value(), config.value()).dump());
}

Response eval_link(const std::string& link) {
  auto config_doc = speccalc::decode_link(link);
  if (!config_doc.ok()) return fail(config_doc.error());
  return eval(config_doc.value().dump());
}

}  // namespace commands

}  // namespace speccalc
