// Trace models: what a workload's acceptance data (core/data/workloads.json) says about the
// tokens per cycle of proposers that are not a fixed chain of k, i.e. the oracle proposer
// (SpecDecode-Bench's upper bound: each cycle proposes exactly acc_len - 1 tokens, all accepted)
// and the best-of-two combination of two proposers (per cycle the one accepted longer).
//
// The data holds, per proposer, the replayed tau of chains k = 1..8, the conditional per-
// position acceptance of the k = 8 replay and a histogram of acc_len over every output position.
// None of them is the distribution of the oracle's cycles, so each model below derives it under
// a stated assumption and is checked against the measured tau_by_k (nothing is fitted):
//
//   runs                an acceptance run of length a starting at t gives acc_len a, a-1, ..., 1
//                       at t, t+1, ..., t+a-1 (the proposal from t+1 is the rest of the one from
//                       t, as a prompt-lookup match continues). Then the oracle's cycles are the
//                       runs, h(j) = P(A >= j) / E[A] and E[A] = 1 / h(1): the mean does not
//                       depend on how the 16+ bucket splits. A fixed chain of k covers a run of
//                       length a in ceil(a / (k+1)) cycles.
//   independent_cycles  every cycle starts afresh where the last was rejected, with the k = 8
//                       replay's conditional acceptance per position (beyond position 8: the 8th
//                       value, as the per_position acceptance input does): the oracle's cycle is
//                       the k = 8 chain grown without a cap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/workloads.hpp"

namespace speccalc {

// Tokens per cycle (bonus included) as a survival function: P(tokens >= j) = s[j - 1] for
// j = 1..s.size(), then a geometric tail s.back() x tail_ratio^(j - s.size()).
struct CycleSurvival {
  std::vector<double> s;  // s[0] = 1
  double tail_ratio = 0;  // in [0, 1)
  double at(int64_t j) const;
  double mean() const;  // sum over j >= 1 of P(tokens >= j)
};

struct TraceModel {
  std::string id;                // "runs" or "independent_cycles"
  bool consistent = false;       // the data could come from this model
  std::string inconsistency;     // why not, when it could not
  CycleSurvival oracle;          // tokens per cycle of the oracle proposer under this model
  std::vector<double> tau_by_k;  // the replayed tau this model predicts for k = 1..8
  double max_error_pct = 0;      // max over k of |predicted - measured| / measured, in %
};

TraceModel runs_model(const WorkloadProposer& p);
TraceModel independent_cycles_model(const WorkloadProposer& p);

// Of the consistent models, the one whose predicted tau_by_k is closest to the measured one
// (smallest max error); `other` is the remaining model. `ok` is false when neither is
// consistent.
struct TraceModelChoice {
  bool ok = false;
  TraceModel chosen, other;
};
TraceModelChoice choose_trace_model(const WorkloadProposer& p);

// E[max(X, Y)] for per-cycle tokens X ~ a and Y ~ b whose joint is unknown: the comonotone
// coupling (the same quantile of both, the least E[max] any coupling gives), independence, and
// the countermonotone coupling (opposite quantiles: min(1, P(X >= j) + P(Y >= j)) at every j,
// the most any coupling gives).
struct BestOfTwo {
  double comonotone = 0, independent = 0, countermonotone = 0;
};
BestOfTwo best_of_two(const CycleSurvival& a, const CycleSurvival& b);

}  // namespace speccalc
