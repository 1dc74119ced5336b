
#include <algorithm>
#include <optional>

#include "api/commands.hpp"
#include "config/acceptance_parse.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/families.hpp"
#include "config/json_fields.hpp"
#include "engines/engine_export.hpp"
#include "model/moe_batch_note.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_optimize.hpp"
#include "speccalc/tree_presets.hpp"

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
  Config config;     // the config evaluated: what "apply" loads, so apply's eval equals this
  bool real = true;  // false: a placeholder for a size no candidate could hold
};

// The acceptance matrix to optimize against. A measured tau is turned into alpha by fitting
// the config's own draft structure (the one-parameter family of tree_acceptance.hpp).
Expected<tree::AcceptanceMatrix> sizing_matrix(const Config& c, std::vector<std::string>* notes,
                                               json* used, Acceptance* model) {
  if (c.acceptance.kind != Acceptance::Kind::tau) {
    *used = resolved_acceptance_json(c.acceptance);
    *model = c.acceptance;
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
      // Read by people: 4 and 3 significant digits (the walk: "alpha = 0.5926646653656695").
      "the measured tau " + fields::format_significant(c.acceptance.tau, 4) +
      " on the configured draft fits alpha = " + fields::format_significant(alpha.value(), 3) +
      " (ranks accepted with alpha (1 - alpha)^rank); sizing optimizes under that alpha");
  *used = json{{"alpha", alpha.value()}};
  *model = Acceptance{};
  model->kind = Acceptance::Kind::alpha;
  model->alpha = alpha.value();
  return tree::acceptance_from_alpha(alpha.value());
}

// An acceptance from data (the published rows, the vLLM traces, a workload) is looked up for
// the draft it is used on: the traces give tau at each k, a published tree tau is rescaled to
// other trees. A candidate with such an acceptance is read again from its JSON, as the config
// "apply" loads is, so its tau is the one eval gives that draft.
bool acceptance_per_draft(const Acceptance& a) { return a.published || !a.workload.empty(); }

// Sizing chooses a draft length k for the chain families (pld, mtp, layerskip, streaming,
// retrieval: their cost reads k) and for every method on an engine that verifies chains only
// (vLLM, llama.cpp); a tree for the tree families elsewhere, and for a draft model (sps) on an
// engine that verifies a draft model's trees (not TensorRT-LLM's draft-target): the
// hardware-aware tree Sequoia searches for (a chain is one of the candidates).
bool sized_as_chain(const Config& c) {
  if (c.method.family == Family::sps) return !c.engine.draft_model_trees;
  return !c.engine.trees || !family_spec(c.method.family).static_tree;
}

// What "apply" changes in the config, in words for the page's button.
std::string apply_sets(const Config& c, bool chain) {
  std::string what;
  if (c.method.family == Family::eagle2 || c.method.family == Family::eagle3)
    what =
        "Sets total_token = nodes + 1, depth and top_k (a chain: top_k 1, depth k); the "
        "speedup shown is the evaluation of exactly that setting.";
  else
    what = chain ? "Sets k." : "Sets the tree (choices).";
  if (c.acceptance.kind == Acceptance::Kind::tau && !acceptance_per_draft(c.acceptance))
    what +=
        " Your tau was measured on the current draft; applying replaces it with the fitted "
        "acceptance so tau follows the new draft.";
  return what;
}

// Evaluates config c as it is (its acceptance the sizing's model, or looked up again for this
// draft when it comes from data).
Expected<Candidate> evaluate_config(const Config& given, const Choices& choices, int64_t nodes,
                                    int64_t depth) {
  Config c = given;
  if (acceptance_per_draft(given.acceptance)) {
    const auto& catalog = load_catalog();
    if (!catalog.ok()) return catalog.error();
    auto again = parse_config(config_to_json(given), catalog.value());
    if (!again.ok()) return again.error();
    c = std::move(again.value());
  }
  auto e = evaluate(c);
  if (!e.ok()) return e.error();
  Candidate out;
  out.nodes = nodes;
  out.depth = depth;
  out.tau = e.value().tau;
  out.speedup = e.value().speedup;
  out.tokens_per_s = e.value().tokens_per_s;
  out.fits = e.value().fits_in_memory;
  out.max_batch = e.value().memory.max_batch;
  out.choices = choices;
  out.config = c;
  return out;
}

