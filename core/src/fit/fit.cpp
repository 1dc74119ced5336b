#include "fit/fit.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>

#include "api/load_report.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "fit/published_row_config.hpp"
#include "model/cycle_time.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/published.hpp"
#include "speccalc/validate.hpp"

namespace speccalc {

using fields::json;

namespace {

// YYYY-MM-DD, digits where digits go: dates compare as strings.
bool iso_date(const std::string& d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (std::size_t k : {0, 1, 2, 3, 5, 6, 8, 9})
    if (d[k] < '0' || d[k] > '9') return false;
  return true;
}

// A "forward" row's pass (llama-bench's pp N): one sequence's N prompt tokens in one pass, each
// attending to the prompt so far (its own tokens are the context: none cached before), through
// the LM head once. Both the fit's reduced form and the full model price this one pass.
Work forward_work(const Config& c, const Placement& place, int64_t tokens) {
  return decoder_work(c.target, c.target.num_layers, 1, tokens, 0, 1, c.dtype, place.target);
}

// A "matmul" row: one multiply of `rows` input rows by a k x n weight matrix stored at `bits`
// per weight, timed alone (no layers, no pass around it): its bytes are the weights once, its
// FLOPs 2 k n per row, in the GEMM class where the engine's kernel regimes price it. The row's
// measured value is its time as a multiple of the same multiply with one row: a large matrix
// alone streams faster than a whole model's mix of matrices does, so the one-row time would
// pull the profile's bandwidth away from its decode steps; the multiple is what the kernel
// regimes (rows per kernel, per-row compute, its overlap with the stream) decide.
Work matmul_work(const Observation& o, int64_t rows) {
  Work w;
  KernelWork& g = w[Kernel::gemm];
  g.flops = 2.0 * o.matmul_k * o.matmul_n * static_cast<double>(rows);
  g.weights_bytes = o.matmul_k * o.matmul_n * o.matmul_weight_bits / 8.0;
  g.rows = static_cast<double>(rows);
  return w;
}

FastPass fast_pass(const Work& w, const Machine& m, int64_t passes) {
  FastPass f;
  const double bw = m.bandwidth_bytes_s();
  const double wbw = m.weights_link_gbps > 0 ? m.weights_link_gbps * 1e9 * m.runtime.bw_efficiency
                                             : bw * weight_bandwidth_factor(m.dtype.weights, m.gpu);
  // 16-bit weights of a quantized_experts_only model: no low-bit factor (time_pass).
  const double w16bw =
      m.weights_link_gbps > 0 ? m.weights_link_gbps * 1e9 * m.runtime.bw_efficiency : bw;
  const double peak = m.peak_flops();
  for (int i = 0; i < kKernelKinds; ++i) {
    const KernelWork& k = w.kernels[i];
    f.weights_s[i] =
        (k.weights_bytes - k.weights_16bit_bytes) / wbw + k.weights_16bit_bytes / w16bw;
    f.expert_weights_s[i] = m.weights_link_gbps > 0 ? 0.0 : k.expert_weights_bytes / wbw;
    f.kv_s[i] = k.kv_cache_bytes / bw;
    f.act_s[i] = k.activations_bytes / bw;
    f.score_s[i] = k.score_elements / bw;
    f.flops_s[i] = (k.flops - k.flops_16bit) / peak +
                   (k.flops_16bit > 0 ? k.flops_16bit / m.peak_flops_16bit() : 0.0);
    f.rows[i] = k.rows;
  }
  f.allreduces = static_cast<double>(collective_count(w));
  f.network_collectives = static_cast<double>(network_collective_count(w, m.gpu));
  f.comm_bytes_s = collective_transfer_s(w, m.gpu);
  f.layers = static_cast<double>(w.layers);
  f.arch_kernels = w.arch_kernels;
  f.quant_kernels = act_quant_kernels(w, m.gpu, m.dtype.weights);
  f.moe_layers = w.moe_layers;
  f.moe_slice_k = w.moe_slice_k;
  f.passes = static_cast<double>(passes);
  return f;
}

// time_pass()'s GPU time of one pass over the reduced form: the same formula, evaluated per
// kernel class, with the kernel floors, the MLA / MoE kernels and the collectives.
double fast_device(const FastPass& f, const RuntimeParams& p) {
  double device = (f.allreduces - f.network_collectives) * p.allreduce_latency_s +
                  f.network_collectives * collective_latency_s(p.allreduce_latency_s, true) +
                  f.comm_bytes_s;
  double small = 0, gemm = 0;  // attention + other, and the GEMMs, for the kernel floor
  const double moe_eff = p.moe_bw_efficiency > 0 ? p.moe_bw_efficiency : p.bw_efficiency;
  for (int i = 0; i < kKernelKinds; ++i) {
    const double mem = (f.weights_s[i] - f.expert_weights_s[i]) / p.bw_efficiency +
                       f.expert_weights_s[i] / moe_eff + f.kv_s[i] / p.kv_bw_efficiency +
                       (f.act_s[i] + f.score_s[i] * p.score_bytes_per_element) / p.bw_efficiency;
    const bool matmul =
        i == static_cast<int>(Kernel::gemm) || i == static_cast<int>(Kernel::lm_head);
    const double compute = matmul ? matmul_compute_s(f.flops_s[i], 1.0, f.rows[i], p)
                                  : f.flops_s[i] / p.flops_efficiency;
    const double t = matmul ? matmul_kernel_time_s(mem, compute, f.rows[i], p)
                            : kernel_time_s(mem, compute, p.overlap);
    if (!matmul) small += t;
    if (i == static_cast<int>(Kernel::gemm)) gemm = t;
    device += t;
  }
  device += std::max(0.0, small_kernel_floor_s(f.layers, p) - small) +
            std::max(0.0, gemm_kernel_floor_s(f.layers, p) - gemm);
  return device + f.arch_kernels * p.arch_kernel_s + f.quant_kernels * p.act_quant_kernel_s +
         f.moe_layers * p.moe_call_s + f.moe_slice_k * p.moe_slice_k_s;
}

// The host's launches of one pass (eager: layers x (layer_overhead_s + syncs x host_sync_s)).
double fast_launch(const FastPass& f, const RuntimeParams& p, double layer_syncs) {
  return f.layers * (p.layer_overhead_s + layer_syncs * p.host_sync_s);
}

// time_pass() over the reduced form, over the pass's repeats.
double fast_time(const FastPass& f, const RuntimeParams& p, double layer_syncs = 0) {
  const double device = fast_device(f, p);
  const double launch = fast_launch(f, p, layer_syncs);
  return f.passes * (device + p.pass_overhead_s + std::max(0.0, launch - device));
}

// How far the GPU is behind the host when the pass's launches end (time_pass's device minus
// launches, where positive and launches are charged), over its passes.
double fast_gpu_ahead(const FastPass& f, const RuntimeParams& p, double layer_syncs = 0) {
  const double launch = fast_launch(f, p, layer_syncs);
  if (launch <= 0) return 0;
  return f.passes * std::max(0.0, fast_device(f, p) - launch);
}

// A matmul's time: its GEMM kernel alone, no floor, no host time per pass.
double fast_gemm_time(const FastPass& f, const RuntimeParams& p) {
  const int i = static_cast<int>(Kernel::gemm);
  const double mem = f.weights_s[i] / p.bw_efficiency;
  return matmul_kernel_time_s(mem, matmul_compute_s(f.flops_s[i], 1.0, f.rows[i], p), f.rows[i], p);
}

}  // namespace

Expected<Observation> make_observation(const json& doc, const Catalog& catalog, Observation o,
                                       int64_t tokens) {
  auto config = parse_config(doc, catalog);
  if (!config.ok()) return config.error();
  o.config = config.value();
  const Config& c = o.config;
  auto tau = expected_tau(c);
  if (!tau.ok()) return tau.error();
  o.tau = tau.value().tau;
  const Machine target = machine_for(c, c.runtime.resolved);
  const Machine draft = draft_machine_for(c, c.method.draft_profile.params);
  const Placement place = placement_for(c, target.tensor_parallel);
  const CycleWork w = cycle_work(
      c, place, o.tau, method_shape(c, o.tau, tau.value().tree, tau.value().matrix), true);
  if (o.kind == "forward") {
    o.forward_tokens = tokens;
    o.baseline = fast_pass(forward_work(c, place, tokens), target, 1);
  } else if (o.kind == "matmul") {
    o.forward_tokens = tokens;
    o.baseline = fast_pass(matmul_work(o, tokens), target, 1);
    o.verify = fast_pass(matmul_work(o, 1), target, 1);  // the one-row multiply it is a multiple of
  } else {
    o.baseline = fast_pass(w.baseline.work, target, 1);
  }
  for (const PassWork& p : w.draft) o.draft.push_back(fast_pass(p.work, draft, p.passes));
  o.has_verify = w.has_verify;
  if (w.has_verify) o.verify = fast_pass(w.verify.work, target, 1);
  o.tree = w.tree;
  o.host_s = w.draft_host_s;
  o.eagle3_steps = w.eagle3_steps;
  o.draft_model_steps = w.draft_model_steps;
  o.gpu_proposer = w.gpu_proposer;
  o.host_ops = w.host_ops;
  o.baseline_layer_syncs = c.runtime.resolved.baseline_layer_syncs;
  o.baseline_host_ops = o.kind == "forward" ? HostOps{} : w.baseline_host_ops;
  o.draft_fitted =
      family_has_draft_passes(c.method.family) && c.method.draft_profile.id == c.runtime.profile;
  return o;
}

namespace {

double relative_error(double predicted, double measured) {
  const double e = (predicted - measured) / measured;
  return e < 0 ? -e : e;
}

struct FitContext {
  const FitSpec* spec;  // spec->params: the parameters x holds, in order
  const std::vector<const Observation*>* obs;
  RuntimeParams base;
};

// The range a fitted parameter may take: efficiencies (0.02, 1], overlap [0, 1], times
// [0, 50 ms].
struct Range {
  double low, high;
};
Range param_range(const std::string& name) {
  if (name.find("efficiency") != std::string::npos) return {0.02, 1.0};
  // One PyTorch op from Python costs the host at least a kernel launch: 2.5 us net per launch
  // measured with nsys (docs/host-ops.md); 50 us is a slow CPU's dispatch with Python around it.
  if (name == "method_op_s") return {2.5e-6, 5e-5};
  if (is_share_param(name)) return {0.0, 1.0};
  return {0.0, 0.05};
}

bool in_range(const std::string& name, double v) {
  const Range r = param_range(name);
  return name.find("efficiency") != std::string::npos ? v > r.low && v <= r.high
                                                      : v >= r.low && v <= r.high;
}

RuntimeParams params_at(const FitContext& ctx, const std::vector<double>& x) {
  RuntimeParams p = ctx.base;
  for (std::size_t i = 0; i < x.size(); ++i) *runtime_param(p, ctx.spec->params[i]) = x[i];
  for (const auto& [param, equals] : ctx.spec->tied)
    *runtime_param(p, param) = runtime_param_value(p, equals);
  return p;
}

double objective(const std::vector<double>& x, const void* raw) {
  const FitContext& ctx = *static_cast<const FitContext*>(raw);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!in_range(ctx.spec->params[i], x[i])) return 1e9;
  const RuntimeParams p = params_at(ctx, x);
  // Each kind weighs the same: speedup rows, and times (every row within its kind). Weighing
  // each source the same instead was measured and is worse held out for hf-eager
  // (docs/cost-model.md, Fit). A times-only profile (vLLM) averages its time rows per source
  // first: its sources differ in kind, not only in size (SpecDecode-Bench's batch 1-64 sweep,
  // 10 rows; issue #20780's 13 batch-1 rows), and pooling rows let the batch-1 rows decide the
  // large-batch terms (measured: SpecDecode-Bench's held-out batch-128 row 34 % off pooled, 10 %
  // per source; vLLM's pooled CV 8.7 -> 7.7 %).
  double speed_sum = 0, time_sum = 0;
  int speed_n = 0, time_n = 0;
  std::map<std::string, std::pair<double, int>> by_source;
  for (const Observation* o : *ctx.obs) {
    const double e = relative_error(predict_fast(*o, p), o->measured);
    if (o->kind == "speedup") {
      speed_sum += e;
      ++speed_n;
    } else if (ctx.spec->times_only) {
      auto& s = by_source[o->source];
      s.first += e;
      ++s.second;
    } else {
      time_sum += e;
      ++time_n;
    }
  }
  for (const auto& [src, s] : by_source) time_sum += s.first / s.second, ++time_n;
  double total = 0;
  int kinds = 0;
  if (speed_n > 0) total += speed_sum / speed_n, ++kinds;
  if (time_n > 0) total += time_sum / time_n, ++kinds;
  return kinds > 0 ? total / kinds : 0;
}

}  // namespace

