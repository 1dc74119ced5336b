#include "model/method_cost.hpp"

#include "config/json_fields.hpp"
#include "model/sampler_ops.hpp"
#include "model/sequoia_ops.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_set>

namespace speccalc {

namespace {

constexpr double kActBytes = 2;    // activations fp16/bf16
constexpr double kLogitBytes = 4;  // logits are sampled in fp32 (vLLM, SGLang, HF)

// KV bytes one cached token holds per GPU in `layers` layers of m under tensor parallelism tp:
// the full-attention layers' (full = true) or the sliding-window layers' (full = false).
// Only softmax-attention layers cache keys and values: a hybrid model's share of linear-attention
// layers (as in its full stack) holds a recurrent state instead (state_bytes_per_seq).
double kv_bytes_per_token(const ModelArch& m, int64_t layers, const DTypes& d, int64_t tp,
                          bool full = true) {
  const double elems =
      m.kv_lora_rank > 0 || m.shared_kv
          ? kv_elems_per_token_layer(m)
          : 2.0 * std::max(1.0, static_cast<double>(m.kv_heads) / static_cast<double>(tp)) *
                static_cast<double>(m.head_dim);
  const double window_layers = static_cast<double>(layers) * sliding_layer_share(m);
  if (!full) return window_layers * elems * dtype_bytes(d.kv);
  if (compressed_attention(m)) {
    // DeepSeek-V4 (vLLM's MLAAttentionSpec with compress_ratio: one entry per ratio tokens):
    // a sparse layer keeps an entry and an fp8 index key per kCsaRatio tokens, a heavily
    // compressed layer an entry per hca_ratio; the windows are in their slot (full = false).
    const double share = static_cast<double>(layers) / static_cast<double>(m.num_layers);
    const double csa =
        share * static_cast<double>(m.compressed_sparse_layers) *
        (elems * dtype_bytes(d.kv) + static_cast<double>(m.index_head_dim) * kIndexerKeyBytes) /
        static_cast<double>(kCsaRatio);
    const double hca = share * static_cast<double>(m.heavily_compressed_layers) * elems *
                       dtype_bytes(d.kv) / static_cast<double>(m.hca_ratio);
    return csa + hca;
  }
  const double cached_layers =
      (m.linear_attention_layers > 0 ? static_cast<double>(layers) * softmax_layer_share(m)
                                     : static_cast<double>(layers)) -
      window_layers;
  // DSA keeps one fp8 indexer key per token and layer beside the latent.
  const double indexer =
      m.index_topk > 0 ? cached_layers * static_cast<double>(m.index_head_dim) * kIndexerKeyBytes
                       : 0.0;
  return cached_layers * elems * dtype_bytes(d.kv) + indexer;
}

// Adds m's KV cache (`layers` of its layers, `scale` of it on this GPU) to the memory need:
// full layers per cached token, sliding-window layers into the slot of their window. Every
// engine here keeps only the window there: vLLM's hybrid KV cache manager ("sliding window
// layers: reserve slots only for the most recent sliding_window_size tokens",
// docs.vllm.ai/en/latest/design/hybrid_kv_cache_manager), SGLang's SWAKVPool (on unless
// --disable-hybrid-swa-memory), TensorRT-LLM's pool per window size (features/kvcache),
// llama.cpp's SWA cache (--swa-full defaults to false, common/arg.cpp), transformers'
// sliding-window cache layers and mlx_lm's RotatingKVCache.
void add_kv_cache(MemoryNeed& n, const ModelArch& m, int64_t layers, const DTypes& d, int64_t tp,
                  double scale = 1.0) {
  n.kv_bytes_per_seq_token += kv_bytes_per_token(m, layers, d, tp) * scale;
  if (m.sliding_window_layers == 0) return;
  const double window_bytes = kv_bytes_per_token(m, layers, d, tp, false) * scale;
  for (MemoryNeed::KvWindow& w : n.kv_windows) {
    if (w.tokens == 0 || w.tokens == m.sliding_window) {
      w.tokens = m.sliding_window;
      w.bytes_per_seq_token += window_bytes;
      return;
    }
  }
  n.kv_bytes_per_seq_token += window_bytes;  // no slot left: counted whole (an upper bound)
}

// One sequence's linear-attention state per GPU: the fp32 delta-rule matrices and the conv
// windows of every linear layer, plus one checkpoint of both per token a verify pass holds
// (SGLang's MambaPool keeps an intermediate_ssm_state_cache of speculative_num_draft_tokens
// states per slot to roll back to the accepted position; python/sglang/srt/mem_cache/
// memory_pool.py). tokens_in_flight = 1 (plain decoding): the state alone.
double linear_state_bytes_per_seq(const ModelArch& m, int64_t tokens_in_flight, int64_t tp) {
  if (m.linear_attention_layers == 0) return 0;
  const double per_layer = linear_state_elems_per_layer(m) * kLinearStateBytes +
                           linear_conv_elems_per_layer(m) * kActBytes;
  const double copies = 1.0 + (tokens_in_flight > 1 ? static_cast<double>(tokens_in_flight) : 0.0);
  return static_cast<double>(m.linear_attention_layers) * per_layer * copies /
         static_cast<double>(tp);
}

double weights_bytes(const ModelArch& m, const DTypes& d) {
  const double wb = dtype_bytes(d.weights);
  const double rest_wb = non_mlp_weight_bytes(m, wb);
  const ParamCounts p = count_params(m);
  if (rest_wb == wb) return static_cast<double>(p.total) * wb;
  return static_cast<double>(p.mlp_total) * wb +
         static_cast<double>(p.total - p.mlp_total) * rest_wb;
}

// Peak working set of one sequence in a pass of `tokens` tokens: one layer's activations
// (hidden, qkv, MLP intermediate) plus the fp32 logits of the rows sampled.
double activations_per_seq(const ModelArch& m, int64_t tokens, int64_t lm_rows, int64_t tp) {
  const double g = static_cast<double>(tp);
  const double inter =
      static_cast<double>(m.intermediate) *
      static_cast<double>(m.experts > 1 ? m.experts_per_token + m.shared_experts : 1);
  const double per_token = 4.0 * static_cast<double>(m.hidden) +
                           static_cast<double>((m.heads + 2 * m.kv_heads) * m.head_dim) / g +
                           2.0 * inter / g;
  return static_cast<double>(tokens) * per_token * kActBytes +
         static_cast<double>(lm_rows) * static_cast<double>(m.vocab) / g * kLogitBytes;
}

int64_t accepted_tokens(double tau) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(tau)));
}

