#include "model/sequoia_ops.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "model/sampler_ops.hpp"

namespace speccalc {

namespace {

// One grow step (collective_grow_static, GreedyTree.py L86-130 / SpecTree.py L88-134), the
// draft's graph_inference excluded (hf-graphs' pass_overhead_s holds its wrapper): the
// logits of the expanded nodes gathered by a GPU index (1; SpecTree also gathers their random
// numbers: 1), the sampling graph's run() (copy_ of each input, replay, clone: 3 / 4), the
// sampled tokens gathered by sample_gather_indices and written into the token buffer (2), the
// new logits written into draft_logits (1).
constexpr double kGreedyGrowOps = 1 + 3 + 2 + 1;
constexpr double kSampledGrowOps = 2 + 4 + 2 + 1;

// Per cycle, outside the walk: verify()'s argmax (GreedyTree L186: 1) or the target's
// softmax(logits / T) (SpecTree L198: 2) and, after the walk, isnan(residual).any() (2 ops,
// 1 sync) and the bonus token's multinomial (3) written into the buffer (1); the accepted
// tokens moved to the front (`tokens[accept_list]`: the list copied to the GPU, gathered,
// written: 3); GreedyTree writes the bonus token (1); gather_kv_incremental on the draft's and
// the target's cache (Engine/Llama_KV.py L60-68: for K and V the list copied, gathered,
// written, then the tail zeroed: 8 each, 16); prepare_for_next_iter (L242-264: position ids
// gathered by the list (3), one set (1), the tree's depths + offset written (add, sub, copy:
// 3), the bonus pass's logits written (1): 8); the test bed's loop, `input_ids[0][-1] == 2 or
// == 0` (2 ops, 2 syncs).
constexpr double kGreedyCycleOps = 1 + 3 + 1 + 16 + 8 + 2;
constexpr double kGreedyCycleSyncs = 2;
constexpr double kSampledCycleOps = 2 + (2 + 3 + 1) + 3 + 16 + 8 + 2;
constexpr double kSampledCycleSyncs = 1 + 2;

// accept_step (GreedyTree L132-146 / SpecTree L137-157), per child tried in rank order.
// GreedyTree: `token == target_token` (1 op) and its truthiness (1 sync). SpecTree:
// softmax(draft_logits / T) (2), p[token] and q[token] (a 0-d GPU index each: 2), r * q, >
// (2), truthiness (1 sync); a rejected child runs the residual graph (copy_ p, copy_ q,
// replay, clone: 4) and masks its token in the draft logits (1). An accepted child is checked
// for EOS in verify()'s loop: `tokens[pos] == 0 or tokens[pos] == 2` (2 ops, 2 syncs). A leaf
// returns at once.
struct ChildCost {
  double try_ops, try_syncs, reject_ops;
};
constexpr ChildCost kGreedyChild{1, 1, 0};
constexpr ChildCost kSampledChild{6, 1, 5};
constexpr double kAcceptOps = 2;
constexpr double kAcceptSyncs = 2;

}  // namespace

HostOps sequoia_host_ops(const tree::Tree& t, const tree::AcceptanceMatrix& a, int64_t levels,
                         double temperature) {
  const bool sampled = temperature > 0;
  const ChildCost child = sampled ? kSampledChild : kGreedyChild;
  HostOps h;
  const double grow_steps = static_cast<double>(std::max<int64_t>(0, levels - 1));
  h.ops = grow_steps * (sampled ? kSampledGrowOps : kGreedyGrowOps) +
          (sampled ? kSampledCycleOps : kGreedyCycleOps);
  h.syncs = sampled ? kSampledCycleSyncs : kGreedyCycleSyncs;

  const int n = t.size();
  if (n == 0 || a.rows.empty()) return h;
  const int root = n;  // the last accepted token
  const std::vector<std::vector<int>> children = children_by_rank(t);
  const std::vector<double> reached = tree::expect_tree(t, a).node_prob;
  for (int u = 0; u <= n; ++u) {
    const auto& kids = children[static_cast<std::size_t>(u)];
    if (kids.empty()) continue;
    const double at = u == root ? 1.0 : reached[static_cast<std::size_t>(u)];
    const int depth = u == root ? 0 : t.depth[static_cast<std::size_t>(u)];
    double untried = 1;  // P(no earlier sibling accepted)
    for (int c : kids) {
      const double p = std::min(untried, a.p(depth, t.rank[static_cast<std::size_t>(c)]));
      const double rejected = untried - p;
      h.ops += at * (untried * child.try_ops + p * kAcceptOps + rejected * child.reject_ops);
      h.syncs += at * (untried * child.try_syncs + p * kAcceptSyncs);
      untried = rejected;
    }
  }
  return h;
}

}  // namespace speccalc
