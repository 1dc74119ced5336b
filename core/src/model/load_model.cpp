#include "model/load_model.hpp"

#include "config/general_format.hpp"

#include <algorithm>
#include <cmath>

namespace speccalc {

namespace {

// Decode step at a real decode batch B: the cost model's step at the integer batches around B,
// linear between them (the batch fluctuates around its mean); below one sequence a step still
// runs one sequence.
double step_at(const LoadOption& o, double b) {
  if (b <= 1) return o.step_s[0];
  const auto n = static_cast<double>(o.step_s.size());
  if (b >= n) return o.step_s.back();
  const auto i = static_cast<std::size_t>(std::floor(b));
  const double f = b - static_cast<double>(i);
  return o.step_s[i - 1] + f * (o.step_s[i] - o.step_s[i - 1]);
}

bool meets(const LoadPoint& p, const LoadSlo& slo) {
  if (p.state != LoadState::steady) return false;
  return (slo.tpot_s <= 0 || p.tpot_s <= slo.tpot_s) &&
         (slo.ttft_s <= 0 || p.ttft_s <= slo.ttft_s) && (slo.e2e_s <= 0 || p.e2e_s <= slo.e2e_s);
}

LoadPoint over(double rate_rps, const std::string& limit) {
  LoadPoint p;
  p.state = LoadState::over_capacity;
  p.limit = limit;
  p.rate_rps = rate_rps;
  return p;
}

}  // namespace

const char* load_state_name(LoadState s) {
  return s == LoadState::steady ? "steady" : "over_capacity";
}

LoadPoint solve_at_rate(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                        double rate_rps) {
  const int64_t cap = o.seq_cap();
  if (cap < 1 || o.step_s.empty())
    return over(rate_rps, "memory: not one sequence's KV cache fits beside the weights");
  // Decode steps per request: the first output token comes from the last prompt chunk, the
  // other output_tokens - 1 at tau per step (tau counts the bonus token).
  const double decode_steps = (r.output_tokens - 1) / o.tau;
  // Fraction of GPU time the prompts' own compute takes: rate x prompt tokens x s per token.
  const double prefill_share = rate_rps * r.input_tokens * r.prefill_s_per_token;
  if (prefill_share >= 1) return over(rate_rps, "compute: the prompts alone fill every step");
  // Step time T(B) = decode_step(B) / (1 - prefill_share); the decode batch is the fixed point
  // B = rate x decode_steps x T(B) = gain x decode_step(B).
  const double gain = rate_rps * decode_steps / (1 - prefill_share);
  const int64_t table = static_cast<int64_t>(o.step_s.size());
  double b = -1;
  if (gain * o.step_s[0] <= 1) {
    b = gain * o.step_s[0];  // below one sequence: the step is that of one sequence
  } else {
    for (int64_t i = 1; i < table; ++i) {
      // On [i, i + 1] the step is a + s (B - i): the root of gain (a + s (B - i)) = B.
      const double a = o.step_s[static_cast<std::size_t>(i - 1)];
      const double s = o.step_s[static_cast<std::size_t>(i)] - a;
      if (gain * (a + s) <= static_cast<double>(i + 1)) {
        b = gain * (a - s * static_cast<double>(i)) / (1 - gain * s);
        break;
      }
    }
  }
  const std::string cap_limit = o.max_num_seqs <= o.memory_seqs
                                    ? "max_num_seqs: the decode batch would exceed " +
                                          std::to_string(o.max_num_seqs) + " sequences"
                                    : "memory: the KV cache of more than " +
                                          std::to_string(o.memory_seqs) + " sequences does not fit";
  if (b < 0) return over(rate_rps, cap_limit);
  LoadPoint p;
  p.state = LoadState::steady;
  p.rate_rps = rate_rps;
  p.decode_batch = b;
  p.step_s = step_at(o, b) / (1 - prefill_share);
  p.prefill_tokens_per_step = rate_rps * r.input_tokens * p.step_s;
  const double free_tokens =
      static_cast<double>(r.budget_tokens) - static_cast<double>(o.step_tokens_per_seq) * b;
  if (free_tokens <= 0 || p.prefill_tokens_per_step > free_tokens)
    return over(rate_rps, "max_num_batched_tokens: decode and prompt tokens exceed " +
                              std::to_string(r.budget_tokens) + " per step");
  // A prompt rides ceil(input / free budget) steps, each a mean step, plus its own compute.
  const double chunks = std::max(1.0, std::ceil(r.input_tokens / free_tokens));
  p.ttft_s = chunks * p.step_s + r.input_tokens * r.prefill_s_per_token + r.request_overhead_s;
  p.decode_s = decode_steps * p.step_s;
  p.e2e_s = p.ttft_s + p.decode_s;
  p.prefill_seqs = rate_rps * p.ttft_s;
  p.in_flight = p.decode_batch + p.prefill_seqs;
  if (p.in_flight > static_cast<double>(cap)) return over(rate_rps, cap_limit);
  p.tpot_s = p.step_s / o.tau;
  p.output_tokens_per_s = rate_rps * r.output_tokens;
  p.output_tokens_per_s_per_user = o.tau / p.step_s;
  p.meets_slo = meets(p, slo);
  p.goodput_rps = p.meets_slo ? rate_rps : 0;
  return p;
}

double capacity_rps(const LoadOption& o, const LoadRequests& r) {
  const LoadSlo none;
  double lo = 0, hi = 1;
  while (hi < ConfigLimits::kMaxRateRps && solve_at_rate(o, r, none, hi).state == LoadState::steady)
    hi *= 2;
  if (hi >= ConfigLimits::kMaxRateRps) return ConfigLimits::kMaxRateRps;
  for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (solve_at_rate(o, r, none, mid).state == LoadState::steady ? lo : hi) = mid;
  }
  return lo;
}

