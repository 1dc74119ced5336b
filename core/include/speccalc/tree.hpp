// Draft trees and the tree-acceptance model (docs/tree-model.md).
//
// A draft tree is a prefix-closed set of paths below an implicit root (the last accepted token).
// A path is a list of 0-based sibling ranks, one per depth: the `choices` convention of EAGLE and
// Medusa, e.g. [[0], [1], [0, 0]]. The acceptance model is a matrix p[d][r]: the probability that
// the rank-r child of an accepted node at depth d (root = depth 0) is accepted. Siblings are
// exclusive events (at most one child can match the target's token), so each row sums to <= 1.
// Rows beyond the matrix repeat its last row; ranks beyond a row's length have probability 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc::tree {

constexpr int kMaxNodes = 4096;  // draft nodes in a tree (root excluded)
constexpr int kMaxDepth = 64;    // path length
constexpr int kMaxRank = 64;     // ranks are 0..63; also the most columns in a matrix row
constexpr double kRowSumTolerance = 1e-12;

// A validated, prefix-closed tree. Node i is choices[i] of the input (input order is kept so
// per-node results line up with the user's list). Arrays are parallel, one entry per node.
struct Tree {
  std::vector<int> parent;  // index of the parent node, or -1 when the parent is the root
  std::vector<int> rank;    // sibling rank (0-based)
  std::vector<int> depth;   // 1 for children of the root

  int size() const { return static_cast<int>(parent.size()); }
  int max_depth() const;
  // The path (list of ranks from the root) of every node, in node order.
  std::vector<std::vector<int>> choices() const;
  // Number of nodes at depth 1, 2, ..., max_depth().
  std::vector<int> nodes_per_depth() const;
};

// Validates `choices` (prefix-closed, no duplicates, ranks in [0, 64), depth <= 64,
// at most 4096 nodes, no empty path). Errors name `field[i]` or `field[i][j]`.
Expected<Tree> make_tree(const std::vector<std::vector<int>>& choices,
                         const std::string& field = "choices");

// A chain of k draft tokens: [[0], [0, 0], ...]. k in [0, 64] (0 = no speculation).
Tree chain_tree(int k);

// The acceptance matrix. Use make_acceptance() to build a validated one.
struct AcceptanceMatrix {
  std::vector<std::vector<double>> rows;  // rows[d][r]

  // p for the rank-r child of a node at depth `parent_depth` (root = 0).
  double p(int parent_depth, int r) const {
    const std::vector<double>& row =
        rows[parent_depth < static_cast<int>(rows.size()) ? parent_depth : rows.size() - 1];
    return r < static_cast<int>(row.size()) ? row[r] : 0.0;
  }
};

// Validates: 1..64 rows, each with 1..64 entries, every entry finite and in [0, 1], every row
// sum <= 1 + 1e-12 (summed in rank order). Errors name `field[d]` or `field[d][r]`.
Expected<AcceptanceMatrix> make_acceptance(std::vector<std::vector<double>> rows,
                                           const std::string& field = "acceptance.p");

struct TreeExpectation {
  double expected_tau = 1.0;      // tokens per cycle, bonus token included
  std::vector<double> tau_pmf;    // tau_pmf[j] = P(tau = 1 + j), j = 0..max_depth
  std::vector<double> node_prob;  // P(node accepted), in node order
};

// Exact expectation and distribution. tau = 1 + sum over nodes of the product of p along the
// node's path; P(tau = 1 + j) = sum over depth-j nodes v (and the root for j = 0) of
// P(v accepted) * (1 - sum of p over v's children in the tree).
TreeExpectation expect_tree(const Tree& tree, const AcceptanceMatrix& acceptance);

// Chain closed form with constant per-token acceptance a: (1 - a^(k+1)) / (1 - a), k + 1 at a = 1.
double chain_tau(double alpha, int k);

// Monte Carlo check (seeded, deterministic: splitmix64). Each trial walks down from the root:
// at an accepted node of depth d one uniform draw picks which rank matches (rank r with
// probability p[d][r], none with the remainder); the walk continues if that child is in the tree.
struct SimulationResult {
  std::int64_t trials = 0;
  double mean_tau = 0.0;
  double std_error = 0.0;  // sample standard deviation / sqrt(trials)
  double lo = 0.0;         // 99.9 % normal interval: mean -/+ 3.2905 * std_error
  double hi = 0.0;
};
SimulationResult simulate_tree(const Tree& tree, const AcceptanceMatrix& acceptance,
                               std::uint64_t seed, std::int64_t trials);

}  // namespace speccalc::tree