double predict_fast(const Observation& o, const RuntimeParams& p) {
  if (o.kind == "matmul") return fast_gemm_time(o.baseline, p) / fast_gemm_time(o.verify, p);
  const RuntimeParams& dp = o.draft_fitted ? p : o.config.method.draft_profile.params;
  const double step = p.step_overhead_s + static_cast<double>(o.config.batch) * p.seq_overhead_s;
  const double baseline_step =
      fast_time(o.baseline, p, o.kind == "forward" ? 0.0 : o.baseline_layer_syncs) +
      method_host_s(o.baseline_host_ops, p) + step;
  if (o.kind == "forward") return baseline_step + p.request_overhead_s;
  if (o.kind == "decode_step") return baseline_step;
  // The draft-model forwards with their host steps: a cycle's drafting.
  double draft = static_cast<double>(o.draft_model_steps) * dp.draft_model_step_s;
  for (const FastPass& d : o.draft) draft += fast_time(d, dp);
  if (o.kind == "draft_pass_ratio")  // one draft-model forward over the target's verify pass
    return draft / static_cast<double>(o.draft_model_steps) /
           fast_time(o.verify, p, o.host_ops.verify_syncs_per_layer);
  double ahead = 0;
  for (const FastPass& d : o.draft) ahead += fast_gpu_ahead(d, dp);
  double cycle = step + o.host_s + p.cycle_overhead_s + (o.tree ? p.tree_overhead_s : 0.0) +
                 std::max(0.0, method_host_s(o.host_ops, p) - ahead) +
                 (o.gpu_proposer ? p.proposer_cycle_s : 0.0) + p.unoverlapped_sched_s + draft +
                 static_cast<double>(o.eagle3_steps) * dp.eagle3_step_overhead_s;
  if (o.has_verify) cycle += fast_time(o.verify, p, o.host_ops.verify_syncs_per_layer);
  if (o.kind == "spec_cycle") return cycle;
  return o.tau * baseline_step / cycle;
}

