#include "model/evaluated_tree.hpp"

#include "api/commands.hpp"
#include "config/acceptance_tau.hpp"
#include "config/json_fields.hpp"
#include "speccalc/presets.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

// What the node labels mean, in the acceptance's own terms.
std::string acceptance_words(const Acceptance& a) {
  switch (a.kind) {
    case Acceptance::Kind::alpha:
      return "alpha = " + fields::format_number(a.alpha);
    case Acceptance::Kind::per_position:
      return "the per-position acceptance rates";
    case Acceptance::Kind::matrix:
      return "the acceptance matrix p[depth][rank]";
    case Acceptance::Kind::tau:
      break;
  }
  return "tau given directly: no per-node acceptance";
}

}  // namespace

Expected<json> evaluated_tree(const Config& config) {
  // The same function eval uses for tau, so the tree and tau are the ones evaluated.
  auto tau = expected_tau(config);
  if (!tau.ok()) return tau.error();
  const TauResult& t = tau.value();
  json out;
  out["family"] = family_name(config.method.family);
  out["tau"] = t.tau;
  out["choices"] = t.tree.choices();
  out["nodes"] = t.tree.size();
  out["depth"] = t.tree.max_depth();
  out["acceptance"] = acceptance_words(config.acceptance);
  // A tau with no per-node acceptance (given, or from data such as the vLLM traces) is named as
  // the result's tau card names it (the walk: "tau given directly" under a headline that said
  // the tau was measured).
  const bool tau_only = config.acceptance.kind == Acceptance::Kind::tau;
  if (tau_only && !config.acceptance.note.empty() && !t.basis.empty())
    out["acceptance"] = t.basis + ": no per-node acceptance";
  if (config.method.family == Family::eagle2 || config.method.family == Family::eagle3) {
    out["eagle_depth"] = config.method.depth - 1;
    // A dynamic tree's shape needs per-node acceptance: without one it is EAGLE-2's under the
    // default alpha (a chain's shape is the chain).
    if (tau_only && config.method.top_k > 1)
      out["acceptance"] = out["acceptance"].get<std::string>() +
                          "; the tree's shape is EAGLE-2's under alpha = 0.7";
  }
  if (config.acceptance.kind == Acceptance::Kind::tau || config.method.family == Family::ar) {
    out["node_prob"] = nullptr;
    out["tau_pmf"] = nullptr;
    return out;
  }
  const tree::TreeExpectation e = tree::expect_tree(t.tree, t.matrix);
  out["node_prob"] = e.node_prob;
  out["tau_pmf"] = e.tau_pmf;
  return out;
}

namespace commands {

Response eval_tree(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  auto out = evaluated_tree(config.value());
  if (!out.ok()) return fail(out.error());
  return ok_json(out.value().dump());
}

}  // namespace commands
}  // namespace speccalc
