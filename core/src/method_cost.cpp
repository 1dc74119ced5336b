#include "method_cost.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace speccalc {

namespace {

constexpr double kActBytes = 2;

double kv_bytes_per_token(const ModelArch& m, int64_t layers, const DTypes& d) {
  return static_cast<double>(layers) * 2.0 * static_cast<double>(m.kv_heads * m.head_dim) *
         dtype_bytes(d.kv);
}

double weights_bytes(const ModelArch& m, const DTypes& d) {
  return static_cast<double>(count_params(m).total) * dtype_bytes(d.weights);
}

int64_t accepted_tokens(double tau) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(tau)));
}

// An EAGLE draft head: one decoder layer with the target's dimensions (dense MLP) fed by a
// fusion layer, followed by an LM head (the target's for EAGLE-1/2, its own reduced-vocabulary
// one for EAGLE-3).
struct EagleHead {
  ModelArch layer;      // one dense decoder layer with the target's widths
  double fc_params;     // fusion linear: 2h -> h (EAGLE-1/2) or 3h -> h (EAGLE-3)
  double extra_qkv_params;  // EAGLE-3: q/k/v take 2h inputs, an extra h x (q + 2 kv) block
  int64_t lm_vocab;     // rows of the LM head it multiplies
  bool own_lm_head;     // EAGLE-3 holds its own LM head weights
};

EagleHead eagle_head(const ModelArch& target, bool eagle3) {
  EagleHead h;
  h.layer = target;
  h.layer.num_layers = 1;
  h.layer.experts = 1;
  h.layer.experts_per_token = 1;
  const double hid = static_cast<double>(target.hidden);
  const double qkv_out = static_cast<double>((target.heads + 2 * target.kv_heads) * target.head_dim);
  h.fc_params = eagle3 ? 3.0 * hid * hid : 2.0 * hid * hid + hid;
  h.extra_qkv_params = eagle3 ? hid * qkv_out : 0.0;
  // EAGLE-3 checkpoints for LLaMA-3 use draft_vocab_size = 32000 (drafts.json eagle_3).
  h.lm_vocab = eagle3 ? std::min<int64_t>(target.vocab, 32000) : target.vocab;
  h.own_lm_head = eagle3;
  return h;
}

// One EAGLE draft forward over `tokens` tokens per sequence, sampling from `lm_rows` of them.
Work eagle_head_work(const EagleHead& h, int64_t batch, int64_t tokens, int64_t lm_rows,
                     int64_t context, const DTypes& d) {
  Work w = decoder_work(h.layer, 1, batch, tokens, context, 0, d);
  w.allreduces = 0;  // the head runs replicated, not sharded
  const int64_t rows = batch * tokens;
  w += linear_work(h.fc_params + h.extra_qkv_params, rows, d);
  const double lm_params = static_cast<double>(h.lm_vocab) * static_cast<double>(h.layer.hidden);
  Work lm = linear_work(lm_params, batch * lm_rows, d);
  lm.activations_bytes = 2.0 * kActBytes * static_cast<double>(batch * lm_rows * h.lm_vocab);
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

// Adds pass p (its passes_per_cycle passes) to the running total of a cycle's draft work.
void add_pass(PassCost* total, const PassCost& p) {
  total->passes_per_cycle += p.passes_per_cycle;
  total->flops += p.flops;
  total->weights_bytes += p.weights_bytes;
  total->kv_cache_bytes += p.kv_cache_bytes;
  total->activations_bytes += p.activations_bytes;
  total->bytes += p.bytes;
  total->memory_time_s += p.memory_time_s;
  total->compute_time_s += p.compute_time_s;
  total->comm_time_s += p.comm_time_s;
  total->overhead_s += p.overhead_s;
  total->launch_bound = total->launch_bound || p.launch_bound;
  total->time_s += p.time_s;
  total->arithmetic_intensity = total->bytes > 0 ? total->flops / total->bytes : 0;
  if (total->bytes > 0) total->bound = total->compute_time_s > total->memory_time_s ? "compute" : "memory";
}

PassCost no_draft(const char* name) {
  PassCost p;
  p.name = name;
  return p;
}

}  // namespace

TreeShape tree_shape(const Choices& choices) {
  TreeShape s;
  std::size_t depth = 0;
  for (const auto& c : choices) depth = std::max(depth, c.size());
  s.nodes.assign(depth, 0);
  s.parents.assign(depth, 0);
  std::vector<std::set<std::vector<int>>> parent_sets(depth);
  for (const auto& c : choices) {
    s.nodes[c.size() - 1] += 1;
    parent_sets[c.size() - 1].insert(std::vector<int>(c.begin(), c.end() - 1));
  }
  for (std::size_t d = 0; d < depth; ++d) s.parents[d] = static_cast<int64_t>(parent_sets[d].size());
  s.total_nodes = static_cast<int64_t>(choices.size());
  return s;
}