Expected<double> predict_full(const Observation& o, const RuntimeParams& p) {
  Config c = o.config;
  c.runtime.resolved = p;
  // The measurement's baseline stays the one its source ran (not a fitted parameter).
  c.runtime.resolved.baseline_layer_syncs = o.baseline_layer_syncs;
  c.runtime.overrides.clear();
  c.runtime.measured_decode_step_s = 0;
  if (o.draft_fitted) c.method.draft_profile.params = p;
  if (o.kind == "matmul") {
    // The full model's GEMM kernel time for the multiply over its one-row time (time_pass,
    // kernel by kernel).
    const Machine m = machine_for(c, p);
    const int g = static_cast<int>(Kernel::gemm);
    return time_pass(matmul_work(o, o.forward_tokens), m).kernels[g].time_s /
           time_pass(matmul_work(o, 1), m).kernels[g].time_s;
  }
  if (o.kind == "forward") {
    // First-token latency: one forward over the prompt (its own tokens as context) + a step +
    // the request's own setup.
    const Machine m = machine_for(c, p);
    const Placement place = placement_for(c, m.tensor_parallel);
    return time_pass(forward_work(c, place, o.forward_tokens), m).time_s + p.step_overhead_s +
           p.seq_overhead_s + p.request_overhead_s;
  }
  if (o.kind == "serving_tpot") {
    // The load model's plain decoding at the run's concurrency: its steps carry the prefills
    // of the requests that replace finished ones, as the benchmark's mean TPOT does.
    auto report = load_report(c, load_catalog().value(), false);
    if (!report.ok()) return report.error();
    return report.value()["plain"]["at"]["tpot_s"].get<double>();
  }
  auto e = evaluate(c);
  if (!e.ok()) return e.error();
  if (o.kind == "decode_step") return e.value().baseline_step_s;
  if (o.kind == "spec_cycle") return e.value().cycle_time_s;
  if (o.kind == "draft_pass_ratio")
    return e.value().draft.time_s / static_cast<double>(o.draft_model_steps) /
           (e.value().verify.time_s / static_cast<double>(e.value().verify.passes_per_cycle));
  return e.value().speedup;
}

