#include "model/trace_models.hpp"

#include <algorithm>

#include "config/json_fields.hpp"

namespace speccalc {

namespace {

constexpr int kMaxK = 8;  // the traces' replayed chains: k = 1..8

double abs_value(double x) { return x < 0 ? -x : x; }

double power(double x, int64_t n) {
  double out = 1;
  for (int64_t i = 0; i < n; ++i) out *= x;
  return out;
}

void score(const WorkloadProposer& p, TraceModel* m) {
  m->max_error_pct = 0;
  for (int k = 1; k <= kMaxK && k <= static_cast<int>(p.tau_by_k.size()); ++k) {
    const double measured = p.tau_by_k[k - 1];
    const double e = 100.0 * abs_value(m->tau_by_k[k - 1] - measured) / measured;
    m->max_error_pct = std::max(m->max_error_pct, e);
  }
}

}  // namespace

double CycleSurvival::at(int64_t j) const {
  if (j < 1) return 1;
  const auto n = static_cast<int64_t>(s.size());
  if (j <= n) return s[j - 1];
  return s.back() * power(tail_ratio, j - n);
}

double CycleSurvival::mean() const {
  double sum = 0;
  for (double v : s) sum += v;
  return sum + s.back() * tail_ratio / (1 - tail_ratio);
}

TraceModel runs_model(const WorkloadProposer& p) {
  TraceModel m;
  m.id = "runs";
  const std::vector<double>& h = p.acc_len_hist;
  double total = 0;
  for (double v : h) total += v;
  if (h.size() != 16 || total <= 0 || h[0] <= 0) {
    m.inconsistency = "no acc_len histogram";
    return m;
  }
  // Run starts: P(A >= j) = h(j) / h(1) for j = 1..15 (the histogram normalized to sum 1, as
  // its entries are rounded). A histogram that rises with j cannot come from runs.
  for (std::size_t j = 1; j < 15; ++j) {
    if (h[j] > h[j - 1]) {
      m.inconsistency = "the histogram rises from acc_len " + std::to_string(j) + " to " +
                        std::to_string(j + 1) + " (" + fields::format_number(h[j - 1]) + " -> " +
                        fields::format_number(h[j]) +
                        "), which runs (acc_len falling by one per position) cannot produce";
      return m;
    }
  }
  for (std::size_t j = 0; j < 15; ++j) m.oracle.s.push_back(h[j] / h[0]);
  // The 16+ bucket is the runs' mean excess over 15: sum over j >= 16 of P(A >= j) =
  // h(16+) / h(1). Spread as a geometric tail from P(A >= 15) with that sum (ratio
  // r = T / (T + P(A >= 15))). The oracle's mean does not use the split: it is 1 / h(1).
  const double tail = h[15] / h[0];
  const double s15 = m.oracle.s.back();
  if (tail > 0 && s15 <= 0) {
    m.inconsistency = "acc_len 16+ holds positions but acc_len 15 none";
    return m;
  }
  m.oracle.tail_ratio = tail > 0 ? tail / (tail + s15) : 0;
  m.consistent = true;
  // A chain of k covers a run of a tokens in ceil(a / (k + 1)) cycles: replayed tau =
  // E[A] / E[ceil(A / m)], E[ceil(A / m)] = sum over i >= 0 of P(A >= i m + 1).
  const double mean = m.oracle.mean();
  const auto n = static_cast<int64_t>(m.oracle.s.size());
  for (int64_t k = 1; k <= kMaxK; ++k) {
    const int64_t step = k + 1;
    double cycles = 0;
    int64_t j = 1;
    for (; j <= n; j += step) cycles += m.oracle.s[j - 1];
    // The rest lie in the geometric tail: S(j), S(j + m), ... with ratio r^m.
    const double r_step = power(m.oracle.tail_ratio, step);
    cycles += m.oracle.at(j) / (1 - r_step);
    m.tau_by_k.push_back(mean / cycles);
  }
  score(p, &m);
  return m;
}

TraceModel independent_cycles_model(const WorkloadProposer& p) {
  TraceModel m;
  m.id = "independent_cycles";
  const std::vector<double>& a = p.per_position_k8;
  if (a.size() != static_cast<std::size_t>(kMaxK)) {
    m.inconsistency = "no per-position acceptance for k = 8";
    return m;
  }
  for (double v : a) {
    if (!(v > 0 && v < 1)) {
      m.inconsistency = "a per-position acceptance is not strictly between 0 and 1";
      return m;
    }
  }
  // P(tokens >= j) = the product of the conditional acceptances of positions 1..j-1.
  m.oracle.s.push_back(1);
  for (double v : a) m.oracle.s.push_back(m.oracle.s.back() * v);
  m.oracle.tail_ratio = a.back();
  m.consistent = true;
  for (int k = 1; k <= kMaxK; ++k) {
    double tau = 0;
    for (int j = 1; j <= k + 1; ++j) tau += m.oracle.s[j - 1];
    m.tau_by_k.push_back(tau);
  }
  score(p, &m);
  return m;
}

TraceModelChoice choose_trace_model(const WorkloadProposer& p) {
  TraceModel runs = runs_model(p);
  TraceModel fresh = independent_cycles_model(p);
  TraceModelChoice c;
  c.ok = runs.consistent || fresh.consistent;
  const bool runs_first =
      runs.consistent && (!fresh.consistent || runs.max_error_pct < fresh.max_error_pct);
  c.chosen = runs_first ? runs : fresh;
  c.other = runs_first ? fresh : runs;
  return c;
}

BestOfTwo best_of_two(const CycleSurvival& a, const CycleSurvival& b) {
  // Sum over j of P(max >= j) under each coupling, until both survivals are negligible.
  BestOfTwo out;
  const auto na = static_cast<int64_t>(a.s.size());
  const auto nb = static_cast<int64_t>(b.s.size());
  double sa = 1, sb = 1;
  int64_t j = 1;
  constexpr int64_t kMaxTerms = 1000000;
  for (; j <= kMaxTerms && (j <= na || j <= nb || sa + sb > 1e-16); ++j) {
    sa = j <= na ? a.s[j - 1] : sa * a.tail_ratio;
    sb = j <= nb ? b.s[j - 1] : sb * b.tail_ratio;
    out.comonotone += std::max(sa, sb);
    out.independent += 1 - (1 - sa) * (1 - sb);
    out.countermonotone += std::min(1.0, sa + sb);
  }
  if (j > kMaxTerms) {
    // Tails this long (a ratio within 1e-5 of 1) do not occur in the data; bound the rest.
    const double ra = sa * a.tail_ratio / (1 - a.tail_ratio);
    const double rb = sb * b.tail_ratio / (1 - b.tail_ratio);
    out.comonotone += std::max(ra, rb);
    out.independent += ra + rb;
    out.countermonotone += ra + rb;
  }
  return out;
}

}  // namespace speccalc