// Config c with its draft sized to `choices` (a tree) or k = nodes (a chain), in the user's
// own family: EAGLE-2/3 keep their head (EAGLE-3's fc and reduced LM head) and are set by
// their own knobs (total_token = nodes + 1, the tree's depth, top_k = its widest rank + 1),
// so the candidate is exactly the config "apply" loads. Null when the knobs cannot hold it.
std::optional<Config> sized(Config c, const Choices& choices, int64_t nodes, bool chain) {
  const Family f = c.method.family;
  if (f == Family::eagle2 || f == Family::eagle3) {
    int64_t depth = 0, top_k = 1;
    for (const auto& path : choices) {
      depth = std::max<int64_t>(depth, static_cast<int64_t>(path.size()));
      for (int r : path) top_k = std::max<int64_t>(top_k, r + 1);
    }
    if (chain) depth = nodes, top_k = 1;
    if (nodes > tree::eagle2_candidates(static_cast<int>(top_k), static_cast<int>(depth)) ||
        depth > ConfigLimits::kMaxDepth || top_k > ConfigLimits::kMaxTopK)
      return std::nullopt;
    c.method.total_token = nodes + 1;
    c.method.depth = depth;
    c.method.top_k = top_k;
  } else if (f == Family::sps ? chain : !family_spec(f).static_tree) {
    c.method.k = nodes;
    c.method.sps_tree = MethodConfig::SpsTree::chain;
  } else {
    if (f == Family::medusa || f == Family::hydra) {
      // One head per tree level: a deeper tree than the heads cannot be applied.
      for (const auto& path : choices)
        if (static_cast<int64_t>(path.size()) > c.method.heads) return std::nullopt;
    }
    c.method.tree_preset.clear();  // the sized tree replaces any named preset
    c.method.choices = choices;
    if (f == Family::sps) c.method.sps_tree = MethodConfig::SpsTree::choices;
  }
  return c;
}

Expected<Candidate> evaluate_candidate(const Config& c, const Choices& choices, int64_t nodes,
                                       int64_t depth, bool chain, bool* skipped) {
  auto s = sized(c, choices, nodes, chain);
  *skipped = !s;
  if (!s) return Candidate{};
  return evaluate_config(*s, choices, nodes, depth);
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
      bool skipped = false;
      auto cand = evaluate_candidate(c, t.choices(), k, k, true, &skipped);
      if (!cand.ok()) return cand.error();
      if (skipped) break;
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
      bool skipped = false;
      auto cand = evaluate_candidate(c, prefix, static_cast<int64_t>(n), d, false, &skipped);
      if (!cand.ok()) return cand.error();
      if (skipped) {
        // Knobs that cannot hold this tree: the slot keeps its best so far (or a non-fitting
        // placeholder, never chosen), so the curve stays indexed by node count.
        if (best.size() < n) {
          Candidate none;
          none.nodes = static_cast<int64_t>(n);
          none.depth = d;
          none.fits = false;
          none.real = false;
          none.config = c;
          best.push_back(none);
        }
        continue;
      }
      if (best.size() < n)
        best.push_back(cand.value());
      else if (cand.value().speedup > best[n - 1].speedup)
        best[n - 1] = cand.value();
    }
  }
  return best;
}

