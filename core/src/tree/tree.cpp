// Tree validation and the exact expectation of tokens per cycle (see speccalc/tree.hpp).
#include "speccalc/tree.hpp"

#include "config/general_format.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>

namespace speccalc::tree {
namespace {

std::string index_field(const std::string& field, std::size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

std::string path_text(const std::vector<int>& path, std::size_t length) {
  std::string s = "[";
  for (std::size_t j = 0; j < length; ++j) {
    if (j) s += ", ";
    s += std::to_string(path[j]);
  }
  return s + "]";
}

// Node indices sorted by depth (stable), so parents come before children: a counting sort
// by depth, the same order a stable sort by depth gives, in linear time.
std::vector<int> depth_order(const Tree& tree) {
  std::vector<int> start(tree.max_depth() + 2, 0);  // start[d + 1] counts depth d, then sums
  for (int d : tree.depth) ++start[d + 1];
  for (std::size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  std::vector<int> order(tree.size());
  for (int i = 0; i < tree.size(); ++i) order[start[tree.depth[i]]++] = i;
  return order;
}

}  // namespace

int Tree::max_depth() const {
  int d = 0;
  for (int x : depth) d = std::max(d, x);
  return d;
}

std::vector<std::vector<int>> Tree::choices() const {
  std::vector<std::vector<int>> out(parent.size());
  for (std::size_t i = 0; i < parent.size(); ++i) {
    std::vector<int>& path = out[i];
    path.resize(depth[i]);
    int v = static_cast<int>(i);
    for (int j = depth[i] - 1; j >= 0; --j) {
      path[j] = rank[v];
      v = parent[v];
    }
  }
  return out;
}

std::vector<int> Tree::nodes_per_depth() const {
  std::vector<int> counts(max_depth(), 0);
  for (int d : depth) ++counts[d - 1];
  return counts;
}

Expected<Tree> make_tree(const std::vector<std::vector<int>>& choices, const std::string& field) {
  if (choices.size() > static_cast<std::size_t>(kMaxNodes)) {
    return make_error(field, "has " + std::to_string(choices.size()) + " nodes; the limit is 4096");
  }
  // Each path as a string of rank bytes (ranks are < 64), hashed: the first node with a path
  // and, for each node, the node of its path minus the last rank (its parent). Keys are views
  // into `keys`, which is sized once and never moves.
  std::vector<std::string> keys(choices.size());
  std::unordered_map<std::string_view, int> index;
  index.reserve(choices.size());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::vector<int>& path = choices[i];
    // The node's field name, built only for an error (not for every node of every tree).
    const auto f = [&] { return index_field(field, i); };
    if (path.empty()) return make_error(f(), "empty path; the root is implicit and not listed");
    if (path.size() > static_cast<std::size_t>(kMaxDepth)) {
      return make_error(f(), "depth " + std::to_string(path.size()) + " exceeds the limit of 64");
    }
    for (std::size_t j = 0; j < path.size(); ++j) {
      if (path[j] < 0 || path[j] >= kMaxRank) {
        return make_error(index_field(f(), j),
                          "rank " + std::to_string(path[j]) + " is outside [0, 63]");
      }
    }
    keys[i].assign(path.begin(), path.end());  // each rank as one char
    auto inserted = index.emplace(std::string_view(keys[i]), static_cast<int>(i));
    if (!inserted.second) {
      return make_error(f(), "duplicates " + index_field(field, inserted.first->second) + " " +
                                 path_text(path, path.size()));
    }
  }
  Tree tree;
  tree.parent.resize(choices.size());
  tree.rank.resize(choices.size());
  tree.depth.resize(choices.size());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::vector<int>& path = choices[i];
    tree.rank[i] = path.back();
    tree.depth[i] = static_cast<int>(path.size());
    if (path.size() == 1) {
      tree.parent[i] = -1;
      continue;
    }
    auto it = index.find(std::string_view(keys[i]).substr(0, path.size() - 1));
    if (it == index.end()) {
      return make_error(index_field(field, i),
                        "path " + path_text(path, path.size()) + " has no parent " +
                            path_text(path, path.size() - 1) + " (choices must be prefix-closed)");
    }
    tree.parent[i] = it->second;
  }
  return tree;
}

Tree chain_tree(int k) {
  Tree tree;
  for (int i = 0; i < k; ++i) {
    tree.parent.push_back(i - 1);
    tree.rank.push_back(0);
    tree.depth.push_back(i + 1);
  }
  return tree;
}

Expected<AcceptanceMatrix> make_acceptance(std::vector<std::vector<double>> rows,
                                           const std::string& field) {
  if (rows.empty()) return make_error(field, "needs at least one row");
  if (rows.size() > static_cast<std::size_t>(kMaxDepth)) {
    return make_error(field, "has " + std::to_string(rows.size()) + " rows; the limit is 64");
  }
  for (std::size_t d = 0; d < rows.size(); ++d) {
    const std::string fd = index_field(field, d);
    if (rows[d].empty()) return make_error(fd, "needs at least one entry (rank 0)");
    if (rows[d].size() > static_cast<std::size_t>(kMaxRank)) {
      return make_error(
          fd, "has " + std::to_string(rows[d].size()) + " entries; the limit is 64 ranks");
    }
    double sum = 0.0;
    for (std::size_t r = 0; r < rows[d].size(); ++r) {
      const double x = rows[d][r];
      if (!std::isfinite(x) || x < 0.0 || x > 1.0) {
        return make_error(index_field(fd, r), "probability must be a finite number in [0, 1]");
      }
      sum += x;
    }
    if (sum > 1.0 + kRowSumTolerance) {
      return make_error(fd, "row sums to " + format_shortest(sum) +
                                " > 1; siblings are exclusive, so a row's probabilities "
                                "must sum to at most 1");
    }
  }
  AcceptanceMatrix m;
  m.rows = std::move(rows);
  return m;
}

TreeExpectation expect_tree(const Tree& tree, const AcceptanceMatrix& acceptance) {
  TreeExpectation out;
  const int n = tree.size();
  out.node_prob.assign(n, 0.0);
  out.tau_pmf.assign(tree.max_depth() + 1, 0.0);
  // child_mass[i] = sum of p over node i's children present in the tree; root at index n.
  std::vector<double> child_mass(n + 1, 0.0);
  const std::vector<int> order = depth_order(tree);
  for (int i : order) {
    const int par = tree.parent[i];
    const double p = acceptance.p(tree.depth[i] - 1, tree.rank[i]);
    out.node_prob[i] = (par < 0 ? 1.0 : out.node_prob[par]) * p;
    child_mass[par < 0 ? n : par] += p;
  }
  // Node order (input order) for the sum, so the result does not depend on sorting details.
  double tau = 1.0;
  for (int i = 0; i < n; ++i) tau += out.node_prob[i];
  out.expected_tau = tau;
  // The walk stops at v when none of v's tree children matches. Row sums <= 1, and the mass of
  // a subset of siblings is <= the row sum; clamp only the rounding residue below zero.
  out.tau_pmf[0] = std::max(0.0, 1.0 - child_mass[n]);
  for (int i : order) {
    const double stop = std::max(0.0, 1.0 - child_mass[i]);
    out.tau_pmf[tree.depth[i]] += out.node_prob[i] * stop;
  }
  return out;
}

double chain_tau(double alpha, int k) {
  if (alpha == 1.0) return k + 1.0;
  double power = 1.0;  // alpha^(k+1) by repeated multiplication (no pow: parity)
  for (int i = 0; i <= k; ++i) power *= alpha;
  return (1.0 - power) / (1.0 - alpha);
}

}  // namespace speccalc::tree