// An EAGLE draft head: one decoder layer with the target's dimensions (dense MLP) fed by a
// fusion layer, followed by an LM head (the target's for EAGLE-1/2, its own reduced-vocabulary
// one for EAGLE-3).
struct EagleHead {
  ModelArch layer;          // one dense decoder layer with the target's widths
  double fc_params;         // fusion linear: 2h -> h (EAGLE-1/2) or 3h -> h (EAGLE-3)
  bool fc_first_pass_only;  // EAGLE-3 fuses the target's features once per cycle (see below)
  double extra_qkv_params;  // EAGLE-3: q/k/v take 2h inputs, an extra h x (q + 2 kv) block
  int64_t lm_vocab;         // rows of the LM head it multiplies
  bool own_lm_head;         // EAGLE-3 holds its own LM head weights
};

EagleHead eagle_head(const ModelArch& target, bool eagle3) {
  EagleHead h;
  h.layer = target;
  h.layer.num_layers = 1;
  h.layer.experts = 1;
  h.layer.experts_per_token = 1;
  h.layer.shared_experts = 0;
  h.layer.first_dense_layers = 0;
  h.layer.kv_lora_rank = 0;  // EAGLE heads use plain multi-head attention
  h.layer.linear_attention_layers = 0;
  h.layer.sliding_window_layers = 0;  // an EAGLE layer attends over the whole context
  h.layer.sliding_window = 0;
  h.layer.index_topk = 0;
  h.layer.qk_rope_head_dim = 0;
  h.layer.shared_kv = false;  // nor DeepSeek-V4's attention
  h.layer.compressed_sparse_layers = 0;
  h.layer.heavily_compressed_layers = 0;
  h.layer.o_lora_rank = 0;
  h.layer.o_groups = 0;
  h.layer.hc_mult = 0;
  const double hid = static_cast<double>(target.hidden);
  const double qkv_out =
      static_cast<double>((target.heads + 2 * target.kv_heads) * target.head_dim);
  h.fc_params = eagle3 ? 3.0 * hid * hid : 2.0 * hid * hid + hid;
  // EAGLE-1/2 project [embedding; feature] 2h -> h in every draft forward. EAGLE-3's 3h -> h fc
  // only fuses the target's three-layer features, i.e. in the cycle's first forward; later
  // forwards take the head's own h-wide output and skip it. SafeAILab/EAGLE
  // eagle/model/cnets.py (Model.forward: `if hidden_states.shape[-1] !=
  // inputs_embeds.shape[-1]: hidden_states = self.fc(hidden_states)`); vLLM
  // vllm/v1/spec_decode/eagle.py (EagleProposer.propose: `combine_hidden_states` once before
  // the first forward; the loop feeds the head's prenorm output back) and
  // vllm/model_executor/models/llama_eagle3.py (`combine_hidden_states` = `self.model.fc`).
  h.fc_first_pass_only = eagle3;
  h.extra_qkv_params = eagle3 ? hid * qkv_out : 0.0;
  // EAGLE-3 checkpoints for LLaMA-3 use draft_vocab_size = 32000 (drafts.json eagle_3).
  h.lm_vocab = eagle3 ? std::min<int64_t>(target.vocab, 32000) : target.vocab;
  h.own_lm_head = eagle3;
  return h;
}

