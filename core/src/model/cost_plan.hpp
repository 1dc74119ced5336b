// A setup's cost plan: what an evaluation computes that batch and context do not change (the
// runtime parameters, the machines, tau and its tree, the shape of the method's tree and its
// host work per cycle) computed once; each evaluation at a batch and a context then computes
// only what those change (the passes' bytes, FLOPs and times, the memory). evaluate(config) is
// compile(config) followed by at(config.batch, config.context), so a point of a sweep, a sizing
// or a load curve is the same evaluation as eval of that point's config, by construction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/method_cost.hpp"
#include "speccalc/config.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc {

struct TauResult;
class TauMemo;

// full: everything eval reports. numbers: the numbers and the verdict without the text that
// explains them (assumptions, verdict reason, pass names), for sweep summaries.
enum class Detail { full, numbers };

class CostPlan {
 public:
  // `memo` (optional) shares tau across the plans of one sweep (acceptance_tau.hpp). With
  // `borrow`, the plan reads `config` where it is (the caller keeps it alive and unchanged
  // while the plan lives) until at() asks for another batch or context; otherwise it copies it.
  static Expected<CostPlan> compile(const Config& config, TauMemo* memo = nullptr,
                                    bool borrow = false);

  // The evaluation of the compiled setup at this batch and context.
  Expected<Evaluation> at(int64_t batch, int64_t context, Detail detail = Detail::full);
  // The setup's config at the batch and context of the last at() (the compiled ones before).
  const Config& config() const { return *config_; }

 private:
  const Config* config_ = nullptr;  // the caller's (borrowed) or own_
  std::shared_ptr<Config> own_;     // a copy whose batch and context at() sets
  // Testbed calibration fits at the measured batch and the config's context, so it is redone at
  // each point when the setup has one; otherwise the profile's parameters hold at every point.
  bool calibrate_per_point_ = false;
  RuntimeParams runtime_, draft_runtime_;
  Machine target_, draft_;
  std::shared_ptr<const TauResult> own_tau_;  // when no memo holds it
  const TauResult* tau_ = nullptr;
  MethodShape shape_;
};

}  // namespace speccalc
