#include "speccalc/cost.hpp"

#include <algorithm>
#include <cmath>

namespace speccalc {

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::gemm:
      return "gemm";
    case Kernel::attention:
      return "attention";
    case Kernel::lm_head:
      return "lm_head";
    case Kernel::other:
      return "other";
  }
  return "other";
}

KernelWork& KernelWork::operator+=(const KernelWork& o) {
  flops += o.flops;
  flops_16bit += o.flops_16bit;
  weights_bytes += o.weights_bytes;
  weights_16bit_bytes += o.weights_16bit_bytes;
  expert_weights_bytes += o.expert_weights_bytes;
  kv_cache_bytes += o.kv_cache_bytes;
  activations_bytes += o.activations_bytes;
  score_elements += o.score_elements;
  rows = std::max(rows, o.rows);
  return *this;
}

KernelWork Work::total() const {
  KernelWork t;
  for (const auto& k : kernels) t += k;
  return t;
}

Collective& Collective::operator+=(const Collective& o) {
  count += o.count;
  bytes = std::max(bytes, o.bytes);
  group = std::max(group, o.group);
  return *this;
}

Work& Work::operator+=(const Work& o) {
  for (int i = 0; i < kKernelKinds; ++i) kernels[i] += o.kernels[i];
  layers += o.layers;
  arch_kernels += o.arch_kernels;
  quant_linears += o.quant_linears;
  moe_layers += o.moe_layers;
  moe_slice_k += o.moe_slice_k;
  allreduce += o.allreduce;
  attn_allreduce += o.attn_allreduce;
  all_to_all += o.all_to_all;
  return *this;
}

bool spans_nodes(const Gpu& gpu, int64_t group) {
  return group > gpu.gpus_per_node && gpu.network_gbps > 0;
}

double collective_link_bytes_s(const Gpu& gpu, int64_t group) {
  const double link = gpu.interconnect_gbps * 1e9;
  if (!spans_nodes(gpu, group)) return link;
  return std::min(link, gpu.network_gbps * 1e9);
}

namespace {
// One collective's transfer time: a ring all-reduce sends and receives 2 (g - 1) / g of the
// payload per GPU; an all-to-all's bytes are already what one GPU sends.
double one_transfer_s(const Collective& c, const Gpu& gpu, bool all_to_all) {
  const double g = static_cast<double>(c.group);
  const double moved = all_to_all ? c.bytes : 2.0 * (g - 1.0) / g * c.bytes;
  return moved / collective_link_bytes_s(gpu, c.group);
}

// count x (latency + transfer) of each kind of collective the pass makes, or count x transfer
// alone; with its latency, one that crosses the network takes at least
// kInterNodeCollectiveLatencyS.
double collectives_s(const Work& w, const Gpu& gpu, double latency_s, bool with_latency) {
  double s = 0;
  const Collective* kinds[] = {&w.allreduce, &w.attn_allreduce, &w.all_to_all};
  for (int i = 0; i < 3; ++i) {
    const Collective& c = *kinds[i];
    if (c.count <= 0 || c.group <= 1) continue;
    const double latency =
        with_latency ? collective_latency_s(latency_s, spans_nodes(gpu, c.group)) : 0.0;
    s += static_cast<double>(c.count) * (latency + one_transfer_s(c, gpu, i == 2));
  }
  return s;
}
}  // namespace

double collective_transfer_s(const Work& w, const Gpu& gpu) {
  return collectives_s(w, gpu, 0, false);
}

int64_t collective_count(const Work& w) {
  int64_t n = 0;
  for (const Collective* c : {&w.allreduce, &w.attn_allreduce, &w.all_to_all})
    if (c->count > 0 && c->group > 1) n += c->count;
  return n;
}

int64_t network_collective_count(const Work& w, const Gpu& gpu) {
  int64_t n = 0;
  for (const Collective* c : {&w.allreduce, &w.attn_allreduce, &w.all_to_all})
    if (c->count > 0 && c->group > 1 && spans_nodes(gpu, c->group)) n += c->count;
  return n;
}

bool fp4_native(DType weights, const Gpu& gpu) {
  if (gpu.fp4_tflops <= 0) return false;
  return (weights == DType::nvfp4 && gpu.nvfp4) || (weights == DType::mxfp4 && gpu.mxfp4);
}