// One EAGLE draft forward over `tokens` tokens per sequence, sampling from `lm_rows` of them;
// `first` is the cycle's first forward (the one over the newly accepted tokens).
Work eagle_head_work(const EagleHead& h, int64_t batch, int64_t tokens, int64_t lm_rows,
                     int64_t context, const DTypes& d, const Sharding& s, bool first) {
  Work w = decoder_work(h.layer, 1, batch, tokens, context, 0, d, s);
  const double tp = static_cast<double>(s.tp);
  const int64_t rows = batch * tokens;
  const double fc = (first || !h.fc_first_pass_only) ? h.fc_params : 0.0;
  w += linear_work((fc + h.extra_qkv_params) / tp, rows, d);
  const double lm_params =
      static_cast<double>(h.lm_vocab) * static_cast<double>(h.layer.hidden) / tp;
  Work lm = linear_work(lm_params, batch * lm_rows, d, Kernel::lm_head);
  lm[Kernel::lm_head].activations_bytes =
      2.0 * kActBytes * static_cast<double>(batch * lm_rows) * static_cast<double>(h.lm_vocab) / tp;
  w += lm;
  return w;
}

double eagle_head_params(const EagleHead& h) {
  const ParamCounts p = count_params(h.layer);
  double params = static_cast<double>(p.attn_per_layer + p.mlp_per_expert + p.norms_per_layer) +
                  h.fc_params + h.extra_qkv_params;
  if (h.own_lm_head) params += static_cast<double>(h.lm_vocab * h.layer.hidden);
  return params;
}

}  // namespace

TreeShape tree_shape(const Choices& choices) {
  TreeShape s;
  std::size_t depth = 0;
  for (const auto& c : choices) depth = std::max(depth, c.size());
  s.nodes.assign(depth, 0);
  s.parents.assign(depth, 0);
  // Distinct parent paths per depth: each path as a string of ranks (one byte each: a config's
  // ranks are validated < 64), its parent the prefix one shorter (views into `keys`, sized
  // once), counted at its depth the first time it is seen.
  std::vector<std::string> keys(choices.size());
  std::unordered_set<std::string_view> parents;
  parents.reserve(choices.size());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::vector<int>& c = choices[i];
    s.nodes[c.size() - 1] += 1;
    keys[i].assign(c.begin(), c.end());
    if (parents.insert(std::string_view(keys[i]).substr(0, c.size() - 1)).second)
      s.parents[c.size() - 1] += 1;
  }
  s.total_nodes = static_cast<int64_t>(choices.size());
  return s;
}

LayerSplit layer_split(const Config& c) {
  LayerSplit s;
  const int64_t layers = c.target.num_layers;
  if (c.gpu_layers < 0 || c.gpu_layers > layers) {
    s.gpu_layers = layers;
    return s;
  }
  s.lm_head_on_gpu = c.gpu_layers >= 1;
  s.gpu_layers = std::max<int64_t>(0, c.gpu_layers - 1);
  s.cpu_layers = layers - s.gpu_layers;
  return s;
}

namespace {
// The pass's attention runs as a fused kernel: nothing written out per score element.
void keep_scores_on_chip(Work& w) {
  for (KernelWork& k : w.kernels) k.score_elements = 0;
}
}  // namespace

PassWork plain_decode_pass(const Config& c, const Sharding& ts) {
  PassWork p = target_pass(c, ts, 1, 1);
  keep_scores_on_chip(p.work);
  return p;
}

PassWork target_pass(const Config& c, const Sharding& ts, int64_t tokens, int64_t lm_rows) {
  const ModelArch& t = c.target;
  PassWork p;
  p.tokens_per_pass = tokens;
  const LayerSplit s = layer_split(c);
  if (s.cpu_layers == 0) {
    p.work = decoder_work(t, t.num_layers, c.batch, tokens, c.context, lm_rows, c.dtype, ts);
    return p;
  }
  ModelArch gpu_part = t;
  gpu_part.first_dense_layers = std::max<int64_t>(0, t.first_dense_layers - s.cpu_layers);
  p.work = decoder_work(gpu_part, s.gpu_layers, c.batch, tokens, c.context,
                        s.lm_head_on_gpu ? lm_rows : 0, c.dtype, ts);
  p.host_work = decoder_work(t, s.cpu_layers, c.batch, tokens, c.context,
                             s.lm_head_on_gpu ? 0 : lm_rows, c.dtype, Sharding{});
  p.on_host = true;
  return p;
}

Placement placement_for(const Config& c, bool tensor_parallel) {
  Placement p;
  p.gpus = c.gpus;
  p.target.tp = tensor_parallel ? c.gpus : 1;
  p.draft.tp = tensor_parallel ? c.method.draft_tensor_parallel_size : 1;
  if (tensor_parallel) {
    p.target.attention_dp = c.data_attention;
    p.target.expert_parallel = c.expert_parallel;
    // A draft at the target's tensor parallelism runs in the target's layout (SGLang's and
    // TensorRT-LLM's draft workers share the target's parallel config); config validation
    // allows no other draft placement under data-parallel attention.
    if (p.draft.tp == c.gpus) {
      p.draft.attention_dp = c.data_attention;
      p.draft.expert_parallel = c.expert_parallel;
    }
  }
  return p;
}

