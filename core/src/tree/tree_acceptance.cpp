// Acceptance-matrix sources and one-parameter calibration (see speccalc/tree_acceptance.hpp).
#include "speccalc/tree_acceptance.hpp"

#include "config/general_format.hpp"

#include <algorithm>
#include <cmath>

namespace speccalc::tree {
namespace {

constexpr int kGrid = 1024;
constexpr int kHalvings = 60;

// Relabels "field[0]" (from a one-row matrix) as "field".
Error one_row_error(Error e, const std::string& field) {
  const std::string prefix = field + "[0]";
  if (e.field.compare(0, prefix.size(), prefix) == 0)
    e.field = field + e.field.substr(prefix.size());
  return e;
}

double tau_for_alpha(const Tree& tree, double alpha) {
  return expect_tree(tree, acceptance_from_alpha(alpha).value()).expected_tau;
}

}  // namespace

std::vector<double> geometric_rank_row(double alpha) {
  std::vector<double> row(kMaxRank);
  double left = 1.0;  // (1 - alpha)^r by repeated multiplication
  for (int r = 0; r < kMaxRank; ++r) {
    row[r] = alpha * left;
    left *= 1.0 - alpha;
  }
  return row;
}

Expected<AcceptanceMatrix> acceptance_from_alpha(double alpha, const std::string& field) {
  if (!std::isfinite(alpha) || alpha < 0.0 || alpha > 1.0) {
    return make_error(field, "must be a finite number in [0, 1]");
  }
  AcceptanceMatrix m;
  m.rows.push_back(geometric_rank_row(alpha));
  return m;
}

Expected<AcceptanceMatrix> acceptance_from_per_position(const std::vector<double>& alphas,
                                                        const std::string& field) {
  if (alphas.empty()) return make_error(field, "needs at least one rate");
  if (alphas.size() > static_cast<std::size_t>(kMaxDepth)) {
    return make_error(field, "has " + std::to_string(alphas.size()) + " rates; the limit is 64");
  }
  AcceptanceMatrix m;
  for (std::size_t d = 0; d < alphas.size(); ++d) {
    Expected<AcceptanceMatrix> row =
        acceptance_from_alpha(alphas[d], field + "[" + std::to_string(d) + "]");
    if (!row.ok()) return row.error();
    m.rows.push_back(row.value().rows[0]);
  }
  return m;
}

Expected<AcceptanceMatrix> acceptance_from_rank_vector(const std::vector<double>& p,
                                                       const std::string& field) {
  Expected<AcceptanceMatrix> m = make_acceptance({p}, field);
  if (!m.ok()) return one_row_error(m.error(), field);
  return m;
}

Expected<AcceptanceMatrix> acceptance_from_topk_accuracy(
    const std::vector<std::vector<double>>& cumulative, const std::string& field) {
  std::vector<std::vector<double>> rows(cumulative.size());
  for (std::size_t d = 0; d < cumulative.size(); ++d) {
    double previous = 0.0;
    for (std::size_t k = 0; k < cumulative[d].size(); ++k) {
      const double acc = cumulative[d][k];
      const std::string f = field + "[" + std::to_string(d) + "][" + std::to_string(k) + "]";
      if (!std::isfinite(acc) || acc < 0.0 || acc > 1.0) {
        return make_error(f, "accuracy must be a finite number in [0, 1]");
      }
      if (acc < previous) {
        return make_error(f, "top-k accuracy must not decrease with k (cumulative)");
      }
      rows[d].push_back(acc - previous);
      previous = acc;
    }
  }
  return make_acceptance(std::move(rows), field);
}

Expected<double> calibrate_alpha(const Tree& tree, double tau, const std::string& field) {
  return calibrate_alpha_with([&](double x) { return tau_for_alpha(tree, x); }, tau, field);
}

Expected<double> calibrate_alpha_with(const std::function<double(double)>& tau_of_alpha, double tau,
                                      const std::string& field) {
  if (!std::isfinite(tau) || tau < 1.0) return make_error(field, "must be a finite number >= 1");
  if (tau == 1.0) return 0.0;
  double lo = 0.0, hi = -1.0, best = 1.0;
  for (int i = 1; i <= kGrid; ++i) {
    const double a = static_cast<double>(i) / kGrid;
    const double t = tau_of_alpha(a);
    best = std::max(best, t);
    if (t >= tau) {
      hi = a;
      break;
    }
    lo = a;
  }
  if (hi < 0.0) {
    return make_error(field, "tau " + format_shortest(tau) + " is above the largest tau (" +
                                 format_shortest(best) +
                                 ") this tree reaches under the alpha model");
  }
  for (int i = 0; i < kHalvings; ++i) {  // invariant: tau(lo) < target <= tau(hi)
    const double mid = 0.5 * (lo + hi);
    if (tau_of_alpha(mid) >= tau) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

AcceptanceMatrix scale_acceptance(const AcceptanceMatrix& base, double c) {
  AcceptanceMatrix m = base;
  for (std::vector<double>& row : m.rows) {
    for (double& x : row) x = std::min(1.0, c * x);  // min only absorbs rounding at c = 1/sum
  }
  return m;
}

Expected<double> calibrate_scale(const Tree& tree, const AcceptanceMatrix& base, double tau,
                                 const std::string& field) {
  return calibrate_scale_with(
      [&](double c) { return expect_tree(tree, scale_acceptance(base, c)).expected_tau; },
      max_scale(base), tau, field);
}

double max_scale(const AcceptanceMatrix& base) {
  double max_sum = 0.0;
  for (const std::vector<double>& row : base.rows) {
    double s = 0.0;
    for (double x : row) s += x;
    max_sum = std::max(max_sum, s);
  }
  return max_sum > 0.0 ? 1.0 / max_sum : 0.0;
}

Expected<double> calibrate_scale_with(const std::function<double(double)>& tau_of_scale,
                                      double c_max, double tau, const std::string& field) {
  if (!std::isfinite(tau) || tau < 1.0) return make_error(field, "must be a finite number >= 1");
  if (c_max <= 0.0) return make_error("acceptance", "is all zeros; nothing to scale");
  if (tau == 1.0) return 0.0;
  double lo = 0.0, hi = c_max;
  const double top = tau_of_scale(hi);
  if (tau > top) {
    return make_error(field, "tau " + format_shortest(tau) + " is above the largest tau (" +
                                 format_shortest(top) +
                                 ") this tree reaches when the matrix is scaled up to row sum 1");
  }
  for (int i = 0; i < kHalvings; ++i) {  // invariant: tau(lo) < target <= tau(hi)
    const double mid = 0.5 * (lo + hi);
    if (tau_of_scale(mid) >= tau) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

}  // namespace speccalc::tree