bool quantizes_activations(DType weights, const Gpu& gpu) {
  if (weights == DType::nvfp4) return fp4_native(weights, gpu);
  return (weights == DType::fp8 || weights == DType::int8) && gpu.fp8_tflops > 0;
}

double act_quant_kernels(const Work& w, const Gpu& gpu, DType weights) {
  return quantizes_activations(weights, gpu) ? w.quant_linears : 0.0;
}

double Machine::peak_flops() const {
  // fp8 and int8 weights use fp8 tensor cores where the GPU has them; nvfp4 / mxfp4 the fp4
  // tensor cores where the GPU runs that format; otherwise (and for int4, which kernels
  // dequantize to fp16) the matmuls run at the fp16 peak.
  if (fp4_native(dtype.weights, gpu)) return gpu.fp4_tflops * 1e12;
  // GGUF types on NVIDIA: llama.cpp's MMQ kernels quantize activations to 8 bits and multiply
  // on int8 tensor cores (ggml/src/ggml-cuda/mmq.cuh, mma.cuh). Dense int8 runs at the fp8
  // rate where the GPU has fp8 (Ada, Hopper, Blackwell) and at twice the fp16 rate on Ampere
  // (A100 datasheet: 624 int8 TOPS vs 312 fp16 TFLOPS dense). Elsewhere (Metal) fp16.
  if (dtype_is_gguf(dtype.weights) && gpu.vendor == "NVIDIA")
    return (gpu.fp8_tflops > 0 ? gpu.fp8_tflops : 2.0 * gpu.fp16_tflops) * 1e12;
  const bool low_precision = dtype.weights == DType::fp8 || dtype.weights == DType::int8;
  const double tflops = (low_precision && gpu.fp8_tflops > 0) ? gpu.fp8_tflops : gpu.fp16_tflops;
  return tflops * 1e12;
}

double Machine::peak_flops_16bit() const { return gpu.fp16_tflops * 1e12; }

double Machine::bandwidth_bytes_s() const { return gpu.mem_bw_gbps * 1e9; }

double weight_bandwidth_factor(DType weights, const Gpu& gpu) {
  // gpt-fast README (A100-80GB, Llama-2-7B): 1397 / 1069 / 863 GB/s for fp16 / int8 / int4.
  constexpr double kInt8 = 1069.0 / 1397.0;
  constexpr double kInt4 = 863.0 / 1397.0;
  switch (weights) {
    case DType::fp16:
    case DType::bf16:
      return 1.0;
    case DType::fp8:
      return gpu.fp8_tflops > 0 ? 1.0 : kInt8;
    case DType::int8:
      return kInt8;
    case DType::int4:
      return kInt4;
    case DType::nvfp4:
    case DType::mxfp4:
      return fp4_native(weights, gpu) ? 1.0 : kInt4;
    default:
      // GGUF and MLX types run only under their own engines, whose bw_efficiency is fitted on
      // those engines streaming these formats (llama-bench tables): no further factor.
      return 1.0;
  }
  return 1.0;
}

double Machine::weight_bw_efficiency() const {
  return runtime.bw_efficiency * weight_bandwidth_factor(dtype.weights, gpu);
}

const char* KernelCost::bound() const {
  return compute_time_s > memory_time_s ? "compute" : "memory";
}

namespace {
// x^n for integer n >= 0 by repeated squaring: only multiplications, so native and WASM
// round identically (std::pow differs between glibc and musl in the last bit).
double int_power(double x, int64_t n) {
  double result = 1;
  while (n > 0) {
    if (n & 1) result *= x;
    x *= x;
    n >>= 1;
  }
  return result;
}

constexpr double kActBytes = 2;  // activations stay fp16/bf16
}  // namespace

double kernel_time_s(double memory_s, double compute_s, double overlap) {
  const double longer = std::max(memory_s, compute_s);
  const double shorter = std::min(memory_s, compute_s);
  return longer + (1.0 - overlap) * shorter;
}

double expected_experts_touched(int64_t experts, int64_t top_k, int64_t sequences, int64_t tokens,
                                double repeat) {
  if (experts <= 1) return 1;
  const double e = static_cast<double>(experts);
  const double miss = 1.0 - static_cast<double>(top_k) / e;  // one fresh token skips an expert
  // One sequence skips the expert: its first token does, and each next token either repeats
  // the previous routing (skips it again) or is fresh and skips it with probability miss.
  const double next_skips = repeat + (1.0 - repeat) * miss;
  const double sequence_skips = miss * int_power(next_skips, std::max<int64_t>(0, tokens - 1));
  return e * (1.0 - int_power(sequence_skips, sequences));
}

