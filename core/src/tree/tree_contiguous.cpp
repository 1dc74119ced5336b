// Optimal tree when each node's children must be ranks 0..b-1 (see speccalc/tree_optimize.hpp).
#include <algorithm>

#include "speccalc/tree_optimize.hpp"

namespace speccalc::tree {
namespace {

constexpr double kMaxWork = 5e7;

struct Tables {
  int n, D, R;
  std::vector<double> V;  // V[d * (n + 1) + m], d = 1..D
  std::vector<int>
      choice;  // choice[(d * R + i) * (n + 1) + k]: nodes for rank i's subtree, 0 = stop
  double& v(int d, int m) { return V[static_cast<std::size_t>(d) * (n + 1) + m]; }
  int& pick(int d, int i, int k) {
    return choice[(static_cast<std::size_t>(d) * R + i) * (n + 1) + k];
  }
};

// Fills C(d, ., .) for parents at depth d from V(d + 1, .), records choices, returns C(d, 0, .).
std::vector<double> children_table(const AcceptanceMatrix& acc, Tables& t, int d) {
  std::vector<double> next(t.n + 1, 0.0), cur(t.n + 1, 0.0);  // C(d, i + 1, .) and C(d, i, .)
  for (int i = t.R - 1; i >= 0; --i) {
    const double p = acc.p(d, i);
    for (int k = 0; k <= t.n; ++k) {
      double best = 0.0;
      int best_j = 0;
      for (int j = 1; j <= k; ++j) {
        const double x = p * t.v(d + 1, j) + next[k - j];
        if (x > best) {
          best = x;
          best_j = j;
        }
      }
      cur[k] = best;
      t.pick(d, i, k) = best_j;
    }
    std::swap(cur, next);
  }
  return next;  // after the last swap, `next` holds C(d, 0, .)
}

void build(Tables& t, Tree& tree, int d, int parent, int k) {
  for (int i = 0; i < t.R && k > 0; ++i) {
    const int j = t.pick(d, i, k);
    if (j == 0) break;
    const int index = tree.size();
    tree.parent.push_back(parent);
    tree.rank.push_back(i);
    tree.depth.push_back(d + 1);
    if (d + 1 < t.D) build(t, tree, d + 1, index, j - 1);
    k -= j;
  }
}

}  // namespace

Expected<OptimalTrees> optimize_tree_contiguous(const AcceptanceMatrix& acceptance, int budget,
                                                int max_depth, int max_rank) {
  // Same range checks as the best-first search, then the cost guard.
  Expected<OptimalTrees> checked = optimize_tree(acceptance, 1, max_depth, max_rank);
  if (budget < 1 || budget > kMaxNodes) {
    return make_error("budget", "must be an integer in [1, 4096], got " + std::to_string(budget));
  }
  if (!checked.ok()) return checked.error();
  const double n = budget;
  const double work = std::min<double>(max_depth, n) * std::min<double>(max_rank, n) * n * n / 2;
  if (work > kMaxWork) {
    return make_error("budget", "the contiguous-ranks search costs O(depth * rank * budget^2); " +
                                    std::to_string(budget) + " nodes with depth " +
                                    std::to_string(max_depth) + " and rank " +
                                    std::to_string(max_rank) +
                                    " is over its limit (use a smaller budget, or the default "
                                    "search, which is the same whenever rows are sorted by rank)");
  }
  Tables t;
  t.n = budget;
  t.D = std::min(max_depth, budget);
  t.R = std::min(max_rank, budget);
  t.V.assign(static_cast<std::size_t>(t.D + 1) * (t.n + 1), 0.0);
  t.choice.assign(static_cast<std::size_t>(t.D) * t.R * (t.n + 1), 0);
  for (int m = 1; m <= t.n; ++m) t.v(t.D, m) = 1.0;  // deepest level: no children
  for (int d = t.D - 1; d >= 1; --d) {
    const std::vector<double> c = children_table(acceptance, t, d);
    for (int m = 1; m <= t.n; ++m) t.v(d, m) = 1.0 + c[m - 1];
  }
  const std::vector<double> root = children_table(acceptance, t, 0);
  OptimalTrees out;
  build(t, out.tree, 0, -1, t.n);
  out.expected_tau = expect_tree(out.tree, acceptance).expected_tau;
  for (int m = 1; m <= t.n; ++m) out.tau_curve.push_back(1.0 + root[m]);
  return out;
}

}  // namespace speccalc::tree
