// Tree validation, exact expectation and distribution, chain closed form, Monte Carlo check.
#include "speccalc/tree.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc::tree {
namespace {

AcceptanceMatrix matrix(std::vector<std::vector<double>> rows) {
  Expected<AcceptanceMatrix> m = make_acceptance(std::move(rows));
  EXPECT_TRUE(m.ok()) << m.error().describe();
  return m.value();
}

TEST(Tree, AcceptsPrefixClosedChoicesInAnyOrder) {
  Expected<Tree> t = make_tree({{0, 1}, {0}, {1}, {0, 1, 0}});
  ASSERT_TRUE(t.ok()) << t.error().describe();
  EXPECT_EQ(t.value().size(), 4);
  EXPECT_EQ(t.value().max_depth(), 3);
  EXPECT_EQ(t.value().parent[0], 1);  // [0, 1] hangs under [0], listed second
  EXPECT_EQ(t.value().parent[3], 0);
  EXPECT_EQ(t.value().nodes_per_depth(), (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(t.value().choices(), (std::vector<std::vector<int>>{{0, 1}, {0}, {1}, {0, 1, 0}}));
}

TEST(Tree, RejectsMissingParentNamingTheEntry) {
  Expected<Tree> t = make_tree({{0}, {1}, {0, 0}, {2, 0}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().field, "choices[3]");
  EXPECT_NE(t.error().message.find("no parent [2]"), std::string::npos) << t.error().message;
}

TEST(Tree, RejectsDuplicatesNegativeAndLargeRanksEmptyAndDeepPaths) {
  Expected<Tree> dup = make_tree({{0}, {0}});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().field, "choices[1]");
  EXPECT_NE(dup.error().message.find("duplicates choices[0]"), std::string::npos);

  Expected<Tree> neg = make_tree({{0}, {0, -1}});
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.error().field, "choices[1][1]");

  Expected<Tree> big = make_tree({{64}});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().field, "choices[0][0]");

  Expected<Tree> empty = make_tree({{0}, {}});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().field, "choices[1]");

  std::vector<std::vector<int>> deep;
  for (int d = 1; d <= 65; ++d) deep.push_back(std::vector<int>(d, 0));
  Expected<Tree> too_deep = make_tree(deep);
  ASSERT_FALSE(too_deep.ok());
  EXPECT_EQ(too_deep.error().field, "choices[64]");
}

TEST(Tree, RejectsMoreThan4096Nodes) {
  std::vector<std::vector<int>> wide;
  for (int i = 0; i < 4097; ++i) wide.push_back({i % 64, i / 64});  // parents missing too
  Expected<Tree> t = make_tree(wide);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().field, "choices");
}

TEST(AcceptanceMatrix, RejectsBadEntriesAndRowSumsNamingTheCell) {
  Expected<AcceptanceMatrix> neg = make_acceptance({{0.5}, {0.2, -0.1}});
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.error().field, "acceptance.p[1][1]");
  Expected<AcceptanceMatrix> sum = make_acceptance({{0.6, 0.5}});
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.error().field, "acceptance.p[0]");
  Expected<AcceptanceMatrix> nan = make_acceptance({{std::nan("")}});
  ASSERT_FALSE(nan.ok());
  EXPECT_EQ(nan.error().field, "acceptance.p[0][0]");
  EXPECT_FALSE(make_acceptance({}).ok());
  EXPECT_FALSE(make_acceptance({{}}).ok());
  EXPECT_FALSE(make_acceptance({std::vector<double>(65, 0.0)}).ok());
  EXPECT_FALSE(make_acceptance(std::vector<std::vector<double>>(65, {0.1})).ok());
  // Exactly 1 plus rounding is allowed: 0.1 * 10 sums to 0.9999999999999999.
  EXPECT_TRUE(make_acceptance({std::vector<double>(10, 0.1)}).ok());
}

TEST(AcceptanceMatrix, RepeatsLastRowAndZeroPadsRanks) {
  const AcceptanceMatrix m = matrix({{0.5, 0.25}, {0.75}});
  EXPECT_EQ(m.p(0, 1), 0.25);
  EXPECT_EQ(m.p(1, 0), 0.75);
  EXPECT_EQ(m.p(7, 0), 0.75);  // beyond the matrix: last row
  EXPECT_EQ(m.p(1, 1), 0.0);   // beyond the row: probability 0
}