Work linear_work(double params, int64_t rows, const DTypes& dtype, Kernel k) {
  Work w;
  w[k].flops = 2.0 * params * static_cast<double>(rows);
  w[k].weights_bytes = params * dtype_bytes(dtype.weights);
  w[k].rows = static_cast<double>(rows);
  return w;
}

Work decoder_work(const ModelArch& m, int64_t layers, int64_t batch, int64_t tokens,
                  int64_t context, int64_t lm_head_rows, const DTypes& dtype,
                  const Sharding& shard) {
  const ParamCounts p = count_params(m);
  const double tp = static_cast<double>(std::max<int64_t>(1, shard.tp));
  // Attention runs on this GPU's group: tp / D GPUs over batch / D sequences (the slowest
  // group holds the rounded-up share); D = 1 is plain tensor parallelism.
  const int64_t dp = std::max<int64_t>(1, shard.attention_dp);
  const double attn_tp = static_cast<double>(shard.attention_tp());
  const double B = static_cast<double>(batch);
  const double B_attn = static_cast<double>((batch + dp - 1) / dp);
  const double q = static_cast<double>(tokens);
  const double L = static_cast<double>(context);
  const double T = B * q;            // new tokens in this pass (the MLP and LM head see all)
  const double T_attn = B_attn * q;  // new tokens one attention group projects and attends
  const double wb = dtype_bytes(dtype.weights);
  // Attention, router, norms and LM head: 16-bit where the checkpoint quantizes experts only.
  const double wb_rest = non_mlp_weight_bytes(m, wb);
  const double kvb = dtype_bytes(dtype.kv);
  const bool mla = m.kv_lora_rank > 0;

  // Per-GPU head counts: query heads split evenly; a KV head is replicated when tp exceeds
  // the KV-head count (each GPU keeps one). MLA's latent cache is not split by heads.
  const double heads_g = static_cast<double>(m.heads) / attn_tp;
  const double kv_heads_g = std::max(1.0, static_cast<double>(m.kv_heads) / attn_tp);
  const double hd = static_cast<double>(m.head_dim);
  const double h = static_cast<double>(m.hidden);

  // Layers: the first `first_dense_layers` have a dense MLP of dense_intermediate; the rest
  // route each token to experts_per_token of `experts` (+ shared experts, always active).
  const int64_t dense_layers =
      std::min<int64_t>(layers, m.experts > 1 ? m.first_dense_layers : layers);
  const double n_dense = static_cast<double>(dense_layers);
  const double n_moe = static_cast<double>(layers - dense_layers);
  const double n_layers = static_cast<double>(layers);
  const double dense_mlp = m.experts > 1 ? static_cast<double>(p.dense_mlp_per_layer)
                                         : static_cast<double>(p.mlp_per_expert);
  const double expert_mlp = static_cast<double>(p.mlp_per_expert);
  const double shared = static_cast<double>(m.shared_experts);
  const double experts_read =
      m.experts > 1
          ? expected_experts_touched(m.experts, m.experts_per_token, batch, tokens, kRoutingRepeat)
          : 0.0;
  const double active_experts = static_cast<double>(m.experts_per_token);
  // Expert parallelism: each GPU holds whole experts (a dense model has none to place).
  const bool ep = shard.expert_parallel && m.experts > 1;

  // Attention projections per GPU: MLA's are counted from the exact parameter count and split
  // evenly; GQA's from the per-GPU head counts (replicated KV heads replicate their k/v).
  double attn_params_g;
  if (mla) {
    attn_params_g = static_cast<double>(p.attn_per_layer) / attn_tp;
  } else if (m.shared_kv) {
    // DeepSeek-V4: the projections, the stack's compressors and indexers averaged over its
    // layers (a part of the stack holds the same mix), the hyper-connection mixers; split
    // evenly (the one key = value projection, 1 % of it, is replicated: left out).
    attn_params_g = (static_cast<double>(p.attn_per_layer + p.hc_per_layer) +
                     static_cast<double>(p.compressor_total) / static_cast<double>(m.num_layers)) /
                    attn_tp;
  } else {
    attn_params_g = h * (heads_g + 2.0 * kv_heads_g) * hd + heads_g * hd * h;
    if (m.attn_output_gate) attn_params_g += h * heads_g * hd;  // q_proj's gate half
    if (m.qkv_bias) attn_params_g += (heads_g + 2.0 * kv_heads_g) * hd;
  }
  const double router = static_cast<double>(p.router_per_layer);

  Work w;
  w.layers = layers;
  KernelWork& gemm = w[Kernel::gemm];
  // Weights read once per pass: attention projections, the MLP (the experts some token
  // touches), the router.
  const double mlp_read_g =
      (n_dense * dense_mlp + n_moe * (experts_read + shared) * expert_mlp) / tp;
  // A hybrid model's linear-attention layers (their share of these layers) project through a
  // Gated DeltaNet's weights instead of softmax attention's.
  const bool hybrid = m.linear_attention_layers > 0;
  const double n_soft = hybrid ? n_layers * softmax_layer_share(m) : n_layers;
  const double n_lin = n_layers - n_soft;
  w.arch_kernels = (mla ? n_soft * kMlaExtraKernels : 0.0) + n_moe * kMoeExtraKernels;
  // Linears in the weights' own format (cost.hpp: the attention's only where it is not kept
  // 16-bit, a shared expert's only where it runs as its own MLP, not fused as DeepSeek's).
  const double attn_quant = wb_rest != wb || m.shared_kv ? 0.0
                            : mla                        ? kMlaQuantLinears
                                                         : kGqaQuantLinears;
  const double shared_mlps = mla ? 0.0 : shared;
  w.quant_linears = n_soft * attn_quant + (wb_rest == wb ? n_lin * kDeltaNetQuantLinears : 0.0) +
                    (n_dense + n_moe * shared_mlps) * kMlpQuantLinears;
  const double attn_layers_params_g =
      hybrid
          ? n_soft * attn_params_g +
                n_lin * static_cast<double>(p.linear_attn_per_layer) / attn_tp + n_layers * router
          : n_layers * (attn_params_g + router);
  gemm.weights_bytes = wb_rest == wb ? (attn_layers_params_g + mlp_read_g) * wb
                                     : attn_layers_params_g * wb_rest + mlp_read_g * wb;
  if (wb_rest != wb) gemm.weights_16bit_bytes = attn_layers_params_g * wb_rest;
  // The routed experts some token touches, streamed by each MoE layer's fused-MoE call.
  gemm.expert_weights_bytes = n_moe * experts_read * expert_mlp / tp * wb;
  w.moe_layers = m.experts > 1 ? n_moe : 0.0;
  // Under expert parallelism a GPU holds 1 / tp of the experts, whole; under tensor
  // parallelism a 1 / tp slice of every one (experts_read is 0 for a dense model).
  w.moe_slice_k = n_moe * experts_read / (ep ? tp : 1.0) * h;
  // FLOPs: every new token goes through the projections, the router and its active experts.
  const double mlp_flops_params_g =
      (n_dense * dense_mlp + n_moe * (active_experts + shared) * expert_mlp) / tp;
  gemm.flops = dp == 1 ? 2.0 * T * (attn_layers_params_g + mlp_flops_params_g)
                       : 2.0 * (T_attn * attn_layers_params_g + T * mlp_flops_params_g);
  if (wb_rest != wb) gemm.flops_16bit = 2.0 * (dp == 1 ? T : T_attn) * attn_layers_params_g;
  gemm.rows = T;

  // Attention: scores over qk dims and the weighted sum over v dims, per head, over the cached
  // context plus the new tokens (the whole tokens x tokens block, see the header).
  KernelWork& attn = w[Kernel::attention];
  const double qk_dim = mla ? static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim) : hd;
  const double v_dim = mla ? static_cast<double>(m.kv_lora_rank) : hd;
  // MLA's latent and DeepSeek-V4's key = value vector are whole on every GPU.
  const double kv_elems_g =
      mla || m.shared_kv ? kv_elems_per_token_layer(m) : 2.0 * kv_heads_g * hd;
  if (compressed_attention(m)) {
    // DeepSeek-V4 (vLLM deepseek_v4_attention.py, flashmla_sparse.py): per layer a query
    // attends the last min(L + q, W) tokens of its window; a sparse layer also the index_topk
    // of its (L + q) / kCsaRatio pooled entries the indexer picks (after scoring all of them
    // against their fp8 index keys), a heavily compressed layer all its (L + q) / hca_ratio.
    // One head_dim vector is key and value (2 heads x head_dim FLOPs per entry and head, each
    // way). The pass reads the union of its queries' windows, min(L + q, W + q) tokens, and
    // the compressed entries once (its queries assumed to pick largely the same ones).
    const double ctx = L + q;
    const double W = static_cast<double>(m.sliding_window);
    const double nl = static_cast<double>(m.num_layers);
    const double n_csa = n_layers * static_cast<double>(m.compressed_sparse_layers) / nl;
    const double n_hca = n_layers * static_cast<double>(m.heavily_compressed_layers) / nl;
    const double csa_entries = std::floor(ctx / static_cast<double>(kCsaRatio));
    const double csa_attended = std::min(csa_entries, static_cast<double>(m.index_topk));
    const double hca_entries =
        m.hca_ratio > 0 ? std::floor(ctx / static_cast<double>(m.hca_ratio)) : 0.0;
    const double keys_per_query =
        n_layers * std::min(ctx, W) + n_csa * csa_attended + n_hca * hca_entries;
    const double entries_read =
        n_layers * std::min(ctx, W + q) + n_csa * csa_attended + n_hca * hca_entries;
    const double ih = static_cast<double>(m.index_n_heads) / attn_tp;
    const double id = static_cast<double>(m.index_head_dim);
    attn.flops = 2.0 * heads_g * (qk_dim + v_dim) * B_attn * q * keys_per_query +
                 2.0 * ih * id * n_csa * B_attn * q * csa_entries;
    attn.kv_cache_bytes = kv_elems_g * kvb * B_attn * entries_read +
                          n_csa * id * kIndexerKeyBytes * B_attn * csa_entries;
    attn.score_elements = heads_g * B_attn * q * keys_per_query;
  } else if (m.index_topk > 0) {
    // DeepSeek Sparse Attention: the indexer scores all L + q cached tokens (its heads split
    // like attention's; its one-head fp8 keys read whole), then each query attends to at most
    // index_topk of them. The tokens of one pass are assumed to pick largely the same entries:
    // min(L + q, topk) latent entries read per sequence and layer.
    const double attended = std::min(L + q, static_cast<double>(m.index_topk));
    const double ih = static_cast<double>(m.index_n_heads) / attn_tp;
    const double id = static_cast<double>(m.index_head_dim);
    attn.flops = 2.0 * heads_g * (qk_dim + v_dim) * n_soft * B_attn * q * attended +
                 2.0 * ih * id * n_soft * B_attn * q * (L + q);
    attn.kv_cache_bytes = n_soft * kv_elems_g * kvb * B_attn * attended +
                          n_soft * id * kIndexerKeyBytes * B_attn * (L + q);
    attn.score_elements = heads_g * n_soft * B_attn * q * attended;
  } else if (m.sliding_window_layers > 0) {
    // Sliding-window layers: a query attends to at most the last `sliding_window` positions
    // (FLOPs over min(L + q, W) keys per query); the pass reads the union of its queries'
    // windows, min(L + q, W + q) cached and new tokens per sequence and layer. Full layers as
    // below.
    const double n_win = n_layers * sliding_layer_share(m);
    const double n_full = n_soft - n_win;
    const double W = static_cast<double>(m.sliding_window);
    const double keys_per_query = n_full * (L + q) + n_win * std::min(L + q, W);
    const double tokens_read = n_full * (L + q) + n_win * std::min(L + q, W + q);
    attn.flops = 2.0 * heads_g * (qk_dim + v_dim) * B_attn * q * keys_per_query;
    attn.kv_cache_bytes = kv_elems_g * kvb * B_attn * tokens_read;
    attn.score_elements = heads_g * B_attn * q * keys_per_query;
  } else {
    attn.flops = 2.0 * heads_g * (qk_dim + v_dim) * n_soft * B_attn * q * (L + q);
    // KV cache: every cached token read in every softmax layer, the new ones written.
    attn.kv_cache_bytes = n_soft * kv_elems_g * kvb * B_attn * (L + q);
    attn.score_elements = heads_g * n_soft * B_attn * q * (L + q);
  }
  if (hybrid) {
    // Linear attention: each sequence's state (fp32 delta-rule matrices, conv window) read once
    // and written after every token (the verify keeps a checkpoint per position to roll back
    // to, see linear_state_bytes_per_seq), whatever the context. The delta rule per token and
    // value head: decay and rank-1 update of the dk x dv state, and its product with q, about
    // 6 dk dv FLOPs (modeling_qwen3_next.py torch_recurrent_gated_delta_rule).
    const double state_g = linear_state_elems_per_layer(m) / attn_tp;
    const double conv_g = linear_conv_elems_per_layer(m) / attn_tp;
    attn.kv_cache_bytes +=
        n_lin * B_attn * (1.0 + q) * (state_g * kLinearStateBytes + conv_g * kActBytes);
    attn.flops += 6.0 * state_g * n_lin * B_attn * q;
  }

  // Other: norms (weights), activations written by one kernel and read by the next.
  KernelWork& other = w[Kernel::other];
  other.weights_bytes = n_layers * static_cast<double>(p.norms_per_layer) * wb_rest;
  if (wb_rest != wb) other.weights_16bit_bytes = other.weights_bytes;
  const double inter_g =
      (m.experts > 1 ? static_cast<double>(m.intermediate) * (active_experts + shared)
                     : static_cast<double>(m.intermediate)) /
      tp;
  // The MLP's activations per token: gate and up outputs and down's input (gated), or fc1's
  // output and fc2's input (plain).
  const double mlp_acts = static_cast<double>(mlp_matrices(m));
  // Hyper-connections widen the residual to hc_mult streams: each of a layer's two sub-layers
  // reads them all to mix its input and writes them all back (vLLM mhc.py), (hc_mult - 1) h
  // more each way than one stream (counted here once; the factor 2 below is write and read).
  const double hc_extra = m.hc_mult > 1 ? 2.0 * static_cast<double>(m.hc_mult - 1) * h : 0.0;
  if (dp == 1) {
    const double act_elems_per_token_layer =
        5.0 * h + (2.0 * heads_g + 2.0 * kv_heads_g) * hd + mlp_acts * inter_g + hc_extra;
    other.activations_bytes = 2.0 * kActBytes * T * n_layers * act_elems_per_token_layer;
  } else {
    // The norms, residuals and attention activations of the group's tokens; the MLP's of all.
    const double attn_side = 5.0 * h + (2.0 * heads_g + 2.0 * kv_heads_g) * hd + hc_extra;
    other.activations_bytes =
        2.0 * kActBytes * n_layers * (T_attn * attn_side + T * mlp_acts * inter_g);
  }

  const int64_t tp_gpus = std::max<int64_t>(1, shard.tp);
  if (tp > 1 && dp == 1 && !ep) {
    // after attention and after the MLP
    w.allreduce = Collective{2 * layers, T * h * kActBytes, tp_gpus};
  } else if (tp > 1) {
    // Attention's all-reduce within its group; around each MLP that is not expert-parallel an
    // all-reduce over all GPUs (under D > 1 the all-gather of every group's tokens and the
    // reduce-scatter back, which together move what one ring all-reduce moves); around each
    // expert-parallel MoE layer a dispatch and a combine all-to-all, in which a GPU sends its
    // 1 / tp of the tokens to the GPUs of their experts_per_token experts, (tp - 1) / tp of
    // them elsewhere (DeepEP's normal kernels; bf16 payload assumed).
    const int64_t moe_layers = layers - dense_layers;
    const int64_t mlp_allreduces = ep ? dense_layers : layers;
    if (dp == 1) {
      w.allreduce = Collective{layers + mlp_allreduces, T * h * kActBytes, tp_gpus};
    } else {
      if (attn_tp > 1)
        w.attn_allreduce = Collective{layers, T_attn * h * kActBytes, shard.attention_tp()};
      if (mlp_allreduces > 0) w.allreduce = Collective{mlp_allreduces, T * h * kActBytes, tp_gpus};
    }
    if (ep && moe_layers > 0)
      w.all_to_all = Collective{2 * moe_layers,
                                T / tp * active_experts * h * kActBytes * (tp - 1.0) / tp, tp_gpus};
  }

  if (lm_head_rows > 0) {
    KernelWork& lm = w[Kernel::lm_head];
    const double vocab_g = static_cast<double>(m.vocab) / tp;
    const double rows = B * static_cast<double>(lm_head_rows);
    lm.weights_bytes = vocab_g * h * wb_rest;  // tied models read the embedding table here
    lm.flops = 2.0 * rows * vocab_g * h;
    if (wb_rest != wb) {
      lm.weights_16bit_bytes = lm.weights_bytes;
      lm.flops_16bit = lm.flops;
    }
    lm.rows = rows;
    lm.activations_bytes = 2.0 * kActBytes * rows * vocab_g;  // logits written, read to sample
  }
  return w;
}

