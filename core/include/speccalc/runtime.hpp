// Runtime (engine) profiles: the few physical parameters that separate a real software stack
// from the hardware roofline, and what each engine can run. Values, and the data each was
// fitted on: core/data/runtimes.json (written by `speccalc fit`).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

// Every field is a physical quantity of the stack; docs/cost-model.md says what each stands for.
struct RuntimeParams {
  double bw_efficiency = 1;     // fraction of peak bandwidth a pass reaches streaming fp16 weights
  double kv_bw_efficiency = 1;  // fraction of peak bandwidth attention reaches reading the KV cache
  double flops_efficiency = 1;  // fraction of peak tensor FLOP/s the GEMMs reach
  double overlap = 0;           // fraction of the shorter of a kernel's memory and compute time
                                // hidden under the longer (1: ideal roofline max, 0: they add)
  double pass_overhead_s = 0;   // host time per forward pass not hidden by the GPU (launch or
                                // graph replay, sync, Python per forward)
  double layer_overhead_s = 0;  // kernel launches per decoder layer (eager); overlap GPU work
  double step_overhead_s = 0;   // per engine step: scheduler, sampling, output processing;
                                // paid by plain decoding too
  double seq_overhead_s = 0;    // per sequence in the batch per engine step
  // Once per request, in a measured first-token latency: the session's or request's setup
  // around the prompt's forward (buffers, context-phase enqueue, first sampling and return) that
  // decode steps do not pay. Only "forward" rows measured as first-token latency carry it
  // (TensorRT-LLM v0.5's gptSessionBenchmark at 1 output token); 0 where an engine's data has
  // no such rows (llama-bench's pp rows time llama_decode alone).
  double request_overhead_s = 0;
  double cycle_overhead_s = 0;  // speculative bookkeeping per cycle: proposer calls,
                                // rejection sampling, acceptance, KV-cache update
  double tree_overhead_s = 0;   // extra per cycle for tree methods: tree build, mask, tree walk
  // Per cycle, an engine's GPU drafter (a draft model, EAGLE head or MTP module) has its
  // inputs prepared on the host: positions, slot mappings, the accepted tokens' hidden states
  // gathered, the proposer called. N-gram and lookup drafters (CPU) and drafts inside the
  // verify pass skip it. Fitted where the engine's EAGLE cycles and n-gram cycles are both
  // measured (vLLM: SpecDecode-Bench's step-time model); 0 elsewhere.
  double proposer_cycle_s = 0;
  // Extra time per EAGLE-3 draft forward on this engine's EAGLE-3 path, beyond the pass its
  // kernels and pass_overhead_s price: the reduced-vocabulary logits mapped back onto the full
  // vocabulary (draft_id_to_target_id) outside the captured graph, and what else that path
  // costs per step. Fitted on the engine's EAGLE-3 cycle times (vLLM issue #20780); engines
  // without such data keep 0.
  double eagle3_step_overhead_s = 0;
  // Host time per draft-model forward (SpS) on this engine's draft-model path, beyond the pass
  // its kernels and pass_overhead_s price: the draft's own sampler and input preparation run
  // once per drafted token (vLLM v0.10's draft-model worker, vllm/spec_decode/
  // draft_model_runner.py: compute_logits, sample and advance_step per step). Fitted on
  // SpecDecode-Bench's stated draft-pass cost against the target's pass; 0 elsewhere.
  double draft_model_step_s = 0;
  // Host scheduling per engine step that an overlap scheduler runs under the GPU's forward in
  // plain decoding (hidden there) and a speculative cycle pays in series, where the engine turns
  // overlap scheduling off for speculation: SGLang (sgl-project/sglang python/sglang/srt/
  // server_args.py sets disable_overlap_schedule = True for EAGLE, EAGLE3, STANDALONE and NGRAM
  // unless SGLANG_ENABLE_SPEC_V2). Set from published plain-decoding steps with and without
  // overlap scheduling (docs/cost-model.md); 0 where the engine schedules both alike.
  double unoverlapped_sched_s = 0;
  double allreduce_latency_s = 0;  // latency of one tensor-parallel all-reduce
  // Bytes moved per attention score element where the attention is written as separate
  // kernels that materialize the scores (research code's eager attention); 0 where a fused
  // kernel keeps them on chip. docs/cost-model.md counts them for the EAGLE/Medusa code.
  double score_bytes_per_element = 0;
  // Local engines (llama.cpp, MLX) pick a matmul kernel by the rows of a pass (tokens x
  // sequences): up to matvec_max_rows a matrix-vector kernel streams the weights once and
  // computes every row at matvec_flops_efficiency of peak (its per-row cost grows linearly);
  // above, a matrix-matrix kernel computes at flops_efficiency on rows padded up to a multiple
  // of matmul_tile_rows. 0 = not modeled (datacenter engines: one GEMM regime, no padding).
  double matvec_max_rows = 0;
  double matvec_flops_efficiency = 0;
  double matmul_tile_rows = 0;
  // In the matrix-vector regime, the share of the rows' arithmetic past the first row that
  // runs under the weight stream: 0 = every further row adds its compute after the stream
  // (llama.cpp's kernels: their tables grow linearly from one token), 1 = all rows' compute
  // overlaps the stream and shows only once it exceeds it (MLX's qmv: a second row is free,
  // ml-explore/mlx issue #3852). time = additive - matvec_overlap x (additive - overlapped).
  double matvec_overlap = 0;
  // GPU-side floor: a kernel holds the GPU at least kernel_floor_s even when a CUDA graph
  // replays it (in-graph launch latency, ramp-up, tail). Per decoder layer a pass runs
  // gemm_kernels_per_layer GEMMs and kernels_per_layer other kernels (norms, rotary,
  // attention, cache writes, activations, residual adds), and kernels_per_pass outside its
  // layers besides the LM head (embedding, final norm, sampling): the GEMMs take at least
  // their count x the floor, the other kernels together theirs. Separate from the host's
  // launch cost (layer_overhead_s). 0 = no floor.
  double kernel_floor_s = 0;
  double kernels_per_layer = 0;
  double gemm_kernels_per_layer = 0;
  double kernels_per_pass = 0;
  // Graph engines, whose fitted efficiencies and per-step times come from dense GQA models
  // (their kernels' floor is inside those fits): each kernel an MLA or MoE layer launches beyond
  // a dense layer's (Work::arch_kernels, counted in model/cost.cpp) adds arch_kernel_s of GPU
  // time, the in-graph launch gap and ramp of a kernel that moves a few MB. 0 = not charged
  // (eager and local profiles: their counts are dense-layer counts and host time dominates).
  double arch_kernel_s = 0;
  // vLLM and SGLang quantize a linear's input in a kernel of its own before each GEMM that runs
  // on fp8 / int8 or nvfp4 tensor cores (Work::quant_linears, cost.hpp): act_quant_kernel_s of
  // GPU time each, the same in-graph gap as arch_kernel_s. 0 = not charged: TensorRT-LLM fuses
  // the quantization into the kernel before (and its decode is fitted on fp8 steps), eager and
  // local profiles quantize nothing or pay host time that hides it.
  double act_quant_kernel_s = 0;
  // A fused-MoE call (one MoE layer's routed experts: top-k, the tokens' sort by expert, two
  // grouped GEMMs over padded per-expert tiles, the activation, the top-k sum) measured alone
  // by the engines' kernel benchmarks (core/data/moe-kernel-times.json): a fixed GPU time plus
  // the experts' bytes at a bandwidth efficiency of its own, higher than a whole pass's
  // bw_efficiency (which holds a dense pass's many small kernels). moe_bw_efficiency: that
  // efficiency (0 = bw_efficiency); moe_call_s: the fixed time beyond the gaps of the call's
  // extra small kernels that arch_kernel_s already charges. Fitted by scripts/fit_moe_kernel.py.
  double moe_bw_efficiency = 0;
  double moe_call_s = 0;
  // moe_slice_k_s: GPU time a fused-MoE call spends per expert slice it touches, per unit of
  // the hidden size (the reduction each slice's few output tiles run over K = hidden in series,
  // which the GPU's other SMs cannot share), fitted with the two above on the benchmarks'
  // whole curves over tokens (Work::moe_slice_k).
  double moe_slice_k_s = 0;
  // Host work of the method's own code per speculative cycle, outside the model's passes
  // (research code: tree building, candidate selection, acceptance, cache update):
  // method_op_s per PyTorch op it dispatches, host_sync_s per device-to-host synchronization.
  // The counts come from the family's reference implementation (model/host_ops.cpp).
  double method_op_s = 0;
  double host_sync_s = 0;
  // Syncs per decoder layer of the plain-decoding baseline the speedup is measured against: 0
  // for HF generate (Spec-Bench), 5 for the EAGLE repository's baseline scripts, which run the
  // target through the same per-layer-syncing KV cache as EAGLE (model/host_ops.hpp).
  double baseline_layer_syncs = 0;
};

