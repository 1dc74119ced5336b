// One evaluation: the cost of a draft-verify cycle for the configured method, the expected
// tokens per cycle, the memory it needs, and the speedup over plain autoregressive decoding on
// the same machine and engine, with a verdict that never calls an impossible setup a win.
#pragma once

#include <string>
#include <vector>

#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"

namespace speccalc {

struct MemorySummary {
  double capacity_gb = 0, usable_gb = 0, utilization = 0;
  double weights_gb = 0, draft_weights_gb = 0, kv_cache_gb = 0, activations_gb = 0, total_gb = 0;
  bool fits = true;
  int64_t max_batch = 0, max_context = 0;
  std::vector<std::string> suggestions;
  std::string fits_with_weights;    // the widest narrower weight format that fits ("": none)
  std::string fits_with_kv;         // the widest narrower KV-cache format that fits ("": none)
  std::string device = "GPU";       // device_noun(): "GPU", "CPU" or "chip" (unified memory)
  std::string pool = "GPU memory";  // memory_noun(): "GPU memory", "CPU memory", "unified memory"
};

struct Evaluation {
  double tau = 1;          // expected tokens per cycle per sequence, bonus token included
  std::string tau_source;  // how tau was obtained
  std::string tau_basis;   // the same in a few words, for the result's tau card
  int64_t max_tokens_per_cycle = 1;
  PassCost baseline;                // one autoregressive decode pass (one token per sequence)
  PassCost draft;                   // all draft work of one cycle
  PassCost verify;                  // the target's verification pass
  double step_overhead_s = 0;       // engine step (scheduler, sampling, output), paid by both
  double cycle_overhead_s = 0;      // speculative bookkeeping per cycle (+ tree bookkeeping)
  double method_host_hidden_s = 0;  // the method's host ops the draft passes' GPU lead hides
  double baseline_step_s = 0;       // plain decoding: baseline pass + engine step
  double cycle_time_s = 0;          // draft + verify + engine step + speculative bookkeeping
  double speedup = 1;               // (tau / cycle_time_s) / (1 / baseline_step_s)
  double tokens_per_s = 0;          // batch * tau / cycle_time_s
  double baseline_tokens_per_s = 0;
  MemorySummary memory;
  bool fits_in_memory = true;
  // Per-request spread of tau (workload acceptance): the speedup at its p5 and p95.
  bool has_band = false;
  double tau_p5 = 0, tau_p95 = 0, speedup_p5 = 0, speedup_p95 = 0;
  std::string band_label;     // what the spread is ("over p5-p95 requests", ...)
  bool tau_from_data = true;  // false: tau rests on the default alpha (no data)
  // llama.cpp's variable draft length (method.draft_p_min / draft_min): tau and the cycle time
  // are expectations over cycles of every kept length 0..k (model/draft_length.hpp); the draft
  // and verify passes above are those of a full-length cycle (k kept).
  bool has_draft_length = false;
  double expected_kept = 0, expected_draft_passes = 0, plain_cycle_share = 0;
  double tau_fixed_k = 0;  // tau of the same acceptance drafting k every cycle
  double expected_draft_s = 0, expected_verify_s = 0, expected_overhead_s = 0;
  std::vector<double> kept_probability;  // index n: P(n tokens kept)
  std::string verdict;                   // pays | loses | infeasible | baseline
  std::string verdict_reason;
  RuntimeParams runtime;        // target's parameters used (after testbed calibration)
  RuntimeParams draft_runtime;  // the draft's
  std::vector<std::string> assumptions;
};

class TauMemo;
// `memo` (optional) reuses tau across many evaluations of one sweep (acceptance_tau.hpp).
Expected<Evaluation> evaluate(const Config& config, TauMemo* memo = nullptr);

// Builds the Machine (GPU, parallelism, runtime parameters) the target runs on.
Machine machine_for(const Config& config, const RuntimeParams& params);
// The machine the draft passes run on (draft runtime, draft tensor parallelism).
Machine draft_machine_for(const Config& config, const RuntimeParams& params);

}  // namespace speccalc
