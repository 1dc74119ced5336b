// Seeded Monte Carlo simulator of the tree-acceptance model: an independent check of
// expect_tree() (tests assert the exact tau lies in the simulator's 99.9 % interval).
#include <cmath>
#include <vector>

#include "speccalc/tree.hpp"
#include "tree/splitmix64.hpp"

namespace speccalc::tree {
namespace {

constexpr double kZ999 = 3.2905;  // two-sided 99.9 % standard-normal quantile

}  // namespace

SimulationResult simulate_tree(const Tree& tree, const AcceptanceMatrix& acceptance,
                               std::uint64_t seed, std::int64_t trials) {
  const int n = tree.size();
  // child[v * kMaxRank + r]: node index of v's rank-r child or -1; the root is v = n.
  std::vector<int> child(static_cast<std::size_t>(n + 1) * kMaxRank, -1);
  for (int i = 0; i < n; ++i) {
    const int v = tree.parent[i] < 0 ? n : tree.parent[i];
    child[static_cast<std::size_t>(v) * kMaxRank + tree.rank[i]] = i;
  }
  SplitMix64 rng{seed};
  double mean = 0.0, m2 = 0.0;  // Welford's running mean and sum of squared deviations
  for (std::int64_t t = 0; t < trials; ++t) {
    int v = n, depth = 0;
    for (;;) {
      const double u = rng.uniform();
      const std::vector<double>& row =
          acceptance
              .rows[depth < static_cast<int>(acceptance.rows.size()) ? depth
                                                                     : acceptance.rows.size() - 1];
      int matched = -1;
      double cum = 0.0;
      for (int r = 0; r < static_cast<int>(row.size()); ++r) {
        cum += row[r];
        if (u < cum) {
          matched = r;
          break;
        }
      }
      if (matched < 0) break;
      const int c = child[static_cast<std::size_t>(v) * kMaxRank + matched];
      if (c < 0) break;
      v = c;
      ++depth;
    }
    const double x = 1.0 + depth;
    const double delta = x - mean;
    mean += delta / static_cast<double>(t + 1);
    m2 += delta * (x - mean);
  }
  SimulationResult out;
  out.trials = trials;
  out.mean_tau = mean;
  if (trials > 1) {
    const double var = m2 / static_cast<double>(trials - 1);
    out.std_error = std::sqrt(var / static_cast<double>(trials));
  }
  out.lo = mean - kZ999 * out.std_error;
  out.hi = mean + kZ999 * out.std_error;
  return out;
}

}  // namespace speccalc::tree
