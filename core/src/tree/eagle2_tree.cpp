// The EAGLE-2 dynamic-tree generator (declared in speccalc/tree_presets.hpp). Its own file so
// that the WASM build compiles it for speed: every eval of an EAGLE-2/3 config runs it, and
// under tree_presets.cpp's -Os (wasm/CMakeLists.txt) its lambdas and AcceptanceMatrix::p were
// calls, a quarter of eval/eagle2's time in Node at five times the native cost.
#include <algorithm>
#include <array>

#include "speccalc/tree_presets.hpp"

namespace speccalc::tree {
namespace {

struct Node {
  double value;
  int parent;  // candidate index, -1 for the root
  int rank;
  int depth;
};

}  // namespace

Expected<Tree> eagle2_tree(const AcceptanceMatrix& acceptance, int total_token, int depth,
                           int top_k) {
  // `depth` is the draft levels (the config's convention); EAGLE's own --depth is depth - 1.
  const int expansions = depth - 1;
  if (top_k < 1 || top_k > kMaxRank) {
    return make_error("top_k", "must be an integer in [1, 64], got " + std::to_string(top_k));
  }
  if (depth < 1 || depth > kMaxDepth) {
    return make_error("depth",
                      "must be an integer in [1, 64] (draft levels; EAGLE's --depth + 1), got " +
                          std::to_string(depth));
  }
  if (total_token < 2 || total_token > kMaxNodes + 1) {
    return make_error("total_token",
                      "must be an integer in [2, 4097], got " + std::to_string(total_token));
  }
  const long long candidates_max = eagle2_candidates(top_k, depth);
  if (total_token - 1 > candidates_max) {
    return make_error("total_token", "total_token - 1 = " + std::to_string(total_token - 1) +
                                         " exceeds the " + std::to_string(candidates_max) +
                                         " candidates that top_k + (depth - 1) * top_k^2 yields");
  }
  // Children of a node at parent depth d, ranked by p (the draft's own top-k order): the top_k
  // ranks by p, ties in rank order (what a stable sort by p gives; a partial sort under that
  // total order picks the same ranks without sorting all 64).
  auto ranked = [&](int d) {
    std::array<double, kMaxRank> p{};
    std::array<int, kMaxRank> order{};
    for (int r = 0; r < kMaxRank; ++r) {
      p[r] = acceptance.p(d, r);
      order[r] = r;
    }
    std::partial_sort(order.begin(), order.begin() + top_k, order.end(),
                      [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    return order;  // the first top_k
  };
  std::vector<Node> all;
  all.reserve(static_cast<std::size_t>(candidates_max));
  std::vector<int> beam;
  const auto first = ranked(0);
  for (int i = 0; i < top_k; ++i) {
    all.push_back({acceptance.p(0, first[i]), -1, first[i], 1});
    beam.push_back(i);
  }
  // By value, ties by candidate index: a total order, so selecting the first n under it keeps
  // exactly the candidates a stable sort of the whole list by value would put first.
  auto by_value = [&](int a, int b) {
    return all[a].value > all[b].value || (all[a].value == all[b].value && a < b);
  };
  const auto select = [&](std::vector<int>& ids, std::size_t n) {
    n = std::min(n, ids.size());
    std::nth_element(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(),
                     by_value);
    ids.resize(n);
  };
  std::vector<int> level_nodes;
  level_nodes.reserve(static_cast<std::size_t>(top_k) * static_cast<std::size_t>(top_k));
  for (int level = 1; level <= expansions; ++level) {
    const auto order = ranked(level);
    const int start = static_cast<int>(all.size());
    for (int b : beam) {
      for (int i = 0; i < top_k; ++i) {
        all.push_back({all[b].value * acceptance.p(level, order[i]), b, order[i], level + 1});
      }
    }
    level_nodes.clear();
    for (int i = start; i < static_cast<int>(all.size()); ++i) level_nodes.push_back(i);
    select(level_nodes, static_cast<std::size_t>(top_k));
    std::sort(level_nodes.begin(), level_nodes.end(), by_value);  // the beam, best first
    beam.assign(level_nodes.begin(), level_nodes.end());
  }
  std::vector<int> pick(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) pick[i] = static_cast<int>(i);
  select(pick, static_cast<std::size_t>(total_token - 1));
  std::sort(pick.begin(), pick.end());  // candidate order: by level, parents first
  std::vector<int> node_of(all.size(), -1);
  Tree tree;
  for (int c : pick) {
    node_of[c] = tree.size();
    tree.parent.push_back(all[c].parent < 0 ? -1 : node_of[all[c].parent]);
    tree.rank.push_back(all[c].rank);
    tree.depth.push_back(all[c].depth);
  }
  return tree;
}

}  // namespace speccalc::tree
