#include "model/sampler_ops.hpp"

#include <algorithm>
#include <vector>

#include "config/paper_tree.hpp"

namespace speccalc {

// Counts read from hemingkx/Spec-Bench fd2c1cd7 (HF transformers 4.37 as it pins), the sampled
// (T > 0) paths against their greedy ones; docs/host-ops.md lists each op by file and line.
// Conventions as in host_ops.cpp: one op per torch call that launches a kernel, one sync per
// .item(), tensor truthiness or 0-d GPU tensor used as an index; a boolean-mask assignment of a
// Python scalar is masked_fill (no sync). torch.multinomial with one sample or without
// replacement is exponential_, div and argmax / topk: 3 launches.

namespace {

constexpr double kMultinomialOps = 3;
// evaluate_posterior's greedy branch, which the sampled walk replaces: 8 launches, 3 syncs
// (docs/host-ops.md, eagle1 and eagle2).
constexpr double kGreedyPosteriorOps = 8;
constexpr double kGreedyPosteriorSyncs = 3;
// HF's default generation config samples through TopKLogitsWarper(50): topk, <, masked_fill.
constexpr double kTopKWarperOps = 3;

struct Walk {
  double try_ops, try_syncs;        // a distinct candidate tested
  double reject_ops, reject_syncs;  // and rejected: the residual distribution updated
};
// EAGLE-1 (model/eagle/utils.py L363-410): `qx <= 0` (sync), px / qx, `r <= acp` (sync); a
// rejection gathers q from the draft's distribution, clones, masks the tree's siblings
// (index_put), normalizes, subtracts, clips (masked_fill) and normalizes again: 11 launches.
constexpr Walk kEagle1Walk{3, 2, 11, 0};
// EAGLE-2/3 (model/eagle2|eagle3/utils.py): qx = 1, so px / 1.0 and `r <= acp` (sync); a
// rejection zeroes the candidate's probability and normalizes: 3 launches.
constexpr Walk kEagle2Walk{2, 1, 3, 0};

HostOps& operator+=(HostOps& a, const HostOps& b) {
  a.ops += b.ops;
  a.syncs += b.syncs;
  a.verify_syncs_per_layer += b.verify_syncs_per_layer;
  return a;
}

}  // namespace

// The rank model the published taus imply (config/paper_tree.hpp) with top1 set so that
// `t` yields `tau`: where the walk goes, for trees whose tau was given rather than computed.
// tau(top1) is taken as increasing (true for chains; bisection finds a crossing otherwise).
tree::AcceptanceMatrix acceptance_for_tau(const tree::Tree& t, double tau) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 40; ++i) {
    const double mid = 0.5 * (lo + hi);
    const tree::AcceptanceMatrix m{{paper_rank_row(mid)}};
    (tree::expect_tree(t, m).expected_tau < tau ? lo : hi) = mid;
  }
  return tree::AcceptanceMatrix{{paper_rank_row(0.5 * (lo + hi))}};
}

tree::Tree method_tree(const Config& c) {
  const MethodConfig& m = c.method;
  if (!m.choices.empty()) {
    auto t = tree::make_tree(m.choices);
    if (t.ok()) return t.value();
  }
  if (m.family == Family::sps) return tree::chain_tree(static_cast<int>(m.k));
  return tree::chain_tree(static_cast<int>(m.depth));
}

std::vector<std::vector<int>> children_by_rank(const tree::Tree& t) {
  const int n = t.size();
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i < n; ++i)
    children[static_cast<std::size_t>(t.parent[i] < 0 ? n : t.parent[i])].push_back(i);
  for (auto& kids : children)
    std::sort(kids.begin(), kids.end(), [&](int a, int b) { return t.rank[a] < t.rank[b]; });
  return children;
}

