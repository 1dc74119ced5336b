#include "speccalc/evaluate.hpp"

#include <algorithm>
#include <cmath>

#include "api/commands.hpp"
#include "api/json_write.hpp"
#include "api/load_report.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "config/link_codec.hpp"
#include "model/cycle_time.hpp"
#include "model/draft_length.hpp"
#include "model/evaluation_json.hpp"
#include "model/fidelity.hpp"
#include "model/memory.hpp"
#include "model/method_cost.hpp"

namespace speccalc {

using nlohmann::json;
namespace jw = json_write;

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
  m.host_memory_bytes_s = config.host_memory_gbps * 1e9;
  m.host_flops = config.host_tflops * 1e12;
  return m;
}

Machine draft_machine_for(const Config& config, const RuntimeParams& params) {
  Machine m = machine_for(config, params);
  m.gpus = m.tensor_parallel ? config.method.draft_tensor_parallel_size : 1;
  m.weights_link_gbps = 0;  // the draft stays resident on the GPU
  m.host_memory_bytes_s = m.host_flops = 0;
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

// The per-pass kernels, per pass (the totals divided by the passes per cycle).
void kernels_text(std::string& out, const PassCost& p) {
  out += '[';
  const double n = p.passes_per_cycle > 0 ? static_cast<double>(p.passes_per_cycle) : 1.0;
  jw::Object o;  // one object's buffers, reused for every kernel
  for (std::size_t i = 0; i < p.kernels.size(); ++i) {
    const KernelCost& k = p.kernels[i];
    if (i > 0) out += ',';
    o.clear();
    o.string("kind", kernel_name(k.kind));
    o.number("time_s", k.time_s / n);
    o.number("flops", k.flops / n);
    o.number("bytes", k.bytes / n);
    o.number("memory_time_s", k.memory_time_s / n);
    o.number("compute_time_s", k.compute_time_s / n);
    o.string("bound", k.bytes > 0 || k.flops > 0 ? k.bound() : "none");
    o.write(out);
  }
  out += ']';
}

// A cycle of variable length (llama.cpp's draft_p_min): the passes per cycle and the time per
// cycle are expectations; a pass (its time, bytes, FLOPs) is one of a full-length cycle.
struct ExpectedCycle {
  double passes_per_cycle = 0, time_s = 0;
};

// `label`: what the page calls the pass (its table row, the cycle bar, the roofline's point).
void pass_text(std::string& out, const PassCost& p, const char* label,
               const ExpectedCycle* expected = nullptr) {
  const double n = p.passes_per_cycle > 0 ? static_cast<double>(p.passes_per_cycle) : 1.0;
  jw::Object o;
  o.string("label", label);
  o.string("name", p.name);
  // Partial offload: the pass spans the GPU and the CPU; its CPU part is given beside the totals.
  o.string("scope", p.host_time_s > 0 ? "per_gpu_and_host" : "per_gpu");
  o.integer("tokens_per_pass", p.tokens_per_pass);
  if (expected) {
    o.number("passes_per_cycle", expected->passes_per_cycle);
    o.number("time_s", expected->time_s);
  } else {
    o.integer("passes_per_cycle", p.passes_per_cycle);
    o.number("time_s", p.time_s);
  }
  o.number("time_per_pass_s", p.time_s / n);
  o.number("flops", p.flops);
  o.number("flops_per_pass", p.flops / n);
  o.number("bytes", p.bytes);
  o.number("bytes_per_pass", p.bytes / n);
  o.number("weights_bytes", p.weights_bytes);
  o.number("kv_cache_bytes", p.kv_cache_bytes);
  o.number("activations_bytes", p.activations_bytes);
  o.number("arithmetic_intensity", p.arithmetic_intensity);
  o.number("achieved_flops_per_s", p.time_s > 0 ? p.flops / p.time_s : 0.0);
  o.string("bound", p.bound);
  o.string("limited_by", limited_by(p));
  o.number("memory_time_s", p.memory_time_s);
  o.number("compute_time_s", p.compute_time_s);
  o.number("comm_time_s", p.comm_time_s);
  o.number("overhead_s", p.overhead_s);
  if (p.host_time_s > 0) {
    o.number("host_time_per_pass_s", p.host_time_s / n);
    o.number("host_bytes_per_pass", p.host_bytes / n);
  }
  kernels_text(o.value("kernels"), p);
  o.write(out);
}

// The roofline chart's extent in arithmetic intensity: every pass lies inside it (a decode
// pass reads each weight byte for ~2 FLOPs per sequence, so even batch 1 is above 0.1; a
// verify of 4096 tokens at batch 256 stays below 1e5).
constexpr double kRoofMinFlopsPerByte = 0.1;
constexpr double kRoofMaxFlopsPerByte = 1e5;

// One roof as the chart draws it: its ridge (peak / bandwidth) and the vertices of
// min(peak, intensity * bandwidth) over the chart's extent (a straight line on log-log axes
// between them), so the page joins points and computes nothing.
void roof_text(std::string& out, const char* name, const char* label, double peak, double bw) {
  const double ridge = peak / bw;
  jw::Object o;
  std::string& vertices = o.value("vertices");
  const std::size_t start = vertices.size();
  vertices += '[';
  const auto vertex = [&](double x, double y) {
    if (vertices.size() > start + 1) vertices += ',';
    vertices += '[';
    jw::number(vertices, x);
    vertices += ',';
    jw::number(vertices, y);
    vertices += ']';
  };
  vertex(kRoofMinFlopsPerByte, std::min(peak, kRoofMinFlopsPerByte * bw));
  if (ridge > kRoofMinFlopsPerByte && ridge < kRoofMaxFlopsPerByte) vertex(ridge, peak);
  vertex(kRoofMaxFlopsPerByte, std::min(peak, kRoofMaxFlopsPerByte * bw));
  vertices += ']';
  o.string("name", name);
  o.string("label", label);
  o.number("peak_flops_per_s", peak);
  o.number("bandwidth_bytes_per_s", bw);
  o.number("ridge_flops_per_byte", ridge);
  o.write(out);
}

// The roof a page draws: per-GPU peaks and the effective ones this runtime reaches.
void roofline_text(std::string& out, const Config& config, const RuntimeParams& p) {
  const Machine m = machine_for(config, p);
  const double peak = m.peak_flops();
  const double bw = m.bandwidth_bytes_s();
  const double eff_peak = peak * p.flops_efficiency;
  const double eff_bw = bw * m.weight_bw_efficiency();
  jw::Object o;
  o.number("peak_flops_per_s", peak);
  o.number("bandwidth_bytes_per_s", bw);
  o.number("effective_flops_per_s", eff_peak);
  o.number("effective_bandwidth_bytes_per_s", eff_bw);
  o.number("ridge_point_flops_per_byte", eff_peak / eff_bw);
  std::string& roofs = o.value("roofs");
  roofs += '[';
  roof_text(roofs, "datasheet", "Roof, datasheet", peak, bw);
  roofs += ',';
  roof_text(roofs, "effective", "Roof, effective", eff_peak, eff_bw);
  roofs += ']';
  o.write(out);
}

// The runtime's parameters as the config shows them: dump() of {profile, each shown parameter}.
void runtime_text(std::string& out, const std::string& profile, const RuntimeParams& p) {
  jw::Object o;
  o.string("profile", profile);
  for (const auto& [name, value] : shown_runtime_params(p)) o.number(name, value);
  o.write(out);
}

// A list of strings as JSON text.
void strings_text(std::string& out, const std::vector<std::string>& xs) {
  out += '[';
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i > 0) out += ',';
    jw::string(out, xs[i]);
  }
  out += ']';
}

