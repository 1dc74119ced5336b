// Acceptance sources (alpha model, rank vector, top-k accuracies, Medusa table) and calibration.
#include "speccalc/tree_acceptance.hpp"

#include <gtest/gtest.h>

#include "speccalc/tree_presets.hpp"

namespace speccalc::tree {
namespace {

TEST(AcceptanceSources, AlphaModelIsGeometricOverRanks) {
  // alpha = 0.6: p[r] = 0.6 * 0.4^r -> 0.6, 0.24, 0.096, ...; 64 ranks; sum 1 - 0.4^64.
  const AcceptanceMatrix m = acceptance_from_alpha(0.6).value();
  ASSERT_EQ(m.rows.size(), 1u);
  ASSERT_EQ(m.rows[0].size(), 64u);
  EXPECT_DOUBLE_EQ(m.p(0, 0), 0.6);
  EXPECT_DOUBLE_EQ(m.p(0, 1), 0.24);
  EXPECT_DOUBLE_EQ(m.p(5, 2), 0.096);
  EXPECT_EQ(acceptance_from_alpha(1.5).error().field, "acceptance.alpha");
  EXPECT_EQ(acceptance_from_alpha(1.0).value().p(0, 1), 0.0);
}

TEST(AcceptanceSources, PerPositionReproducesAChainsRates) {
  // Rates [0.9, 0.6] on a chain of 3: tau = 1 + 0.9 + 0.9*0.6 + 0.9*0.6*0.6 = 2.764
  // (the third depth repeats the last rate).
  const AcceptanceMatrix m = acceptance_from_per_position({0.9, 0.6}).value();
  EXPECT_NEAR(expect_tree(chain_tree(3), m).expected_tau, 2.764, 1e-15);
  EXPECT_DOUBLE_EQ(m.p(0, 1), 0.9 * 0.1);  // geometric ranks at each depth
  EXPECT_EQ(acceptance_from_per_position({0.9, 1.1}).error().field, "acceptance.per_position[1]");
  EXPECT_FALSE(acceptance_from_per_position({}).ok());
}

TEST(AcceptanceSources, RankVectorErrorsNameTheEntry) {
  EXPECT_TRUE(acceptance_from_rank_vector({0.5, 0.2}).ok());
  Expected<AcceptanceMatrix> bad = acceptance_from_rank_vector({0.5, 1.2});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "acceptance.rank_vector[1]");
  Expected<AcceptanceMatrix> sum = acceptance_from_rank_vector({0.7, 0.7});
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.error().field, "acceptance.rank_vector");
}

TEST(AcceptanceSources, TopkAccuracyBecomesPerRankMass) {
  // cumulative [0.5, 0.7, 0.8] -> per rank [0.5, 0.2, 0.1] (differences).
  const AcceptanceMatrix m = acceptance_from_topk_accuracy({{0.5, 0.7, 0.8}}).value();
  EXPECT_DOUBLE_EQ(m.p(0, 0), 0.5);
  EXPECT_NEAR(m.p(0, 1), 0.2, 1e-15);
  EXPECT_NEAR(m.p(0, 2), 0.1, 1e-15);
  Expected<AcceptanceMatrix> dec = acceptance_from_topk_accuracy({{0.5, 0.4}});
  ASSERT_FALSE(dec.ok());
  EXPECT_EQ(dec.error().field, "acceptance.topk_accuracy[0][1]");
}

TEST(AcceptanceSources, MedusaTableComesFromTheEmbeddedData) {
  // Medusa assets/medusa_acc.csv, vicuna-7b head 0: top-1 0.5603876709938049,
  // top-2 0.6717196702957153 -> p[0][1] = 0.1113319992...; head 4 top-1 0.11754472553730012.
  const AcceptanceMatrix m = medusa_acceptance("vicuna-7b").value();
  ASSERT_EQ(m.rows.size(), 5u);
  EXPECT_EQ(m.p(0, 0), 0.5603876709938049);
  EXPECT_NEAR(m.p(0, 1), 0.6717196702957153 - 0.5603876709938049, 1e-16);
  EXPECT_EQ(m.p(4, 0), 0.11754472553730012);
  EXPECT_TRUE(medusa_acceptance("vicuna-33b-v1.3").ok());
  EXPECT_EQ(medusa_acceptance("llama").error().field, "acceptance.medusa");
}

TEST(Calibration, AlphaRoundTripsOnAChain) {
  // k = 4, alpha = 0.7: tau = (1 - 0.7^5) / 0.3 = (1 - 0.16807) / 0.3 = 2.7731.
  Expected<double> a = calibrate_alpha(chain_tree(4), 2.7731);
  ASSERT_TRUE(a.ok()) << a.error().describe();
  EXPECT_NEAR(a.value(), 0.7, 1e-12);
  EXPECT_EQ(calibrate_alpha(chain_tree(4), 1.0).value(), 0.0);
  EXPECT_NEAR(calibrate_alpha(chain_tree(4), 5.0).value(), 1.0, 1e-12);
  EXPECT_EQ(calibrate_alpha(chain_tree(4), 5.5).error().field, "tau");
  EXPECT_EQ(calibrate_alpha(chain_tree(4), 0.5).error().field, "tau");
}

TEST(Calibration, AlphaReproducesTauOnATree) {
  const Tree t = eagle1_default_tree();
  const double target = expect_tree(t, acceptance_from_alpha(0.62).value()).expected_tau;
  const double a = calibrate_alpha(t, target).value();
  EXPECT_NEAR(expect_tree(t, acceptance_from_alpha(a).value()).expected_tau, target, 1e-12);
}

TEST(Calibration, ScaleReproducesTau) {
  // A known scale: c = 0.8 on the Medusa vicuna-7b table, recovered by bisection.
  const Tree t = medusa_mc_sim_7b_63();
  const AcceptanceMatrix base = medusa_acceptance("vicuna-7b").value();
  const double target = expect_tree(t, scale_acceptance(base, 0.8)).expected_tau;
  Expected<double> c = calibrate_scale(t, base, target);
  ASSERT_TRUE(c.ok()) << c.error().describe();
  EXPECT_NEAR(c.value(), 0.8, 1e-9);
  EXPECT_EQ(calibrate_scale(t, base, 100.0).error().field, "tau");
}

}  // namespace
}  // namespace speccalc::tree