HostOps tree_posterior_sampling_ops(const tree::Tree& t, const tree::AcceptanceMatrix& acceptance,
                                    bool eagle1, double warp) {
  const int n = t.size();
  if (n == 0) return {};
  const Walk walk = eagle1 ? kEagle1Walk : kEagle2Walk;
  const int root = n;  // the last accepted token, virtual node n

  // Rows of the candidate matrix are the leaves' paths in depth-first rank order (custom_sort
  // over node indices), so a node's rows form one block.
  const std::vector<std::vector<int>> children = children_by_rank(t);
  std::vector<double> leaves(static_cast<std::size_t>(n) + 1, 0.0);
  std::vector<double> start(static_cast<std::size_t>(n) + 1, 0.0);
  std::vector<int> order;  // pre-order from the root
  std::vector<int> stack{root};
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    order.push_back(u);
    const auto& kids = children[static_cast<std::size_t>(u)];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto u = static_cast<std::size_t>(*it);
    if (children[u].empty()) leaves[u] = 1;
    for (int c : children[u]) leaves[u] += leaves[static_cast<std::size_t>(c)];
  }
  for (int u : order) {
    double row = start[static_cast<std::size_t>(u)];
    for (int c : children[static_cast<std::size_t>(u)]) {
      start[static_cast<std::size_t>(c)] = row;
      row += leaves[static_cast<std::size_t>(c)];
    }
  }
  const double rows = leaves[static_cast<std::size_t>(root)];
  const int max_depth = t.max_depth();
  const std::vector<double> reached = tree::expect_tree(t, acceptance).node_prob;

  HostOps h;
  for (int u : order) {
    const auto uu = static_cast<std::size_t>(u);
    const int depth = u == root ? 0 : t.depth[u];
    if (depth >= max_depth) continue;  // the walk ends at the longest path's end
    const double at = u == root ? 1.0 : reached[uu];
    // Per level: is_eq (==, all), nonzero (sync), logits[fi] (0-d index: sync), the warper,
    // softmax; then is_eq[j] (sync) for every row before this node's block.
    double ops = 4 + warp;
    double syncs = 2 + start[uu];
    const auto& kids = children[uu];
    if (kids.empty()) {
      // A shorter path padded with -1: its row is read (is_eq, .item()) and skipped; every
      // other row is scanned.
      syncs += 2 + (rows - start[uu] - 1);
    } else {
      double untried = 1;  // P(no earlier sibling accepted)
      for (int c : kids) {
        const double p = std::min(untried, acceptance.p(depth, t.rank[c]));
        const double rejected = untried - p;
        ops += untried * walk.try_ops + p * 1 /* cat */ + rejected * walk.reject_ops;
        // The candidate's first row: is_eq[j] and x.item(); after a rejection the rest of its
        // rows are read too (same token: skipped).
        syncs += untried * (2 + walk.try_syncs) +
                 rejected * (walk.reject_syncs + 2 * (leaves[static_cast<std::size_t>(c)] - 1));
        untried = rejected;
      }
      syncs += untried * (rows - start[uu] - leaves[uu]);  // nothing accepted: scan to the end
    }
    h.ops += at * ops;
    h.syncs += at * syncs;
  }
  // The sampled bonus token: a softmax (or the residual) and torch.tensor(best) (2 launches),
  // then update_inference_inputs' multinomial in place of argmax.
  h.ops += 2 + (kMultinomialOps - 1) - kGreedyPosteriorOps;
  h.syncs -= kGreedyPosteriorSyncs;
  return h;
}

HostOps sampling_host_ops(const Config& c, double tau, const tree::Tree& verified_tree,
                          const tree::AcceptanceMatrix& acceptance) {
  HostOps h;
  if (c.temperature <= 0) return h;
  const double warp = c.temperature != 1.0 ? 1.0 : 0.0;  // TemperatureLogitsWarper
  const MethodConfig& m = c.method;
  switch (m.family) {
    case Family::sps: {
      // Chains (trees: sequoia_ops.hpp). model/sps/decoding.py: _speculative_sampling
      // (L464-521) replaces the greedy match: 24
      // launches and 6 syncs against 7 and 2; the warpers run per verified position (top-k 50,
      // the temperature, the copy back: L307-312); the draft's generate samples each token
      // (warpers, softmax, multinomial in place of argmax).
      const double k = static_cast<double>(m.k);
      h.ops = 17 + (k + 1) * (kTopKWarperOps + 1 + warp) +
              k * (kTopKWarperOps + warp + 1 + kMultinomialOps - 1);
      h.syncs = 4;
      break;
    }
    case Family::eagle1:
    case Family::eagle2:
    case Family::eagle3: {
      const tree::Tree t = verified_tree.size() > 0 ? verified_tree : method_tree(c);
      const tree::AcceptanceMatrix a =
          acceptance.rows.empty() ? acceptance_for_tau(t, tau) : acceptance;
      h += tree_posterior_sampling_ops(t, a, m.family == Family::eagle1, warp);
      if (m.family == Family::eagle1) {
        // model/eagle/cnets.py sample() (L708-723) in place of topk at each draft level:
        // softmax, multinomial, gather, cumsum, zeros, cat, 1 -, /, isinf + masked_fill, isnan
        // + masked_fill, clamp (15 launches against 1); generate_candidates (L266-294) gathers
        // the draft's probabilities along the tree: ones, cat, index, ones, cat, index (6).
        h.ops += static_cast<double>(t.max_depth()) * (14 + warp) + 6;
      }
      break;
    }
    default:
      break;
  }
  return h;
}

HostOps decode_sampling_host_ops(double temperature) {
  if (temperature <= 0) return {};
  // HF 4.37 sample(): the warpers (top-k 50, the temperature when not 1), softmax and
  // multinomial in place of argmax. (EAGLE's own baseline loop has no top-k warper: 3 fewer.)
  return HostOps{kTopKWarperOps + (temperature != 1.0 ? 1.0 : 0.0) + 1 + kMultinomialOps - 1, 0, 0};
}

}  // namespace speccalc
