// Optimal draft tree by best-first search (see speccalc/tree_optimize.hpp).
//
// Why it is optimal. Let v(x) = product of p along node x's path; tau(T) = 1 + sum_{x in T} v(x).
// (1) v is non-increasing along every path, since each factor p <= 1: v(child) <= v(parent).
// (2) So the n nodes of largest value, ties broken parent-first, form a prefix-closed set, and
//     no set of n nodes (prefix-closed or not) has a larger sum: a top-n set is optimal.
// (3) The search pops nodes in non-increasing value order. Order each node's potential children
//     by p (descending, ties by rank). When a node is popped we push its first child and its
//     next sibling; both values are <= the popped value (factor p <= 1; sorted order), so pops
//     never increase. Every unpopped node u is reachable from some heap entry through a chain of
//     "first child" / "next sibling" steps, each of which does not increase the value, so the heap
//     top is >= v(u): every pop is a maximum over all nodes not yet taken.
// (4) Hence after m pops the taken set is a top-m set, which is optimal for budget m: the prefix
//     sums give tau*(m) for every m in one run. Only children of taken nodes are ever pushed, so
//     every prefix is prefix-closed.
// The heap is a hand-written binary heap over preallocated storage (no allocation in the loop);
// ties are broken by push order, which makes the result deterministic on every platform.
#include "speccalc/tree_optimize.hpp"

#include <algorithm>

namespace speccalc::tree {
namespace {

struct Candidate {
  double value;  // product of p along the path
  int parent;    // taken-node index, -1 for the root
  int depth;     // 1-based depth of the candidate
  int slot;      // position in the sorted rank order of its parent's depth
  int seq;       // push order, the tie-breaker
};

bool before(const Candidate& a, const Candidate& b) {  // a should pop before b
  return a.value > b.value || (a.value == b.value && a.seq < b.seq);
}

class Heap {
 public:
  explicit Heap(std::size_t capacity) { items_.reserve(capacity); }
  bool empty() const { return items_.empty(); }
  const Candidate& top() const { return items_.front(); }
  // Sift with a hole (one move per level instead of a swap): this loop is most of the run time.
  void push(const Candidate& c) {
    items_.push_back(c);  // within reserved capacity: no reallocation
    std::size_t i = items_.size() - 1;
    while (i > 0) {
      const std::size_t up = (i - 1) / 2;
      if (!before(c, items_[up])) break;
      items_[i] = items_[up];
      i = up;
    }
    items_[i] = c;
  }
  // Floyd's bottom-up pop: move the hole to a leaf along the better child (one comparison a
  // level, branch-free), then sift the last item up from there (it belongs near the bottom).
  // The classic pop's two data-dependent branches a level cost Clang's code (and so WASM) twice
  // GCC's: 4096 nodes 0.35 -> 0.19 ms native Clang, 0.33 -> 0.21 ms WASM. `before` is a total
  // order (seq is unique), so every correct heap pops the same sequence: results are unchanged.
  void pop() {
    const Candidate last = items_.back();
    items_.pop_back();
    const std::size_t n = items_.size();
    if (n == 0) return;
    std::size_t i = 0;
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child + 1 < n) {
        child += static_cast<std::size_t>(before(items_[child + 1], items_[child]));
      } else if (child >= n) {
        break;
      }
      items_[i] = items_[child];
      i = child;
    }
    while (i > 0) {
      const std::size_t up = (i - 1) / 2;
      if (!before(last, items_[up])) break;
      items_[i] = items_[up];
      i = up;
    }
    items_[i] = last;
  }

 private:
  std::vector<Candidate> items_;
};

}  // namespace

