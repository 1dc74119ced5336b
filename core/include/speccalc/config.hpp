// Config v1: what a user asks about (model, GPU, runtime, batch, context, method, acceptance).
// parse_config_text() validates a JSON document; its JSON forms (parse_config on a parsed
// document, config_to_json: the normalized form share links encode) are in config/config_json.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/presets.hpp"
#include "speccalc/runtime.hpp"
#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

enum class Family {
  ar,
  sps,
  pld,
  lookahead,
  medusa,
  hydra,
  eagle1,
  eagle2,
  eagle3,
  mtp,
  layerskip,
  streaming,
  retrieval
};
const char* family_name(Family f);
bool family_from_name(const std::string& s, Family* out);
bool family_uses_tree(Family f);  // medusa, hydra, eagle1/2/3

// nvfp4 / mxfp4: 4-bit E2M1 values with block scales, weights only (see dtype_bytes).
// q*_*, iq4_*: llama.cpp's GGUF types (weights; q8_0 and q4_0 also for its KV cache);
// mlx_*bit: MLX's affine group quantization. Names, bits and sources: config/dtypes.cpp.
enum class DType {
  fp16,
  bf16,
  fp8,
  int8,
  int4,
  nvfp4,
  mxfp4,
  q2_k,
  q3_k_m,
  q4_0,
  q4_k_s,
  q4_k_m,
  q5_0,
  q5_k_s,
  q5_k_m,
  q6_k,
  q8_0,
  iq4_xs,
  iq4_nl,
  iq3_xxs,
  mlx_4bit,
  mlx_6bit,
  mlx_8bit
};
const char* dtype_name(DType d);
bool dtype_from_name(const std::string& s, DType* out);
// Bytes per element, block scales included (fp16 2, int4 0.5, nvfp4 0.5625, q4_k_m 0.6125 ...).
double dtype_bytes(DType d);
bool dtype_is_fp4(DType d);   // nvfp4 or mxfp4
bool dtype_is_gguf(DType d);  // a llama.cpp GGUF quantization type
bool dtype_is_mlx(DType d);   // an MLX group-quantized type
std::string dtype_names();    // every name, comma-separated, for error messages
// Which weight / KV-cache formats an engine runs, by its weight_formats ("gguf", "mlx", or ""
// for the datacenter formats): one rule for the check, the list command and the page.
bool engine_runs_weights(const std::string& formats, DType d);
bool engine_runs_kv(const std::string& formats, DType d);
std::vector<std::string> engine_weight_dtypes(const std::string& formats);
std::vector<std::string> engine_kv_dtypes(const std::string& formats);
// The weights an engine opens a model in when the config's dtype is one it cannot run:
// llama.cpp q4_k_m (the most downloaded GGUF quantization), mlx mlx_4bit, others fp16.
DType engine_default_weights(const std::string& formats);

using Choices = std::vector<std::vector<int>>;  // EAGLE/Medusa tree paths (0-based sibling ranks)