namespace {

// What every family's cycle is built from; set_verify() fills the verify pass: the target over
// `tokens` positions per sequence (bonus position included), `lm_rows` of them through the LM
// head, and the memory that many positions in flight hold.
struct CycleContext {
  const Config& c;
  const Placement& place;
  double tau;
  const TreeShape& tree;  // of c.method.choices
  bool text;              // false: no names or assumptions (numbers only)
  CycleWork& out;

  void set_verify(int64_t tokens, const char* name, int64_t lm_rows) const {
    const ModelArch& t = c.target;
    const Sharding& ts = place.target;
    out.verify = target_pass(c, ts, tokens, lm_rows);
    if (text) out.verify_name = name;
    out.memory.tokens_in_flight = tokens;
    out.memory.activations_bytes_per_seq = activations_per_seq(t, tokens, lm_rows, ts.tp);
  }
};

// One function per family: its draft passes, its verify pass, the memory it adds.
void ar_cycle(const CycleContext& x) {
  CycleWork& out = x.out;
  out.has_verify = false;
  if (x.text) out.draft_name = "none";
}

void sps_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const MethodConfig& m = x.c.method;
  const Sharding& ds = x.place.draft;
  CycleWork& out = x.out;
  // k sequential draft passes of the small model, one token per sequence each, then one
  // target pass over the k drafts plus the position that yields the bonus token.
  const ModelArch& d = m.draft_model;
  if (m.sps_tree == MethodConfig::SpsTree::chain) {
    PassWork p;
    p.work = decoder_work(d, d.num_layers, B, 1, L, 1, c.dtype, ds);
    p.passes = m.k;
    out.draft.push_back(p);
    out.draft_model_steps = m.k;
    if (x.text) out.draft_name = "draft model " + m.draft + " (1 token per pass)";
    x.set_verify(m.k + 1, "target verify over k + 1 tokens", m.k + 1);
  } else {
    // Level-batched tree drafting: one pass per tree level over the nodes expanded there
    // (the root at level 0), sampling their children; verify the whole tree with its mask.
    const TreeShape& shape = x.tree;
    for (std::size_t level = 0; level < shape.parents.size(); ++level) {
      PassWork p;
      const int64_t n = shape.parents[level];
      p.work = decoder_work(d, d.num_layers, B, n, L, n, c.dtype, ds);
      p.tokens_per_pass = n;
      out.draft.push_back(p);
    }
    out.draft_model_steps = static_cast<int64_t>(shape.parents.size());
    if (x.text)
      out.draft_name = "draft model " + m.draft + " (" + std::to_string(shape.parents.size()) +
                       " level-batched passes over a " + std::to_string(shape.total_nodes) +
                       "-node tree)";
    x.set_verify(shape.total_nodes + 1, "target verify over the draft tree + root",
                 shape.total_nodes + 1);
    out.tree = true;
  }
  out.memory.draft_weights_bytes = weights_bytes(d, c.dtype) / static_cast<double>(ds.tp);
  add_kv_cache(out.memory, d, d.num_layers, c.dtype, ds.attention_tp());
  if (x.text)
    out.assumptions.push_back("draft model " + d.name + " on " + std::to_string(ds.tp) + " " +
                              device_noun(c.hardware) + "(s), same dtype as the target" +
                              (d.citation.empty() ? "" : " (" + d.citation + ")"));
}

void pld_cycle(const CycleContext& x) {
  const MethodConfig& m = x.c.method;
  CycleWork& out = x.out;
  if (x.text) out.draft_name = "prompt n-gram lookup (CPU)";
  out.draft_host_s = m.draft_cpu_s;
  x.set_verify(m.k + 1, "target verify over k + 1 tokens", m.k + 1);
  if (x.text)
    out.assumptions.push_back("prompt lookup drafts on the CPU in " +
                              fields::format_seconds(m.draft_cpu_s) +
                              " per cycle: no weights are read");
}

void lookahead_cycle(const CycleContext& x) {
  const MethodConfig& m = x.c.method;
  CycleWork& out = x.out;
  // Lookahead's single pass carries the window (W per level, N - 1 levels) and G guessed
  // n-grams of N - 1 tokens: W(N-1) + G(N-1) + N - 2 tokens per sequence
  // (LookaheadDecoding lade/decoding.py, see core/data/drafts.json).
  const int64_t tokens =
      std::max<int64_t>(1, m.window * (m.ngram - 1) + m.guess * (m.ngram - 1) + m.ngram - 2);
  if (x.text) out.draft_name = "none (n-grams come from the lookahead branch of the same pass)";
  x.set_verify(tokens, "target pass over lookahead window + guesses", tokens);
  out.tree = true;
}

