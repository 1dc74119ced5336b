#include "speccalc/cost.hpp"

#include <algorithm>

namespace speccalc {

Work& Work::operator+=(const Work& o) {
  flops += o.flops;
  weights_bytes += o.weights_bytes;
  kv_cache_bytes += o.kv_cache_bytes;
  activations_bytes += o.activations_bytes;
  layers += o.layers;
  allreduces += o.allreduces;
  allreduce_bytes = std::max(allreduce_bytes, o.allreduce_bytes);
  return *this;
}

double Machine::peak_flops() const {
  // fp8 and int8 weights use fp8 tensor cores where the GPU has them; otherwise (and for int4,
  // which kernels dequantize to fp16) the matmuls run at the fp16 peak.
  const bool low_precision = dtype.weights == DType::fp8 || dtype.weights == DType::int8;
  const double tflops = (low_precision && gpu.fp8_tflops > 0) ? gpu.fp8_tflops : gpu.fp16_tflops;
  return tflops * 1e12;
}

double Machine::bandwidth_bytes_s() const { return gpu.mem_bw_gbps * 1e9; }

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
}  // namespace

double expected_experts_touched(int64_t experts, int64_t top_k, int64_t tokens) {
  if (experts <= 1) return 1;
  const double e = static_cast<double>(experts);
  const double miss = 1.0 - static_cast<double>(top_k) / e;  // one token skips a given expert
  return e * (1.0 - int_power(miss, tokens));
}

Work linear_work(double params, int64_t rows, const DTypes& dtype) {
  Work w;
  w.flops = 2.0 * params * static_cast<double>(rows);
  w.weights_bytes = params * dtype_bytes(dtype.weights);
  return w;
}

Work decoder_work(const ModelArch& m, int64_t layers, int64_t batch, int64_t tokens, int64_t context,
                  int64_t lm_head_rows, const DTypes& dtype) {
  const ParamCounts p = count_params(m);
  const double B = static_cast<double>(batch);
  const double q = static_cast<double>(tokens);
  const double L = static_cast<double>(context);
  const double T = B * q;  // new tokens in this pass
  const double n_layers = static_cast<double>(layers);
  const double wb = dtype_bytes(dtype.weights);
  const double kvb = dtype_bytes(dtype.kv);
  constexpr double kActBytes = 2;  // activations stay fp16/bf16

  const double experts_read =
      expected_experts_touched(m.experts, m.experts_per_token, batch * tokens);
  const double active_mlp = static_cast<double>(m.experts_per_token * p.mlp_per_expert);
  const double read_mlp = experts_read * static_cast<double>(p.mlp_per_expert);
  const double dense = static_cast<double>(p.attn_per_layer + p.router_per_layer);

  Work w;
  w.layers = layers;
  w.weights_bytes = n_layers * (dense + read_mlp + static_cast<double>(p.norms_per_layer)) * wb;
  // Matmul FLOPs: every new token goes through the attention projections, the router and its
  // top-k experts.
  w.flops = 2.0 * T * n_layers * (dense + active_mlp);
  // Attention: QK^T and PV, 2 FLOPs per multiply-add each, over the cached context plus the
  // causal part of the new tokens (on average (q + 1) / 2 of them).
  const double attn_width = static_cast<double>(m.heads * m.head_dim);
  w.flops += 4.0 * attn_width * n_layers * B * (q * L + q * (q + 1.0) / 2.0);
  // KV cache: read every cached token's K and V in every layer, write the new ones.
  const double kv_per_token_layer = 2.0 * static_cast<double>(m.kv_heads * m.head_dim) * kvb;
  w.kv_cache_bytes = n_layers * kv_per_token_layer * B * (L + q);
  // Activations: each matmul input and output is written once and read once.
  const double h = static_cast<double>(m.hidden);
  const double act_elems_per_token_layer =
      5.0 * h + static_cast<double>((2 * m.heads + 2 * m.kv_heads) * m.head_dim) +
      3.0 * static_cast<double>(m.intermediate * m.experts_per_token);
  w.activations_bytes = 2.0 * kActBytes * T * n_layers * act_elems_per_token_layer;
  w.allreduces = 2 * layers;  // after attention and after the MLP
  w.allreduce_bytes = T * h * kActBytes;

  if (lm_head_rows > 0) {
    const double vocab = static_cast<double>(m.vocab);
    const double rows = B * static_cast<double>(lm_head_rows);
    w.weights_bytes += vocab * h * wb;  // tied models read the embedding table here
    w.flops += 2.0 * rows * vocab * h;
    w.activations_bytes += 2.0 * kActBytes * rows * vocab;  // logits written, then read to sample
  }
  return w;
}

PassCost finish_pass(const std::string& name, const Work& w, int64_t tokens_per_pass, int64_t passes,
                     const Machine& machine, double extra_overhead_s) {
  PassCost c;
  c.name = name;
  c.tokens_per_pass = tokens_per_pass;
  c.passes_per_cycle = passes;
  const double g = static_cast<double>(machine.gpus);
  // Tensor parallelism splits weights, KV heads and FLOPs across GPUs; a layer-sequential
  // split (HF device_map) keeps one GPU busy at a time, so per-pass totals are unchanged.
  const double split = machine.tensor_parallel ? g : 1.0;
  const double n = static_cast<double>(passes);
  const double flops = w.flops / split;
  const double weights = w.weights_bytes / split;
  const double kv = w.kv_cache_bytes / split;
  const double act = w.activations_bytes / split;
  const double bytes = weights + kv + act;
  const double mem_s = bytes / (machine.bandwidth_bytes_s() * machine.runtime.bw_efficiency);
  const double comp_s = flops / (machine.peak_flops() * machine.runtime.flops_efficiency);
  double comm_s = 0;
  if (machine.tensor_parallel && machine.gpus > 1) {
    // Ring all-reduce: each GPU sends and receives 2 (g - 1) / g of the payload.
    const double link = machine.gpu.interconnect_gbps * 1e9;
    comm_s = static_cast<double>(w.allreduces) *
             (machine.runtime.allreduce_latency_s + 2.0 * (g - 1.0) / g * w.allreduce_bytes / link);
  }
  // Host time. An eager framework launches each layer's kernels asynchronously, so launch
  // time per layer overlaps the GPU's work: a pass takes the longer of the two. The per-pass
  // part (sampling, reading the result back, Python bookkeeping) waits for the GPU and adds.
  // overhead_s reports the host time the GPU does not hide, so time = device + overhead.
  const double device_s = std::max(mem_s, comp_s) + comm_s;
  const double launch_s = static_cast<double>(w.layers) * machine.runtime.layer_overhead_s;
  const double exposed_s = machine.runtime.pass_overhead_s + std::max(0.0, launch_s - device_s);

  c.flops = n * flops;
  c.weights_bytes = n * weights;
  c.kv_cache_bytes = n * kv;
  c.activations_bytes = n * act;
  c.bytes = n * bytes;
  c.memory_time_s = n * mem_s;
  c.compute_time_s = n * comp_s;
  c.comm_time_s = n * comm_s;
  c.overhead_s = (passes > 0 ? n * exposed_s : 0) + extra_overhead_s;
  c.launch_bound = passes > 0 && launch_s > device_s;
  c.time_s = n * device_s + c.overhead_s;
  c.arithmetic_intensity = c.bytes > 0 ? c.flops / c.bytes : 0;
  if (passes > 0 && c.bytes > 0) c.bound = comp_s > mem_s ? "compute" : "memory";
  return c;
}

}  // namespace speccalc
