// The tree that maximizes expected tokens per cycle for a node budget (docs/tree-model.md).
#pragma once

#include <vector>

#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc::tree {

struct OptimalTrees {
  // Nodes in selection order (each parent before its children). The first m nodes form an
  // optimal m-node tree for every m, so one run answers every budget up to n.
  Tree tree;
  double expected_tau = 1.0;      // tau of `tree` (bonus token included)
  std::vector<double> tau_curve;  // tau_curve[m - 1] = tau*(m), m = 1..budget
};

// Optimal tree with at most `budget` draft nodes, depth <= max_depth and ranks in
// [0, max_rank) (max_rank = the most children any node may have). Nodes whose path
// probability is 0 are never added (they cannot raise tau), so the tree may be smaller than
// the budget; tau_curve is then flat from that size on.
// Limits (errors name the field): budget in [1, 4096], max_depth in [1, 64], max_rank in [1, 64].
// Cost: O(budget * log budget) plus sorting each row once; budget 4096, depth 64, rank 64 runs
// in well under 2 ms natively (see docs/tree-model.md for the measured figure).
Expected<OptimalTrees> optimize_tree(const AcceptanceMatrix& acceptance, int budget, int max_depth,
                                     int max_rank);

// Contiguous-ranks variant: every node's children must be ranks 0..b-1 (what Sequoia's dynamic
// program searches; engines accept any ranks, so this only matters for rows that are not sorted
// by rank). Exact dynamic program over (depth, first free rank, nodes left):
//   V(d, m)    = best value of a subtree of <= m nodes rooted at depth d = 1 + C(d, 0, m - 1)
//   C(d, i, k) = 0 if k = 0, i = R or d = D, else
//                max(0, max_{j=1..k} p[d][i] * V(d + 1, j) + C(d, i + 1, k - j))
// and tau*(m) = 1 + C(0, 0, m). Cost O(D * R * budget^2), so it is refused (field "budget") when
// min(D, budget) * min(R, budget) * budget^2 / 2 exceeds 5e7 steps; same limits otherwise.
// The returned tree is in depth-first order; tau_curve covers m = 1..budget.
Expected<OptimalTrees> optimize_tree_contiguous(const AcceptanceMatrix& acceptance, int budget,
                                                int max_depth, int max_rank);

}  // namespace speccalc::tree