void medusa_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const MethodConfig& m = x.c.method;
  const Sharding& ts = x.place.target;
  const double g = static_cast<double>(x.place.gpus);
  CycleWork& out = x.out;
  // Medusa evaluates its heads inside the verify pass on every tree position: each head is
  // a residual block (h x h + bias) plus its own h x vocab LM head.
  const TreeShape& shape = x.tree;
  const int64_t tokens = shape.total_nodes + 1;
  const double h = static_cast<double>(t.hidden);
  const double v = static_cast<double>(t.vocab);
  const double heads = static_cast<double>(m.heads);
  const double tp = static_cast<double>(ts.tp);
  x.set_verify(tokens, "target verify over the tree + Medusa heads", tokens);
  Work head = linear_work(heads * (h * h + h) / tp, B * tokens, c.dtype);
  head += linear_work(heads * h * v / tp, B * tokens, c.dtype, Kernel::lm_head);
  head[Kernel::lm_head].activations_bytes =
      2.0 * kActBytes * heads * static_cast<double>(B * tokens) * v / tp;
  out.verify.work += head;
  if (x.text) out.draft_name = "none (Medusa heads run inside the verify pass)";
  out.memory.target_weights_bytes += heads * (h * h + h + h * v) * dtype_bytes(c.dtype.weights) / g;
  out.tree = true;
}

void hydra_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const Sharding& ds = x.place.draft;
  const double tau = x.tau;
  CycleWork& out = x.out;
  // Hydra++: a one-layer prefix decoder over the newly accepted tokens, then one sequential
  // head step per depth over that depth's parent nodes. Head i (0-based) maps (i + 2) h
  // inputs to h twice, applies a shared h x h block three times, and its own LM head.
  const TreeShape& shape = x.tree;
  const int64_t tokens = shape.total_nodes + 1;
  const double h = static_cast<double>(t.hidden);
  const double v = static_cast<double>(t.vocab);
  const double tp = static_cast<double>(ds.tp);
  ModelArch prefix = t;
  prefix.experts = 1;
  prefix.experts_per_token = 1;
  prefix.shared_experts = 0;
  prefix.kv_lora_rank = 0;
  prefix.linear_attention_layers = 0;
  prefix.sliding_window_layers = 0;  // Hydra's prefix layer attends over the whole context
  prefix.sliding_window = 0;
  prefix.index_topk = 0;
  prefix.shared_kv = false;
  prefix.compressed_sparse_layers = 0;
  prefix.heavily_compressed_layers = 0;
  prefix.o_lora_rank = 0;
  prefix.o_groups = 0;
  prefix.hc_mult = 0;
  PassWork first;
  first.work = decoder_work(prefix, 1, B, accepted_tokens(tau), L, 0, c.dtype, ds);
  first.tokens_per_pass = accepted_tokens(tau);
  out.draft.push_back(first);
  double head_params_total = 0;
  for (std::size_t depth = 0; depth < shape.parents.size(); ++depth) {
    const double width = static_cast<double>(depth + 2) * h;
    const double own = 2.0 * width * h + v;
    const int64_t rows = B * shape.parents[depth];
    PassWork step;
    step.work = linear_work(own / tp, rows, c.dtype);
    Work shared = linear_work(h * h / tp, rows, c.dtype);
    shared[Kernel::gemm].flops *= 3.0;  // one ResBlock module applied three times
    step.work += shared;
    step.work += linear_work(h * v / tp, rows, c.dtype, Kernel::lm_head);
    step.work[Kernel::lm_head].activations_bytes =
        2.0 * kActBytes * static_cast<double>(rows) * v / tp;
    step.work.layers = 1;
    step.tokens_per_pass = shape.parents[depth];
    out.draft.push_back(step);
    head_params_total += own + h * v;
  }
  if (x.text)
    out.draft_name =
        "Hydra++ prefix layer + " + std::to_string(shape.parents.size()) + " sequential head steps";
  x.set_verify(tokens, "target verify over the tree", tokens);
  out.memory.draft_weights_bytes = (head_params_total + h * h +
                                    static_cast<double>(count_params(prefix).attn_per_layer +
                                                        count_params(prefix).mlp_per_expert)) *
                                   dtype_bytes(c.dtype.weights) / tp;
  add_kv_cache(out.memory, prefix, 1, c.dtype, ds.attention_tp());
  out.tree = true;
}