Expected<std::vector<Observation>> load_observations(const Catalog& catalog,
                                                     std::string_view published_json) {
  std::vector<Observation> out;
  auto rows = load_published(published_json);
  if (!rows.ok()) return rows.error();
  for (const auto& r : rows.value()) {
    if (!r.tau || !r.speedup || !validate_exclusion(r).empty()) continue;
    const json doc = published_row_config(r);
    if (doc.is_null()) continue;
    Observation o;
    o.id = r.id;
    o.source = r.source_id;
    o.profile = r.runtime;
    o.kind = "speedup";
    o.measured = *r.speedup;
    o.cite = r.source;
    o.hardware_stated = !r.hardware_assumed;
    auto made = make_observation(doc, catalog, o, 0);
    if (made.ok())
      out.push_back(std::move(made.value()));  // rows a config rejects: validate lists them
  }
  const json doc = json::parse(data::engine_measurements(), nullptr, false);
  if (doc.is_discarded() || !doc.contains("observations"))
    return make_error("", "internal error: embedded engine-measurements table is not valid");
  for (const auto& e : doc["observations"]) {
    Observation o;
    o.id = e.value("id", "");
    o.source = e.value("source", "");
    o.profile = e.value("profile", "");
    o.kind = e.value("kind", "");
    o.measured = e.value("measured", 0.0);
    o.check_only = e.value("check_only", false);
    o.hardware_stated = !e.value("hardware_assumed", false);
    o.measured_low = e.value("measured_low", 0.0);
    o.measured_high = e.value("measured_high", 0.0);
    o.cite = e.value("cite", "");
    o.measured_on = e.value("measured_on", "");
    if (!o.measured_on.empty() && !iso_date(o.measured_on))
      return make_error("", "internal error: engine measurement " + o.id +
                                ": measured_on must be an ISO date (YYYY-MM-DD)");
    if (o.kind == "matmul") {
      const json& mm = e.value("matmul", json::object());
      o.matmul_k = mm.value("k", 0.0);
      o.matmul_n = mm.value("n", 0.0);
      o.matmul_weight_bits = mm.value("weight_bits", 0.0);
      if (o.matmul_k <= 0 || o.matmul_n <= 0 || o.matmul_weight_bits <= 0)
        return make_error("", "internal error: engine measurement " + o.id +
                                  ": a matmul row needs matmul.k, .n and .weight_bits");
    }
    auto made = make_observation(e["config"], catalog, o, e.value("tokens", int64_t{0}));
    if (!made.ok())
      return make_error("", "internal error: engine measurement " + o.id + ": " +
                                made.error().field + ": " + made.error().message);
    // A serving TPOT is priced by the load model alone, which the fit's reduced form does not
    // mirror: such rows check, never fit.
    if (o.kind == "serving_tpot" && (!o.check_only || made.value().config.load.concurrency <= 0))
      return make_error("", "internal error: engine measurement " + o.id +
                                ": a serving_tpot row is check_only and needs load.concurrency");
    out.push_back(std::move(made.value()));
  }
  return out;
}

