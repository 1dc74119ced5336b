#include "model/cycle_time.hpp"

#include <algorithm>

namespace speccalc {

double method_host_s(const HostOps& ops, const RuntimeParams& r) {
  return ops.ops * r.method_op_s + ops.syncs * r.host_sync_s;
}

namespace {
void add_host_part(PassCost& cost, const PassWork& p, const Machine& target) {
  const PassTime host = time_host_pass(p.host_work, target);
  cost.add(host, p.host_work, 1);
  cost.host_time_s += host.time_s;
  cost.host_bytes += p.host_work.total().bytes();
  cost.passes_per_cycle -= 1;  // the same pass, not another one
}
}  // namespace

CycleTime time_cycle(const CycleWork& w, const Machine& target, const Machine& draft,
                     int64_t batch) {
  CycleTime t;
  t.baseline.add(time_pass(w.baseline.work, target, target.runtime.baseline_layer_syncs),
                 w.baseline.work);
  // Partial offload: the CPU's layers of the same pass, one after the GPU's (their bytes,
  // FLOPs and time are added to the pass; passes_per_cycle counts the pass once).
  if (w.baseline.on_host) add_host_part(t.baseline, w.baseline, target);
  t.baseline.add_host_s(method_host_s(w.baseline_host_ops, target.runtime));
  t.baseline.tokens_per_pass = 1;
  t.baseline.runtime = "target";
  for (const PassWork& p : w.draft) {
    t.draft.add(time_pass(p.work, draft), p.work, p.passes);
    t.draft.tokens_per_pass = p.tokens_per_pass;  // the last (widest) level
  }
  if (w.draft_host_s > 0) t.draft.add_host_s(w.draft_host_s);
  if (w.eagle3_steps > 0 && draft.runtime.eagle3_step_overhead_s > 0)
    t.draft.add_host_s(static_cast<double>(w.eagle3_steps) * draft.runtime.eagle3_step_overhead_s);
  if (w.draft_model_steps > 0 && draft.runtime.draft_model_step_s > 0)
    t.draft.add_host_s(static_cast<double>(w.draft_model_steps) * draft.runtime.draft_model_step_s);
  if (w.has_verify) {
    t.verify.add(time_pass(w.verify.work, target, w.host_ops.verify_syncs_per_layer),
                 w.verify.work);
    if (w.verify.on_host) add_host_part(t.verify, w.verify, target);
    t.verify.tokens_per_pass = w.verify.tokens_per_pass;
  }
  const RuntimeParams& r = target.runtime;
  t.step_overhead_s = r.step_overhead_s + static_cast<double>(batch) * r.seq_overhead_s;
  t.baseline_step_s = t.baseline.time_s + t.step_overhead_s;
  if (!w.has_verify) {
    t.cycle_s = t.baseline_step_s;
    return t;
  }
  // The method's host ops are issued while the GPU still runs the draft passes it fell behind
  // on (eager code queues kernels asynchronously): only the excess over that lead adds.
  const double method_s = method_host_s(w.host_ops, r);
  t.method_host_s = std::max(0.0, method_s - t.draft.gpu_ahead_s);
  t.method_host_hidden_s = method_s - t.method_host_s;
  // The engine's scheduling, hidden under the GPU in plain decoding, runs in series here.
  t.spec_overhead_s = r.cycle_overhead_s + (w.tree ? r.tree_overhead_s : 0.0) + t.method_host_s +
                      (w.gpu_proposer ? r.proposer_cycle_s : 0.0) + r.unoverlapped_sched_s;
  t.cycle_s = t.draft.time_s + t.verify.time_s + t.step_overhead_s + t.spec_overhead_s;
  return t;
}

}  // namespace speccalc