// What the engine is and runs: dump() of {id, name, summary, validated, validated_by, supports,
// calibrated}. supports.unavailable: families the engine runs that this target cannot
// ({family: reason}), so a form can grey them out with the core's words; for a draft model
// (sps) supports.unavailable_drafts: the draft presets this target cannot take ({id: reason});
// for families with draft passes supports.unavailable_draft_runtimes: the runtimes the draft
// cannot run under here ({id: reason}).
// supports' flags are for this config: data_expert_parallel needs the engine's and a
// mixture-of-experts target (the config refuses it on a dense one), so the form shows those fields
// only where they apply. calibrated (only where the config overrides the profile): [{parameter,
// value}] in config order, the profile parameters a calibration or a hand edit replaced.
void engine_text(std::string& out, const Config& c) {
  const RuntimeProfile& e = c.engine;
  jw::Object supports;
  strings_text(supports.value("families"), e.families);
  jw::Object unavailable;
  if (c.target.mtp_modules <= 0 && e.supports("mtp"))
    unavailable.string("mtp", "this target has no MTP module");
  unavailable.write(supports.value("unavailable"));
  if (c.method.family == Family::sps)
    supports.raw("unavailable_drafts", c.method.drafts_unavailable_json);
  if (family_has_draft_passes(c.method.family))
    supports.raw("unavailable_draft_runtimes", c.method.draft_runtimes_unavailable_json);
  supports.boolean("trees", e.trees);
  supports.boolean("tensor_parallel", e.tensor_parallel);
  supports.boolean("partial_offload", e.partial_offload);
  supports.boolean("data_expert_parallel", e.data_expert_parallel && c.target.experts > 1);
  jw::Object o;
  o.string("id", e.id);
  o.string("name", e.name);
  o.string("summary", e.description);
  o.boolean("validated", e.validated);
  o.string("validated_by", e.validated_by);
  supports.write(o.value("supports"));
  if (!c.runtime.overrides.empty()) {
    std::string& list = o.value("calibrated");
    list += '[';
    for (std::size_t i = 0; i < c.runtime.overrides.size(); ++i) {
      if (i > 0) list += ',';
      jw::Object item;
      item.string("parameter", c.runtime.overrides[i].first);
      item.number("value", c.runtime.overrides[i].second);
      item.write(list);
    }
    list += ']';
  }
  o.write(out);
}

