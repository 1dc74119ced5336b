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
  int64_t shared_experts = 0;      // always-active experts per MoE layer
  int64_t first_dense_layers = 0;  // leading layers with a dense MLP of dense_intermediate
  int64_t dense_intermediate = 0;  // MLP width of those dense layers
  // Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds one compressed latent of
  // kv_lora_rank + qk_rope_head_dim elements per token per layer instead of K and V heads.
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  // MLA projections (DeepSeek-V3 config.json names): queries go through a q_lora_rank latent
  // when q_lora_rank > 0; q/k heads are qk_nope_head_dim + qk_rope_head_dim wide (= head_dim),
  // value heads v_head_dim wide.
  int64_t q_lora_rank = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t v_head_dim = 0;
  // The MLP's matrices: gated (SwiGLU / GeGLU: gate and up h -> I, down I -> h; Llama, Qwen,
  // Mistral, DeepSeek, Gemma...) or two (fc1 h -> I, an activation, fc2 I -> h; OPT, GPT-2,
  // CodeGen, Falcon, StarCoder). The same intermediate width costs 3 or 2 h x I per expert.
  bool gated_mlp = true;
  bool mlp_bias = false;     // biases on the MLP's matrices (OPT, StarCoder2; Llama's mlp_bias)
  bool qk_norm = false;      // per-head RMSNorm on q and k (Qwen3): 2 x head_dim weights a layer
  bool router_bias = false;  // per-expert routing bias (DeepSeek-V3 / GLM-4.5 / gpt-oss)
  int64_t mtp_modules = 0;   // multi-token-prediction modules shipped with the checkpoint
  // Sliding-window attention (gpt-oss, Gemma-3; Llama-4's chunked local attention is read as a
  // window of its chunk): the window in tokens and how many layers use it. Those layers attend
  // to and cache at most the window (cost.cpp decoder_work, method_cost.cpp add_kv_cache).
  int64_t sliding_window = 0;
  int64_t sliding_window_layers = 0;
  // Hybrid linear attention (Qwen3-Next, Qwen3.5: Gated DeltaNet, modeling_qwen3_next.py
  // Qwen3NextGatedDeltaNet): linear_attention_layers of num_layers replace softmax attention by
  // a recurrent state of linear_num_value_heads x linear_key_head_dim x linear_value_head_dim
  // per sequence (no KV cache), fed by q/k (linear_num_key_heads x linear_key_head_dim) and
  // v/z (linear_num_value_heads x linear_value_head_dim) projections, a depthwise causal conv
  // of linear_conv_kernel taps, and an output projection. 0 layers: every layer is softmax.
  int64_t linear_attention_layers = 0;
  int64_t linear_num_key_heads = 0;
  int64_t linear_num_value_heads = 0;
  int64_t linear_key_head_dim = 0;
  int64_t linear_value_head_dim = 0;
  int64_t linear_conv_kernel = 0;
  // Gated softmax attention (Qwen3-Next/3.5 attn_output_gate): q_proj also emits a per-head
  // output gate, heads x head_dim more weights.
  bool attn_output_gate = false;
  // DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5; MLA models): a lightning indexer of
  // index_n_heads x index_head_dim scores every cached token against its own one-head fp8 key
  // cache, and each query attends to the index_topk best. 0: dense attention.
  int64_t index_n_heads = 0;
  int64_t index_head_dim = 0;
  int64_t index_topk = 0;
  // DeepSeek-V4's compressed attention (vLLM deepseek_v4.py, deepseek_v4_attention.py,
  // deepseek_compressor.py): one head_dim-wide vector per token serves as key and value
  // (shared_kv, kv_heads 1), every layer attends its sliding_window of recent tokens, and a
  // compressed layer also attends entries that each pool several tokens: compressed_sparse_layers
  // pool kCsaRatio tokens an entry (windows of twice that, overlapping) and attend the index_topk
  // entries a lightning indexer (index_n_heads x index_head_dim) picks; heavily compressed
  // layers pool hca_ratio tokens an entry and attend all of them. Queries through q_lora_rank;
  // the output through o_groups block-diagonal projections to o_lora_rank each, then one to
  // hidden; hc_mult residual streams (hyper-connections) mixed around each sub-layer.
  bool shared_kv = false;  // one vector per token is key and value (DeepSeek-V4's attention)
  int64_t compressed_sparse_layers = 0;
  int64_t heavily_compressed_layers = 0;
  int64_t hca_ratio = 0;
  int64_t o_lora_rank = 0;
  int64_t o_groups = 0;
  int64_t hc_mult = 0;
  // The longest context the model is configured for (config.json max_position_embeddings;
  // core/data/model-context.json cites each preset's). 0: not known, no check.
  int64_t max_position_embeddings = 0;
  std::string repo_id;                 // Hugging Face repository id ("" for custom models)
  std::string released_weights_dtype;  // dtype of the released weights when not 16-bit ("fp8")
  // Its quantized checkpoints quantize the MLP (the experts) only; attention, router,
  // embeddings and LM head stay 16-bit (gpt-oss: config.json quantization_config
  // modules_to_not_convert). Applies to any weights dtype narrower than 16 bits.
  bool quantized_experts_only = false;
  std::string released_dtype_source;
  std::string citation;  // first source line, for the assumptions list
};

