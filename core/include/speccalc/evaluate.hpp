// One evaluation: the cost of a draft-verify cycle for the configured method, the expected
// tokens per cycle, and the speedup over plain autoregressive decoding on the same machine.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"

namespace speccalc {

struct Evaluation {
  double tau = 1;  // expected tokens per cycle per sequence, bonus token included
  std::string tau_source;          // how tau was obtained
  int64_t max_tokens_per_cycle = 1;
  PassCost baseline;  // one autoregressive decode step (one token per sequence)
  PassCost draft;     // all draft work of one cycle
  PassCost verify;    // the target's verification pass
  double cycle_overhead_s = 0;  // speculative bookkeeping per cycle
  double cycle_time_s = 0;      // draft + verify + bookkeeping
  double speedup = 1;           // (tau / cycle_time_s) / (1 / baseline.time_s)
  double tokens_per_s = 0;      // batch * tau / cycle_time_s
  double baseline_tokens_per_s = 0;
  double weights_memory_gb = 0;   // target (+ draft) weights per GPU
  double kv_memory_gb = 0;        // KV cache per GPU at this batch and context
  bool fits_in_memory = true;
  RuntimeParams runtime;          // the parameters used (after testbed calibration)
  std::vector<std::string> assumptions;
};

class TauMemo;
// `memo` (optional) reuses tau across many evaluations of one sweep (acceptance_tau.hpp).
Expected<Evaluation> evaluate(const Config& config, TauMemo* memo = nullptr);
nlohmann::json evaluation_to_json(const Evaluation& e, const Config& config);

// Builds the Machine (GPU, parallelism, runtime parameters) a config runs on.
Machine machine_for(const Config& config, const RuntimeParams& params);

}  // namespace speccalc