double max_rate_meeting_slo_rps(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                                double capacity) {
  if (capacity <= 0) return 0;
  // Latencies grow with the rate: bisection on [0, capacity].
  double lo = 0, hi = capacity;
  if (solve_at_rate(o, r, slo, hi).meets_slo) return hi;
  if (!solve_at_rate(o, r, slo, 1e-9 * capacity).meets_slo) return 0;
  for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (solve_at_rate(o, r, slo, mid).meets_slo ? lo : hi) = mid;
  }
  return lo;
}

LoadPoint solve_at_concurrency(const LoadOption& o, const LoadRequests& r, const LoadSlo& slo,
                               int64_t concurrency) {
  const auto n = static_cast<double>(concurrency);
  if (concurrency > o.seq_cap()) {
    LoadPoint p =
        over(0, o.max_num_seqs <= o.memory_seqs
                    ? "max_num_seqs: " + std::to_string(concurrency) +
                          " requests in flight exceed " + std::to_string(o.max_num_seqs)
                    : "memory: the KV cache of " + std::to_string(concurrency) +
                          " sequences does not fit (" + std::to_string(o.memory_seqs) + " do)");
    return p;
  }
  // In flight = rate x e2e grows with the rate: bisection for the rate that holds n in flight.
  const double cap = capacity_rps(o, r);
  double lo = 0, hi = cap;
  const LoadPoint top = solve_at_rate(o, r, slo, hi);
  if (top.state == LoadState::steady && top.in_flight < n) {
    // The step saturates (compute or the token budget) before n are in flight: the rest queue.
    return over(top.rate_rps, "saturated: at most " + format_general(top.in_flight, 3) +
                                  " requests in flight before the steps fill; more wait in a "
                                  "queue that grows without bound");
  }
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    const LoadPoint p = solve_at_rate(o, r, slo, mid);
    (p.state == LoadState::steady && p.in_flight < n ? lo : hi) = mid;
  }
  return solve_at_rate(o, r, slo, lo);
}

}  // namespace speccalc