PassCost baseline_pass(const Config& c, const Machine& machine) {
  const Work w = decoder_work(c.target, c.target.num_layers, c.batch, 1, c.context, 1, c.dtype);
  return finish_pass("autoregressive decode step (target, 1 token per sequence)", w, 1, 1, machine);
}

MethodPasses method_passes(const Config& c, const Machine& machine, double tau) {
  MethodPasses out;
  const ModelArch& t = c.target;
  const int64_t B = c.batch;
  const int64_t L = c.context;
  const MethodConfig& m = c.method;
  out.resident_weights_bytes = weights_bytes(t, c.dtype);
  auto target_kv = [&](int64_t extra_tokens) {
    return static_cast<double>(B) * static_cast<double>(L + extra_tokens) *
           kv_bytes_per_token(t, t.num_layers, c.dtype);
  };
  auto verify = [&](int64_t tokens, const char* name) {
    const Work w = decoder_work(t, t.num_layers, B, tokens, L, tokens, c.dtype);
    return finish_pass(name, w, tokens, 1, machine);
  };

  switch (m.family) {
    case Family::ar: {
      out.draft = no_draft("none");
      out.verify = baseline_pass(c, machine);
      out.resident_kv_bytes = target_kv(1);
      break;
    }
    case Family::sps: {
      // k sequential draft passes of the small model, one token per sequence each, then one
      // target pass over the k drafts plus the position that yields the bonus token.
      const ModelArch& d = m.draft_model;
      const Work w = decoder_work(d, d.num_layers, B, 1, L, 1, c.dtype);
      out.draft = finish_pass("draft model " + d.id + " (1 token per pass)", w, 1, m.k, machine);
      out.verify = verify(m.k + 1, "target verify over k + 1 tokens");
      out.resident_weights_bytes += weights_bytes(d, c.dtype);
      out.resident_kv_bytes = target_kv(m.k + 1) + static_cast<double>(B) *
                                                       static_cast<double>(L + m.k) *
                                                       kv_bytes_per_token(d, d.num_layers, c.dtype);
      out.assumptions.push_back("draft model " + d.name + " shares the target's runtime, dtype and GPUs" +
                                (d.citation.empty() ? "" : " (" + d.citation + ")"));
      break;
    }
    case Family::pld: {
      out.draft = finish_pass("prompt n-gram lookup (CPU)", Work{}, 0, 0, machine, m.draft_cpu_s);
      out.verify = verify(m.k + 1, "target verify over k + 1 tokens");
      out.resident_kv_bytes = target_kv(m.k + 1);
      out.assumptions.push_back("prompt lookup drafts on the CPU in " +
                                std::to_string(m.draft_cpu_s) + " s per cycle: no weights are read");
      break;
    }
    case Family::lookahead: {
      // Lookahead's single pass carries the window (W per level, N - 1 levels) and G guessed
      // n-grams of N - 1 tokens: W(N-1) + G(N-1) + N - 2 tokens per sequence
      // (LookaheadDecoding lade/decoding.py, see core/data/drafts.json).
      const int64_t tokens = m.window * (m.ngram - 1) + m.guess * (m.ngram - 1) + m.ngram - 2;
      out.draft = no_draft("none (n-grams come from the lookahead branch of the same pass)");
      out.verify = verify(std::max<int64_t>(tokens, 1), "target pass over lookahead window + guesses");
      out.resident_kv_bytes = target_kv(tokens);
      break;
    }
    case Family::medusa: {
      // Medusa evaluates its heads inside the verify pass on every tree position: each head is
      // a residual block (h x h + bias) plus its own h x vocab LM head.
      const TreeShape shape = tree_shape(m.choices);
      const int64_t tokens = shape.total_nodes + 1;
      const double h = static_cast<double>(t.hidden);
      const double v = static_cast<double>(t.vocab);
      const double heads = static_cast<double>(m.heads);
      Work w = decoder_work(t, t.num_layers, B, tokens, L, tokens, c.dtype);
      Work head = linear_work(heads * (h * h + h + h * v), B * tokens, c.dtype);
      head.activations_bytes = 2.0 * kActBytes * heads * static_cast<double>(B * tokens) * v;
      w += head;
      out.draft = no_draft("none (Medusa heads run inside the verify pass)");
      out.verify = finish_pass("target verify over the tree + Medusa heads", w, tokens, 1, machine);
      out.resident_weights_bytes += heads * (h * h + h + h * v) * dtype_bytes(c.dtype.weights);
      out.resident_kv_bytes = target_kv(tokens);
      break;
    }
    case Family::hydra: {
      // Hydra++: a one-layer prefix decoder over the newly accepted tokens, then one sequential
      // head step per depth over that depth's parent nodes. Head i (0-based) maps (i + 2) h
      // inputs to h twice, applies a shared h x h block three times, and its own LM head.
      const TreeShape shape = tree_shape(m.choices);
      const int64_t tokens = shape.total_nodes + 1;
      const double h = static_cast<double>(t.hidden);
      const double v = static_cast<double>(t.vocab);
      ModelArch prefix = t;
      prefix.experts = 1;
      prefix.experts_per_token = 1;
      Work prefix_work = decoder_work(prefix, 1, B, accepted_tokens(tau), L, 0, c.dtype);
      prefix_work.allreduces = 0;
      PassCost draft;
      add_pass(&draft, finish_pass("", prefix_work, accepted_tokens(tau), 1, machine));
      double head_params_total = 0;
      for (std::size_t depth = 0; depth < shape.parents.size(); ++depth) {
        const double width = static_cast<double>(depth + 2) * h;
        const double own = 2.0 * width * h + h * v + v;
        const int64_t rows = B * shape.parents[depth];
        Work step = linear_work(own, rows, c.dtype);
        Work shared = linear_work(h * h, rows, c.dtype);
        shared.flops *= 3.0;  // one ResBlock module applied three times
        step += shared;
        step.activations_bytes = 2.0 * kActBytes * static_cast<double>(rows) * v;
        step.layers = 1;
        add_pass(&draft, finish_pass("", step, shape.parents[depth], 1, machine));
        head_params_total += own;
      }
      draft.name = "Hydra++ prefix layer + " + std::to_string(shape.parents.size()) + " sequential head steps";
      draft.tokens_per_pass = accepted_tokens(tau);
      out.draft = draft;
      out.verify = verify(tokens, "target verify over the tree");
      out.resident_weights_bytes +=
          (head_params_total + h * h + static_cast<double>(count_params(prefix).attn_per_layer +
                                                           count_params(prefix).mlp_per_expert)) *
          dtype_bytes(c.dtype.weights);
      out.resident_kv_bytes = target_kv(tokens) + static_cast<double>(B * L) * kv_bytes_per_token(t, 1, c.dtype);
      break;
    }
    case Family::eagle1:
    case Family::eagle2:
    case Family::eagle3: {
      const bool eagle3 = m.family == Family::eagle3;
      const EagleHead head = eagle_head(t, eagle3);
      // Draft forwards per cycle: the first over the newly accepted tokens (sampling from the
      // last), then one per further tree level over the nodes expanded at that level.
      std::vector<int64_t> level_inputs;
      int64_t verify_tokens = 0;
      if (m.family == Family::eagle1) {
        const TreeShape shape = tree_shape(m.choices);
        for (std::size_t d = 1; d < shape.parents.size(); ++d) level_inputs.push_back(shape.parents[d]);
        verify_tokens = shape.total_nodes + 1;
      } else {
        for (int64_t d = 1; d < m.depth; ++d) level_inputs.push_back(m.top_k);
        verify_tokens = m.total_token;
      }
      const char* name = eagle3 ? "EAGLE-3 head" : "EAGLE head";
      PassCost draft;
      add_pass(&draft, finish_pass("", eagle_head_work(head, B, accepted_tokens(tau), 1, L, c.dtype),
                                   accepted_tokens(tau), 1, machine));
      for (int64_t n : level_inputs)
        add_pass(&draft, finish_pass("", eagle_head_work(head, B, n, n, L, c.dtype), n, 1, machine));
      draft.name = std::string(name) + " (" + std::to_string(draft.passes_per_cycle) + " sequential forwards)";
      draft.tokens_per_pass = level_inputs.empty() ? accepted_tokens(tau) : level_inputs.back();
      out.draft = draft;
      out.verify = verify(verify_tokens, m.family == Family::eagle1 ? "target verify over the static tree"
                                                                    : "target verify over the re-ranked tree");
      out.resident_weights_bytes += eagle_head_params(head) * dtype_bytes(c.dtype.weights);
      out.resident_kv_bytes = target_kv(verify_tokens) +
                              static_cast<double>(B * L) * kv_bytes_per_token(t, 1, c.dtype);
      out.assumptions.push_back(std::string(name) + ": one decoder layer with the target's widths" +
                                (eagle3 ? ", fused 3h features and its own " + std::to_string(head.lm_vocab) +
                                              "-token LM head"
                                        : " plus the target's LM head"));
      break;
    }
  }
  return out;
}

}  // namespace speccalc