TEST(TreeExpect, SmallTreeMatchesHandCalculation) {
  // Tree [[0], [1], [0, 0], [0, 1]], p = [[0.5, 0.25], [0.5, 0.25]].
  // node probs: [0] 0.5, [1] 0.25, [0,0] 0.25, [0,1] 0.125; tau = 1 + 1.125 = 2.125.
  // P(tau=1) = 1 - 0.75 = 0.25; P(tau=2) = 0.5*(1-0.75) + 0.25*1 = 0.375;
  // P(tau=3) = 0.25 + 0.125 = 0.375. Mean: 0.25 + 0.75 + 1.125 = 2.125.
  const Tree t = make_tree({{0}, {1}, {0, 0}, {0, 1}}).value();
  const TreeExpectation e = expect_tree(t, matrix({{0.5, 0.25}}));
  EXPECT_DOUBLE_EQ(e.expected_tau, 2.125);
  EXPECT_EQ(e.node_prob, (std::vector<double>{0.5, 0.25, 0.25, 0.125}));
  ASSERT_EQ(e.tau_pmf.size(), 3u);
  EXPECT_DOUBLE_EQ(e.tau_pmf[0], 0.25);
  EXPECT_DOUBLE_EQ(e.tau_pmf[1], 0.375);
  EXPECT_DOUBLE_EQ(e.tau_pmf[2], 0.375);
}

TEST(TreeExpect, EmptyTreeIsOneTokenPerCycle) {
  const TreeExpectation e = expect_tree(Tree{}, matrix({{0.9}}));
  EXPECT_EQ(e.expected_tau, 1.0);
  EXPECT_EQ(e.tau_pmf, std::vector<double>{1.0});
}

TEST(TreeExpect, ChainMatchesClosedForm) {
  // alpha chain: tau = (1 - a^(k+1)) / (1 - a); e.g. a = 0.8, k = 4: (1 - 0.32768)/0.2 = 3.3616.
  EXPECT_NEAR(chain_tau(0.8, 4), 3.3616, 1e-12);
  EXPECT_EQ(chain_tau(1.0, 5), 6.0);
  EXPECT_EQ(chain_tau(0.0, 5), 1.0);
  for (double a : {0.0, 0.3, 0.55, 0.8, 0.95, 1.0}) {
    for (int k : {0, 1, 2, 5, 16, 64}) {
      const TreeExpectation e = expect_tree(chain_tree(k), matrix({{a}}));
      EXPECT_NEAR(e.expected_tau, chain_tau(a, k), 1e-12) << "a=" << a << " k=" << k;
      // P(tau = 1 + j) = a^j (1 - a) for j < k, a^k for j = k.
      double aj = 1.0;
      for (int j = 0; j <= k; ++j) {
        EXPECT_NEAR(e.tau_pmf[j], j < k ? aj * (1 - a) : aj, 1e-12) << "j=" << j;
        aj *= a;
      }
    }
  }
}

TEST(TreeExpect, PmfSumsToOneAndItsMeanIsTau) {
  const Tree t = medusa_mc_sim_7b_63();
  const AcceptanceMatrix m = medusa_acceptance("vicuna-7b").value();
  const TreeExpectation e = expect_tree(t, m);
  double total = 0.0, mean = 0.0;
  for (std::size_t j = 0; j < e.tau_pmf.size(); ++j) {
    total += e.tau_pmf[j];
    mean += (1.0 + j) * e.tau_pmf[j];
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NEAR(mean, e.expected_tau, 1e-12);
}

// The exact tau must lie in the simulator's 99.9 % interval (an independent sampling check).
TEST(TreeSimulate, ExactTauLiesInMonteCarloInterval) {
  struct Case {
    const char* name;
    Tree tree;
    AcceptanceMatrix acc;
  };
  const std::vector<Case> cases = {
      {"eagle1/alpha0.7", eagle1_default_tree(), acceptance_from_alpha(0.7).value()},
      {"medusa63/vicuna-7b", medusa_mc_sim_7b_63(), medusa_acceptance("vicuna-7b").value()},
      {"chain8/0.9", chain_tree(8), matrix({{0.9}})},
      {"small/depth rows", make_tree({{0}, {1}, {0, 0}, {0, 1}, {1, 0}, {0, 0, 2}}).value(),
       matrix({{0.5, 0.3}, {0.2, 0.1, 0.4}, {0.1, 0.2, 0.6}})},
  };
  std::uint64_t seed = 12345;
  for (const Case& c : cases) {
    const double exact = expect_tree(c.tree, c.acc).expected_tau;
    const SimulationResult sim = simulate_tree(c.tree, c.acc, seed++, 200000);
    EXPECT_GT(sim.std_error, 0.0) << c.name;
    EXPECT_LE(sim.lo, exact) << c.name << " mean " << sim.mean_tau;
    EXPECT_GE(sim.hi, exact) << c.name << " mean " << sim.mean_tau;
  }
}

TEST(TreeSimulate, IsDeterministicForASeed) {
  const AcceptanceMatrix m = acceptance_from_alpha(0.6).value();
  const SimulationResult a = simulate_tree(eagle1_default_tree(), m, 7, 1000);
  const SimulationResult b = simulate_tree(eagle1_default_tree(), m, 7, 1000);
  EXPECT_EQ(a.mean_tau, b.mean_tau);
  EXPECT_EQ(a.std_error, b.std_error);
}

}  // namespace
}  // namespace speccalc::tree