RuntimeParams neutral_start() {
  // Where every fit starts (in-sample and each leave-one-source-out fold alike): round,
  // generic values, not a prior from any data set, so a fold that lacks the data to move a
  // parameter does not inherit the in-sample optimum.
  RuntimeParams p;
  p.bw_efficiency = 0.8;
  p.kv_bw_efficiency = 0.8;
  p.flops_efficiency = 0.7;
  p.overlap = 0.5;
  p.pass_overhead_s = 2e-4;
  p.layer_overhead_s = 5e-4;
  p.step_overhead_s = 1e-3;
  p.seq_overhead_s = 0;
  p.cycle_overhead_s = 5e-4;
  p.tree_overhead_s = 2e-4;
  p.allreduce_latency_s = 3e-5;
  p.method_op_s = 1e-5;
  p.host_sync_s = 5e-5;
  return p;
}

RuntimeParams fit_start(const FitSpec& spec, const RuntimeParams& others) {
  RuntimeParams start = neutral_start();
  for (const char* const* n = runtime_param_names(); *n; ++n) {
    const std::string name = *n;
    const bool own = std::find(spec.params.begin(), spec.params.end(), name) != spec.params.end() ||
                     std::any_of(spec.tied.begin(), spec.tied.end(),
                                 [&](const auto& t) { return t.first == name; }) ||
                     std::any_of(spec.own_kind_params.begin(), spec.own_kind_params.end(),
                                 [&](const auto& t) { return t.second == name; });
    if (!own) *runtime_param(start, name) = runtime_param_value(others, name);
  }
  return start;
}

