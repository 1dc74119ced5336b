// The metric converter against hand calculations on a chain and a tree.
#include "speccalc/tree_metrics.hpp"

#include <gtest/gtest.h>

#include "speccalc/tree_presets.hpp"

namespace speccalc::tree {
namespace {

MetricInput scalar(MetricKind kind, double v, const char* field) {
  MetricInput in;
  in.kind = kind;
  in.value = v;
  in.field = field;
  return in;
}

// Chain k = 4, alpha = 0.8 (hand calculation):
//   joint = 0.8, 0.64, 0.512, 0.4096 (sum 2.3616); tau = 3.3616; tau without bonus 2.3616;
//   vLLM draft acceptance rate = 2.3616 / 4 = 0.5904; mean acceptance length = 3.3616.
void expect_chain_k4_alpha08(const Metrics& m) {
  EXPECT_EQ(m.draft_tokens, 4);
  EXPECT_NEAR(m.alpha, 0.8, 1e-12);
  EXPECT_NEAR(m.tau, 3.3616, 1e-12);
  EXPECT_NEAR(m.tau_without_bonus, 2.3616, 1e-12);
  EXPECT_NEAR(m.mean_acceptance_length, 3.3616, 1e-12);
  EXPECT_NEAR(m.draft_acceptance_rate, 0.5904, 1e-12);
  const std::vector<double> joint = {0.8, 0.64, 0.512, 0.4096};
  ASSERT_EQ(m.per_position_joint.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(m.per_position_joint[i], joint[i], 1e-12) << i;
    EXPECT_NEAR(m.per_position[i], 0.8, 1e-12) << i;
  }
}

TEST(Metrics, ChainFromEveryInputAgrees) {
  const Tree chain = chain_tree(4);
  expect_chain_k4_alpha08(convert_metrics(chain, scalar(MetricKind::kAlpha, 0.8, "alpha")).value());
  expect_chain_k4_alpha08(convert_metrics(chain, scalar(MetricKind::kTau, 3.3616, "tau")).value());
  expect_chain_k4_alpha08(
      convert_metrics(chain, scalar(MetricKind::kTauWithoutBonus, 2.3616, "x")).value());
  expect_chain_k4_alpha08(
      convert_metrics(chain, scalar(MetricKind::kMeanAcceptanceLength, 3.3616, "x")).value());
  expect_chain_k4_alpha08(
      convert_metrics(chain, scalar(MetricKind::kDraftAcceptanceRate, 0.5904, "x")).value());
  MetricInput cond;
  cond.kind = MetricKind::kPerPosition;
  cond.values = {0.8, 0.8, 0.8, 0.8};
  expect_chain_k4_alpha08(convert_metrics(chain, cond).value());
  MetricInput joint;
  joint.kind = MetricKind::kPerPositionJoint;
  joint.values = {0.8, 0.64, 0.512, 0.4096};
  expect_chain_k4_alpha08(convert_metrics(chain, joint).value());
}

TEST(Metrics, GivenPerPositionRatesAreKept) {
  // Conditional [0.9, 0.5]: joint 0.9, 0.45; tau = 2.35; rate = 1.35 / 2 = 0.675.
  MetricInput in;
  in.kind = MetricKind::kPerPosition;
  in.values = {0.9, 0.5};
  const Metrics m = convert_metrics(chain_tree(2), in).value();
  EXPECT_NEAR(m.tau, 2.35, 1e-15);
  EXPECT_NEAR(m.draft_acceptance_rate, 0.675, 1e-15);
  EXPECT_FALSE(m.per_position_from_alpha_model);
  EXPECT_EQ(m.per_position, (std::vector<double>{0.9, 0.5}));
}

TEST(Metrics, TreeUsesNodeCountForTheDraftAcceptanceRate) {
  // EAGLE-1 tree, 25 nodes, depth 5; tau 3.5 -> accepted 2.5 of 25 proposed = 0.1.
  const Metrics m =
      convert_metrics(eagle1_default_tree(), scalar(MetricKind::kTau, 3.5, "tau")).value();
  EXPECT_EQ(m.draft_tokens, 25);
  EXPECT_NEAR(m.draft_acceptance_rate, 0.1, 1e-15);
  EXPECT_TRUE(m.has_alpha);
  double sum = 0.0;
  for (double j : m.per_position_joint) sum += j;
  EXPECT_NEAR(sum, 2.5, 1e-9);  // joint rates sum to tau - 1 (alpha fitted to 1e-18 width)
}

TEST(Metrics, RejectsImpossibleValuesNamingTheField) {
  const Tree chain = chain_tree(4);
  EXPECT_EQ(convert_metrics(chain, scalar(MetricKind::kTau, 5.5, "tau")).error().field, "tau");
  EXPECT_EQ(convert_metrics(chain, scalar(MetricKind::kTau, 0.9, "tau")).error().field, "tau");
  EXPECT_EQ(
      convert_metrics(chain, scalar(MetricKind::kDraftAcceptanceRate, 1.2, "rate")).error().field,
      "rate");
  MetricInput joint;
  joint.kind = MetricKind::kPerPositionJoint;
  joint.field = "per_position_joint";
  joint.values = {0.5, 0.6, 0.1, 0.0};
  EXPECT_EQ(convert_metrics(chain, joint).error().field, "per_position_joint[1]");
  joint.values = {0.5};
  EXPECT_EQ(convert_metrics(chain, joint).error().field, "per_position_joint");
}

}  // namespace
}  // namespace speccalc::tree