// FLOP/s-limited time of a matmul kernel class doing `flops` over `rows` rows on a GPU of
// peak_flops_s, under the profile's kernel regimes (see matvec_max_rows above); without them
// flops / (peak x flops_efficiency).
double matmul_compute_s(double flops, double peak_flops_s, double rows, const RuntimeParams& p);
// Time of a matmul kernel class from its memory time and its compute time (matmul_compute_s):
// in the matrix-vector regime the first row's dot products ride on the weight stream and
// every further row adds its own, max(memory, compute / rows) + compute x (rows - 1) / rows
// (llama-bench: forward time grows linearly from one token on; issue #8869, PR #29110);
// otherwise the profile's overlap rule, kernel_time_s.
double matmul_kernel_time_s(double memory_s, double compute_s, double rows, const RuntimeParams& p);
bool in_matvec_regime(double rows, const RuntimeParams& p);
// The least GPU time a pass of `layers` decoder layers spends in its small (non-GEMM)
// kernels: (layers x kernels_per_layer + kernels_per_pass) x kernel_floor_s.
double small_kernel_floor_s(double layers, const RuntimeParams& p);
// The least GPU time its GEMMs take: layers x gemm_kernels_per_layer x kernel_floor_s.
double gemm_kernel_floor_s(double layers, const RuntimeParams& p);

