#include "model/cost_plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "engines/mlx_chip_kernels.hpp"
#include "model/cycle_time.hpp"
#include "model/draft_length.hpp"
#include "model/memory.hpp"
#include "model/sampler_ops.hpp"

namespace speccalc {

namespace {

// Plain decode step (pass + engine step) of `config` at `batch` under `params`.
double decode_step_s(const Config& config, int64_t batch, const RuntimeParams& params) {
  Config c = config;
  c.batch = batch;
  const Machine m = machine_for(c, params);
  const Placement place = placement_for(c, m.tensor_parallel);
  const PassWork p = plain_decode_pass(c, place.target);
  const double host_s = p.on_host ? time_host_pass(p.host_work, m).time_s : 0.0;
  return time_pass(p.work, m, params.baseline_layer_syncs).time_s + host_s +
         method_host_s(decode_host_ops(config.temperature), params) + params.step_overhead_s +
         static_cast<double>(batch) * params.seq_overhead_s;
}

// llama.cpp's variable draft length: mean acceptance of each chain position (the acceptance
// matrix's top-1 rate at each depth, or one alpha matching a tau given without rates).
std::vector<double> chain_position_acceptance(const TauResult& tau, int64_t k) {
  std::vector<double> a(static_cast<std::size_t>(k));
  const double alpha = tau.matrix.rows.empty() ? chain_alpha_for_tau(tau.tau, k) : 0.0;
  for (int64_t i = 0; i < k; ++i)
    a[static_cast<std::size_t>(i)] =
        tau.matrix.rows.empty() ? alpha : tau.matrix.p(static_cast<int>(i), 0);
  return a;
}

// Replaces the fixed-k cycle in `e` by the expectation over cycles of every kept length n:
// a cycle keeping n >= max(1, draft_min) verifies n + 1 tokens after min(n + 1, k) draft
// passes; a shorter one runs its draft passes and then one plain decode step. Renewal reward:
// tokens per cycle and cycle time are both expectations, the speedup their ratio.
void price_variable_draft(const Config& config, const TauResult& tau, const MethodShape& shape,
                          const Machine& target, const Machine& draft, const CycleTime& full,
                          Evaluation* e) {
  const MethodConfig& m = config.method;
  const DraftLengths d =
      draft_lengths(chain_position_acceptance(tau, m.k), m.draft_p_min, m.draft_min);
  const double pass_s = m.k > 0 ? full.draft.time_s / static_cast<double>(m.k) : 0.0;
  const Placement place = placement_for(config, target.tensor_parallel);
  double total = 0, draft_s = 0, overhead = 0;
  for (int64_t n = 0; n <= m.k; ++n) {
    const double p = d.prob[static_cast<std::size_t>(n)];
    if (p <= 0) continue;
    const double passes_s =
        static_cast<double>(d.draft_passes[static_cast<std::size_t>(n)]) * pass_s;
    double cycle_s, overhead_s;
    if (!d.verifies[static_cast<std::size_t>(n)]) {
      cycle_s = passes_s + full.baseline_step_s;
      overhead_s = full.step_overhead_s;
    } else if (n == m.k) {
      cycle_s = full.cycle_s;
      overhead_s = full.step_overhead_s + full.spec_overhead_s;
    } else {
      Config shorter = config;
      shorter.method.k = n;
      const CycleTime t = time_cycle(cycle_work(shorter, place, tau.tau, shape, false), target,
                                     draft, config.batch);
      cycle_s = t.cycle_s - t.draft.time_s + passes_s;
      overhead_s = t.step_overhead_s + t.spec_overhead_s;
    }
    total += p * cycle_s;
    draft_s += p * passes_s;
    overhead += p * overhead_s;
  }
  e->has_draft_length = true;
  e->tau_fixed_k = e->tau;
  e->tau = d.tau;
  e->cycle_time_s = total;
  e->expected_kept = d.expected_kept;
  e->expected_draft_passes = d.expected_passes;
  e->plain_cycle_share = d.plain_share;
  e->expected_draft_s = draft_s;
  e->expected_overhead_s = overhead;
  e->expected_verify_s = total - draft_s - overhead;
  e->kept_probability = d.prob;
}

// Testbed calibration, so the modeled decode step at the measured batch equals the measured one
// (the result holds at every batch of sweeps and sizing). Slower than the profile: the stack is
// taken to be uniformly slower, every term of the step scaled by one factor s (host overheads
// and the kernel floor x s, bandwidth and FLOP/s efficiencies / s), which keeps what a draft
// pass costs against a target pass; putting the whole gap into one term instead priced a 1B
// draft on llama.cpp, whose host overheads are ~0, at 3.6e11 x them (the walk). Faster than the
// profile: the host overheads shrink first, then the bandwidth efficiency is fitted.
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
  auto slower = [&](double s) {
    RuntimeParams p = scaled(s);
    p.proposer_cycle_s *= s;
    p.unoverlapped_sched_s *= s;
    p.eagle3_step_overhead_s *= s;
    p.draft_model_step_s *= s;
    p.allreduce_latency_s *= s;
    p.kernel_floor_s *= s;
    p.arch_kernel_s *= s;
    p.act_quant_kernel_s *= s;
    p.moe_call_s *= s;
    p.moe_slice_k_s *= s;
    p.moe_bw_efficiency /= s;
    p.bw_efficiency /= s;
    p.kv_bw_efficiency /= s;
    p.flops_efficiency /= s;
    p.matvec_flops_efficiency /= s;
    return p;
  };
  const double modeled = decode_step_s(config, batch, params);
  // A stack this much slower than its profile is a unit slip (milliseconds typed as seconds)
  // more likely than a measurement; refused, never fitted.
  constexpr double kMaxSlowdown = 100;
  if (measured > kMaxSlowdown * modeled) {
    return make_error(field, "is " + fields::format_significant(measured / modeled) +
                                 " x the decode step this engine profile gives at batch " +
                                 std::to_string(batch) + " (" + fields::format_seconds(modeled) +
                                 "); it is in seconds (0.036 for 36 ms)");
  }
  if (measured >= modeled) {
    double lo = 1, hi = kMaxSlowdown;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (decode_step_s(config, batch, slower(mid)) < measured ? lo : hi) = mid;
    }
    const double s = 0.5 * (lo + hi);
    notes->push_back("testbed calibration: the measured " + fields::format_seconds(measured) +
                     " decode step at batch " + std::to_string(batch) + " is " +
                     fields::format_significant(s) +
                     " x this profile's time: every term of a pass scaled by it (host "
                     "overheads and kernel floor x, bandwidth and FLOP/s efficiencies /); used "
                     "at every batch and for drafts on the same stack");
    return slower(s);
  }
  const double device_only = decode_step_s(config, batch, scaled(0));
  const bool has_host = params.pass_overhead_s > 0 || params.layer_overhead_s > 0 ||
                        params.step_overhead_s > 0 || params.seq_overhead_s > 0 ||
                        params.method_op_s > 0 || params.host_sync_s > 0;
  if (measured >= device_only && has_host) {
    // The step grows monotonically with the common scale s of the host overheads (launches
    // overlap device time, so not linearly): bisection on [0, 1].
    double lo = 0, hi = 1;
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
    return make_error(
        field, "is faster than this " + device_noun(config.hardware) +
                   "'s memory bandwidth allows for this model at batch " + std::to_string(batch) +
                   " (" + fields::format_seconds(step_at(1.0)) + " at 100% of peak bandwidth)");
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

// The draft's parameters: its own profile, or the target's (calibrated) ones when the draft
// runs on the same stack.
RuntimeParams draft_runtime_for(const Config& config, const RuntimeParams& target) {
  if (!family_has_draft_passes(config.method.family)) return target;
  if (config.method.draft_runtime.empty() &&
      config.method.draft_profile.id == config.runtime.profile)
    return target;  // calibration carries to drafts on the same stack
  return config.method.draft_profile.params;
}

void add_setup_assumptions(const Config& config, const Evaluation& e,
                           std::vector<std::string>* out) {
  const RuntimeParams& r = e.runtime;
  out->push_back(
      "engine '" + config.engine.id + "' (" + config.engine.name +
      "): each kernel class (GEMMs, attention, LM head, "
      "other) costs the longer of bytes / (peak bandwidth x efficiency: weights " +
      fields::format_significant(r.bw_efficiency) + ", KV " +
      fields::format_significant(r.kv_bw_efficiency) + ") and FLOPs / (peak x " +
      fields::format_significant(r.flops_efficiency) + "), plus " +
      fields::format_significant(1.0 - r.overlap) + " of the shorter (1 - overlap); a pass adds " +
      fields::format_seconds(r.pass_overhead_s) + ", an engine step " +
      fields::format_seconds(r.step_overhead_s) + " + " + fields::format_seconds(r.seq_overhead_s) +
      " per sequence" +
      (r.layer_overhead_s > 0 ? "; kernel launches " + fields::format_seconds(r.layer_overhead_s) +
                                    " per layer overlap the GPU's work"
                              : ""));
  if (r.score_bytes_per_element > 0 && family_code_materializes_scores(config.method.family))
    out->push_back(
        "the method's research code computes attention as separate ops that write its scores "
        "out (Medusa's modeling_llama_kv.py LlamaAttention, copied by Hydra and EAGLE, "
        "SafeAILab/EAGLE eagle/model/modeling_llama_kv.py): in its verify and draft passes each "
        "score element (head x query x key x layer) moves " +
        fields::format_significant(r.score_bytes_per_element) +
        " bytes (fp16 product, scale, mask, fp32 softmax, cast back, read by the value "
        "product), traffic growing with the verified tokens x the context; plain decoding "
        "(HF generate's SDPA attention) keeps them on chip");
  if (config.target.experts > 1 && (r.moe_call_s > 0 || r.moe_slice_k_s > 0))
    out->push_back(
        "each MoE layer's routed experts run as one fused-MoE call: " +
        fields::format_seconds(r.moe_call_s) + " fixed, " +
        fields::format_seconds(r.moe_slice_k_s * static_cast<double>(config.target.hidden)) +
        " per expert slice it touches (at hidden " + std::to_string(config.target.hidden) +
        ": each slice's tiles reduce over it in series), the touched experts' bytes at " +
        fields::format_significant(r.moe_bw_efficiency) +
        " of peak bandwidth (fitted on the engines' own kernel benchmarks over 1-128 tokens, "
        "core/data/moe-kernel-times.json)");
  if (config.engine.id == "mlx") {
    const std::string chip = mlx_chip_kernels_text(config.hardware, r);
    if (!chip.empty()) out->push_back(chip);
  }
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
  if (e.method_host_hidden_s > 0)
    out->push_back(
        "not in it: " + fields::format_seconds(e.method_host_hidden_s) +
        " of the method's own host ops, issued while the GPU is still on draft passes that "
        "outlast their launches (eager kernels queue asynchronously): hidden under the GPU's "
        "work, an upper bound (docs/cost-model.md, \"Host work the GPU hides\")");
  if (config.method.family != Family::ar && r.unoverlapped_sched_s > 0)
    out->push_back(
        "of which " + fields::format_seconds(r.unoverlapped_sched_s) +
        " is the engine's scheduling run in series (unoverlapped_sched_s): plain decoding hides "
        "it under the GPU with the overlap scheduler" +
        (config.engine.id == "sglang"
             ? std::string(", which SGLang turns off for speculative decoding unless "
                           "SGLANG_ENABLE_SPEC_V2 is set (python/sglang/srt/server_args.py); "
                           "stated from two published plain-decoding steps with it off and on "
                           "(runtimes.json)")
             : std::string(", which this setup says the engine turns off for speculation")));
  if (family_has_draft_passes(config.method.family) && r.proposer_cycle_s > 0)
    out->push_back(
        "of which " + fields::format_seconds(r.proposer_cycle_s) +
        " prepares the GPU drafter's inputs on the host (proposer_cycle_s; vLLM's is fitted on "
        "its EAGLE and n-gram cycle times, docs/cost-model.md; n-gram drafting does "
        "not pay it)");
  const RuntimeParams dr = draft_runtime_for(config, r);
  if (config.method.family == Family::eagle3 && dr.eagle3_step_overhead_s > 0)
    out->push_back(
        "each EAGLE-3 draft forward adds " + fields::format_seconds(dr.eagle3_step_overhead_s) +
        " on this engine's EAGLE-3 path (eagle3_step_overhead_s; vLLM's is fitted on issue "
        "#20780's cycle times, where an EAGLE-3 step measured 1.0 ms against EAGLE-1's "
        "0.73 ms at batch 1 on an H100)");
  if (config.method.family == Family::sps && dr.draft_model_step_s > 0)
    out->push_back(
        "each draft-model forward adds " + fields::format_seconds(dr.draft_model_step_s) +
        " of host work on this engine's draft-model path (draft_model_step_s: its sampler and "
        "input preparation per drafted token; vLLM's is fitted on SpecDecode-Bench's vLLM "
        "v0.10.1, where a draft forward cost about 37.5 % of an 8B target's and 12.5 % of "
        "Llama-3-70B's; that draft path is V0's, and vLLM V1's own may cost less)");
  if (family_has_draft_passes(config.method.family))
    out->push_back("draft passes run under '" + config.method.draft_profile.id + "' on " +
                   std::to_string(config.engine.tensor_parallel
                                      ? config.method.draft_tensor_parallel_size
                                      : 1) +
                   " " + device_noun(config.hardware) + "(s)");
  if (config.gpus > 1)
    out->push_back(config.engine.tensor_parallel
                       ? "tensor parallel over " + std::to_string(config.gpus) +
                             " GPUs: heads, MLP and vocabulary split evenly (KV heads replicated "
                             "when fewer than "
                             "GPUs); 2 ring all-reduces per layer; bytes and FLOPs are per GPU"
                       : "layers split over " + std::to_string(config.gpus) +
                             " GPUs and run one GPU after another (HF device_map), as eager "
                             "research code does");
  if (const LayerSplit split = layer_split(config); split.cpu_layers > 0)
    out->push_back(
        "partial offload (--n-gpu-layers " + std::to_string(config.gpu_layers) + "): the first " +
        std::to_string(split.cpu_layers) + " of " + std::to_string(config.target.num_layers) +
        " layers" + (split.lm_head_on_gpu ? "" : " and the output layer") +
        " run on the CPU from host memory at " +
        fields::format_number(kHostBandwidthEfficiency * 100) + "% of its " +
        fields::format_number(config.host_memory_gbps) +
        " GB/s (llama.cpp's CPU backend on an EPYC 9554, docs/cost-model.md) and " +
        fields::format_number(config.host_tflops) +
        " TFLOP/s, each of their kernels the longer of the two; their weights and KV cache stay "
        "in host memory; the draft runs whole on the GPU");
  if (config.offload_target)
    out->push_back("target weights in host memory, streamed over the host link at " +
                   fields::format_number(config.host_link_gbps) +
                   " GB/s (its peak) once per pass; the draft and the KV "
                   "cache stay on the GPU");
  if (config.target.experts > 1)
    out->push_back(
        "MoE: a pass reads the experts its tokens touch per layer; a sequence's next token "
        "repeats its previous token's experts 12 % of the time beyond chance (Mixtral's routing "
        "statistics, arXiv 2401.04088 Table 5), otherwise experts are drawn uniformly (real "
        "routers are also skewed, which touches fewer)");
  if (config.target.quantized_experts_only && dtype_bytes(config.dtype.weights) < 2)
    out->push_back(config.target.name + ": its " + dtype_name(config.dtype.weights) +
                   " weights are the experts only; attention, router, norms, embeddings and "
                   "LM head stay 16-bit, as its checkpoint keeps them (config.json "
                   "quantization_config modules_to_not_convert)");
  if (config.method.family == Family::sps && config.method.draft_model.vocab != config.target.vocab)
    out->push_back("the draft's " + std::to_string(config.method.draft_model.vocab) +
                   "-token vocabulary and the target's " + std::to_string(config.target.vocab) +
                   " differ in size only (padding); " + config.engine.name +
                   " accepts that when the shared tokens' texts match (" +
                   config.engine.draft_vocab_source + "), which is assumed, not checked");
  if (config.batch > 1)
    out->push_back(
        "every sequence in the batch has the same expected acceptance; the cycle waits for the "
        "whole batch");
  for (const ModelArch* m :
       {&config.target,
        family_has_draft_passes(config.method.family) ? &config.method.draft_model : nullptr}) {
    if (m && m->linear_attention_layers > 0)
      out->push_back(m->name + ": " + std::to_string(m->linear_attention_layers) + " of " +
                     std::to_string(m->num_layers) +
                     " layers are Gated DeltaNet linear attention: no KV cache there, a "
                     "per-sequence fp32 state read once and written after every token of a "
                     "pass (a verify keeps one checkpoint per token to roll back to, as "
                     "SGLang's MambaPool does), counted with the KV cache in memory");
    if (m && compressed_attention(*m))
      out->push_back(
          m->name + ": DeepSeek-V4 compressed attention: one " + std::to_string(m->head_dim) +
          "-wide key = value vector per token; every layer attends its last " +
          std::to_string(m->sliding_window) + " tokens, " +
          std::to_string(m->compressed_sparse_layers) + " layers also the " +
          std::to_string(m->index_topk) + " of their 4-token pooled entries a lightning indexer (" +
          std::to_string(m->index_n_heads) + " heads of " + std::to_string(m->index_head_dim) +
          ", fp8 keys) picks, " + std::to_string(m->heavily_compressed_layers) +
          " layers all their " + std::to_string(m->hca_ratio) +
          "-token pooled entries; the cache holds the window, one entry per pooled group and "
          "each compressor's fp32 state (vLLM deepseek_v4_attention.py, deepseek_compressor.py)");
    else if (m && m->index_topk > 0)
      out->push_back(
          m->name + ": DeepSeek Sparse Attention: each query attends to at most " +
          std::to_string(m->index_topk) + " cached tokens, chosen by a lightning indexer (" +
          std::to_string(m->index_n_heads) + " heads of " + std::to_string(m->index_head_dim) +
          ", fp8 keys) that scores all of them; a pass's tokens are assumed to choose "
          "largely the same ones");
    if (m && m->sliding_window_layers > 0 && !compressed_attention(*m))
      out->push_back(m->name + ": local attention over " + std::to_string(m->sliding_window) +
                     " tokens on " + std::to_string(m->sliding_window_layers) + " of " +
                     std::to_string(m->num_layers) +
                     " layers: those layers attend to and cache at most that window (plus a "
                     "pass's new tokens), as every engine here keeps only the window there");
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

// The verdict; its reason (text) only when asked for.
void set_verdict(const Config& config, bool text, Evaluation* e) {
  const char* verdict = !e->memory.fits                      ? "infeasible"
                        : config.method.family == Family::ar ? "baseline"
                        : e->speedup > 1.0                   ? "pays"
                                                             : "loses";
  e->verdict = verdict;
  if (!text) return;
  const std::string x = fields::format_number(std::round(e->speedup * 100) / 100);
  if (!e->memory.fits) {
    // The numbers and what would fit are in memory.suggestions (the page lists them with it).
    e->verdict_reason =
        "This setup does not fit in " + memory_noun(config.hardware) +
        ", so no speedup applies; what would fit is listed with the memory breakdown.";
  } else if (config.method.family == Family::ar) {
    e->verdict_reason = "Plain decoding: the baseline every speculative method is compared with.";
  } else if (e->speedup > 1.0) {
    // The page heads the verdict with its state ("Speculation pays off"): the reason gives
    // the number without repeating it.
    e->verdict_reason = x + "x the plain decoding speed on this setup.";
  } else if (x == "1") {
    // Equal to two decimals (k = 0 drafts nothing): not slower, and not worth a draft either.
    e->verdict_reason = "1x: no faster than plain decoding on this setup.";
  } else {
    e->verdict_reason = x + "x, slower than plain decoding on this setup.";
  }
  // A verdict on an assumed acceptance says so where the verdict is read, not only on the card.
  if (e->memory.fits && config.method.family != Family::ar && !e->tau_from_data)
    e->verdict_reason += " The acceptance behind it is " + e->tau_basis + ".";
}

}  // namespace

Expected<CostPlan> CostPlan::compile(const Config& config, TauMemo* memo, bool borrow) {
  CostPlan plan;
  if (borrow) {
    plan.config_ = &config;
  } else {
    plan.own_ = std::make_shared<Config>(config);
    plan.config_ = plan.own_.get();
  }
  plan.calibrate_per_point_ = config.runtime.measured_decode_step_s > 0;
  if (!plan.calibrate_per_point_) {
    plan.runtime_ = config.runtime.resolved;
    plan.draft_runtime_ = draft_runtime_for(config, plan.runtime_);
    plan.target_ = machine_for(config, plan.runtime_);
    plan.draft_ = draft_machine_for(config, plan.draft_runtime_);
  }
  if (memo) {
    auto remembered = memo->get(config);
    if (!remembered.ok()) return remembered.error();
    plan.tau_ = remembered.value();
  } else {
    auto fresh = expected_tau(config);
    if (!fresh.ok()) return fresh.error();
    plan.own_tau_ = std::make_shared<const TauResult>(std::move(fresh.value()));
    plan.tau_ = plan.own_tau_.get();
  }
  plan.shape_ = method_shape(config, plan.tau_->tau, plan.tau_->tree, plan.tau_->matrix);
  return plan;
}

Expected<Evaluation> CostPlan::at(int64_t batch, int64_t context, Detail detail) {
  if (config_->batch != batch || config_->context != context) {
    if (!own_) {
      own_ = std::make_shared<Config>(*config_);
      config_ = own_.get();
    }
    own_->batch = batch;
    own_->context = context;
  }
  const Config& config = *config_;
  Error context_error;
  if (!check_context(config, &context_error)) return context_error;
  const bool text = detail == Detail::full;
  Evaluation e;
  if (calibrate_per_point_) {
    auto params = calibrate(config, config.runtime.resolved, &e.assumptions);
    if (!params.ok()) return params.error();
    e.runtime = params.value();
    e.draft_runtime = draft_runtime_for(config, e.runtime);
    target_ = machine_for(config, e.runtime);
    draft_ = draft_machine_for(config, e.draft_runtime);
  } else {
    e.runtime = runtime_;
    e.draft_runtime = draft_runtime_;
  }
  const TauResult* tau = tau_;
  e.tau = tau->tau;
  if (text) {
    e.tau_source = tau->source;
    e.tau_basis = tau->basis;
  }
  e.max_tokens_per_cycle = tau->max_tokens;

  const CycleWork work =
      cycle_work(config, placement_for(config, target_.tensor_parallel), e.tau, shape_, text);
  const CycleTime t = time_cycle(work, target_, draft_, config.batch);
  e.baseline = t.baseline;
  e.draft = t.draft;
  e.verify = t.verify;
  if (text) {
    e.baseline.name = "autoregressive decode step (target, 1 token per sequence)";
    e.draft.name = work.draft_name;
    e.verify.name = work.has_verify ? work.verify_name : "none";
    for (const auto& a : work.assumptions) e.assumptions.push_back(a);
  }
  e.step_overhead_s = t.step_overhead_s;
  e.cycle_overhead_s = t.spec_overhead_s;
  e.method_host_hidden_s = t.method_host_hidden_s;
  e.baseline_step_s = t.baseline_step_s;
  e.cycle_time_s = t.cycle_s;
  const MethodConfig& method = config.method;
  const bool variable_draft = method.family == Family::sps &&
                              method.sps_tree == MethodConfig::SpsTree::chain &&
                              (method.draft_p_min > 0 || method.draft_min > 0);
  if (variable_draft) price_variable_draft(config, *tau, shape_, target_, draft_, t, &e);
  if (config.method.family == Family::ar) {
    e.verify = e.baseline;  // plain decoding "verifies" its one token
  }
  const double batch_d = static_cast<double>(config.batch);
  e.speedup = e.tau * e.baseline_step_s / e.cycle_time_s;
  e.tokens_per_s = batch_d * e.tau / e.cycle_time_s;
  e.baseline_tokens_per_s = batch_d / e.baseline_step_s;

  if (tau->has_band && !e.has_draft_length) {
    // The cycle's cost barely depends on tau (only the draft's first pass re-reads the
    // accepted tokens), so the band scales the speedup with tau at this cycle time.
    e.has_band = true;
    e.tau_p5 = tau->tau_p5;
    e.tau_p95 = tau->tau_p95;
    e.speedup_p5 = e.tau_p5 * e.baseline_step_s / e.cycle_time_s;
    e.speedup_p95 = e.tau_p95 * e.baseline_step_s / e.cycle_time_s;
    if (text) e.band_label = tau->band_label;
  }
  e.tau_from_data = tau->from_data;
  MemoryReport m = memory_report(config, work.memory);
  // A full result (not a sweep's point) that does not fit says what would: the widest narrower
  // weight format, and the widest narrower KV cache, that the engine runs and with which the
  // setup fits on its own; else fp8 for both, on a GPU with fp8 tensor cores. Each is tried
  // with the whole setup's memory need in that format.
  if (!m.fits && text) {
    const Placement placement = placement_for(config, target_.tensor_parallel);
    const auto need_in = [&](std::optional<DType> weights, std::optional<DType> kv) {
      Config narrower = config;
      if (weights) narrower.dtype.weights = *weights;
      if (kv) narrower.dtype.kv = *kv;
      MemoryNeed need = cycle_work(narrower, placement, e.tau, shape_, false).memory;
      const bool fits = memory_report(narrower, need).fits;
      return std::make_pair(fits, std::move(need));
    };
    FitsWith fits_with;
    for (const bool kv : {false, true}) {
      for (DType d : narrower_formats(config, kv)) {
        auto [fits, need] = kv ? need_in(std::nullopt, d) : need_in(d, std::nullopt);
        if (!fits) continue;
        (kv ? fits_with.kv : fits_with.weights) = NarrowerFormat{d, std::move(need)};
        break;
      }
    }
    const bool eight_bits_fit =
        (fits_with.weights && dtype_bytes(fits_with.weights->dtype) >= 1) || fits_with.kv;
    if (!eight_bits_fit && dtype_bytes(config.dtype.weights) == 2 && config.hardware.fp8_tflops > 0)
      fits_with.fp8_weights_and_kv = need_in(DType::fp8, DType::fp8).first;
    m = memory_report(config, work.memory, &fits_with);
  }
  e.memory = MemorySummary{m.capacity_gb,
                           m.usable_gb,
                           m.utilization,
                           m.weights_gb,
                           m.draft_weights_gb,
                           m.kv_cache_gb,
                           m.activations_gb,
                           m.total_gb,
                           m.fits,
                           m.max_batch,
                           m.max_context,
                           m.suggestions,
                           m.fits_with_weights,
                           m.fits_with_kv,
                           device_noun(config.hardware),
                           memory_noun(config.hardware)};
  e.fits_in_memory = m.fits;
  set_verdict(config, text, &e);
  if (!text) return e;

  e.assumptions.push_back(
      "tau counts the bonus token: tokens per cycle per sequence = accepted drafts + 1; " +
      e.tau_source);
  add_setup_assumptions(config, e, &e.assumptions);
  if (config.temperature > 0 && config.method.family != Family::ar) {
    // What sampling costs here: host work in research code, nothing priced in fused engines.
    const HostOps& s = shape_.sampling_ops;
    const double s_host = method_host_s(s, e.runtime);
    const std::string t = "sampling at temperature " + fields::format_number(config.temperature);
    if (s_host > 0) {
      e.assumptions.push_back(
          t + ": the research code's sampler adds " + fields::format_significant(s.ops) +
          " ops and " + fields::format_significant(s.syncs) + " syncs of host work a cycle (" +
          fields::format_seconds(s_host) +
          ", in the bookkeeping above) beyond its greedy path, and " +
          fields::format_seconds(method_host_s(decode_host_ops(config.temperature), e.runtime) -
                                 method_host_s(decode_host_ops(0), e.runtime)) +
          " a token of plain decoding (docs/host-ops.md, " +
          (config.method.sps_token_tree() ? "\"sps token trees\": Sequoia's SpecTree)"
                                          : "\"Sampling at T > 0\")"));
    } else {
      e.assumptions.push_back(t + ": no host work priced for the sampler (" +
                              (method_host_s(HostOps{1, 1, 0}, e.runtime) > 0
                                   ? std::string("no sampled path of this method was counted")
                                   : std::string("this engine samples in fused GPU kernels")) +
                              ")");
    }
  }
  if (e.has_draft_length) {
    e.assumptions.push_back(
        "variable draft length (llama.cpp --draft-p-min " +
        fields::format_number(config.method.draft_p_min) + ", --draft-min " +
        std::to_string(config.method.draft_min) + ", --draft-max " +
        std::to_string(config.method.k) + "): " + fields::format_significant(e.expected_kept) +
        " tokens kept per cycle on average, " +
        fields::format_significant(100.0 * e.plain_cycle_share) +
        " % of cycles verify nothing; tau " + fields::format_significant(e.tau) +
        " (drafting k every cycle: " + fields::format_significant(e.tau_fixed_k) + "); " +
        kConfidenceModel);
    if (config.batch > 1)
      e.assumptions.push_back(
          "variable draft length at batch > 1: priced as if every sequence "
          "kept the same length (llama-server drafts each slot separately)");
    if (tau->has_band)
      e.assumptions.push_back(
          "the tau band is not drawn for a variable draft length: the "
          "spread of the draft's confidence is not in the data");
  }
  return e;
}

Expected<Evaluation> evaluate(const Config& config, TauMemo* memo) {
  auto plan = CostPlan::compile(config, memo, true);  // config outlives this call
  if (!plan.ok()) return plan.error();
  return plan.value().at(config.batch, config.context);
}

}  // namespace speccalc