void keep_structural_constants(const RuntimeParams& own, RuntimeParams* p) {
  p->kernels_per_layer = own.kernels_per_layer;
  p->gemm_kernels_per_layer = own.gemm_kernels_per_layer;
  p->kernels_per_pass = own.kernels_per_pass;
  p->matvec_max_rows = own.matvec_max_rows;
  p->matmul_tile_rows = own.matmul_tile_rows;
}

const std::vector<FitSpec>& fit_specs() {
  // vLLM first: the other graph engines take its host-side values as priors where their own
  // data cannot separate them (said in runtimes.json's fitted_on).
  static const std::vector<FitSpec> specs = {
      {"vllm",
       {"bw_efficiency", "kv_bw_efficiency", "flops_efficiency", "overlap", "pass_overhead_s",
        "step_overhead_s", "cycle_overhead_s", "proposer_cycle_s", "eagle3_step_overhead_s"},
       {},
       "",
       true,
       // A draft forward's share of the target's pass fixes the draft-model path's host step
       // alone: in the main fit the three ratios moved the pass-level terms instead
       // (bw_efficiency, flops_efficiency, overlap and cycle_overhead_s ended at their bounds,
       // the draft step 0.82 ms).
       {{"draft_pass_ratio", "draft_model_step_s"}}},
      // Research code: the method's own host work is counted (model/host_ops.cpp) and costed
      // per op and per sync; tree bookkeeping is part of those counts (no tree_overhead_s).
      {"hf-eager",
       {"bw_efficiency", "flops_efficiency", "overlap", "pass_overhead_s", "layer_overhead_s",
        "cycle_overhead_s", "method_op_s", "host_sync_s"},
       {{"kv_bw_efficiency", "bw_efficiency"}},
       ""},
      {"compiled",
       {"bw_efficiency", "flops_efficiency", "overlap", "step_overhead_s", "allreduce_latency_s"},
       {{"kv_bw_efficiency", "bw_efficiency"}},
       "vllm"},
      // TensorRT-LLM's only timings are first-token latencies of 128- and 2048-token prompts:
      // they fix the matmul and streaming terms but not a decode step's host time or a small
      // all-reduce's latency (a prompt's all-reduce moves megabytes: bandwidth, not latency).
      // Those come from the compiled engines' decode steps (gpt-fast, TurboMind: graph-replayed
      // or C++ decode loops, TP2-TP8 included), the nearest measured kind.
      {"tensorrt-llm",
       {"bw_efficiency", "flops_efficiency", "overlap", "request_overhead_s"},
       {},
       "compiled"},
      {"sglang", {"step_overhead_s"}, {}, "vllm"},
      // Local engines: llama-bench forwards of 1..512 tokens (engine-measurements.json) fix
      // the streaming bandwidth, the matrix-vector kernels' per-row compute, the tiles'
      // compute, their overlap and the host time per llama_decode. Their kernel-regime row
      // counts are the engines' code constants (runtimes.json kernel_regimes_source).
      {"llama.cpp-metal",
       {"bw_efficiency", "matvec_flops_efficiency", "flops_efficiency", "overlap",
        "pass_overhead_s", "kernel_floor_s"},
       {{"kv_bw_efficiency", "bw_efficiency"}},
       "",
       true},
      {"llama.cpp-cuda",
       {"bw_efficiency", "matvec_flops_efficiency", "flops_efficiency", "overlap",
        "pass_overhead_s"},
       {{"kv_bw_efficiency", "bw_efficiency"}},
       "",
       true},
      // MLX: mlx_lm / LM Studio decode steps on five chips and one prefill-sized forward fix the
      // streaming bandwidth, the tiles' compute and the host time per step; MLX's own
      // quantized_matmul timings by rows (issue #3852) fix its matrix-vector kernels' per-row
      // compute and how much of it hides under the weight stream. The tiles' overlap stays
      // llama.cpp-metal's (same GPUs).
      {"mlx",
       {"bw_efficiency", "flops_efficiency", "pass_overhead_s", "matvec_flops_efficiency",
        "matvec_overlap", "kernel_floor_s"},
       {{"kv_bw_efficiency", "bw_efficiency"}},
       "llama.cpp-metal",
       true},
  };
  return specs;
}

