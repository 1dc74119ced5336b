// Serving under load: continuous batching in steady state (issue 21).
//
// One engine step decodes every sequence in flight (tau tokens per sequence per step under
// speculation, bonus token included; 1 without) and carries prompt chunks within the step's
// token budget (chunked prefill). Its time is the cost model's cycle at that decode batch
// (time_cycle, the same as `eval` at that batch) plus the prompt tokens' own compute. Little's law
// ties the sequences in flight to the arrival rate and the time a request spends in the engine;
// the decode batch is the fixed point B = rate x decode_duration_s(B). Past the rate the setup can
// serve, the state says so (the queue grows without bound) instead of a number.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/config.hpp"

namespace speccalc {

// One way of decoding (plain, or speculative with one draft shape) at every decode batch.
struct LoadOption {
  std::string name;                 // "off" (plain decoding) or the method, e.g. "k=3"
  int64_t k = 0;                    // draft tokens per step (0: plain)
  double tau = 1;                   // tokens per step per sequence, bonus token included
  int64_t step_tokens_per_seq = 1;  // tokens per sequence a step verifies (k + 1; 1 plain)
  std::vector<double> step_s;       // [B - 1]: decode step time at batch B, B = 1..seq_cap
  int64_t max_num_seqs = 0;         // the engine's cap
  int64_t memory_seqs = 0;          // sequences whose KV (mean context) fits in memory
  int64_t seq_cap() const { return max_num_seqs < memory_seqs ? max_num_seqs : memory_seqs; }
};

// What every option shares: the requests and the engine's step budget.
struct LoadRequests {
  double input_tokens = 0;         // mean prompt tokens per request
  double output_tokens = 0;        // mean output tokens per request (the first included)
  int64_t budget_tokens = 0;       // max_num_batched_tokens: tokens one step may process
  double prefill_s_per_token = 0;  // compute of one prompt token (weights already streamed)
  double request_overhead_s = 0;   // the engine's setup once per request (runtime.hpp)
};

enum class LoadState { steady, over_capacity };

// One solved operating point. Times in seconds, rates per second.
struct LoadPoint {
  LoadState state = LoadState::over_capacity;
  std::string limit;                   // over capacity: what runs out (sequence cap, memory, ...)
  double rate_rps = 0;                 // requests per second served (arrival rate in steady state)
  double step_s = 0;                   // mean engine step: decode cycle + prompt compute it carries
  double decode_batch = 0;             // sequences decoding in a step (= rate x decode_s, Little)
  double prefill_seqs = 0;             // sequences waiting for their first token (= rate x ttft_s)
  double in_flight = 0;                // decode_batch + prefill_seqs (= rate x e2e_s, Little)
  double prefill_tokens_per_step = 0;  // prompt tokens a step carries (= rate x input x step)
  double decode_s = 0;                 // a request's decode phase: (output - 1) / tau steps
  double tpot_s = 0;                   // time per output token after the first: step_s / tau
  double ttft_s = 0;                   // prompt chunks x step + the prompt's own compute
                                       // + the request's setup
  double e2e_s = 0;                    // ttft_s + decode_s
  double output_tokens_per_s = 0;      // all users: rate x output tokens
  double output_tokens_per_s_per_user = 0;  // one request while decoding: tau / step_s
  bool meets_slo = false;
  double goodput_rps = 0;  // requests per second meeting the SLO (mean-value: all or none)
};

// Open loop: requests arrive at rate_rps.
LoadPoint solve_at_rate(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                        double rate_rps);
// Closed loop: `concurrency` requests in flight at all times (each user sends the next request
// when the last one finishes); the served rate is solved so that rate x e2e_s = concurrency.
LoadPoint solve_at_concurrency(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                               int64_t concurrency);
// The highest rate the option serves in steady state (bisection to 1e-9 relative).
double capacity_rps(const LoadOption& o, const LoadRequests& r);
// The highest rate whose point meets the SLO (capacity_rps when no SLO is set; 0 when none).
double max_rate_meeting_slo_rps(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                                double capacity);

const char* load_state_name(LoadState s);

}  // namespace speccalc