// Tokens one entry of a compressed-sparse layer pools (vLLM deepseek_v4_attention.py: only
// compress_ratio 4 layers have an indexer; their compressor windows overlap, coff 2).
constexpr int64_t kCsaRatio = 4;

// Whether m's layers also attend compressed entries (DeepSeek-V4; its MTP layer and a
// window-only layer attend their window alone).
inline bool compressed_attention(const ModelArch& m) {
  return m.compressed_sparse_layers + m.heavily_compressed_layers > 0;
}

// Whether o_groups splits the attention output (heads x head_dim) evenly, as DeepSeek-V4's
// grouped output projection needs (wo_a maps each group's slice; 0 groups: no such projection).
inline bool o_groups_divide_output(const ModelArch& m) {
  return m.o_groups == 0 || (m.heads * m.head_dim) % m.o_groups == 0;
}

// How many entries' worth of tokens a compressor's window spans (vLLM deepseek_compressor.py
// coff): 2 at kCsaRatio, whose windows overlap, else 1.
inline int64_t compressor_overlap(int64_t ratio) { return ratio == kCsaRatio ? 2 : 1; }

// One sequence's compressor state in m's compressed layers, fp32 (whole on every GPU): a layer
// pooling r tokens with overlap c keeps c r slots of 2 c head_dim (values and gates), its
// indexer c r slots of 2 c index_head_dim (vLLM deepseek_compressor.py state_dim
// 2 * coff * head_dim).
double compressor_state_bytes_per_seq(const ModelArch& m);

// Weight matrices of h x intermediate in one MLP (one expert): 3 gated, 2 plain.
inline int64_t mlp_matrices(const ModelArch& m) { return m.gated_mlp ? 3 : 2; }

// Parameters of one MLP of width `intermediate` (one expert): its matrices and, with mlp_bias,
// one bias per output (gate and up: intermediate each, down: hidden; fc1: intermediate, fc2:
// hidden).
inline int64_t mlp_params(const ModelArch& m, int64_t intermediate) {
  const int64_t biases = m.mlp_bias ? (mlp_matrices(m) - 1) * intermediate + m.hidden : 0;
  return mlp_matrices(m) * m.hidden * intermediate + biases;
}

// KV-cache elements one token stores in one layer: K and V for every KV head, or the MLA
// latent (kv_lora_rank + qk_rope_head_dim) when the model compresses its KV.
double kv_elems_per_token_layer(const ModelArch& m);

// Whether tensor parallelism over `tp` GPUs can split the model's attention: the query heads
// evenly, and the KV heads split when there are at least as many as GPUs, replicated (one per
// GPU) when there are fewer, in which case tp must be a multiple of them (vLLM's rule). MLA's
// latent KV is replicated on every GPU, so only the query heads count there. The config check
// and the "fits on N GPUs" suggestion both ask these, so a suggested count always validates.
bool tp_splits_query_heads(const ModelArch& m, int64_t tp);
bool tp_splits_kv_heads(const ModelArch& m, int64_t tp);