void memory_text(std::string& out, const MemorySummary& m) {
  jw::Object o;
  o.number("capacity_gb_per_gpu", m.capacity_gb);
  o.string("device", m.device);
  o.string("pool", m.pool);
  o.number("usable_gb_per_gpu", m.usable_gb);
  o.number("memory_utilization", m.utilization);
  o.number("weights_gb_per_gpu", m.weights_gb);
  o.number("draft_weights_gb_per_gpu", m.draft_weights_gb);
  o.number("kv_cache_gb_per_gpu", m.kv_cache_gb);
  o.number("activations_gb_per_gpu", m.activations_gb);
  o.number("total_gb_per_gpu", m.total_gb);
  o.boolean("fits", m.fits);
  o.integer("max_batch", m.max_batch);
  o.integer("max_context", m.max_context);
  if (!m.fits_with_kv.empty()) o.string("fits_with_kv", m.fits_with_kv);
  if (!m.fits_with_weights.empty()) o.string("fits_with_weights", m.fits_with_weights);
  strings_text(o.value("suggestions"), m.suggestions);
  o.write(out);
}

// The result of one evaluation as JSON text, byte for byte what dump() of the same members as a
// json object gives (sorted keys), written straight from the evaluation into one buffer (only
// the config, the fidelity block and the load block are still dumped by nlohmann), without
// building the whole tree first. `load` (optional): the load block.
std::string evaluation_text(const Evaluation& e, const Config& config, const json* load) {
  const bool spec = config.method.family != Family::ar;
  const double comm = e.draft.comm_time_s + (spec ? e.verify.comm_time_s : e.baseline.comm_time_s);
  jw::Object out;
  out.reserve(16384);  // an evaluation's text is 7-10 KB
  jw::Object c;
  if (e.has_draft_length) {
    // Expectations over the cycle lengths (a single-device engine: no collectives).
    c.number("draft_s", e.expected_draft_s);
    c.number("verify_s", e.expected_verify_s);
    c.number("overhead_s", e.expected_overhead_s);
    c.number("comm_s", 0.0);
  } else {
    c.number("draft_s", spec ? e.draft.time_s - e.draft.comm_time_s : 0.0);
    c.number("verify_s", spec ? e.verify.time_s - e.verify.comm_time_s
                              : e.baseline.time_s - e.baseline.comm_time_s);
    c.number("overhead_s", e.step_overhead_s + e.cycle_overhead_s);
    c.number("comm_s", comm);
  }
  c.number("total_s", e.cycle_time_s);
  // What one cycle is, for the page's sentence under the cycle bar.
  c.string("label", spec ? "one draft-verify round of the whole batch"
                         : "one decode step of the whole batch (plain decoding drafts nothing)");
  c.write(out.value("cycle"));
  out.number("tau", e.tau);
  out.string("tau_definition",
             "expected tokens per draft-verify cycle per sequence, bonus token included");
  out.integer("max_tokens_per_cycle", e.max_tokens_per_cycle);
  out.number("speedup", e.speedup);
  out.string("verdict", e.verdict);
  out.string("verdict_reason", e.verdict_reason);
  out.number("tokens_per_s", e.tokens_per_s);
  out.number("baseline_tokens_per_s", e.baseline_tokens_per_s);
  out.number("cycle_time_s", e.cycle_time_s);
  out.number("baseline_step_s", e.baseline_step_s);
  out.number("step_overhead_s", e.step_overhead_s);
  out.number("cycle_overhead_s", e.cycle_overhead_s);
  pass_text(out.value("baseline"), e.baseline, "Baseline (plain decoding)");
  // Plain decoding verifies nothing: its cycle's target pass is the decode step itself.
  const char* verify_label = spec ? "Verify" : "Decode step";
  if (e.has_draft_length) {
    // Every cycle runs one target pass: a verify, or a plain step after too short a draft.
    const ExpectedCycle draft{e.expected_draft_passes, e.expected_draft_s};
    const ExpectedCycle verify{1.0, e.expected_verify_s};
    pass_text(out.value("draft"), e.draft, "Draft", &draft);
    pass_text(out.value("verify"), e.verify, verify_label, &verify);
  } else {
    pass_text(out.value("draft"), e.draft, "Draft");
    pass_text(out.value("verify"), e.verify, verify_label);
  }
  memory_text(out.value("memory"), e.memory);
  engine_text(out.value("engine"), config);
  runtime_text(out.value("runtime"), config.runtime.profile, e.runtime);
  runtime_text(out.value("draft_runtime"),
               family_has_draft_passes(config.method.family) ? config.method.draft_profile.id
                                                             : config.runtime.profile,
               e.draft_runtime);
  roofline_text(out.value("roofline"), config, e.runtime);
  strings_text(out.value("assumptions"), e.assumptions);
  out.string("tau_source", e.tau_source);
  out.string("tau_basis", e.tau_basis);
  out.boolean("tau_from_data", e.tau_from_data);
  out.raw("config", config_to_json(config).dump());
  if (family_has_draft_passes(config.method.family)) {
    // Where the draft runs, as priced: the export writes the same placement.
    const MethodConfig& m = config.method;
    jw::Object placement;
    placement.integer("tensor_parallel_size",
                      config.engine.tensor_parallel ? m.draft_tensor_parallel_size : 1);
    placement.boolean("given", m.draft_tensor_parallel_given);
    placement.string("rule",
                     m.draft_tensor_parallel_given
                         ? std::string("draft_tensor_parallel_size as given")
                         : config.engine.name + "'s default: " + config.engine.draft_tp_source);
    placement.write(out.value("draft_placement"));
  }
  if (config.method.family != Family::ar) {
    const json fidelity = fidelity_json(e, config);
    out.raw("fidelity", fidelity.dump());
    // Present only where the verdict may be the other one (most results have no caveat).
    const std::string caveat = verdict_caveat(e, config, fidelity);
    if (!caveat.empty()) out.string("verdict_caveat", caveat);
  }
  if (e.has_band) {
    jw::Object band;
    band.string("what", "the spread of tau (" + e.band_label +
                            ") and the speedup at each end, at this cycle time");
    band.string("label", e.band_label);
    band.number("tau_p5", e.tau_p5);
    band.number("tau_p95", e.tau_p95);
    band.number("speedup_p5", e.speedup_p5);
    band.number("speedup_p95", e.speedup_p95);
    band.write(out.value("band"));
  }
  if (e.has_draft_length) {
    const MethodConfig& m = config.method;
    jw::Object d;
    d.string("what",
             "tau, the cycle, and each pass kind's passes and time per cycle: expectations "
             "over the kept lengths 0..k; one pass (its time, bytes, FLOPs): a full-length "
             "cycle's");
    d.number("draft_p_min", m.draft_p_min);
    d.integer("draft_min", m.draft_min);
    d.integer("k", m.k);
    d.number("expected_kept", e.expected_kept);
    d.number("expected_draft_passes", e.expected_draft_passes);
    d.number("plain_cycle_share", e.plain_cycle_share);
    d.number("tau_fixed_k", e.tau_fixed_k);
    jw::numbers(d.value("kept_probability"), e.kept_probability);
    d.string("confidence_model", kConfidenceModel);
    d.write(out.value("draft_length"));
  }
  if (load) out.raw("load", load->dump());
  std::string text;
  text.reserve(16384);
  out.write(text);
  return text;
}

}  // namespace

json evaluation_to_json(const Evaluation& e, const Config& config) {
  return json::parse(evaluation_text(e, config, nullptr));
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
    return ok_json(evaluation_text(result.value(), config.value(), &load.value()));
  }
  // A workload preset's fixed chains, oracle and best of two: the `bounds` command.
  return ok_json(evaluation_text(result.value(), config.value(), nullptr));
}

Response eval_link(const std::string& link) {
  auto config_doc = speccalc::decode_link(link);
  if (!config_doc.ok()) return fail(config_doc.error());
  return eval(config_doc.value().dump());
}

}  // namespace commands

}  // namespace speccalc
