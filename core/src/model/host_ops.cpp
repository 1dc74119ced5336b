#include "model/host_ops.hpp"

#include <algorithm>

#include "model/method_cost.hpp"
#include "model/sampler_ops.hpp"

namespace speccalc {

// Counts read from the code Spec-Bench runs for each method (hemingkx/Spec-Bench fd2c1cd7,
// model/<method>/ and evaluation/inference_<method>.py; HF transformers 4.37 as it pins), greedy
// (T = 0) paths. One op per torch call that launches a kernel or copies host-to-device (views
// and slices count 0); one sync per .item(), .tolist(), tensor truthiness, nonzero, or 0-d GPU
// tensor used as an index. The per-count evidence (file, function, lines) is in
// docs/host-ops.md.

namespace {

constexpr double kDecodeOps = 22;   // greedy_search: 18 loop ops + 4 in the model wrapper
constexpr double kDecodeSyncs = 2;  // unfinished_sequences.max() == 0; the sdpa mask check
// model/medusa/kv_cache.py (and the copies in model/hydra, model/eagle*): attention reads
// KVCache.shape (.item() on current_length) and KVCache.cat narrows K and V by the GPU length
// tensor (an implicit .item() each, twice per cat).
constexpr double kKvCacheSyncsPerLayer = 5;

// Fraction of cycles that accept more than the bonus token (paths that rebuild a causal
// mask or fix up the cache only then): from tau, at most 1.
double more_than_one(double tau) { return std::min(1.0, std::max(0.0, tau - 1.0)); }

// Nodes that have children, the root included (a static tree's expanded paths).
double expanded_nodes(const TreeShape& t) {
  double n = 0;
  for (int64_t p : t.parents) n += static_cast<double>(p);
  return n;
}

// Tree levels holding more than one node (EAGLE-1 builds a causal mask for those).
double multi_node_levels(const TreeShape& t) {
  double n = 0;
  for (int64_t v : t.nodes) n += v > 1 ? 1.0 : 0.0;
  return n;
}

}  // namespace

double published_baseline_layer_syncs(const std::string& source_id, const std::string& family) {
  const bool eagle_code = source_id == "eagle1" || source_id == "eagle2" || source_id == "eagle3" ||
                          source_id == "eagle1-issue5" || source_id == "eagle1-readme";
  const bool eagle_row = family == "eagle1" || family == "eagle2" || family == "eagle3";
  return eagle_code && eagle_row ? kKvCacheSyncsPerLayer : 0.0;
}

HostOps decode_host_ops(double temperature) {
  const HostOps sampling = decode_sampling_host_ops(temperature);
  return HostOps{kDecodeOps + sampling.ops, kDecodeSyncs + sampling.syncs, 0};
}

bool family_code_materializes_scores(Family f) {
  return f == Family::medusa || f == Family::hydra || f == Family::eagle1 || f == Family::eagle2 ||
         f == Family::eagle3;
}

HostOps method_host_ops(const Config& c, double tau, const TreeShape& t) {
  const MethodConfig& m = c.method;
  const double acc_gt1 = more_than_one(tau);
  HostOps h;
  switch (m.family) {
    case Family::sps: {
      // Chains (trees are Sequoia's code: sequoia_ops.hpp, method_shape).
      // model/sps/decoding.py (HF 4.37 assisted_decoding): 79 ops + 8 syncs per cycle around
      // the draft's generate(), which runs greedy_search's 22 ops + 2 syncs per drafted token.
      const double k = static_cast<double>(m.k);
      h.ops = 79 + kDecodeOps * k;
      h.syncs = 8 + kDecodeSyncs * k;
      break;
    }
    case Family::pld:
      // model/pld/pld.py: 46 ops / 11 syncs when the 3-gram matches, 60 / 14 when no n-gram
      // does; the mean of the two.
      h.ops = 53;
      h.syncs = 12.5;
      break;
    case Family::lookahead:
      // model/lade/decoding.py jacobi_greedy_search_multilevel: 62 ops, 6 syncs, +2 ops when
      // more than one token is accepted, and a per-layer KV fix-up of 2 copies per layer per
      // extra accepted token (L419-424).
      h.ops = 62 + 2 * acc_gt1 +
              2.0 * static_cast<double>(c.target.num_layers) * std::max(0.0, tau - 1.0);
      h.syncs = 6;
      break;
    case Family::medusa:
      // model/medusa/utils.py: candidates 7, tree verify 23, posterior 8, update 11, loop 1;
      // tree buffers are built once (generate_medusa_buffers), so no per-node host work.
      h.ops = 50;
      h.syncs = 15;
      h.verify_syncs_per_layer = kKvCacheSyncsPerLayer;
      break;
    case Family::hydra: {
      // model/hydra/hydra_heads/prefix_mlp_head.py + utils.py: 44 ops, 2 per expanded node
      // (topk, cat), 1 per head, 17 for Hydra++'s prefix layer; 14 + 3 syncs.
      h.ops = 44 + 2 * expanded_nodes(t) + static_cast<double>(t.nodes.size()) + 17;
      h.syncs = 17;
      h.verify_syncs_per_layer = kKvCacheSyncsPerLayer;
      break;
    }
    case Family::eagle1: {
      // model/eagle/utils.py + cnets.py topK_genrate: 61 ops, 15 per draft level after the
      // first, 1 per expanded node (repeat_hidden), 8 per level with several nodes (causal
      // mask), 8 when more than one token is accepted; 13 syncs.
      const double levels = static_cast<double>(t.nodes.size());
      h.ops = 61 + 15 * std::max(0.0, levels - 1) + expanded_nodes(t) + 8 * multi_node_levels(t) +
              8 * acc_gt1;
      h.syncs = 13;
      h.verify_syncs_per_layer = kKvCacheSyncsPerLayer;
      break;
    }
    case Family::eagle2:
    case Family::eagle3: {
      // model/eagle2|eagle3/cnets.py topK_genrate (SafeAILab/EAGLE cnets.py L670-814): 76 ops
      // with the first forward (over the accepted tokens: the first drafted level), 29 (EAGLE-3:
      // 28) per step of its `for i in range(depth)` loop, 8 when more than one token is accepted;
      // the tree mask, positions and retrieve indices are built with CPU tensors every cycle:
      // 16 + 3 per node CPU-side ops; 15 syncs. EAGLE-3 heads with a reduced vocabulary map ids
      // back (d2t): 4 + 4 per loop step. method.depth counts drafted levels, so the loop runs
      // depth - 1 steps (EAGLE's --depth; Spec-Bench's --depth 5 drafts 6 levels).
      const double steps = static_cast<double>(std::max<int64_t>(0, m.depth - 1));
      const double nodes = static_cast<double>(std::max<int64_t>(0, m.total_token - 1));
      const bool eagle3 = m.family == Family::eagle3;
      h.ops = 76 + (eagle3 ? 28 : 29) * steps + 8 * acc_gt1 + 16 + 3 * nodes;
      if (eagle3 && c.target.vocab > 32000) h.ops += 4 + 4 * steps;
      h.syncs = 15;
      h.verify_syncs_per_layer = kKvCacheSyncsPerLayer;
      break;
    }
    default:
      break;  // mtp, layerskip, streaming, retrieval: no reference implementation counted
  }
  return h;
}

}  // namespace speccalc
