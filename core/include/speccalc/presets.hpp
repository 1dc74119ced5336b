// Model and GPU descriptions, from the embedded tables (core/data/models.json,
// hardware.json) or from a custom object in the config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/runtime.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// A LLaMA-style decoder-only transformer (optionally mixture-of-experts MLP).
struct ModelArch {
  std::string id;  // preset id, or "custom"
  std::string name;
  int64_t num_layers = 0;
  int64_t hidden = 0;
  int64_t intermediate = 0;  // per expert
  int64_t heads = 0;
  int64_t kv_heads = 0;
  int64_t head_dim = 0;
  int64_t vocab = 0;
  bool tied_embeddings = false;
  int64_t experts = 1;            // MLP experts per layer (1 = dense)
  int64_t experts_per_token = 1;  // top-k routing
  bool qkv_bias = false;
  // Mixture-of-experts extras (DeepSeek-V3 / GLM-4.5 / Qwen3-MoE style); 0 when absent.
  int64_t shared_experts = 0;        // always-active experts per MoE layer
  int64_t first_dense_layers = 0;    // leading layers with a dense MLP of dense_intermediate
  int64_t dense_intermediate = 0;    // MLP width of those dense layers
  // Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds one compressed latent of
  // kv_lora_rank + qk_rope_head_dim elements per token per layer instead of K and V heads.
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t mtp_modules = 0;  // multi-token-prediction modules shipped with the checkpoint
  std::string citation;  // first source line, for the assumptions list
};

// KV-cache elements one token stores in one layer: K and V for every KV head, or the MLA
// latent (kv_lora_rank + qk_rope_head_dim) when the model compresses its KV.
double kv_elems_per_token_layer(const ModelArch& m);

// Parameter counts (numbers of weights, not bytes) of a ModelArch.
struct ParamCounts {
  int64_t attn_per_layer = 0;        // q, k, v, o projections (+ qkv bias)
  int64_t mlp_per_expert = 0;        // gate, up, down of one expert
  int64_t router_per_layer = 0;      // hidden x experts when experts > 1
  int64_t norms_per_layer = 0;       // two RMSNorm weight vectors
  int64_t embedding = 0;             // vocab x hidden input table
  int64_t lm_head = 0;               // vocab x hidden output projection (0 extra when tied)
  int64_t total = 0;                 // everything, each expert counted once
};
ParamCounts count_params(const ModelArch& m);

struct Gpu {
  std::string id;  // preset id, or "custom"
  std::string name;
  double fp16_tflops = 0;  // dense fp16/bf16 peak, TFLOP/s
  double fp8_tflops = 0;   // dense fp8 peak; 0 when the GPU has no fp8 tensor cores
  double mem_gb = 0;       // memory capacity, GB (1e9 bytes)
  double mem_bw_gbps = 0;  // peak memory bandwidth, GB/s (1e9 bytes/s)
  double interconnect_gbps = 0;  // per-direction GPU-to-GPU bandwidth, GB/s
  double host_link_gbps = 0;     // per-direction host<->GPU bandwidth (PCIe), GB/s; 0 = unknown
  std::string vendor = "NVIDIA";
  std::string citation;
};

// The preset catalog: parsed from the embedded JSON once per command.
struct Catalog {
  std::vector<ModelArch> targets;
  std::vector<ModelArch> drafts;
  std::vector<Gpu> gpus;
  std::vector<RuntimeProfile> runtimes;
  const ModelArch* find_target(const std::string& id) const;
  const ModelArch* find_draft(const std::string& id) const;
  const Gpu* find_gpu(const std::string& id) const;
  const RuntimeProfile* find_runtime(const std::string& id) const;
};
Expected<Catalog> load_catalog();

// Comma-separated ids, for error messages.
std::string target_ids(const Catalog& c);
std::string draft_ids(const Catalog& c);
std::string gpu_ids(const Catalog& c);

}  // namespace speccalc