// True when the profile models local kernel regimes (matvec_max_rows > 0).
bool has_kernel_regimes(const RuntimeParams& p);
// The parameters of p that belong in a printed list, with their values, in RuntimeParams order
// (what a result, a fit or `list runtimes` prints): the kernel-regime, kernel-floor and host-op
// parameters only where the profile models them, so each profile prints what it always printed.
std::vector<std::pair<const char*, double>> shown_runtime_params(const RuntimeParams& p);

// The EAGLE-2/3 knobs an engine runs when the user gives none (runtimes.json eagle_defaults):
// draft levels, candidates per level, verified tokens (root included).
struct EagleKnobs {
  int64_t depth = 0;  // 0: the engine states no default (the EAGLE papers' apply)
  int64_t top_k = 0;
  int64_t total_token = 0;
};

struct RuntimeProfile {
  std::string id;
  std::string name;             // what a user would call it ("vLLM V1")
  std::string description;      // one line on what it is
  std::string fitted_on;        // the data the parameters were fitted on
  bool validated = false;       // a published speculative measurement on this stack is predicted
  std::string validated_by;     // which measurements (or why none)
  bool tensor_parallel = true;  // false: multi-GPU runs layers one GPU after another
  std::string draft_runtime;    // profile drafts run under by default ("" = this one)
  // The draft's tensor parallelism when the config gives none: the target's (true) or 1.
  bool draft_tp_follows_target = true;
  // Draft TPs the engine accepts: "1" and/or "target"; empty = any that divides the draft.
  std::vector<std::string> draft_tp_allowed;
  std::string draft_tp_source;    // where the engine's rule is written (file and function)
  EagleKnobs eagle_defaults;      // EAGLE-2/3 knobs the engine runs by default
  EagleKnobs eagle_defaults_mla;  // the same for MLA (DeepSeek-V2/V3) targets
  std::string eagle_defaults_source;
  bool trees = true;  // can verify token trees (false: chains only)
  // A draft model's (sps) token tree too: TensorRT-LLM verifies EAGLE and Medusa trees but
  // drafts a draft model's tokens as one chain. Defaults to `trees`.
  bool draft_model_trees = true;
  // Quantized weight formats the engine runs: "gguf" (llama.cpp), "mlx", or "" (the
  // datacenter formats fp16/bf16/fp8/int8/int4/fp4).
  std::string weight_formats;
  // Hardware vendors it runs on (runtimes.json `vendors`); empty = any.
  std::vector<std::string> vendors;
  bool single_device = false;  // runs on one GPU (or one Mac) only
  // Runs attention data-parallel and experts expert-parallel (`parallelism`): vLLM
  // (--data-parallel-size, --enable-expert-parallel: docs.vllm.ai DeepSeek-V3 recipe and
  // serving/expert_parallel_deployment), SGLang (--dp-size with --enable-dp-attention, --ep-size:
  // docs.sglang.io server_arguments), TensorRT-LLM (LLM API enable_attention_dp,
  // moe_expert_parallel_size). The flags are written in engines/engine_export.cpp.
  bool data_expert_parallel = false;
  // Runs the layers --n-gpu-layers leaves out on the CPU (llama.cpp's CUDA build).
  bool partial_offload = false;
  // Drafts a variable number of tokens per cycle (--draft-p-min, --draft-min): llama.cpp.
  bool variable_draft_length = false;
  // How many vocabulary entries a draft model may differ from the target by (runtimes.json
  // `draft_vocab_max_difference`; 0 = the sizes must be equal) and the engine source saying so.
  int64_t draft_vocab_max_difference = 0;
  std::string draft_vocab_source;
  std::string default_hardware;       // where a setup switched to this engine lands ("" = keep)
  std::vector<std::string> families;  // method families the engine runs
  RuntimeParams params;
  bool supports(const std::string& family) const;
};