// Elements of one sequence's recurrent state in one linear-attention layer: the delta-rule
// matrix (value heads x key dim x value dim) and the conv window ((kernel - 1) x conv channels,
// conv channels = 2 x key heads x key dim + value heads x value dim). 0 for softmax models.
double linear_state_elems_per_layer(const ModelArch& m);
double linear_conv_elems_per_layer(const ModelArch& m);

// Bytes of one indexer-key element: fp8 (DeepSeek-V3.2-Exp report, section 2: the lightning
// indexer runs in FP8; its key cache holds one index_head_dim vector per token and layer).
constexpr double kIndexerKeyBytes = 1;

// Bytes of one recurrent-state element: fp32 (Qwen3.5's config.json mamba_ssm_dtype "float32";
// SGLang keeps the SSM state in float32 unless --mamba-ssm-dtype says otherwise).
constexpr double kLinearStateBytes = 4;

// The share of layers that use softmax attention (1 for models without linear attention). A
// pass over part of the stack (an early exit, a head built from one layer) is assumed to hold
// the same mix, as the layers interleave (Qwen3.5: 3 linear, then 1 softmax).
double softmax_layer_share(const ModelArch& m);

// The share of layers that attend over a sliding window (0 without one), interleaved like
// softmax_layer_share (gpt-oss alternates; Gemma-3 has 5 local to 1 global).
double sliding_layer_share(const ModelArch& m);

// Bytes per weight of the parts a quantized_experts_only checkpoint keeps 16-bit (attention,
// router, norms, embeddings, LM head): 2 there when `weights_bytes` is narrower, otherwise
// weights_bytes itself. `weights_bytes` is dtype_bytes of the weights dtype.
double non_mlp_weight_bytes(const ModelArch& m, double weights_bytes);

// Parameter counts (numbers of weights, not bytes) of a ModelArch.
struct ParamCounts {
  int64_t attn_per_layer = 0;         // q, k, v, o projections (+ qkv bias, q/k norms; MLA: the
                                      // q_a/q_b, kv_a/kv_b projections and their latent norms)
  int64_t mlp_per_expert = 0;         // gate, up, down of one expert
  int64_t router_per_layer = 0;       // hidden x experts (+ experts bias) when experts > 1
  int64_t norms_per_layer = 0;        // two RMSNorm weight vectors
  int64_t shared_mlp_per_layer = 0;   // always-active shared experts of one MoE layer
  int64_t dense_mlp_per_layer = 0;    // MLP of one of the first_dense_layers (dense_intermediate)
  int64_t moe_layers = 0;             // layers with experts (num_layers - first_dense_layers)
  int64_t embedding = 0;              // vocab x hidden input table
  int64_t lm_head = 0;                // vocab x hidden output projection (0 extra when tied)
  int64_t total = 0;                  // the main model, each expert counted once, no MTP module
  int64_t mlp_total = 0;              // of total: every MLP (dense, routed and shared experts)
  int64_t active = 0;                 // weights one token uses: total with experts_per_token
                                      // routed experts instead of all (input embedding included)
  int64_t linear_attn_per_layer = 0;  // a Gated DeltaNet layer's projections, conv and norms
  // DeepSeek-V4: every compressed layer's compressor (and a sparse layer's indexer), summed
  // over the stack; one layer's hyper-connection mixers; the head's mixer (once).
  int64_t compressor_total = 0;
  int64_t hc_per_layer = 0;
  int64_t hc_head = 0;
  int64_t mtp_per_module = 0;  // one MTP module's own weights: enorm, hnorm, eh_proj (2h x h),
                               // one decoder layer like the last one, the shared head's norm
                               // (its embedding and LM head are the main model's)
};
ParamCounts count_params(const ModelArch& m);