bool param_at_bound(const std::string& name, double value) {
  const Range r = param_range(name);
  // Times: at 0 means the term is absent from the data; efficiencies and overlap within
  // half a percentage point of an end.
  const bool seconds = name.size() > 2 && name.compare(name.size() - 2, 2, "_s") == 0;
  const double tolerance = seconds ? 1e-7 : 5e-3;
  return value <= r.low + tolerance || value >= r.high - tolerance;
}

namespace {

// One Nelder-Mead search over spec.params on `obs`, from `start`.
FitResult fit_stage(const FitSpec& spec, std::vector<const Observation*> obs,
                    const RuntimeParams& start) {
  FitResult r;
  r.params = start;
  r.observations = static_cast<int>(obs.size());
  if (obs.empty() || spec.params.empty()) return r;
  FitContext ctx{&spec, &obs, start};
  std::vector<double> x0, step;
  for (const auto& name : spec.params) {
    const double v = runtime_param_value(start, name);
    x0.push_back(v);
    step.push_back(
        v > 0
            ? 0.2 * v
            : (name.find("efficiency") != std::string::npos || is_share_param(name) ? 0.1 : 1e-4));
  }
  int evals = 0;
  std::vector<double> x = nelder_mead(x0, step, objective, &ctx, 4000, &evals);
  r.evaluations = evals;
  // Restarts from the optimum escape a collapsed simplex.
  for (int round = 0; round < 3; ++round) {
    std::vector<double> step2;
    for (std::size_t i = 0; i < x.size(); ++i) step2.push_back(x[i] > 0 ? 0.2 * x[i] : step[i]);
    x = nelder_mead(x, step2, objective, &ctx, 2000, &evals);
    r.evaluations += evals;
  }
  r.params = params_at(ctx, x);
  r.objective = objective(x, &ctx);
  return r;
}

}  // namespace

