// Metric conversions (definitions in speccalc/tree_metrics.hpp).
#include "speccalc/tree_metrics.hpp"

#include "config/general_format.hpp"

#include <cmath>

#include "speccalc/tree_acceptance.hpp"

namespace speccalc::tree {
namespace {

bool in_unit(double x) { return std::isfinite(x) && x >= 0.0 && x <= 1.0; }

void joint_from_pmf(const std::vector<double>& pmf, std::vector<double>& joint) {
  const int depth = static_cast<int>(pmf.size()) - 1;
  joint.assign(depth, 0.0);
  double tail = 0.0;  // P(accepted >= i), summed from the deepest level up
  for (int i = depth; i >= 1; --i) {
    tail += pmf[i];
    joint[i - 1] = tail;
  }
}

void conditional_from_joint(const std::vector<double>& joint, std::vector<double>& cond) {
  cond.assign(joint.size(), 0.0);
  double previous = 1.0;
  for (std::size_t i = 0; i < joint.size(); ++i) {
    cond[i] = previous > 0.0 ? joint[i] / previous : 0.0;
    previous = joint[i];
  }
}

}  // namespace

Expected<Metrics> convert_metrics(const Tree& draft, const MetricInput& given) {
  Metrics m;
  m.draft_tokens = draft.size();
  m.depth = draft.max_depth();
  if (m.draft_tokens < 1) return make_error("k", "the draft needs at least one token");
  const double n = m.draft_tokens;
  const double top = 1.0 + m.depth;  // every level accepted along the deepest path
  double tau = 1.0;
  switch (given.kind) {
    case MetricKind::kAlpha: {
      Expected<AcceptanceMatrix> acc = acceptance_from_alpha(given.value, given.field);
      if (!acc.ok()) return acc.error();
      tau = expect_tree(draft, acc.value()).expected_tau;
      break;
    }
    case MetricKind::kTau:
    case MetricKind::kMeanAcceptanceLength:
      tau = given.value;
      break;
    case MetricKind::kTauWithoutBonus:
      tau = given.value + 1.0;
      break;
    case MetricKind::kDraftAcceptanceRate:
      if (!in_unit(given.value)) return make_error(given.field, "must be a number in [0, 1]");
      tau = 1.0 + given.value * n;
      break;
    case MetricKind::kPerPosition:
    case MetricKind::kPerPositionJoint: {
      if (given.values.size() != static_cast<std::size_t>(m.depth)) {
        return make_error(given.field, "needs one rate per draft depth (" +
                                           std::to_string(m.depth) + "), got " +
                                           std::to_string(given.values.size()));
      }
      double previous = 1.0;
      for (std::size_t i = 0; i < given.values.size(); ++i) {
        const double x = given.values[i];
        const std::string f = given.field + "[" + std::to_string(i) + "]";
        if (!in_unit(x)) return make_error(f, "must be a number in [0, 1]");
        if (given.kind == MetricKind::kPerPositionJoint && x > previous) {
          return make_error(f, "joint acceptance cannot increase with position");
        }
        previous = x;
      }
      if (given.kind == MetricKind::kPerPosition) {
        m.per_position = given.values;
        m.per_position_joint.resize(given.values.size());
        double joint = 1.0;
        for (std::size_t i = 0; i < given.values.size(); ++i) {
          joint *= given.values[i];
          m.per_position_joint[i] = joint;
        }
      } else {
        m.per_position_joint = given.values;
        conditional_from_joint(m.per_position_joint, m.per_position);
      }
      tau = 1.0;
      for (double j : m.per_position_joint) tau += j;
      break;
    }
  }
  if (!std::isfinite(tau) || tau < 1.0 || tau > top + 1e-12) {
    return make_error(given.field, "gives tau = " + format_shortest(tau) + ", outside [1, " +
                                       format_shortest(top) + "] for a draft of depth " +
                                       std::to_string(m.depth));
  }
  m.tau = tau;
  m.mean_acceptance_length = tau;
  m.tau_without_bonus = tau - 1.0;
  m.draft_acceptance_rate = (tau - 1.0) / n;
  if (given.kind == MetricKind::kAlpha) {
    m.has_alpha = true;
    m.alpha = given.value;
  } else {
    Expected<double> a = calibrate_alpha(draft, tau, given.field);
    m.has_alpha = a.ok();
    if (a.ok()) m.alpha = a.value();
  }
  if (m.per_position.empty() && m.has_alpha) {
    const TreeExpectation e = expect_tree(draft, acceptance_from_alpha(m.alpha).value());
    joint_from_pmf(e.tau_pmf, m.per_position_joint);
    conditional_from_joint(m.per_position_joint, m.per_position);
    m.per_position_from_alpha_model = true;
  }
  return m;
}

}  // namespace speccalc::tree