// The config as it is (its acceptance the sizing's model), sized by its own knobs.
Expected<Candidate> current_candidate(const Config& c) {
  const MethodConfig& m = c.method;
  Choices choices;
  int64_t nodes = m.k, depth = m.k;
  if (m.family == Family::eagle2 || m.family == Family::eagle3) {
    nodes = m.total_token - 1;
    depth = m.depth;
  } else if (family_spec(m.family).static_tree || m.sps_token_tree()) {
    choices = m.choices;
    nodes = static_cast<int64_t>(choices.size());
    depth = 0;
    for (const auto& path : choices) depth = std::max<int64_t>(depth, path.size());
  } else {
    // A chain of k: its choices, so a current setting that wins is shown and exported as the
    // chain it is (they were left empty: the page drew a bare root and tree-expect gave tau 1).
    choices = tree::chain_tree(static_cast<int>(m.k)).choices();
  }
  return evaluate_config(c, choices, nodes, depth);
}

// The fastest candidate that fits in memory; null when none does.
const Candidate* argmax(const std::vector<Candidate>& v) {
  const Candidate* b = nullptr;
  for (const auto& c : v)
    if (c.real && c.fits && (!b || c.speedup > b->speedup)) b = &c;
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
    auto here = current_candidate(cb);
    if (!here.ok()) return here.error();
    const Candidate* bb = argmax(cv.value());
    if (here.value().fits && (!bb || here.value().speedup >= bb->speedup)) bb = &here.value();
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
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto parsed_config = parse_config(req["config"], catalog.value());
  if (!parsed_config.ok()) {
    Error e = parsed_config.error();
    e.field = e.field.empty() ? "config" : "config." + e.field;
    return fail(e);
  }
  const Family f = parsed_config.value().method.family;
  if (f == Family::ar || f == Family::lookahead)
    return fail(make_error("config.method.family",
                           "sizing needs a draft length or tree to choose: every family but ar "
                           "and lookahead"));
  if (sized_as_chain(parsed_config.value()) && budget > ConfigLimits::kMaxK)
    return fail(make_error("budget", "chain methods draft at most " +
                                         std::to_string(ConfigLimits::kMaxK) +
                                         " tokens per cycle; got " + std::to_string(budget)));

  std::vector<std::string> notes;
  json acceptance_used;
  Acceptance model;
  auto matrix = sizing_matrix(parsed_config.value(), &notes, &acceptance_used, &model);
  if (!matrix.ok()) return fail(matrix.error());
  // Every candidate, the current setting included, is evaluated under the same acceptance
  // model, as the config "apply" loads: the best's speedup is the eval of that config.
  Config c = parsed_config.value();
  const bool per_draft = acceptance_per_draft(c.acceptance);
  if (per_draft)
    notes.push_back("each size is evaluated with the acceptance the data gives that draft (" +
                    c.acceptance.basis +
                    " for the current one), as eval does; the fitted alpha above only "
                    "proposes the shapes");
  else
    c.acceptance = model;

  auto curve = best_by_nodes(c, matrix.value(), budget, max_depth);
  if (!curve.ok()) return fail(curve.error());
  if (curve.value().empty())
    return fail(
        make_error("config.acceptance", "no draft node has a nonzero acceptance probability"));
  auto current = current_candidate(c);
  if (!current.ok()) return fail(current.error());
  const Candidate* best_fit = argmax(curve.value());
  // The current setting is a candidate too: the best is never worse than it.
  bool current_is_best = false;
  if (current.value().fits && (!best_fit || current.value().speedup >= best_fit->speedup)) {
    best_fit = &current.value();
    current_is_best = true;
  } else if (best_fit &&
             config_to_json(best_fit->config)["method"] == config_to_json(c)["method"]) {
    current_is_best = true;
  }
  if (!best_fit) {
    const std::string device = device_noun(c.hardware);
    return fail(make_error(
        "config", "no draft size fits in " + memory_noun(c.hardware) + " at batch " +
                      std::to_string(c.batch) + " and context " + std::to_string(c.context) +
                      ": lower the batch or context" + (device == "GPU" ? ", or add GPUs" : "")));
  }
  Candidate best = *best_fit;
  if (f == Family::eagle2 || f == Family::eagle3) {
    // The tree shown and exported is the one EAGLE-2/3 build from these knobs (the evaluated
    // one), so tree-expect on it gives the best's tau.
    auto t = expected_tau(best.config);
    if (!t.ok()) return fail(t.error());
    best.choices = t.value().tree.choices();
  }

  json trt_schedule = json::array();
  auto schedule = batch_schedule(c, matrix.value(), budget, max_depth, batches, &trt_schedule);
  if (!schedule.ok()) return fail(schedule.error());

  const Config& best_config = best.config;
  // An acceptance from data is looked up for each candidate's own draft (evaluate_config): the
  // acceptance given for tree-expect is then the best's, as evaluating it looked it up. The
  // current config's stood here before, and DeepSeek-V3's MTP sized to k = 3 drew its chain
  // with k = 1's single rate (tau 3.31) beside the sizing's 2.88 (later positions decay).
  // Data that gives the best a tau (the vLLM traces at its k) is handed on as the alpha that
  // tau fits on the best's own draft, as sizing_matrix does: tree-expect takes no bare tau
  // (the page's default setup drew "per-node probabilities unavailable" in its place).
  if (acceptance_per_draft(parsed_config.value().acceptance)) {
    auto again = parse_config(config_to_json(best_config), catalog.value());
    if (!again.ok()) return fail(again.error());
    std::vector<std::string> unused_notes;
    Acceptance unused_model;
    auto redrawn = sizing_matrix(again.value(), &unused_notes, &acceptance_used, &unused_model);
    if (!redrawn.ok()) return fail(redrawn.error());
  }
  json curve_json = json::array();
  for (const auto& cand : curve.value())
    if (cand.real) curve_json.push_back(candidate_json(cand, false));
  if (!c.engine.trees)
    notes.push_back(c.engine.name + " verifies chains only: sizing chooses the draft length k");
  else if (f == Family::sps && !c.engine.draft_model_trees)
    notes.push_back(c.engine.name +
                    " drafts a draft model's tokens as one chain: sizing chooses the draft "
                    "length k");
  else if (f == Family::eagle2 || f == Family::eagle3)
    notes.push_back(
        "EAGLE-2/3: each size's optimal static tree under this acceptance sets total_token, "
        "depth and top_k, and that EAGLE-2/3 config (its own head, its dynamic tree) is what "
        "is evaluated");
  if (sized_as_chain(c))
    notes.push_back("chains of k = 1.." + std::to_string(budget) +
                    " draft tokens, each costed with this method's passes");
  else
    notes.push_back(
        "tau*(n, D) is the exact optimum over prefix-closed trees of n draft nodes and depth <= "
        "D (docs/tree-model.md)");
  json out = json{{"best", candidate_json(best, true)},
                  // The config as set, under the same acceptance: whether it is already the
                  // best is the core's answer, not a front end's tolerance.
                  {"current", candidate_json(current.value(), false)},
                  {"current_is_best", current_is_best},
                  {"curve", curve_json},
                  {"schedule", schedule.value()},
                  // Read beside the schedule: why its speedup may dip and rise with batch.
                  {"schedule_notes",
                   moe_batch_note_applies(c) ? json::array({moe_batch_note()}) : json::array()},
                  {"export", engine_settings(best_config, best.choices, trt_schedule)},
                  // The config with the best size set (k, the EAGLE-2/3 budget, or the tree):
                  // what "Apply" loads, so no front end maps sizes to method keys itself.
                  {"apply", config_to_json(best_config)},
                  {"acceptance", acceptance_used},  // usable as tree-expect's acceptance
                  {"assumptions", notes}};
  // Present only when a measured tau was turned into the acceptance above. A tau was measured
  // on the configured draft, so the applied config carries the fitted acceptance instead: tau
  // then follows the new draft.
  const Acceptance& given = parsed_config.value().acceptance;
  if (given.kind == Acceptance::Kind::tau && !per_draft) {
    out["acceptance_fitted_to_tau"] = given.tau;
    out["apply"]["acceptance"] = acceptance_used;
  }
  out["sized_as"] = sized_as_chain(c) ? "chain" : "tree";
  out["apply_sets"] = apply_sets(parsed_config.value(), sized_as_chain(c));
  return ok_json(out.dump());
}

}  // namespace speccalc::commands