FitResult fit_profile(const FitSpec& spec, const std::vector<Observation>& obs,
                      const RuntimeParams& start, const std::string& exclude_source) {
  const auto own_param_of = [&](const std::string& kind) -> const std::string* {
    for (const auto& [k, param] : spec.own_kind_params)
      if (k == kind) return &param;
    return nullptr;
  };
  std::vector<const Observation*> mine;
  int stated = 0, total = 0;
  for (const auto& o : obs)
    if (o.profile == spec.profile && !o.check_only &&
        (exclude_source.empty() || o.source != exclude_source) &&
        !(spec.times_only && o.kind == "speedup")) {
      ++total;
      if (o.hardware_stated) ++stated;
      if (!own_param_of(o.kind)) mine.push_back(&o);
    }
  FitResult r = fit_stage(spec, mine, start);
  std::vector<std::string> fitted = spec.params;
  for (const auto& [kind, param] : spec.own_kind_params) {
    std::vector<const Observation*> rows;
    for (const auto& o : obs)
      if (o.profile == spec.profile && !o.check_only && o.kind == kind &&
          (exclude_source.empty() || o.source != exclude_source))
        rows.push_back(&o);
    const FitSpec one{spec.profile, {param}, {}, "", false};
    r.params = fit_stage(one, rows, r.params).params;
    fitted.push_back(param);
  }
  r.observations = total;
  r.stated_hardware_observations = stated;
  for (const auto& name : fitted)
    if (param_at_bound(name, runtime_param_value(r.params, name))) r.at_bound.push_back(name);
  return r;
}

std::vector<double> nelder_mead(const std::vector<double>& x0, const std::vector<double>& step,
                                double (*f)(const std::vector<double>&, const void*),
                                const void* ctx, int max_evals, int* evals) {
  const std::size_t n = x0.size();
  std::vector<std::vector<double>> pts(n + 1, x0);
  std::vector<double> val(n + 1);
  for (std::size_t i = 0; i < n; ++i) pts[i + 1][i] += step[i];
  *evals = 0;
  for (std::size_t i = 0; i <= n; ++i) val[i] = f(pts[i], ctx), ++*evals;
  std::vector<std::size_t> order(n + 1);
  while (*evals < max_evals) {
    for (std::size_t i = 0; i <= n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return val[a] < val[b]; });
    const std::size_t best = order[0], worst = order[n], second = order[n - 1];
    if (val[worst] - val[best] <= 1e-10 * (1.0 + val[best])) break;
    std::vector<double> centroid(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= n; ++j)
        if (j != worst) centroid[i] += pts[j][i] / static_cast<double>(n);
    auto along = [&](double t) {
      std::vector<double> p(n);
      for (std::size_t i = 0; i < n; ++i) p[i] = centroid[i] + t * (pts[worst][i] - centroid[i]);
      return p;
    };
    std::vector<double> xr = along(-1.0);
    const double fr = f(xr, ctx);
    ++*evals;
    if (fr < val[best]) {
      std::vector<double> xe = along(-2.0);
      const double fe = f(xe, ctx);
      ++*evals;
      if (fe < fr)
        pts[worst] = xe, val[worst] = fe;
      else
        pts[worst] = xr, val[worst] = fr;
      continue;
    }
    if (fr < val[second]) {
      pts[worst] = xr, val[worst] = fr;
      continue;
    }
    std::vector<double> xc = fr < val[worst] ? along(-0.5) : along(0.5);
    const double fc = f(xc, ctx);
    ++*evals;
    if (fc < std::min(fr, val[worst])) {
      pts[worst] = xc, val[worst] = fc;
      continue;
    }
    for (std::size_t j = 0; j <= n; ++j) {
      if (j == best) continue;
      for (std::size_t i = 0; i < n; ++i)
        pts[j][i] = pts[best][i] + 0.5 * (pts[j][i] - pts[best][i]);
      val[j] = f(pts[j], ctx);
      ++*evals;
    }
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i <= n; ++i)
    if (val[i] < val[best]) best = i;
  return pts[best];
}

}  // namespace speccalc
