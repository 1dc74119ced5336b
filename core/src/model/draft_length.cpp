#include "model/draft_length.hpp"

#include <algorithm>

namespace speccalc {

const char* const kConfidenceModel =
    "draft confidence assumed (no stored measurement of llama.cpp's draft lengths): the draft is "
    "calibrated (a kept token of confidence p is accepted with probability p); at mean "
    "acceptance a, a share 2a - 1 of positions is certain and the rest uniform over [0, 1] "
    "(a >= 1/2; below, all uniform over [0, 2a])";

namespace {
// Keep probability s = P(p >= p_min) and keep-and-accept probability m = E[p; p >= p_min] of
// one position of mean acceptance a under the confidence model above.
struct Position {
  double keep = 0, keep_accept = 0;
};

Position position(double a, double p_min) {
  const double w = a >= 0.5 ? 2.0 * a - 1.0 : 0.0;  // certain share
  const double h = a >= 0.5 ? 1.0 : 2.0 * a;        // top of the uniform part
  Position p;
  if (h <= 0) {  // a = 0: confidence 0 everywhere, kept only without a threshold
    p.keep = p_min <= 0 ? 1.0 : 0.0;
    return p;
  }
  const double lo = std::min(p_min, h);
  p.keep = w + (1.0 - w) * (h - lo) / h;
  p.keep_accept = w + (1.0 - w) * (h * h - lo * lo) / (2.0 * h);
  return p;
}
}  // namespace

DraftLengths draft_lengths(const std::vector<double>& position_acceptance, double p_min,
                           int64_t draft_min) {
  const int64_t k = static_cast<int64_t>(position_acceptance.size());
  DraftLengths d;
  d.prob.assign(k + 1, 0.0);
  d.accepted.assign(k + 1, 0.0);
  d.draft_passes.assign(k + 1, 0);
  d.verifies.assign(k + 1, false);
  // at_least[n] = P(N >= n): the first n positions all kept. run[n] = sum over i <= n of the
  // probability that positions 1..i are all accepted given kept (positions are independent).
  std::vector<double> at_least(k + 2, 0.0), run(k + 1, 0.0);
  at_least[0] = 1.0;
  double chain = 1.0;
  for (int64_t i = 1; i <= k; ++i) {
    const Position p = position(position_acceptance[i - 1], p_min);
    at_least[i] = at_least[i - 1] * p.keep;
    chain *= p.keep > 0 ? p.keep_accept / p.keep : 0.0;
    run[i] = run[i - 1] + chain;
  }
  d.tau = 0;
  for (int64_t n = 0; n <= k; ++n) {
    d.prob[n] = at_least[n] - at_least[n + 1];
    d.verifies[n] = n >= std::max<int64_t>(1, draft_min);
    d.accepted[n] = d.verifies[n] ? run[n] : 0.0;
    d.draft_passes[n] = n < k ? n + 1 : k;
    d.tau += d.prob[n] * (1.0 + d.accepted[n]);
    d.expected_kept += d.prob[n] * static_cast<double>(n);
    d.expected_passes += d.prob[n] * static_cast<double>(d.draft_passes[n]);
    if (!d.verifies[n]) d.plain_share += d.prob[n];
  }
  return d;
}

double chain_alpha_for_tau(double tau, int64_t k) {
  // tau of a chain of k at one alpha: 1 + a + a^2 + ... + a^k (products only, for parity).
  auto chain_tau = [k](double a) {
    double t = 1, run = 1;
    for (int64_t i = 0; i < k; ++i) {
      run *= a;
      t += run;
    }
    return t;
  };
  // A plain bisection rather than the tree solver's alpha search (tree::calibrate_alpha_with):
  // calling that one links its error texts and std::function into the page's module (+1.1 KB
  // gzip of first load, issue 23's 250 KB budget). tau is cut to the chain's reach by the caller.
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (chain_tau(mid) < tau ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace speccalc