Expected<OptimalTrees> optimize_tree(const AcceptanceMatrix& acceptance, int budget, int max_depth,
                                     int max_rank) {
  if (budget < 1 || budget > kMaxNodes) {
    return make_error("budget", "must be an integer in [1, 4096], got " + std::to_string(budget));
  }
  if (max_depth < 1 || max_depth > kMaxDepth) {
    return make_error("max_depth",
                      "must be an integer in [1, 64], got " + std::to_string(max_depth));
  }
  if (max_rank < 1 || max_rank > kMaxRank) {
    return make_error("max_rank", "must be an integer in [1, 64], got " + std::to_string(max_rank));
  }
  // sorted[d]: ranks 0..max_rank-1 ordered by p[d][r] descending, ties by rank. Rows past the
  // matrix repeat the last row, so only min(max_depth, rows) orders are needed.
  const int distinct_rows = std::min<int>(max_depth, static_cast<int>(acceptance.rows.size()));
  // Flat tables indexed [row * max_rank + slot]: the rank in that slot and its p, so a push is
  // one load (measured: the optimizer alone 0.42 -> see docs/benchmarks.md).
  const std::size_t width = static_cast<std::size_t>(max_rank);
  std::vector<int> sorted_rank(static_cast<std::size_t>(distinct_rows) * width);
  std::vector<double> sorted_p(sorted_rank.size());
  for (int d = 0; d < distinct_rows; ++d) {
    int* ranks = &sorted_rank[d * width];
    bool sorted = true;  // a row non-increasing in rank is its own stable order
    for (int r = 0; r < max_rank; ++r) {
      ranks[r] = r;
      sorted = sorted && (r == 0 || !(acceptance.p(d, r) > acceptance.p(d, r - 1)));
    }
    if (!sorted) {
      std::stable_sort(ranks, ranks + max_rank,
                       [&](int a, int b) { return acceptance.p(d, a) > acceptance.p(d, b); });
    }
    for (int r = 0; r < max_rank; ++r) sorted_p[d * width + r] = acceptance.p(d, ranks[r]);
  }
  auto at = [&](int parent_depth, int slot) {
    return static_cast<std::size_t>(std::min(parent_depth, distinct_rows - 1)) * width + slot;
  };
  auto rank_at = [&](int parent_depth, int slot) { return sorted_rank[at(parent_depth, slot)]; };
  auto p_at = [&](int parent_depth, int slot) { return sorted_p[at(parent_depth, slot)]; };

  OptimalTrees out;
  out.tree.parent.reserve(budget);
  out.tree.rank.reserve(budget);
  out.tree.depth.reserve(budget);
  out.tau_curve.reserve(budget);
  std::vector<double> value;
  value.reserve(budget);
  Heap heap(2 * static_cast<std::size_t>(budget) + 1);  // <= 1 + 2 pushes per pop - 1 pop

  int seq = 0;
  heap.push({p_at(0, 0), -1, 1, 0, seq++});
  double tau = 1.0;
  while (static_cast<int>(value.size()) < budget && !heap.empty() && heap.top().value > 0.0) {
    const Candidate c = heap.top();
    heap.pop();
    const int index = static_cast<int>(value.size());
    out.tree.parent.push_back(c.parent);
    out.tree.rank.push_back(rank_at(c.depth - 1, c.slot));
    out.tree.depth.push_back(c.depth);
    value.push_back(c.value);
    tau += c.value;
    out.tau_curve.push_back(tau);
    if (c.depth < max_depth) {  // first (most probable) child
      heap.push({c.value * p_at(c.depth, 0), index, c.depth + 1, 0, seq++});
    }
    if (c.slot + 1 < max_rank) {  // next sibling in p order
      const double parent_value = c.parent < 0 ? 1.0 : value[c.parent];
      heap.push(
          {parent_value * p_at(c.depth - 1, c.slot + 1), c.parent, c.depth, c.slot + 1, seq++});
    }
  }
  out.expected_tau = tau;
  while (static_cast<int>(out.tau_curve.size()) < budget) out.tau_curve.push_back(tau);
  return out;
}

}  // namespace speccalc::tree
