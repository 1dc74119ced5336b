
#include <algorithm>

#include "api/commands.hpp"
#include "config/acceptance_parse.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/families.hpp"
#include "config/json_fields.hpp"
#include "engines/engine_export.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_optimize.hpp"

namespace speccalc::commands {

using fields::json;

namespace {

struct Candidate {
  int64_t nodes = 0;  // draft nodes (k for chains)
  int64_t depth = 0;  // tree depth limit D (k for chains)
  double tau = 1;
  double speedup = 0;
  double tokens_per_s = 0;
  bool fits = true;       // fits in GPU memory at this batch and context
  int64_t max_batch = 0;  // largest batch that fits (for the schedule's infeasible rows)
  Choices choices;
};

// The acceptance matrix to optimize against. A measured tau is turned into alpha by fitting
// the config's own draft structure (the one-parameter family of tree_acceptance.hpp).
Expected<tree::AcceptanceMatrix> sizing_matrix(const Config& c, std::vector<std::string>* notes,
                                               json* used) {
  if (c.acceptance.kind != Acceptance::Kind::tau) {
    *used = resolved_acceptance_json(c.acceptance);
    return acceptance_matrix(c.acceptance);
  }
  Config probe = c;
  probe.acceptance.kind = Acceptance::Kind::alpha;
  probe.acceptance.alpha = 0.7;
  auto shape = expected_tau(probe);
  if (!shape.ok()) return shape.error();
  auto alpha = tree::calibrate_alpha(shape.value().tree, c.acceptance.tau, "config.acceptance.tau");
  if (!alpha.ok()) return alpha.error();
  notes->push_back(
      "the measured tau " + fields::format_number(c.acceptance.tau) +
      " on the configured draft fits alpha = " + fields::format_number(alpha.value()) +
      " (ranks accepted with alpha (1 - alpha)^rank); sizing optimizes under that alpha");
  *used = json{{"alpha", alpha.value()}};
  return tree::acceptance_from_alpha(alpha.value());
}

// Sizing chooses a draft length k for the chain families (sps, pld, mtp, layerskip,
// streaming, retrieval: their cost reads k) and for every method on an engine that verifies
// chains only (vLLM); a tree for the tree families elsewhere.
bool sized_as_chain(const Config& c) {
  return !family_spec(c.method.family).static_tree || !c.engine.trees;
}

// What "apply" changes in the config, in words for the page's button.
std::string apply_sets(const Config& c, bool chain) {
  std::string what;
  if (c.method.family == Family::eagle2 || c.method.family == Family::eagle3)
    what =
        "Sets total_token = nodes + 1, depth and top_k; EAGLE-2/3 rebuild their tree every "
        "step from these, so the evaluated speedup can differ from this static optimum.";
  else
    what = chain ? "Sets k." : "Sets the tree (choices).";
  if (c.acceptance.kind == Acceptance::Kind::tau)
    what +=
        " Your tau was measured on the current draft; applying replaces it with the fitted "
        "acceptance so tau follows the new draft.";
  return what;
}

// Evaluates config c with its draft replaced by `choices` (tree) or k = nodes (chain).
Expected<Candidate> evaluate_candidate(Config c, const Choices& choices, int64_t nodes,
                                       int64_t depth, double tau) {
  const Family f = c.method.family;
  if (!family_spec(f).static_tree) {
    c.method.k = nodes;
  } else if (f == Family::eagle2 || f == Family::eagle3) {
    // A fixed tree with EAGLE's head: costed as EAGLE-1's static-tree drafting.
    c.method.family = Family::eagle1;
    c.method.choices = choices;
  } else {
    c.method.choices = choices;
  }
  c.acceptance.kind = Acceptance::Kind::tau;
  c.acceptance.tau = tau;
  auto e = evaluate(c);
  if (!e.ok()) return e.error();
  Candidate out;
  out.nodes = nodes;
  out.depth = depth;
  out.tau = tau;
  out.speedup = e.value().speedup;
  out.tokens_per_s = e.value().tokens_per_s;
  out.fits = e.value().fits_in_memory;
  out.max_batch = e.value().memory.max_batch;
  out.choices = choices;
  return out;
}

json candidate_json(const Candidate& c, bool with_choices) {
  json j = json{{"nodes", c.nodes},
                {"depth", c.depth},
                {"tau", c.tau},
                {"speedup", c.speedup},
                {"tokens_per_s", c.tokens_per_s},
                {"fits", c.fits}};
  if (with_choices) j["choices"] = c.choices;
  return j;
}

// Best candidate for each node count n = 1..budget (over depths 1..max_depth) at config c.
Expected<std::vector<Candidate>> best_by_nodes(const Config& c,
                                               const tree::AcceptanceMatrix& matrix, int64_t budget,
                                               int64_t max_depth) {
  std::vector<Candidate> best;
  if (sized_as_chain(c)) {
    for (int64_t k = 1; k <= budget; ++k) {
      const tree::Tree t = tree::chain_tree(static_cast<int>(k));
      const double tau = tree::expect_tree(t, matrix).expected_tau;
      auto cand = evaluate_candidate(c, t.choices(), k, k, tau);
      if (!cand.ok()) return cand.error();
      best.push_back(cand.value());
    }
    return best;
  }
  for (int64_t d = 1; d <= max_depth; ++d) {
    auto opt =
        tree::optimize_tree(matrix, static_cast<int>(budget), static_cast<int>(d), tree::kMaxRank);
    if (!opt.ok()) return opt.error();
    const tree::Tree& order = opt.value().tree;
    const std::vector<std::vector<int>> all = order.choices();
    // The optimal tree stops growing once more nodes add nothing (alpha 0 or 1, tau 1): its
    // tau_curve is then padded to the budget, longer than the tree. Only real prefixes count.
    const std::size_t sizes = std::min(opt.value().tau_curve.size(), all.size());
    for (std::size_t n = 1; n <= sizes; ++n) {
      if (c.method.family == Family::medusa || c.method.family == Family::hydra) {
        if (static_cast<int64_t>(std::min<std::size_t>(d, 64)) > c.method.heads)
          break;  // one head per depth
      }
      Choices prefix(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
      auto cand =
          evaluate_candidate(c, prefix, static_cast<int64_t>(n), d, opt.value().tau_curve[n - 1]);
      if (!cand.ok()) return cand.error();
      if (best.size() < n)
        best.push_back(cand.value());
      else if (cand.value().speedup > best[n - 1].speedup)
        best[n - 1] = cand.value();
    }
  }
  return best;
}

// The fastest candidate that fits in memory; null when none does.
const Candidate* argmax(const std::vector<Candidate>& v) {
  const Candidate* b = nullptr;
  for (const auto& c : v)
    if (c.fits && (!b || c.speedup > b->speedup)) b = &c;
  return b;
}

// The sizing request's own fields (the config is parsed by the caller).
struct SizeRequest {
  int64_t budget = 64;    // most draft nodes (or k) searched
  int64_t max_depth = 8;  // deepest tree searched
  std::vector<int64_t> batches = {1, 2, 4, 8, 16, 32, 64};
};

Expected<SizeRequest> read_size_request(const json& req) {
  SizeRequest r;
  Error err;
  if (!fields::check_keys(req, "", {"config", "budget", "max_depth", "batches"}, &err)) return err;
  if (!req.contains("config")) return make_error("config", "is required");
  if (!fields::read_int(req, "budget", "", 1, 256, &r.budget, &err) ||
      !fields::read_int(req, "max_depth", "", 1, 16, &r.max_depth, &err))
    return err;
  if (!req.contains("batches")) return r;
  const json& b = req["batches"];
  if (!b.is_array() || b.empty() || b.size() > 16)
    return make_error("batches", "must be a list of 1 to 16 batch sizes");
  r.batches.clear();
  for (std::size_t i = 0; i < b.size(); ++i) {
    int64_t v = 0;
    if (!fields::int_value(b[i], "batches[" + std::to_string(i) + "]", 1, ConfigLimits::kMaxBatch,
                           &v, &err))
      return err;
    r.batches.push_back(v);
  }
  return r;
}

// The best size at each batch: speculate when it pays, with the TensorRT-LLM draft-length
// schedule ([batch, k], 0 = off) beside it; batches where nothing fits are said so.
Expected<json> batch_schedule(const Config& c, const tree::AcceptanceMatrix& matrix, int64_t budget,
                              int64_t max_depth, const std::vector<int64_t>& batches,
                              json* trt_schedule) {
  json schedule = json::array();
  for (int64_t b : batches) {
    Config cb = c;
    cb.batch = b;
    auto cv = best_by_nodes(cb, matrix, budget, max_depth);
    if (!cv.ok()) return cv.error();
    const Candidate* bb = argmax(cv.value());
    if (!bb) {
      // Not even plain decoding's memory plus the smallest draft fits: never scheduled.
      const int64_t max_batch = cv.value().empty() ? 0 : cv.value().front().max_batch;
      schedule.push_back(json{
          {"batch", b}, {"speculate", false}, {"verdict", "infeasible"}, {"max_batch", max_batch}});
      continue;
    }
    if (bb->speedup > 1.0) {
      schedule.push_back(json{{"batch", b},
                              {"speculate", true},
                              {"verdict", "pays"},
                              {"nodes", bb->nodes},
                              {"depth", bb->depth},
                              {"tau", bb->tau},
                              {"speedup", bb->speedup}});
      trt_schedule->push_back(json::array({b, bb->nodes}));
    } else {
      schedule.push_back(json{
          {"batch", b}, {"speculate", false}, {"verdict", "loses"}, {"best_speedup", bb->speedup}});
      trt_schedule->push_back(json::array({b, 0}));
    }
  }
  return schedule;
}

// The config with the best size set, in the method's own keys.
Config sized_config(const Config& c, const Candidate& best) {
  Config out = c;
  if (!family_spec(c.method.family).static_tree) {
    out.method.k = best.nodes;
  } else if (c.method.family == Family::eagle2 || c.method.family == Family::eagle3) {
    out.method.total_token = best.nodes + 1;
    out.method.depth = best.depth;
    out.method.top_k = 0;
    for (const auto& path : best.choices)
      for (int r : path) out.method.top_k = std::max<int64_t>(out.method.top_k, r + 1);
  } else {
    out.method.tree_preset.clear();  // the sized tree replaces any named preset
    out.method.choices = best.choices;
  }
  return out;
}

}  // namespace

Response size(const std::string& input) {
  auto parsed = fields::parse_document(input, "the sizing request", 24);
  if (!parsed.ok()) return fail(parsed.error());
  const json& req = parsed.value();
  if (!req.is_object()) return fail(make_error("", "the sizing request must be a JSON object"));
  Expected<SizeRequest> sr = read_size_request(req);
  if (!sr.ok()) return fail(sr.error());
  const int64_t budget = sr.value().budget, max_depth = sr.value().max_depth;
  const std::vector<int64_t>& batches = sr.value().batches;
  auto catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto parsed_config = parse_config(req["config"], catalog.value());
  if (!parsed_config.ok()) {
    Error e = parsed_config.error();
    e.field = e.field.empty() ? "config" : "config." + e.field;
    return fail(e);
  }
  const Config& c = parsed_config.value();
  const Family f = c.method.family;
  if (f == Family::ar || f == Family::lookahead)
    return fail(make_error("config.method.family",
                           "sizing needs a draft length or tree to choose: every family but ar "
                           "and lookahead"));
  if (sized_as_chain(c) && budget > ConfigLimits::kMaxK)
    return fail(make_error("budget", "chain methods draft at most " +
                                         std::to_string(ConfigLimits::kMaxK) +
                                         " tokens per cycle; got " + std::to_string(budget)));

  std::vector<std::string> notes;
  json acceptance_used;
  auto matrix = sizing_matrix(c, &notes, &acceptance_used);
  if (!matrix.ok()) return fail(matrix.error());

  auto curve = best_by_nodes(c, matrix.value(), budget, max_depth);
  if (!curve.ok()) return fail(curve.error());
  if (curve.value().empty())
    return fail(
        make_error("config.acceptance", "no draft node has a nonzero acceptance probability"));
  const Candidate* best_fit = argmax(curve.value());
  if (!best_fit) {
    return fail(make_error("config", "no draft size fits in GPU memory at batch " +
                                         std::to_string(c.batch) + " and context " +
                                         std::to_string(c.context) +
                                         ": lower the batch or context, or add GPUs"));
  }
  const Candidate best = *best_fit;

  json trt_schedule = json::array();
  auto schedule = batch_schedule(c, matrix.value(), budget, max_depth, batches, &trt_schedule);
  if (!schedule.ok()) return fail(schedule.error());

  const Config best_config = sized_config(c, best);
  json curve_json = json::array();
  for (const auto& cand : curve.value()) curve_json.push_back(candidate_json(cand, false));
  if (!c.engine.trees)
    notes.push_back(c.engine.name + " verifies chains only: sizing chooses the draft length k");
  else if (f == Family::eagle2 || f == Family::eagle3)
    notes.push_back(
        "EAGLE-2/3 are sized as the optimal static tree under this acceptance, costed with EAGLE's "
        "one-layer head; "
        "the engines' dynamic trees re-rank per step, which this approximates");
  if (sized_as_chain(c))
    notes.push_back("chains of k = 1.." + std::to_string(budget) +
                    " draft tokens, each costed with this method's passes");
  else
    notes.push_back(
        "tau*(n, D) is the exact optimum over prefix-closed trees of n draft nodes and depth <= "
        "D (docs/tree-model.md)");
  json out = json{{"best", candidate_json(best, true)},
                  {"curve", curve_json},
                  {"schedule", schedule.value()},
                  {"export", engine_settings(best_config, best.choices, trt_schedule)},
                  // The config with the best size set (k, the EAGLE-2/3 budget, or the tree):
                  // what "Apply" loads, so no front end maps sizes to method keys itself.
                  {"apply", config_to_json(best_config)},
                  {"acceptance", acceptance_used},  // usable as tree-expect's acceptance
                  {"assumptions", notes}};
  // Present only when a measured tau was turned into the acceptance above. A tau was measured
  // on the configured draft, so the applied config carries the fitted acceptance instead: tau
  // then follows the new draft.
  if (c.acceptance.kind == Acceptance::Kind::tau) {
    out["acceptance_fitted_to_tau"] = c.acceptance.tau;
    out["apply"]["acceptance"] = acceptance_used;
  }
  out["sized_as"] = sized_as_chain(c) ? "chain" : "tree";
  out["apply_sets"] = apply_sets(c, sized_as_chain(c));
  return ok_json(out.dump());
}

}  // namespace speccalc::commands
