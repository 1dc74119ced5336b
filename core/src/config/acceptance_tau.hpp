// Expected tokens per cycle (tau, bonus token included) for a config's method and acceptance.
#pragma once

#include <map>
#include <string>

#include "speccalc/config.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

struct TauResult {
  double tau = 1;
  int64_t max_tokens = 1;         // the most tokens one cycle can yield (longest draft path + 1)
  std::string source;             // which model produced tau, for the assumptions list
  std::string basis;              // where tau comes from in a few words (the result's tau card)
  tree::Tree tree;                // the verified tree for tree methods (empty otherwise)
  tree::AcceptanceMatrix matrix;  // the acceptance matrix used (empty when tau was given)
  // Per-request spread of tau when it came from a workload preset ({"workload": id}):
  // p5 <= p50 <= p95, for a speedup band over the request mix.
  // A default from data carries its spread too (Acceptance::spread_label says what it is).
  bool has_band = false;
  double tau_p5 = 0, tau_p50 = 0, tau_p95 = 0;
  std::string band_label;  // "over p5-p95 requests", "over the 7 published rows (min-max)", ...
  // False when tau rests on the default alpha (no data for this method and target, or the
  // published tau is out of this draft's reach).
  bool from_data = true;
};

Expected<TauResult> expected_tau(const Config& config);

// Remembers tau per (method, acceptance) across the evaluations of one sweep or sizing run:
// tau does not depend on the model, GPU, runtime, batch or context, and EAGLE-2/3 rebuild a
// tree to get it. Owned by the caller; never shared between commands.
class TauMemo {
 public:
  // The memo keeps the result; the pointer stays valid while the memo lives.
  Expected<const TauResult*> get(const Config& config);

 private:
  std::map<std::string, TauResult> entries_;
};

// The acceptance matrix a config's acceptance implies (per-position rates and alpha use the
// geometric rank model p[d][r] = a_d (1 - a_d)^r). Not defined for a given tau.
Expected<tree::AcceptanceMatrix> acceptance_matrix(const Acceptance& a);

}  // namespace speccalc