void mtp_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const MethodConfig& m = x.c.method;
  const Sharding& ds = x.place.draft;
  const double tau = x.tau;
  CycleWork& out = x.out;
  // DeepSeek-V3-style MTP: each draft step runs one MTP module (a projection of
  // [embedding; hidden] 2h -> h, one decoder layer of the target's shape) and the target's
  // shared LM head. A model with fewer modules than k reuses its last one, as vLLM and
  // SGLang do: the cost per step is the same.
  ModelArch module = t;
  module.num_layers = 1;
  module.first_dense_layers = 0;
  module.linear_attention_layers = 0;  // an MTP layer attends with softmax (Qwen3-Next/3.5 too)
  module.sliding_window_layers = 0;    // over the whole context (DeepSeek-V3's MTP layer)
  module.sliding_window = 0;
  if (compressed_attention(t)) {
    // DeepSeek-V4's MTP layer attends its window only: vLLM deepseek_v4.py gives a layer at
    // or past num_hidden_layers compress ratio 1 ("MTP layer is not included").
    module.compressed_sparse_layers = 0;
    module.heavily_compressed_layers = 0;
    module.hca_ratio = 0;
    module.index_topk = 0;  // no indexer without compressed entries
    module.sliding_window = t.sliding_window;
    module.sliding_window_layers = 1;
  }
  const double h = static_cast<double>(t.hidden);
  const double tp = static_cast<double>(ds.tp);
  for (int64_t step = 0; step < m.k; ++step) {
    PassWork p;
    const int64_t tokens = step == 0 ? accepted_tokens(tau) : 1;
    p.work = decoder_work(module, 1, B, tokens, L, 1, c.dtype, ds);
    p.work += linear_work(2.0 * h * h / tp, B * tokens, c.dtype);
    p.tokens_per_pass = tokens;
    out.draft.push_back(p);
  }
  if (x.text)
    out.draft_name = "MTP module (" + std::to_string(m.k) + " sequential steps, shared LM head)";
  x.set_verify(m.k + 1, "target verify over k + 1 tokens", m.k + 1);
  const ParamCounts pc = count_params(module);
  const double module_params =
      static_cast<double>(pc.total - pc.embedding - pc.lm_head) + 2.0 * h * h;
  out.memory.draft_weights_bytes = static_cast<double>(std::max<int64_t>(1, t.mtp_modules)) *
                                   module_params * dtype_bytes(c.dtype.weights) / tp;
  add_kv_cache(out.memory, module, 1, c.dtype, ds.attention_tp());
  if (x.text)
    out.assumptions.push_back(
        t.id + " ships " + std::to_string(t.mtp_modules) + " MTP module(s); " +
        (m.k > t.mtp_modules ? "steps beyond them reuse the last module" : "one per step") +
        (t.experts > 1 ? "; the k + 1 verify tokens of a sequence share experts at Mixtral's "
                         "measured repeat rate"
                       : ""));
}

void layerskip_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const MethodConfig& m = x.c.method;
  const Sharding& ts = x.place.target;
  CycleWork& out = x.out;
  // Self-speculation (LayerSkip, draft & verify, SWIFT, Kangaroo): the draft is the
  // target's first exit_layer layers + its LM head, 1 token per pass; no extra weights, its
  // KV is the target's. Verification reuses the early layers' KV and exit states (LayerSkip's
  // cache reuse): the remaining layers run over the k drafts + bonus position.
  PassWork p;
  p.work = decoder_work(t, m.exit_layer, B, 1, L, 1, c.dtype, ts);
  p.passes = m.k;
  out.draft.push_back(p);
  if (x.text)
    out.draft_name =
        "target's first " + std::to_string(m.exit_layer) + " layers + LM head (1 token per pass)";
  x.set_verify(m.k + 1, "target's remaining layers over k + 1 tokens", m.k + 1);
  out.verify.work =
      decoder_work(t, t.num_layers - m.exit_layer, B, m.k + 1, L, m.k + 1, c.dtype, ts);
  if (x.text)
    out.assumptions.push_back(
        "self-speculation: the draft shares the target's weights and KV; verification runs "
        "layers " +
        std::to_string(m.exit_layer + 1) + ".." + std::to_string(t.num_layers) +
        " only (early-layer cache reused)");
}

void streaming_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const MethodConfig& m = x.c.method;
  const Sharding& ts = x.place.target;
  CycleWork& out = x.out;
  // Long-context self-speculation (MagicDec / TriForce / StreamingLLM drafts): the full
  // target drafts attending only a window of kv_budget cached tokens; verify reads the full
  // KV. The draft keeps its own compressed cache of kv_budget tokens per sequence.
  const int64_t window = std::min<int64_t>(L, m.kv_budget);
  PassWork p;
  p.work = decoder_work(t, t.num_layers, B, 1, window, 1, c.dtype, ts);
  p.passes = m.k;
  out.draft.push_back(p);
  if (x.text)
    out.draft_name =
        "target with a " + std::to_string(m.kv_budget) + "-token KV window (1 token per pass)";
  x.set_verify(m.k + 1, "target verify over k + 1 tokens (full KV)", m.k + 1);
  out.memory.activations_bytes_per_seq +=
      static_cast<double>(m.kv_budget) *
      (kv_bytes_per_token(t, t.num_layers, c.dtype, ts.attention_tp()) +
       kv_bytes_per_token(t, t.num_layers, c.dtype, ts.attention_tp(), false));
  if (x.text)
    out.assumptions.push_back("StreamingLLM-style draft: attention sinks + recent window of " +
                              std::to_string(m.kv_budget) +
                              " tokens, stored besides the full cache");
}

