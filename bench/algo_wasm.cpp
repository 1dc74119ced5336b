// The tree optimizer alone in WASM (no JSON, no Embind): the command-free counterpart of
// core_bench.cpp's algo/tree-optimize, so the table can show the algorithm's own WASM/native
// ratio next to the command's. Built by bench/CMakeLists.txt (preset bench-wasm, run by
// scripts/bench.sh) straight from core/src/tree/tree_optimize.cpp; never shipped. Same matrix as
// cases.json: per_position alpha_d = 0.80 - 0.005 d, p[d][r] = alpha_d (1 - alpha_d)^r
// (tree_acceptance.hpp's model).
#include "speccalc/tree_optimize.hpp"

extern "C" {

// Runs optimize_tree `iterations` times; returns the last tau (so nothing is optimized away).
double bench_tree_optimize(int budget, int iterations) {
  speccalc::tree::AcceptanceMatrix acc;
  for (int d = 0; d < 64; ++d) {
    const double alpha = 0.80 - 0.005 * d;
    std::vector<double> row(64);
    double left = 1.0;
    for (int r = 0; r < 64; ++r) {
      row[r] = alpha * left;
      left *= 1.0 - alpha;
    }
    acc.rows.push_back(row);
  }
  double tau = 0.0;
  for (int i = 0; i < iterations; ++i) {
    tau = speccalc::tree::optimize_tree(acc, budget, 64, 64).value().expected_tau;
  }
  return tau;
}

}  // extern "C"
