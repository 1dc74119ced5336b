// Shared by the Monte Carlo replays of tree walks: which rank of a node's children the target
// accepts, drawn from the acceptance rows (rank r with p[depth][r], none with the rest).
#pragma once

#include "speccalc/tree.hpp"
#include "tree/splitmix64.hpp"

namespace speccalc::test {

// -1 when no child is accepted.
inline int draw_accepted_rank(const tree::AcceptanceMatrix& p, int depth, SplitMix64* rng) {
  const double u = rng->uniform();
  double cum = 0;
  for (int r = 0; r < tree::kMaxRank; ++r) {
    cum += p.p(depth, r);
    if (u < cum) return r;
  }
  return -1;
}

}  // namespace speccalc::test
