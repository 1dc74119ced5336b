#include "config/paper_tree.hpp"

#include "config/method_parse.hpp"
#include "speccalc/tree.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc {

namespace {
int64_t paper_depth(Family f) { return f == Family::eagle2 ? 6 : 8; }  // EAGLE-2 / EAGLE-3 papers
}  // namespace

bool on_paper_tree(const Config& c) {
  const MethodConfig& m = c.method;
  switch (m.family) {
    case Family::eagle1:
      return m.choices == tree::eagle1_default_tree().choices();
    case Family::eagle2:
    case Family::eagle3:
      return m.total_token == default_total_token(c.target) && m.depth == paper_depth(m.family) &&
             m.top_k == 10;
    case Family::medusa:
      return m.choices == tree::medusa_mc_sim_7b_63().choices();
    default:
      return false;
  }
}

std::string paper_tree_words(const Config& c) {
  const Family f = c.method.family;
  if (f == Family::eagle1 || f == Family::medusa) {
    const tree::Tree t =
        f == Family::eagle1 ? tree::eagle1_default_tree() : tree::medusa_mc_sim_7b_63();
    return std::string(f == Family::eagle1 ? "EAGLE-1's default tree" : "Medusa's mc_sim_7b_63") +
           " (" + std::to_string(t.choices().size()) + " nodes, depth " +
           std::to_string(t.max_depth()) + ")";
  }
  return std::string(f == Family::eagle2 ? "EAGLE-2" : "EAGLE-3") + "'s dynamic tree of " +
         std::to_string(default_total_token(c.target)) + " tokens, depth " +
         std::to_string(paper_depth(f)) + ", top-k 10";
}

std::vector<double> paper_rank_row(double top1) {
  std::vector<double> row(tree::kMaxRank);
  double left = 1.0;  // ((1 - top1) s)^r by repeated multiplication
  for (int r = 0; r < tree::kMaxRank; ++r) {
    row[r] = top1 * left;
    left *= (1.0 - top1) * kSiblingShare;
  }
  return row;
}

std::vector<std::vector<double>> paper_acceptance(const Config& c, double x) {
  if (c.method.family != Family::medusa) return {paper_rank_row(x)};
  auto heads = tree::medusa_acceptance(c.target.id, "acceptance");
  if (!heads.ok()) return {};
  return tree::scale_acceptance(heads.value(), x).rows;
}

}  // namespace speccalc