struct Gpu {
  std::string id;  // preset id, or "custom"
  std::string name;
  double fp16_tflops = 0;        // dense fp16/bf16 peak, TFLOP/s
  double fp8_tflops = 0;         // dense fp8 peak; 0 when the GPU has no fp8 tensor cores
  double mem_gb = 0;             // memory capacity, GB (1e9 bytes)
  double mem_bw_gbps = 0;        // peak memory bandwidth, GB/s (1e9 bytes/s)
  double interconnect_gbps = 0;  // per-direction GPU-to-GPU bandwidth, GB/s
  // GPUs one interconnect domain joins (an HGX board's 8; an NVL72 rack's 72): collectives over
  // more GPUs cross the network, at network_gbps per GPU per direction (GB/s).
  int64_t gpus_per_node = 8;
  double network_gbps = 50;
  double host_link_gbps = 0;  // per-direction host<->GPU bandwidth (PCIe), GB/s; 0 = unknown
  std::string host_link;      // what that link is ("PCIe Gen5 x16", "NVLink-C2C"); "" unknown
  // Dense block-scaled fp4 tensor-core peak, TFLOP/s; 0 when the GPU has no fp4 tensor cores.
  // nvfp4 / mxfp4: which block-scaled formats those tensor cores run natively.
  double fp4_tflops = 0;
  bool nvfp4 = false;
  bool mxfp4 = false;
  // Unified memory (Apple silicon): CPU and GPU share mem_gb, and the GPU may use only
  // usable_memory_fraction of it (Metal's recommendedMaxWorkingSetSize); the memory check
  // caps memory_utilization at that fraction. Discrete GPUs: false and 1.
  bool unified_memory = false;
  double usable_memory_fraction = 1;
  // Apple GPUs: the Metal architecture generation (M1 13, M2 14, M3 15, M4 16; 0 = not an
  // Apple preset) and whether the chip is an Ultra. MLX picks its small-batch kernels by both.
  int64_t apple_gpu_generation = 0;
  bool apple_gpu_ultra = false;
  std::string vendor = "NVIDIA";
  std::string citation;
};

// A published speculator checkpoint trained for one target preset (core/data/models.json
// `heads`), so exports can name a real repository.
struct SpeculatorHead {
  std::string family;     // "eagle" (EAGLE-1/2 weights), "eagle3", "medusa", "hydra"
  std::string target;     // target preset id
  std::string repo_id;    // Hugging Face repository id
  bool official = false;  // released by the method's authors
  std::string citation;
  std::string neighbour_of;  // trained for this other preset (same architecture and tokenizer)
  std::string note;          // why the neighbour fits, said wherever the head is offered
};

// The preset catalog: parsed from the embedded JSON once per command.
struct Catalog {
  std::vector<ModelArch> targets;
  std::vector<ModelArch> drafts;
  std::vector<SpeculatorHead> heads;
  std::vector<Gpu> gpus;
  std::vector<RuntimeProfile> runtimes;
  const ModelArch* find_target(const std::string& id) const;
  const ModelArch* find_draft(const std::string& id) const;
  // The first head of that family for that target (official ones come first), or nullptr.
  const SpeculatorHead* find_head(const std::string& family, const std::string& target) const;
  const Gpu* find_gpu(const std::string& id) const;
  const RuntimeProfile* find_runtime(const std::string& id) const;
};
// Parsed once per process; the reference stays valid for its lifetime.
const Expected<Catalog>& load_catalog();

// Comma-separated ids, for error messages.
std::string target_ids(const Catalog& c);
std::string draft_ids(const Catalog& c);
std::string gpu_ids(const Catalog& c);

// What the user calls the device whose memory and speed a config uses: "CPU" for a CPU
// (vendor "CPU", the llama.cpp CPU engine), "chip" for one package whose CPU and GPU share one
// memory (unified_memory: Apple silicon, GB10), else "GPU".
std::string device_noun(const Gpu& g);
// The memory a setup must fit in, as a user names it: "CPU memory", "unified memory" (shared
// with the CPU and the operating system: hence its usable fraction) or "GPU memory".
std::string memory_noun(const Gpu& g);

}  // namespace speccalc