struct MethodConfig {
  Family family = Family::ar;
  // sps
  std::string draft;         // draft preset id (a draft of your own: its name, or "your draft ...")
  ModelArch draft_model;     // resolved from the catalog, or read from the config's object
  bool draft_preset = true;  // false: `draft` was an object (model keys or a config.json)
  int64_t k = 0;             // sps/pld: drafted tokens per cycle (verify covers k + 1 tokens)
  // llama.cpp's variable draft length (sps chains on llama.cpp only): the draft stops at the
  // first position whose top probability is below draft_p_min (--draft-p-min) and a draft
  // shorter than draft_min (--draft-min) is thrown away; both 0 (llama.cpp's defaults,
  // common/common.h common_params_speculative_draft) draft k every cycle. Priced by
  // model/draft_length.hpp.
  int64_t draft_min = 0;
  double draft_p_min = 0;
  // sps: the catalog's draft presets this target cannot take (another tokenizer), as the JSON
  // text of {id: reason}, so a form can grey them out in the core's words (the eval's
  // engine.supports.unavailable_drafts; text, not a list: Config is copied per sweep point).
  std::string drafts_unavailable_json;
  // Families with draft passes: the runtimes the draft cannot run under ({id: reason}, JSON
  // text; the eval's engine.supports.unavailable_draft_runtimes).
  std::string draft_runtimes_unavailable_json;
  // pld
  int64_t ngram = 0;       // pld: max n-gram matched; lookahead: N
  double draft_cpu_s = 0;  // pld: CPU time of the n-gram match per cycle
  // lookahead (W, N = ngram, G)
  int64_t window = 0;
  int64_t guess = 0;
  // medusa / hydra / eagle1: tree, either a preset name or explicit paths
  int64_t heads = 0;
  std::string tree_preset;          // non-empty when the tree is a named preset
  Choices choices;                  // resolved paths (always filled after parsing)
  bool typical_acceptance = false;  // medusa: typical acceptance instead of greedy/rejection
  // eagle2 / eagle3 dynamic tree: verify total_token tokens (root included), depth drafted
  // levels, top_k children per expanded node
  int64_t total_token = 0;
  int64_t depth = 0;
  int64_t top_k = 0;
  // sps trees: an explicit tree (choices), the optimal tree of tree_size draft nodes and depth
  // at most `depth` (Sequoia's question), or `sequences` independent chains of k (SpecInfer).
  enum class SpsTree { chain, choices, optimal, sequences };
  SpsTree sps_tree = SpsTree::chain;
  // A draft model drafting a token tree (any form but the chain of k).
  bool sps_token_tree() const { return family == Family::sps && sps_tree != SpsTree::chain; }
  int64_t tree_size = 0;
  int64_t sequences = 0;
  // layerskip: the draft is the target's first exit_layer layers + its LM head.
  int64_t exit_layer = 0;
  // streaming: the target drafts attending only kv_budget cached tokens (StreamingLLM window).
  int64_t kv_budget = 0;
  // retrieval: where the drafts come from (rest, sam, suffix, token-recycling).
  std::string source;
  // Where the draft passes run (sps, hydra, eagle*): the runtime profile ("" = the engine's
  // default for drafts) and the tensor-parallel degree (vLLM's draft_tensor_parallel_size).
  std::string draft_runtime;
  // Resolved at parse time: the given value, or the engine's default (the target's TP for
  // vLLM, SGLang, TensorRT-LLM; 1 for research code). Written back only when given.
  int64_t draft_tensor_parallel_size = 1;
  bool draft_tensor_parallel_given = false;
  RuntimeProfile draft_profile;  // resolved at parse time
};

// Families whose drafting runs passes of a separate network (draft model or draft heads).
bool family_has_draft_passes(Family f);
// Whether the configured method verifies a tree (more than one candidate at some depth).
bool method_is_tree(const MethodConfig& m);

struct Acceptance {
  enum class Kind { tau, alpha, per_position, matrix };
  Kind kind = Kind::alpha;
  double tau = 0;    // tokens per cycle, bonus token included
  double alpha = 0;  // per-token acceptance probability (chain); rank model for trees
  std::vector<double> per_position;    // conditional acceptance of draft position i given i-1
  std::vector<std::vector<double>> p;  // tree matrix p[depth][rank]
  std::string medusa_table;            // set when p came from a Medusa head-accuracy table
  // {"workload": id}: kind tau, tau = the workload's measured tau at the method's k, and the
  // per-request spread of tau at that k (p5 <= p50 <= p95), for a speedup band.
  std::string workload;
  double tau_p5 = 0, tau_p50 = 0, tau_p95 = 0;
  // Acceptance omitted (or {"published": true}): kind tau with the mean of the published rows
  // for this method x target, or the default alpha when no row matches.
  bool published = false;
  // A default from data (published rows, the vLLM traces, a model card) may carry the spread of
  // tau it was taken from (tau_p5 = low end, tau_p95 = high end, > 0 when set) and what that
  // spread is, e.g. "over the 7 published rows (min-max)". Empty for a workload (p5-p95).
  std::string spread_label;
  // A published EAGLE or Medusa tau on a config that drafts another tree than the paper's: kind
  // matrix, p = the acceptance that tau implies on the paper's tree (config/paper_tree.hpp), and
  // the rows' spread as the matrices of their lowest and highest tau (empty when unset).
  std::vector<std::vector<double>> band_low, band_high;
  // Omitted acceptance with no data for this method and target: the default alpha, a guess.
  bool guessed = false;
  std::string note;  // where the numbers came from (rows, workload), for the assumptions list
  // The note in a few words, for the result's tau card (empty: the acceptance as configured).
  std::string basis;
};

struct DTypes {
  DType weights = DType::fp16;
  DType kv = DType::fp16;
};