PassTime time_pass(const Work& w, const Machine& m, double layer_syncs) {
  PassTime t;
  const double bw = m.bandwidth_bytes_s();
  // Offloaded weights arrive over the host link at its peak, once per pass, whatever the tokens.
  const double weights_bw =
      m.weights_link_gbps > 0 ? m.weights_link_gbps * 1e9 : bw * m.weight_bw_efficiency();
  const double weights_16bit_bw =
      m.weights_link_gbps > 0 ? m.weights_link_gbps * 1e9 : bw * m.runtime.bw_efficiency;
  // Routed experts: the fused-MoE call's own efficiency where the profile states one (the
  // low-bit factor as for the other weights); offloaded, the host link's peak as above.
  const double expert_bw =
      m.weights_link_gbps > 0 || m.runtime.moe_bw_efficiency <= 0
          ? weights_bw
          : bw * m.runtime.moe_bw_efficiency * weight_bandwidth_factor(m.dtype.weights, m.gpu);
  const double kv_bw = bw * m.runtime.kv_bw_efficiency;
  const double act_bw = bw * m.runtime.bw_efficiency;
  const double flops_s = m.peak_flops() * m.runtime.flops_efficiency;
  for (int i = 0; i < kKernelKinds; ++i) {
    const KernelWork& k = w.kernels[i];
    KernelCost& c = t.kernels[i];
    c.kind = static_cast<Kernel>(i);
    c.flops = k.flops;
    // Eager attention writes its scores out and reads them back (score_bytes_per_element).
    const double score_bytes = k.score_elements * m.runtime.score_bytes_per_element;
    t.score_bytes += score_bytes;
    c.bytes = k.bytes() + score_bytes;
    c.memory_time_s =
        (k.weights_bytes - k.weights_16bit_bytes - k.expert_weights_bytes) / weights_bw +
        k.expert_weights_bytes / expert_bw + k.weights_16bit_bytes / weights_16bit_bw +
        k.kv_cache_bytes / kv_bw + (k.activations_bytes + score_bytes) / act_bw;
    const bool matmul = c.kind == Kernel::gemm || c.kind == Kernel::lm_head;
    // A quantized_experts_only model's 16-bit matmuls at the 16-bit peak (on fp4 tensor cores
    // only its experts run at fp4; elsewhere both peaks are the same).
    c.compute_time_s =
        matmul ? matmul_compute_s(k.flops - k.flops_16bit, m.peak_flops(), k.rows, m.runtime) +
                     (k.flops_16bit > 0
                          ? matmul_compute_s(k.flops_16bit, m.peak_flops_16bit(), k.rows, m.runtime)
                          : 0.0)
               : k.flops / flops_s;
    c.time_s = matmul ? matmul_kernel_time_s(c.memory_time_s, c.compute_time_s, k.rows, m.runtime)
                      : kernel_time_s(c.memory_time_s, c.compute_time_s, m.runtime.overlap);
    t.device_s += c.time_s;
  }
  // Small kernels (attention, norms, rotary, activations, residual adds, sampling) each hold
  // the GPU at least kernel_floor_s: together at least their count x the floor. The excess
  // is charged to the `other` class, where most of them are.
  const int small_a = static_cast<int>(Kernel::attention),
            small_o = static_cast<int>(Kernel::other);
  const double floor_s = small_kernel_floor_s(static_cast<double>(w.layers), m.runtime);
  const double small_s = t.kernels[small_a].time_s + t.kernels[small_o].time_s;
  if (floor_s > small_s) {
    t.kernels[small_o].time_s += floor_s - small_s;
    t.device_s += floor_s - small_s;
  }
  KernelCost& gemm = t.kernels[static_cast<int>(Kernel::gemm)];
  const double gemm_floor_s = gemm_kernel_floor_s(static_cast<double>(w.layers), m.runtime);
  if (gemm_floor_s > gemm.time_s) {
    t.device_s += gemm_floor_s - gemm.time_s;
    gemm.time_s = gemm_floor_s;
  }
  // The kernels an MLA or MoE layer, or low-precision activations, add to a dense 16-bit
  // layer's (whose floor the graph engines' fitted terms already hold): each its in-graph gap,
  // charged to `other` with the small ones.
  const double arch_s = w.arch_kernels * m.runtime.arch_kernel_s +
                        act_quant_kernels(w, m.gpu, m.dtype.weights) * m.runtime.act_quant_kernel_s;
  t.kernels[small_o].time_s += arch_s;
  t.device_s += arch_s;
  // Each MoE layer's fused-MoE call: its fixed GPU time, and for each expert slice it touches
  // a time in proportion to the hidden size its tiles reduce over, with the GEMMs it runs.
  const double moe_s =
      w.moe_layers * m.runtime.moe_call_s + w.moe_slice_k * m.runtime.moe_slice_k_s;
  gemm.time_s += moe_s;
  t.device_s += moe_s;
  t.comm_s = collectives_s(w, m.gpu, m.runtime.allreduce_latency_s, true);
  t.device_s += t.comm_s;
  // Eager frameworks launch each layer's kernels asynchronously: launches overlap the GPU's
  // work and a pass takes the longer of the two. The per-pass part (sync, Python per
  // forward, graph replay) waits for the GPU and adds.
  t.launch_s = static_cast<double>(w.layers) *
               (m.runtime.layer_overhead_s + layer_syncs * m.runtime.host_sync_s);
  t.overhead_s = m.runtime.pass_overhead_s + std::max(0.0, t.launch_s - t.device_s);
  t.time_s = t.device_s + t.overhead_s;
  return t;
}