void retrieval_cycle(const CycleContext& x) {
  const MethodConfig& m = x.c.method;
  CycleWork& out = x.out;
  // Retrieval drafters (REST, SAM-Decoding, suffix decoding, Token Recycling): candidates
  // come from a lookup on the host, then one verify over k candidate tokens (a tree for REST
  // and Token Recycling, a chain otherwise).
  if (x.text)
    out.draft_name = m.source + " lookup (host, " + fields::format_seconds(m.draft_cpu_s) + ")";
  out.draft_host_s = m.draft_cpu_s;
  x.set_verify(m.k + 1, "target verify over k retrieved tokens + root", m.k + 1);
  out.tree = m.source == "rest" || m.source == "token-recycling";
  if (x.text)
    out.assumptions.push_back(
        "retrieval lookup time per cycle is an order-of-magnitude assumption (" +
        fields::format_seconds(m.draft_cpu_s) + " for " + m.source +
        "): no measurement of it is in the reference data");
}

void eagle_cycle(const CycleContext& x) {
  const Config& c = x.c;
  const ModelArch& t = x.c.target;
  const int64_t B = x.c.batch;
  const int64_t L = x.c.context;
  const MethodConfig& m = x.c.method;
  const Sharding& ds = x.place.draft;
  const double tau = x.tau;
  CycleWork& out = x.out;
  const bool eagle3 = m.family == Family::eagle3;
  const EagleHead head = eagle_head(t, eagle3);
  // Draft forwards per cycle: the first over the newly accepted tokens (sampling from the
  // last), then one per further tree level over the nodes expanded at that level.
  std::vector<int64_t> level_inputs;
  int64_t verify_tokens = 0;
  if (m.family == Family::eagle1) {
    const TreeShape& shape = x.tree;
    for (std::size_t d = 1; d < shape.parents.size(); ++d) level_inputs.push_back(shape.parents[d]);
    verify_tokens = shape.total_nodes + 1;
    out.tree = shape.total_nodes > static_cast<int64_t>(shape.nodes.size());
  } else {
    for (int64_t d = 1; d < m.depth; ++d) level_inputs.push_back(m.top_k);
    verify_tokens = m.total_token;
    out.tree = m.top_k > 1;
  }
  const char* name = eagle3 ? "EAGLE-3 head" : "EAGLE head";
  PassWork first;
  first.work = eagle_head_work(head, B, accepted_tokens(tau), 1, L, c.dtype, ds, true);
  first.tokens_per_pass = accepted_tokens(tau);
  out.draft.push_back(first);
  for (int64_t n : level_inputs) {
    PassWork p;
    p.work = eagle_head_work(head, B, n, n, L, c.dtype, ds, false);
    p.tokens_per_pass = n;
    out.draft.push_back(p);
  }
  if (eagle3) out.eagle3_steps = static_cast<int64_t>(out.draft.size());
  if (x.text)
    out.draft_name =
        std::string(name) + " (" + std::to_string(out.draft.size()) + " sequential forwards)";
  x.set_verify(verify_tokens,
               m.family == Family::eagle1 ? "target verify over the static tree"
                                          : "target verify over the re-ranked tree",
               verify_tokens);
  out.memory.draft_weights_bytes =
      eagle_head_params(head) * dtype_bytes(c.dtype.weights) / static_cast<double>(ds.tp);
  add_kv_cache(out.memory, head.layer, 1, c.dtype, ds.attention_tp());
  if (x.text)
    out.assumptions.push_back(std::string(name) + ": one decoder layer with the target's widths" +
                              (eagle3 ? ", fused 3h features and its own " +
                                            std::to_string(head.lm_vocab) + "-token LM head"
                                      : " plus the target's LM head"));
}

}  // namespace

MethodShape method_shape(const Config& c, double tau, const tree::Tree& verified_tree,
                         const tree::AcceptanceMatrix& acceptance) {
  MethodShape s;
  if (!c.method.choices.empty()) s.tree = tree_shape(c.method.choices);
  if (c.method.sps_token_tree()) {
    // SpS token trees run in Sequoia's tree code, not HF's assisted generation (chains only):
    // its greedy walk in host_ops, what sampling adds in sampling_ops.
    const tree::Tree t = verified_tree.size() > 0 ? verified_tree : method_tree(c);
    const tree::AcceptanceMatrix a =
        acceptance.rows.empty() ? acceptance_for_tau(t, tau) : acceptance;
    const auto levels = static_cast<int64_t>(s.tree.parents.size());
    s.host_ops = sequoia_host_ops(t, a, levels, 0.0);
    if (c.temperature > 0) {
      const HostOps sampled = sequoia_host_ops(t, a, levels, c.temperature);
      s.sampling_ops.ops = sampled.ops - s.host_ops.ops;
      s.sampling_ops.syncs = sampled.syncs - s.host_ops.syncs;
    }
  } else {
    s.host_ops = method_host_ops(c, tau, s.tree);
    s.sampling_ops = sampling_host_ops(c, tau, verified_tree, acceptance);
  }
  s.host_ops.ops += s.sampling_ops.ops;
  s.host_ops.syncs += s.sampling_ops.syncs;
  return s;
}