// Serving under load (optional `load` block; core/src/model/load_model.hpp): continuous
// batching in steady state at an arrival rate or a fixed concurrency.
struct LoadSlo {
  double tpot_s = 0;  // time per output token after the first (0: no target)
  double ttft_s = 0;  // time to first token (0: no target)
  double e2e_s = 0;   // end-to-end request latency (0: no target)
};
struct LoadConfig {
  bool present = false;
  double rate_rps = 0;       // open loop: requests arriving per second (> 0), or
  int64_t concurrency = 0;   // closed loop: requests kept in flight (> 0)
  std::string workload;      // preset whose mean prompt / output lengths apply (empty: none)
  double input_tokens = 0;   // mean prompt length per request (tokens)
  double output_tokens = 0;  // mean output length per request (tokens, the first included)
  // 0: vLLM's default for the OpenAI server (vllm/engine/arg_utils.py, get_batch_defaults):
  // 1024 sequences and 8192 tokens per step on GPUs with >= 70 GiB that are not A100s, else 256
  // and 2048. max_num_batched_tokens is the chunked-prefill token budget of one engine step.
  int64_t max_num_seqs = 0;
  int64_t max_num_batched_tokens = 0;
  // Whether the caps and lengths were given, not filled in from the GPU or the workload: the
  // normalized config (and its link) writes only what was given, so a later change of GPU or
  // workload brings that one's defaults instead of keeping the old ones.
  bool caps_seqs_given = false;
  bool caps_tokens_given = false;
  bool lengths_given = false;
  LoadSlo slo;
  double curve_max_rps = 0;    // the rate curve's end (0: 1.2 x the plain capacity)
  int64_t curve_points = 200;  // points on the rate curve
};

// The fraction of GPU memory the engine may use when the config gives none: vLLM's
// --gpu-memory-utilization default (vllm/config/cache.py gpu_memory_utilization = 0.9).
constexpr double kDefaultMemoryUtilization = 0.9;

struct Config {
  ModelArch target;
  bool target_preset = true;
  Gpu hardware;
  bool hardware_preset = true;
  int64_t gpus = 1;
  // Parallelism beyond plain tensor parallelism (the optional `parallelism` block, engines
  // that run it, mixture-of-experts targets): attention in data_attention groups of
  // gpus / data_attention GPUs each, and experts whole on each GPU (expert parallelism).
  int64_t data_attention = 1;
  bool expert_parallel = false;
  RuntimeSpec runtime;
  RuntimeProfile engine;  // the resolved runtime profile (what the engine is and can run)
  int64_t batch = 1;
  int64_t context = 1024;
  // Sampling temperature of the requests (0 = greedy). It picks which published acceptance a
  // config without one gets (rows at temperature 1, the only sampled temperature stored, for
  // any T > 0); the cost of sampling at T > 0 is not priced.
  double temperature = 0;
  double memory_utilization = kDefaultMemoryUtilization;  // fraction of GPU memory usable
  // Offloading: the target's weights stay in host memory and stream over the host link every
  // pass (the draft and the KV cache stay on the GPU).
  bool offload_target = false;
  double host_link_gbps = 0;  // per-direction host-to-GPU bandwidth used for the streaming
  // Partial offload, llama.cpp's --n-gpu-layers (`offload.gpu_layers`; -1: not given, every
  // layer on the GPU): the first layers run on the CPU from host memory. host_memory_gbps is
  // the CPU's peak memory bandwidth, host_tflops the rate its matmuls sustain in llama.cpp.
  int64_t gpu_layers = -1;
  double host_memory_gbps = 0;
  double host_tflops = 0;
  DTypes dtype;
  MethodConfig method;
  Acceptance acceptance;
  LoadConfig load;
};

// Limits enforced by parse_config (documented in docs/config.md).
// The limits of a config's fields, in one place; the tree limits are the tree solver's own
// (speccalc/tree.hpp), except that a config's tree holds at most 1,024 draft nodes (the solver
// takes 4,096: sizing and tree-optimize explore larger trees than one evaluation verifies).
struct ConfigLimits {
  static constexpr int64_t kMaxGpus = 1024;
  static constexpr int64_t kMaxBatch = 4096;
  static constexpr int64_t kMaxContext = 1 << 20;
  static constexpr int64_t kMaxK = 64;
  static constexpr int64_t kMaxTreeNodes = 1024;
  static constexpr int64_t kMaxDepth = tree::kMaxDepth;
  static constexpr int64_t kMaxTopK = tree::kMaxRank;
  static constexpr double kMaxRateRps = 1e6;
  static constexpr int64_t kMaxCurvePoints = 2000;
  static constexpr int64_t kMaxBatchedTokens = 1 << 20;
  static constexpr int64_t kMaxKernelRows = 4096;  // runtime.matvec_max_rows / matmul_tile_rows
  // runtime.score_bytes_per_element: an fp32 score written and read back by each of a product,
  // a scale, a mask, a softmax and the value product is 36 bytes; 64 leaves room for more
  // kernels, never a silent clamp.
  static constexpr double kMaxScoreBytesPerElement = 64;
};

Expected<Config> parse_config_text(const std::string& text, const Catalog& catalog);

}  // namespace speccalc