PassTime time_host_pass(const Work& w, const Machine& m) {
  Machine host;
  host.gpu.name = "host CPU";
  host.gpu.vendor = "CPU";  // fp16 path of peak_flops: host_flops is the rate itself
  host.gpu.mem_bw_gbps = m.host_memory_bytes_s / 1e9;
  host.gpu.fp16_tflops = m.host_flops / 1e12;
  host.tensor_parallel = false;
  host.dtype = m.dtype;
  host.runtime.bw_efficiency = kHostBandwidthEfficiency;
  host.runtime.kv_bw_efficiency = kHostBandwidthEfficiency;
  host.runtime.overlap = 1;
  return time_pass(w, host);
}

void PassCost::add(const PassTime& t, const Work& w, int64_t passes) {
  const double n = static_cast<double>(passes);
  const KernelWork total = w.total();
  passes_per_cycle += passes;
  flops += n * total.flops;
  weights_bytes += n * total.weights_bytes;
  kv_cache_bytes += n * total.kv_cache_bytes;
  activations_bytes += n * (total.activations_bytes + t.score_bytes);
  bytes += n * (total.bytes() + t.score_bytes);
  for (int i = 0; i < kKernelKinds; ++i) {
    KernelCost& k = kernels[i];
    k.kind = static_cast<Kernel>(i);
    k.flops += n * t.kernels[i].flops;
    k.bytes += n * t.kernels[i].bytes;
    k.memory_time_s += n * t.kernels[i].memory_time_s;
    k.compute_time_s += n * t.kernels[i].compute_time_s;
    k.time_s += n * t.kernels[i].time_s;
    memory_time_s += n * t.kernels[i].memory_time_s;
    compute_time_s += n * t.kernels[i].compute_time_s;
  }
  comm_time_s += n * t.comm_s;
  overhead_s += n * t.overhead_s;
  time_s += n * t.time_s;
  launch_bound = launch_bound || (passes > 0 && t.launch_s > t.device_s);
  if (t.launch_s > 0) gpu_ahead_s += n * std::max(0.0, t.device_s - t.launch_s);
  arithmetic_intensity = bytes > 0 ? flops / bytes : 0;
  if (bytes > 0) bound = compute_time_s > memory_time_s ? "compute" : "memory";
}

void PassCost::add_host_s(double s) {
  overhead_s += s;
  time_s += s;
}

}  // namespace speccalc
