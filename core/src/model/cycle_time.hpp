// Turns the work of a cycle (method_cost.hpp) into time under the target's and the draft's
// runtimes, with the engine's per-step and per-cycle overheads. Shared by evaluate and fit.
#pragma once

#include "model/method_cost.hpp"
#include "speccalc/cost.hpp"

namespace speccalc {

struct CycleTime {
  PassCost baseline;                // one plain decode pass of the target
  PassCost draft;                   // all draft passes of a cycle (draft runtime) + CPU drafting
  PassCost verify;                  // the target's verify pass
  double step_overhead_s = 0;       // engine step: step_overhead_s + batch x seq_overhead_s
  double spec_overhead_s = 0;       // cycle_overhead_s (+ tree_overhead_s for trees) + method host
  double method_host_s = 0;         // the method's own host ops and syncs the GPU does not hide
  double method_host_hidden_s = 0;  // the rest: issued while the GPU is behind (gpu_ahead_s)
  double baseline_step_s = 0;       // plain decoding: baseline pass + engine step
  double cycle_s = 0;               // speculative: draft + verify + engine step + spec overhead
};

// Host time of a method's own ops and syncs per cycle under runtime r.
double method_host_s(const HostOps& ops, const RuntimeParams& r);

CycleTime time_cycle(const CycleWork& w, const Machine& target, const Machine& draft,
                     int64_t batch);

}  // namespace speccalc
