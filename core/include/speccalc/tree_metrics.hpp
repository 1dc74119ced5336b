// Converter between the acceptance metrics that papers and engines report.
//
// For a draft of n proposed tokens per cycle (a chain of k = n tokens, or a tree of n nodes)
// with deepest path D, per cycle:
//   tau (bonus token included)  = accepted draft tokens + 1  (the target always adds one token)
//   tau_without_bonus           = accepted draft tokens = tau - 1
//   mean_acceptance_length      = vLLM's "Mean acceptance length" = 1 + accepted / drafts = tau
//   draft_acceptance_rate       = vLLM's "Draft acceptance rate" = accepted / proposed
//                               = (tau - 1) / n
//   per_position_joint[i-1]     = P(at least i draft tokens accepted) (vLLM's per-position
//                                 acceptance rate), i = 1..D; their sum is tau - 1
//   per_position[i-1]           = P(depth i accepted | depth i-1 accepted) = joint[i-1]/joint[i-2]
//   alpha                       = the per-token acceptance that gives this tau on this draft under
//                                 the alpha rank model (tree_acceptance.hpp); for a chain,
//                                 tau = (1 - alpha^(k+1)) / (1 - alpha).
// When only a scalar is given, the per-position rates come from the alpha model (an assumption).
#pragma once

#include <string>
#include <vector>

#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc::tree {

enum class MetricKind {
  kAlpha,
  kTau,
  kTauWithoutBonus,
  kMeanAcceptanceLength,
  kDraftAcceptanceRate,
  kPerPosition,       // conditional rates, one per depth
  kPerPositionJoint,  // joint rates, one per depth
};

struct MetricInput {
  MetricKind kind = MetricKind::kTau;
  double value = 0.0;          // scalar kinds
  std::vector<double> values;  // per-position kinds (length = the draft's depth)
  std::string field = "tau";   // JSON field named in errors
};

struct Metrics {
  int draft_tokens = 0;  // proposed per cycle: k, or the tree's node count
  int depth = 0;
  bool has_alpha = false;  // false when the alpha model cannot reach tau on this tree
  double alpha = 0.0;
  double tau = 1.0;
  double tau_without_bonus = 0.0;
  double mean_acceptance_length = 1.0;
  double draft_acceptance_rate = 0.0;
  std::vector<double> per_position;
  std::vector<double> per_position_joint;
  bool per_position_from_alpha_model = false;
};

// `draft` must have at least one node (a chain: chain_tree(k)).
Expected<Metrics> convert_metrics(const Tree& draft, const MetricInput& given);

}  // namespace speccalc::tree