namespace {
// The target's weights one GPU holds: its share of all of them under tensor parallelism (or of
// the layers it runs, layer-sequential); with data-parallel attention, attention replicated
// across the groups (1 / (tp / D) of it instead of 1 / tp); under a partial offload only the
// GPU's decoder layers and (n_gpu_layers >= 1) the output layer, the input embedding staying
// on the CPU as llama.cpp keeps dev_input there; streamed from the host, two layers (one in
// use, one arriving).
double target_weights_per_gpu_bytes(const Config& c, const Placement& place,
                                    const LayerSplit& split) {
  const ModelArch& t = c.target;
  const Sharding& ts = place.target;
  const double g = static_cast<double>(place.gpus);
  const double wb = dtype_bytes(c.dtype.weights);
  if (c.offload_target)
    return 2.0 * weights_bytes(t, c.dtype) / static_cast<double>(t.num_layers) / g;
  double bytes = weights_bytes(t, c.dtype) / g;
  if (split.cpu_layers > 0) {
    const ParamCounts pc = count_params(t);
    const double per_layer = static_cast<double>(pc.total - pc.embedding - pc.lm_head) /
                             static_cast<double>(t.num_layers);
    const double output = static_cast<double>(pc.lm_head > 0 ? pc.lm_head : pc.embedding);
    const double rest_wb = non_mlp_weight_bytes(t, wb);
    if (rest_wb == wb) {
      bytes = (per_layer * static_cast<double>(split.gpu_layers) +
               (split.lm_head_on_gpu ? output : 0.0)) *
              wb / g;
    } else {  // a layer's MLP at wb, its attention, router and norms at 16 bits
      const double mlp_per_layer =
          static_cast<double>(pc.mlp_total) / static_cast<double>(t.num_layers);
      bytes = (static_cast<double>(split.gpu_layers) *
                   (mlp_per_layer * wb + (per_layer - mlp_per_layer) * rest_wb) +
               (split.lm_head_on_gpu ? output * rest_wb : 0.0)) /
              g;
    }
  }
  if (ts.attention_dp > 1) {
    const ParamCounts pc = count_params(t);
    const double attn_params =
        static_cast<double>(pc.attn_per_layer) * static_cast<double>(t.num_layers) *
            (t.linear_attention_layers > 0 ? softmax_layer_share(t) : 1.0) +
        static_cast<double>(pc.linear_attn_per_layer * t.linear_attention_layers);
    bytes += attn_params * non_mlp_weight_bytes(t, wb) *
             (1.0 / static_cast<double>(ts.attention_tp()) - 1.0 / g);
  }
  return bytes;
}
}  // namespace

CycleWork cycle_work(const Config& c, const Placement& place, double tau, const MethodShape& shape,
                     bool text) {
  CycleWork out;
  const ModelArch& t = c.target;
  const Sharding& ts = place.target;
  const double g = static_cast<double>(place.gpus);
  // Plain decoding on the same machine: the baseline every family is compared with.
  out.baseline = plain_decode_pass(c, ts);
  const LayerSplit split = layer_split(c);
  out.memory.target_weights_bytes = target_weights_per_gpu_bytes(c, place, split);
  out.memory.attention_groups = ts.attention_dp;
  add_kv_cache(out.memory, t, split.gpu_layers, c.dtype, ts.attention_tp(),
               ts.tp == 1 && place.gpus > 1 ? 1.0 / g : 1.0);
  out.memory.tokens_in_flight = 1;
  out.memory.activations_bytes_per_seq = activations_per_seq(t, 1, 1, ts.tp);

  const CycleContext x{c, place, tau, shape.tree, text, out};
  switch (c.method.family) {
    case Family::ar:
      ar_cycle(x);
      break;
    case Family::sps:
      sps_cycle(x);
      break;
    case Family::pld:
      pld_cycle(x);
      break;
    case Family::lookahead:
      lookahead_cycle(x);
      break;
    case Family::medusa:
      medusa_cycle(x);
      break;
    case Family::hydra:
      hydra_cycle(x);
      break;
    case Family::mtp:
      mtp_cycle(x);
      break;
    case Family::layerskip:
      layerskip_cycle(x);
      break;
    case Family::streaming:
      streaming_cycle(x);
      break;
    case Family::retrieval:
      retrieval_cycle(x);
      break;
    case Family::eagle1:
    case Family::eagle2:
    case Family::eagle3:
      eagle_cycle(x);
      break;
  }
  out.baseline_host_ops = decode_host_ops(c.temperature);
  if (out.has_verify) out.host_ops = shape.host_ops;
  // Only the Medusa/EAGLE code's own attention writes its scores out (host_ops.hpp); the
  // other families' verify and draft passes run fused attention.
  if (!family_code_materializes_scores(c.method.family)) {
    keep_scores_on_chip(out.verify.work);
    for (PassWork& p : out.draft) keep_scores_on_chip(p.work);
  }
  out.gpu_proposer = out.has_verify && family_has_draft_passes(c.method.family);
  out.memory.state_bytes_per_seq =
      linear_state_bytes_per_seq(t, out.has_verify ? out.memory.tokens_in_flight : 1,
                                 ts.attention_tp()) +
      compressor_state_bytes_per_seq(t);  // one key = value stream: whole on every GPU
  return out;
}

}  // namespace speccalc