// Profile choice plus optional overrides, as written in a config.
struct RuntimeSpec {
  std::string profile = "compiled";
  // Overrides in config order; each name is a RuntimeParams field.
  std::vector<std::pair<std::string, double>> overrides;
  double measured_decode_step_s = 0;  // testbed calibration (0 = none)
  int64_t measured_decode_batch = 0;  // batch the step was measured at (0 = none)
  RuntimeParams resolved;             // profile params with overrides applied (before calibration)
};

// The paste `calibrate` fits a local engine from, which is also its request key:
// "llama_bench" (llama-bench's table) for the GGUF engines, "mlx_lm" (mlx_lm.generate's
// summary) for mlx; nullptr for the serving engines (they calibrate from decode steps).
const char* calibration_paste_key(const RuntimeProfile& r);

Expected<std::vector<RuntimeProfile>> load_runtime_profiles();
const char* const* runtime_param_names();  // null-terminated list, in RuntimeParams order
double* runtime_param(RuntimeParams& p, std::string_view name);             // nullptr when unknown
double runtime_param_value(const RuntimeParams& p, std::string_view name);  // 0 when unknown
// A cost of one engine's own code path (proposer_cycle_s, eagle3_step_overhead_s,
// draft_model_step_s, unoverlapped_sched_s, score_bytes_per_element): never copied to another
// profile as a prior.
bool is_method_path_param(std::string_view name);
// A share of a shorter time hidden under a longer one (overlap, matvec_overlap): 0..1 wherever
// it is given or fitted.
bool is_share_param(std::string_view name);

}  // namespace speccalc
