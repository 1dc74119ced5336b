// Cost of one forward pass, kernel class by kernel class (cost model v2).
//
// A pass is split into the kernel classes a GPU really runs: the decoder's GEMMs (QKV/O and
// MLP, weights read once per pass), attention over each sequence's KV cache, the LM head, and
// "other" (norms, elementwise, activations written and read back). Each class gets its own
// roofline; the classes then add. All counts are per GPU for one pass over the whole batch.
// Work (bytes, FLOPs) does not depend on the runtime profile; time does (time_pass), so a fit
// can reuse the work of a pass for many candidate parameter sets.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "speccalc/config.hpp"

namespace speccalc {

enum class Kernel { gemm = 0, attention = 1, lm_head = 2, other = 3 };
constexpr int kKernelKinds = 4;
const char* kernel_name(Kernel k);

// Work of one kernel class in one pass on one GPU.
struct KernelWork {
  double flops = 0;  // multiply-adds count 2 FLOPs
  // Of flops, the matmuls against a quantized_experts_only model's 16-bit weights: they run at
  // the 16-bit peak even where the low-bit experts use fp4 tensor cores.
  double flops_16bit = 0;
  double weights_bytes = 0;  // weights read once per pass
  // Of weights_bytes, the 16-bit ones of a quantized_experts_only model under a low-bit dtype:
  // streamed at the engine's plain bandwidth, without the low-bit kernels' dequant factor.
  double weights_16bit_bytes = 0;
  // Of weights_bytes, the routed experts' (low-bit where the checkpoint quantizes them): one
  // fused-MoE call per MoE layer streams them, at RuntimeParams::moe_bw_efficiency where the
  // profile states one.
  double expert_weights_bytes = 0;
  double kv_cache_bytes = 0;     // KV cache read (context) + written (new tokens)
  double activations_bytes = 0;  // matmul inputs/outputs and logits written and read back
  // Attention score elements a pass computes (heads x queries x keys x layers x sequences, per
  // GPU): code that materializes the score matrix (eager attention) moves
  // RuntimeParams::score_bytes_per_element bytes for each; fused kernels keep them on chip.
  double score_elements = 0;
  double rows = 0;  // rows one matmul of this class multiplies (tokens x sequences); the
                    // widest when classes merge (local engines pick kernels by it)
  double bytes() const { return weights_bytes + kv_cache_bytes + activations_bytes; }
  KernelWork& operator+=(const KernelWork& o);
};

// Collectives of one kind in one pass: `count` of them, each over `group` GPUs. An all-reduce's
// `bytes` is the tensor reduced (a ring moves 2 (g - 1) / g of it per GPU); an all-to-all's is
// what one GPU sends (the part that stays on the GPU already left out).
struct Collective {
  int64_t count = 0;
  double bytes = 0;
  int64_t group = 1;
  Collective& operator+=(const Collective& o);
};

// Work of one pass on one GPU, by kernel class, plus what host time and communication scale with.
struct Work {
  std::array<KernelWork, kKernelKinds> kernels;
  int64_t layers = 0;  // decoder layers (eager kernel launches scale with them)
  // Kernels the pass launches beyond those of as many dense GQA layers (MLA's extra
  // projections and norms, MoE routing): decoder_work counts them, time_pass charges each
  // RuntimeParams::arch_kernel_s.
  double arch_kernels = 0;
  // Linears whose input is quantized in a kernel of its own when the pass multiplies in its
  // weights' low-precision format (kGqaQuantLinears and the rest; act_quant_kernels decides).
  double quant_linears = 0;
  // MoE layers (each one fused-MoE call: RuntimeParams::moe_call_s of fixed GPU time).
  double moe_layers = 0;
  // The expert slices those calls touch on this GPU (under tensor parallelism each touched
  // expert's 1 / tp slice, under expert parallelism each touched expert the GPU holds), each
  // times the hidden size its tiles reduce over, summed over the MoE layers
  // (RuntimeParams::moe_slice_k_s per unit).
  double moe_slice_k = 0;
  // Tensor-parallel all-reduces: after attention and after the MLP of every sharded layer
  // (under data-parallel attention: within an attention group, and the all-gather +
  // reduce-scatter around the MLP, which move what one all-reduce over all GPUs moves).
  Collective allreduce;       // over all the pass's GPUs (or one attention group when D = 1)
  Collective attn_allreduce;  // within an attention group (data-parallel attention only)
  Collective all_to_all;      // expert parallelism: dispatch + combine around each MoE layer
  KernelWork& operator[](Kernel k) { return kernels[static_cast<int>(k)]; }
  const KernelWork& operator[](Kernel k) const { return kernels[static_cast<int>(k)]; }
  KernelWork total() const;
  Work& operator+=(const Work& o);
};

// How a pass is split over GPUs. Tensor parallelism (engines) divides heads, MLP width and
// vocabulary by tp; a KV head is replicated when tp exceeds the KV-head count (each GPU keeps
// one, as vLLM does). Layer-sequential execution (HF device_map) keeps whole layers on one GPU
// and runs the GPUs one after another: per pass, the work is that of one GPU holding them all.
// Data-parallel attention (SGLang --enable-dp-attention, vLLM -dp, TensorRT-LLM
// enable_attention_dp) splits the tp GPUs into attention_dp groups: each group attends its
// batch / attention_dp sequences with heads split over tp / attention_dp GPUs (attention
// weights replicated across groups, each sequence's KV in one group only); the MLP and the LM
// head still run over all tp GPUs on every token. Expert parallelism keeps whole experts on
// each GPU (experts / tp each) and routes tokens to them all-to-all instead of all-reducing.
struct Sharding {
  int64_t tp = 1;
  int64_t attention_dp = 1;
  bool expert_parallel = false;
  int64_t attention_tp() const {
    return attention_dp > 1 ? std::max<int64_t>(1, tp / attention_dp) : tp;
  }
};

// Decoder layers of model m over `tokens` new tokens per sequence for `batch` sequences that
// each attend `context` cached tokens (plus the new ones: causally for a chain; a tree's
// tokens attend their ancestors, but the masked kernel still computes the whole
// tokens x tokens block, which is what is counted). When lm_head_rows > 0 the LM head is
// applied to that many rows per sequence.
Work decoder_work(const ModelArch& m, int64_t layers, int64_t batch, int64_t tokens,
                  int64_t context, int64_t lm_head_rows, const DTypes& dtype,
                  const Sharding& shard = {});

// Kernels a decoder layer launches beyond a dense GQA layer with a dense MLP (which launches,
// under SGLang, 4 GEMMs and 7 other kernels: docs/cost-model.md), counted in SGLang's
// DeepSeek-V2/V3 decode path (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py at
// 00114aef, CUDA, fp8 checkpoint, FlashInfer / FA3 backend; vLLM's deepseek_v2.py runs the same
// projections). Not counted, so a lower bound: DeepSeek Sparse Attention's indexer, Gated
// DeltaNet layers' own kernels (the activation quantization is counted below).
// MLA, absorbed decode (forward_absorb_prepare / forward_absorb_core): 3 more GEMMs
// (fused_qkv_a_proj_with_mqa and q_b_proj where GQA has one qkv_proj; bmm_fp8 with w_kc and
// with w_vc) and 5 more other kernels (q_a_layernorm, kv_a_layernorm, per_tensor_quant_mla_fp8
// before each bmm, the contiguous copy of the bmm output's transpose(0, 1).flatten(1, 2)).
inline constexpr double kMlaExtraKernels = 3 + 5;
// MoE (DeepseekV2MoE.forward_normal, shared experts fused into the routed-expert kernel,
// SGLang's default for DeepSeek-V3/R1): the router's F.linear, 1 GEMM, and 3 other kernels
// (select_experts' grouped top-k, moe_align_block_size, the top-k outputs' sum), the experts'
// two fused_moe GEMMs and silu_and_mul standing where a dense MLP has its own.
inline constexpr double kMoeExtraKernels = 1 + 3;

// Activation quantization: a GEMM on fp8 (or int8) tensor cores, or nvfp4 ones, takes its input
// in that format, and the engines quantize it in a kernel of its own before each such linear
// (sgl-project/sglang python/sglang/srt/layers/quantization/fp8_utils.py at 002ed7e4: every
// block-fp8 path, deepgemm_w8a8_block_fp8_linear_with_fallback, cutlass_ and triton_, runs
// sglang_per_token_group_quant_fp8 / per_token_group_quant_fp8 and then the GEMM; per-tensor fp8
// runs sgl_scaled_fp8_quant first; vLLM's w8a8 and nvfp4 paths run scaled_fp8_quant /
// scaled_fp4_quant the same way). Linears per layer whose weights are in that format:
// GQA attention 2 (qkv_proj, o_proj); MLA 3 (fused_qkv_a_proj_with_mqa, q_b_proj, o_proj:
// kv_b_proj runs absorbed, as the two bmm_fp8 whose quantization kMlaExtraKernels counts);
// a Gated DeltaNet layer 2 (in_proj_qkvz, out_proj: vLLM's qwen3_next.py keeps in_proj_ba out
// of block fp8); a dense MLP, or a shared expert run as its own MLP (Qwen-style MoE blocks), 2
// (gate_up_proj, down_proj). A fused-MoE call quantizes inside it (its measured time,
// RuntimeParams::moe_call_s), and SGLang fuses DeepSeek's shared experts into that call.
// Not counted: DeepSeek-V4's attention (its projections' formats vary by checkpoint).
inline constexpr double kGqaQuantLinears = 2;
inline constexpr double kMlaQuantLinears = 3;
inline constexpr double kDeltaNetQuantLinears = 2;
inline constexpr double kMlpQuantLinears = 2;

// A dense matmul block of `params` weights applied to `rows` rows (FLOPs 2 * params * rows),
// charged to kernel class k.
Work linear_work(double params, int64_t rows, const DTypes& dtype, Kernel k = Kernel::gemm);

// How often a sequence's next token is routed exactly as the token before it (the same top_k
// experts), beyond chance: a documented assumption from the only routing statistic at hand.
// Mixtral 8x7B (Jiang et al., "Mixtral of Experts", arXiv 2401.04088, Table 5: consecutive
// tokens of The Pile, 8 domains, layers 0 / 15 / 31): the first choice repeats 14.1 / 26.4 /
// 22.7 % of the time (domain means; chance 1/8), and the two choices overlap 48.0 / 63.7 /
// 50.9 % (chance 1 - (6/8)(5/7) = 46.4 %). Under this model a repeat is p = r + (1 - r) x
// chance, so r = (p - chance) / (1 - chance): 0.098 from the first-choice means, 0.145 from the
// overlaps; 0.12 is their midpoint. Per layer and domain r ranges from about 0 (layer 0, and
// DM Mathematics' overlap at layer 31, 44.5 %, below chance) to 0.38 (layer 15, DM Mathematics,
// overlap 67.0 %). DeepSeek-style fine-grained routers (256 experts,
// 8 a token) publish no such table; the same r is assumed for every MoE target.
inline constexpr double kRoutingRepeat = 0.12;

// Expected number of distinct experts one layer reads for `sequences` sequences of `tokens`
// routed tokens each. Each sequence's first token picks top_k of E experts uniformly; each
// next token repeats the previous token's experts with probability `repeat`, else picks anew
// (uniformly, independently). Sequences are independent. With m = 1 - k/E and r = repeat, a
// given expert stays unread by one sequence with probability m (r + (1 - r) m)^(tokens - 1),
// and by all of them with that to the power `sequences`:
//   E x (1 - [(1 - k/E) (r + (1 - r)(1 - k/E))^(tokens - 1)]^sequences).
// repeat = 0 is uniform independent routing, E (1 - (1 - k/E)^(sequences x tokens)); repeat = 1
// reads top_k experts per sequence however many tokens it verifies. Integer powers only (native
// and WASM round alike).
double expected_experts_touched(int64_t experts, int64_t top_k, int64_t sequences, int64_t tokens,
                                double repeat);

// The hardware and runtime parameters a pass runs under.
struct Machine {
  Gpu gpu;
  int64_t gpus = 1;             // GPUs this pass is spread over (tp, or layer-sequential)
  bool tensor_parallel = true;  // false: layers split across GPUs and run one after another
  RuntimeParams runtime;
  DTypes dtype;
  double weights_link_gbps = 0;  // > 0: weights stream from host memory over this link (offload)
  // Partial offload (llama.cpp --n-gpu-layers): the CPU that runs the layers left on the host,
  // its peak memory bandwidth (bytes/s) and its sustained matmul rate (FLOP/s); 0 = none.
  double host_memory_bytes_s = 0;
  double host_flops = 0;
  double peak_flops() const;         // FLOP/s of one GPU for the weight dtype
  double peak_flops_16bit() const;   // FLOP/s of one GPU for 16-bit weights
  double bandwidth_bytes_s() const;  // peak bytes/s of one GPU
  // Fraction of peak bandwidth reached while streaming weights of this dtype: the profile's
  // fp16 figure times a dequantization factor (weight_bandwidth_factor).
  double weight_bw_efficiency() const;
};

// Achieved weight-streaming bandwidth of a dtype relative to fp16 in the same stack: gpt-fast
// on an A100-80GB, Llama-2-7B: 1397 (fp16) / 1069 (int8) / 863 (int4) GB/s (gpt-fast README,
// Benchmarks, as quoted in issue #10): int8 0.765, int4 0.618. fp8 on a GPU with fp8 tensor
// cores reads like fp16 (native fp8 GEMMs); without them it is dequantized like int8.
// nvfp4 / mxfp4 on a GPU whose tensor cores run that format read like fp16 (native block-scaled
// GEMMs); elsewhere they are dequantized in the kernel like int4 (weight-only).
double weight_bandwidth_factor(DType weights, const Gpu& gpu);

// True when the GPU's tensor cores run this block-scaled fp4 format (Gpu::nvfp4 / mxfp4 with a
// non-zero fp4 peak); false for every other dtype.
bool fp4_native(DType weights, const Gpu& gpu);

// Whether the GEMMs of a pass with these weights take quantized activations: fp8 and int8
// weights on a GPU with fp8 tensor cores (where Machine::peak_flops runs them; elsewhere the
// kernels dequantize the weights and keep 16-bit activations), nvfp4 where the GPU runs it.
bool quantizes_activations(DType weights, const Gpu& gpu);

// The quantization kernels a pass with these weights runs on this GPU (Work::quant_linears where
// quantizes_activations, else 0).
double act_quant_kernels(const Work& w, const Gpu& gpu, DType weights);

// Cost of one kernel class in one pass.
struct KernelCost {
  Kernel kind = Kernel::gemm;
  double flops = 0;
  double bytes = 0;
  double memory_time_s = 0;   // bytes at the effective bandwidth
  double compute_time_s = 0;  // FLOPs at the effective peak
  double time_s = 0;          // kernel_time_s(memory, compute, overlap)
  const char* bound() const;  // "memory" or "compute"
};

// A kernel's time from its memory and compute times: the longer plus the part of the shorter
// the stack does not hide under it, max + (1 - overlap) x min. Measured stacks sit between the
// ideal roofline (overlap 1) and no overlap at all (SpecDecode-Bench's vLLM step-time fit grows
// linearly in tokens from the first token on); the profile's fit decides (docs/cost-model.md).
double kernel_time_s(double memory_s, double compute_s, double overlap);

// Bandwidth a collective over `group` GPUs runs at, bytes/s: the GPU's interconnect (NVLink)
// within one node of gpus_per_node GPUs, the slower of it and the per-GPU network link
// (network_gbps) when the group spans nodes.
double collective_link_bytes_s(const Gpu& gpu, int64_t group);

// Whether a collective over `group` GPUs crosses the network (more GPUs than one node holds,
// on hardware that states a network link).
bool spans_nodes(const Gpu& gpu, int64_t group);

// The least time one collective across nodes takes, s, whatever the engine's own all-reduce
// latency within a node: NVIDIA/nccl-tests issue #150 (two nodes of one A100 80GB each over HDR
// InfiniBand, all_reduce_perf, 8-64 bytes) measures 18.96-19.10 us in place and 19.16-20.67 us
// out of place; 18.96 us is the least. More ranks per node and more switches only add to it
// (two GB10s over a 200 Gb/s RoCE cable take 30-35 us at 8-32 KB: NVIDIA/dgx-spark-playbooks
// PR #103). A lower bound, stated, not fitted: no stored multi-node step is fitted on.
inline constexpr double kInterNodeCollectiveLatencyS = 18.96e-6;

// The latency one collective over `group` GPUs pays: the engine's own, or across nodes at
// least kInterNodeCollectiveLatencyS. time_pass and the fit's reduced form both ask here.
inline double collective_latency_s(double engine_latency_s, bool across_nodes) {
  return across_nodes && engine_latency_s < kInterNodeCollectiveLatencyS
             ? kInterNodeCollectiveLatencyS
             : engine_latency_s;
}

// Transfer time of a pass's collectives (their latency excluded), how many there are (each
// pays the runtime's allreduce_latency_s) and how many of them cross the network (each pays at
// least kInterNodeCollectiveLatencyS).
double collective_transfer_s(const Work& w, const Gpu& gpu);
int64_t collective_count(const Work& w);
int64_t network_collective_count(const Work& w, const Gpu& gpu);

// Time of one pass of work w on machine m.
struct PassTime {
  std::array<KernelCost, kKernelKinds> kernels;
  double device_s = 0;    // sum of the kernel classes + communication
  double comm_s = 0;      // tensor-parallel all-reduces
  double launch_s = 0;    // eager kernel launches (layers x layer_overhead_s), overlapping device
  double overhead_s = 0;  // host time the GPU does not hide: pass overhead + launches beyond device
  double time_s = 0;      // device + overhead
  // Bytes the attention's materialized scores move (score elements x the runtime's
  // score_bytes_per_element), counted as activation traffic of the attention class.
  double score_bytes = 0;
};
// `layer_syncs`: device-to-host syncs the implementation makes inside every layer; each costs
// the host host_sync_s (the round trip, and the GPU's queue restarting empty) on top of the
// layer's launches (layer_overhead_s).
PassTime time_pass(const Work& w, const Machine& m, double layer_syncs = 0);

// Time of the part of a pass that runs on the CPU (partial offload) from host memory at
// kHostBandwidthEfficiency of m.host_memory_bytes_s and m.host_flops: each kernel class takes
// the longer of its memory and compute time (a CPU's prefetchers stream weights under its
// arithmetic), with no launch or pass overhead of its own (llama.cpp runs the CPU layers in
// the same graph as the GPU's).
PassTime time_host_pass(const Work& w, const Machine& m);

// Fraction of a CPU's peak memory bandwidth llama.cpp's CPU backend streams weights at:
// llama-bench on an AMD EPYC 9554, 12-channel DDR5-5600 (460.8 GB/s peak), Phi-4 14B: Q4_K_M
// (8.43 GiB) 28.74 tokens/s = 260 GB/s (0.56), Q8_0 (14.51 GiB) 19.19 tokens/s = 299 GB/s
// (0.65) (ahelpme.com, "CPU-only inference with AMD Epyc 9554", llama-bench tg, 4k context):
// their mean.
constexpr double kHostBandwidthEfficiency = 0.6;

// A kind of pass in a cycle (baseline step, draft passes, verify), with totals over the cycle.
struct PassCost {
  std::string name;
  int64_t tokens_per_pass = 0;   // new tokens per sequence in one pass
  int64_t passes_per_cycle = 0;  // passes of this kind per draft-verify cycle
  // Totals over the cycle's passes of this kind, per GPU.
  double flops = 0;
  double weights_bytes = 0;
  double kv_cache_bytes = 0;
  double activations_bytes = 0;
  double bytes = 0;
  double memory_time_s = 0;
  double compute_time_s = 0;
  double comm_time_s = 0;
  double overhead_s = 0;  // host time not hidden by the GPU (pass + exposed launches + extra)
  double time_s = 0;      // device + overhead
  std::array<KernelCost, kKernelKinds> kernels;  // summed over the cycle's passes of this kind
  bool launch_bound = false;
  double arithmetic_intensity = 0;  // flops / bytes (0 when nothing is read)
  std::string bound = "none";       // "memory", "compute" or "none"
  std::string runtime;              // runtime profile the passes ran under
  // Partial offload: the share of time_s and bytes the CPU's layers take (0 otherwise); the
  // totals above hold both devices' parts of the pass.
  double host_time_s = 0;
  // Eager passes whose GPU work outlasts their launches: the GPU is this far behind the host
  // when their launches end (sum over passes of device - launches, where positive), time the
  // host spends on other work without the GPU waiting.
  double gpu_ahead_s = 0;
  double host_bytes = 0;
  void add(const PassTime& t, const Work& w, int64_t passes = 1);
  void add_host_s(double s);  // CPU work with no pass (prompt lookup, retrieval)
};

}  // namespace speccalc
