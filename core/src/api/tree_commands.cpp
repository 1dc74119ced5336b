// JSON in/out for the tree solver (see speccalc/tree_commands.hpp). All parsing is
// non-throwing: nlohmann is built without exceptions, so types are checked before every get.

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "api/commands.hpp"
#include "api/json_write.hpp"
#include "config/json_fields.hpp"
#include "config/tree_input.hpp"
#include "speccalc/tree.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_metrics.hpp"
#include "speccalc/tree_optimize.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc::commands {
namespace {

using nlohmann::json;
using namespace speccalc::tree;

// Tree inputs nest at most 4 levels ({"acceptance": {"p": [[...]]}}); 16 leaves room and
// keeps hostile documents (100k '[') out of the parser. Repeated keys are refused there too.
constexpr int kMaxNesting = 16;

// Parses the input object and refuses keys the command does not read (a typo must not be
// silently ignored).
Expected<json> parse_object(const std::string& input, std::initializer_list<const char*> keys) {
  Expected<json> doc = fields::parse_document(input, "input", kMaxNesting);
  if (!doc.ok()) return doc.error();
  if (!doc.value().is_object()) return make_error("", "input must be a JSON object");
  Error err;
  if (!fields::check_keys(doc.value(), "", keys, &err)) return err;
  return doc;
}

Expected<double> get_number(const json& v, const std::string& field) {
  if (!v.is_number()) return make_error(field, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) return make_error(field, "must be finite");
  return x;
}

// An integer in [lo, hi]; a missing key gives `fallback` when lo <= fallback.
Expected<int> get_int(const json& obj, const std::string& key, long long lo, long long hi,
                      long long fallback, bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) return make_error(key, "is required");
    return static_cast<int>(fallback);
  }
  if (!it->is_number_integer()) return make_error(key, "must be an integer");
  const long long x = it->is_number_unsigned() && it->get<unsigned long long>() > 1ull << 40
                          ? hi + 1
                          : it->get<long long>();
  if (x < lo || x > hi) {
    return make_error(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                               "], got " + std::to_string(x));
  }
  return static_cast<int>(x);
}

// The acceptance every tree command takes (config/tree_input.hpp: the forms and messages the
// config's acceptance shares).
Expected<AcceptanceMatrix> parse_acceptance(const json& obj, const std::string& field) {
  auto it = obj.find("acceptance");
  if (it == obj.end()) return make_error(field, "is required");
  return parse_acceptance_matrix(*it, field);
}

Expected<Tree> parse_choices(const json& v, const std::string& field) {
  Expected<ParsedChoices> parsed = parse_choices_list(v, field, kMaxNodes);
  if (!parsed.ok()) return parsed.error();
  return std::move(parsed.value().tree);
}

Response done(const json& out) { return ok_json(out.dump()); }

// tree.choices() as JSON text, each path [r1,...,rd]. A node whose parent is already written
// copies the parent's text and adds its rank (parents come first in both optimizers' orders);
// the bytes equal json(tree.choices()).dump(). The text is written through a pointer into
// space sized once: a std::string call per bracket and comma was most of tree-preset's time in
// WASM, where libc++'s string members are out-of-line calls.
void append_choices(std::string& out, const Tree& tree) {
  const int n = tree.size();
  std::size_t bound = 2;  // "[]"
  // Per node: "[", "]", a comma before it, and per level at most two digits (ranks < 64) and
  // a comma.
  for (int i = 0; i < n; ++i) bound += 3 * static_cast<std::size_t>(tree.depth[i]) + 3;
  const std::size_t at = out.size();
  out.resize(at + bound);
  char* const base = &out[at];
  char* p = base;
  std::vector<std::size_t> start(n), length(n);
  static_assert(kMaxRank <= 100, "rank_text writes a rank as at most two digits");
  const auto rank_text = [&p](int r) {  // 0..kMaxRank-1
    if (r >= 10) *p++ = static_cast<char>('0' + r / 10);
    *p++ = static_cast<char>('0' + r % 10);
  };
  *p++ = '[';
  for (int i = 0; i < n; ++i) {
    if (i > 0) *p++ = ',';
    start[i] = static_cast<std::size_t>(p - base);
    const int parent = tree.parent[i];
    if (parent < 0) {
      *p++ = '[';
    } else if (parent < i) {
      std::memcpy(p, base + start[parent], length[parent] - 1);  // without its ']'
      p += length[parent] - 1;
      *p++ = ',';
    } else {  // a parent listed later (not produced by the optimizers): walk up
      *p++ = '[';
      std::vector<int> path(tree.depth[i]);
      for (int v = i, j = tree.depth[i] - 1; j >= 0; --j, v = tree.parent[v])
        path[j] = tree.rank[v];
      for (int j = 0; j + 1 < tree.depth[i]; ++j) {
        rank_text(path[j]);
        *p++ = ',';
      }
    }
    rank_text(tree.rank[i]);
    *p++ = ']';
    length[i] = static_cast<std::size_t>(p - base) - start[i];
  }
  *p++ = ']';
  out.resize(at + static_cast<std::size_t>(p - base));
}

// The tree's own members (choices, nodes, depth, nodes_per_depth), written without a json
// tree: building one vector-of-vectors document for the choices and dumping it cost three
// quarters of tree-preset's time in WASM (many small allocations).
void tree_members(json_write::Object& out, const Tree& tree) {
  append_choices(out.value("choices"), tree);
  out.integer("nodes", tree.size());
  out.integer("depth", tree.max_depth());
  json_write::integers(out.value("nodes_per_depth"), tree.nodes_per_depth());
}

// tree-expect's and tree-preset's expectation members.
void expectation_members(json_write::Object& out, const TreeExpectation& e) {
  out.number("expected_tau", e.expected_tau);
  json_write::numbers(out.value("tau_pmf"), e.tau_pmf);
  json_write::numbers(out.value("node_prob"), e.node_prob);
}

Response done(json_write::Object& out) {
  std::string text;
  out.write(text);
  return ok_json(std::move(text));
}

// tree-optimize's output, written as it is computed (no json tree): keys in nlohmann's sorted
// order, so the text is exactly what dump() of the same object gives.
std::string optimize_output(const OptimalTrees& best, const TreeExpectation& e, int budget,
                            int max_depth, int max_rank, bool contiguous) {
  std::string out;
  // ~90 bytes a node (its path, probability and tau-curve entry): one allocation, not a
  // doubling series of copies (which in WASM also grows the linear memory step by step).
  out.reserve(1024 + 96 * static_cast<std::size_t>(best.tree.size()));
  out += '{';
  json_write::key(out, "budget", true);
  json_write::integer(out, budget);
  json_write::key(out, "choices");
  append_choices(out, best.tree);
  json_write::key(out, "contiguous");
  out += contiguous ? "true" : "false";
  json_write::key(out, "definitions");
  out += '{';
  json_write::key(out, "choices", true);
  json_write::string(
      out, contiguous ? "nodes in depth-first order (children ranks 0..b-1)"
                      : "nodes in selection order; the first m form an optimal m-node tree");
  json_write::key(out, "tau_curve");
  json_write::string(out, "tau_curve[m-1] = best expected tau (bonus token included) with m nodes");
  out += '}';
  json_write::key(out, "depth");
  json_write::integer(out, best.tree.max_depth());
  json_write::key(out, "expected_tau");
  json_write::number(out, best.expected_tau);
  json_write::key(out, "max_depth");
  json_write::integer(out, max_depth);
  json_write::key(out, "max_rank");
  json_write::integer(out, max_rank);
  json_write::key(out, "node_prob");
  json_write::numbers(out, e.node_prob);
  json_write::key(out, "nodes");
  json_write::integer(out, best.tree.size());
  json_write::key(out, "nodes_per_depth");
  json_write::integers(out, best.tree.nodes_per_depth());
  json_write::key(out, "tau_curve");
  json_write::numbers(out, best.tau_curve);
  json_write::key(out, "tau_pmf");
  json_write::numbers(out, e.tau_pmf);
  out += '}';
  return out;
}

// A draft shape: exactly one of k (chain), choices, preset, or (when allowed) eagle2 settings,
// whose tree depends on the acceptance matrix and is generated later.
struct Draft {
  Tree tree;
  bool eagle2 = false;
  int total_token = 60, depth = 6, top_k = 10;  // depth: draft levels (EAGLE's --depth 5)
};

Expected<Draft> parse_draft(const json& in, bool allow_eagle2) {
  const int shapes = in.contains("k") + in.contains("choices") + in.contains("preset") +
                     (allow_eagle2 && in.contains("eagle2"));
  if (shapes != 1) {
    return make_error("k", std::string("give exactly one draft shape: k (chain length), choices, "
                                       "preset") +
                               (allow_eagle2 ? ", or eagle2" : ""));
  }
  Draft d;
  if (in.contains("k")) {
    Expected<int> k = get_int(in, "k", 1, kMaxDepth, 0, true);
    if (!k.ok()) return k.error();
    d.tree = chain_tree(k.value());
    return d;
  }
  if (in.contains("choices")) {
    Expected<Tree> t = parse_choices(in["choices"], "choices");
    if (!t.ok()) return t.error();
    if (t.value().size() == 0) return make_error("choices", "needs at least one node");
    d.tree = t.value();
    return d;
  }
  if (in.contains("preset")) {
    if (!in["preset"].is_string()) return make_error("preset", "must be a preset name");
    if (in["preset"].get_ref<const std::string&>().size() > 64)
      return make_error("preset", "is not a tree preset name (longer than 64 characters)");
    Expected<Tree> t = preset_tree(in["preset"].get<std::string>(), "preset");
    if (!t.ok()) return t.error();
    d.tree = t.value();
    return d;
  }
  const json& e = in["eagle2"];
  if (!e.is_object()) return make_error("eagle2", "must be {total_token, depth, top_k}");
  Error err;
  if (!fields::check_keys(e, "eagle2", {"total_token", "depth", "top_k"}, &err)) return err;
  Expected<int> total = get_int(e, "total_token", 2, kMaxNodes + 1, 60, false);
  Expected<int> depth = get_int(e, "depth", 1, kMaxDepth, 6, false);
  Expected<int> top_k = get_int(e, "top_k", 1, kMaxRank, 10, false);
  for (const Expected<int>* x : {&total, &depth, &top_k}) {
    if (!x->ok()) return make_error("eagle2." + x->error().field, x->error().message);
  }
  d.eagle2 = true;
  d.total_token = total.value();
  d.depth = depth.value();
  d.top_k = top_k.value();
  // Settings errors (too few candidates) do not depend on the matrix: check them once.
  Expected<Tree> probe =
      eagle2_tree(acceptance_from_alpha(0.5).value(), d.total_token, d.depth, d.top_k);
  if (!probe.ok()) return make_error("eagle2." + probe.error().field, probe.error().message);
  return d;
}

Tree draft_tree(const Draft& d, const AcceptanceMatrix& acc) {
  return d.eagle2 ? eagle2_tree(acc, d.total_token, d.depth, d.top_k).value() : d.tree;
}

}  // namespace

Response tree_expect(const std::string& input) {
  Expected<json> doc = parse_object(input, {"choices", "acceptance", "simulate"});
  if (!doc.ok()) return fail(doc.error());
  const json& in = doc.value();
  if (!in.contains("choices")) return fail(make_error("choices", "is required"));
  Expected<Tree> tree = parse_choices(in["choices"], "choices");
  if (!tree.ok()) return fail(tree.error());
  Expected<AcceptanceMatrix> acc = parse_acceptance(in, "acceptance");
  if (!acc.ok()) return fail(acc.error());
  const TreeExpectation e = expect_tree(tree.value(), acc.value());
  json_write::Object out;
  tree_members(out, tree.value());
  expectation_members(out, e);
  if (in.contains("simulate")) {  // optional Monte Carlo check of the exact value
    const json& sim = in["simulate"];
    if (!sim.is_object())
      return fail(make_error("simulate", "must be {\"trials\": N, \"seed\": S}"));
    Error err;
    if (!fields::check_keys(sim, "simulate", {"trials", "seed"}, &err)) return fail(err);
    Expected<int> trials = get_int(sim, "trials", 1, 1000000, 100000, false);
    if (!trials.ok()) return fail(make_error("simulate.trials", trials.error().message));
    Expected<int> seed = get_int(sim, "seed", 0, 2147483647, 1, false);
    if (!seed.ok()) return fail(make_error("simulate.seed", seed.error().message));
    const SimulationResult r = simulate_tree(
        tree.value(), acc.value(), static_cast<std::uint64_t>(seed.value()), trials.value());
    json_write::Object simulation;
    simulation.integer("trials", r.trials);
    simulation.integer("seed", seed.value());
    simulation.number("mean_tau", r.mean_tau);
    simulation.number("std_error", r.std_error);
    json_write::numbers(simulation.value("interval_999"), {r.lo, r.hi});
    simulation.write(out.value("simulation"));
  }
  json_write::Object definitions;
  definitions.string("expected_tau", "mean tokens per draft-verify cycle, bonus token included");
  definitions.string("tau_pmf", "tau_pmf[j] = P(tau = 1 + j): j draft tokens accepted");
  definitions.string("node_prob", "P(node accepted), in the order of choices");
  definitions.string("simulation",
                     "optional Monte Carlo estimate (splitmix64, seeded) with its 99.9 % interval");
  definitions.write(out.value("definitions"));
  return done(out);
}

Response tree_optimize(const std::string& input) {
  Expected<json> doc =
      parse_object(input, {"acceptance", "budget", "max_depth", "max_rank", "contiguous"});
  if (!doc.ok()) return fail(doc.error());
  const json& in = doc.value();
  Expected<AcceptanceMatrix> acc = parse_acceptance(in, "acceptance");
  if (!acc.ok()) return fail(acc.error());
  Expected<int> budget = get_int(in, "budget", 1, kMaxNodes, 0, true);
  if (!budget.ok()) return fail(budget.error());
  Expected<int> depth = get_int(in, "max_depth", 1, kMaxDepth, kMaxDepth, false);
  if (!depth.ok()) return fail(depth.error());
  Expected<int> rank = get_int(in, "max_rank", 1, kMaxRank, kMaxRank, false);
  if (!rank.ok()) return fail(rank.error());
  bool contiguous = false;
  if (in.contains("contiguous")) {
    if (!in["contiguous"].is_boolean())
      return fail(make_error("contiguous", "must be true or false"));
    contiguous = in["contiguous"].get<bool>();
  }
  Expected<OptimalTrees> best =
      contiguous
          ? optimize_tree_contiguous(acc.value(), budget.value(), depth.value(), rank.value())
          : optimize_tree(acc.value(), budget.value(), depth.value(), rank.value());
  if (!best.ok()) return fail(best.error());
  const TreeExpectation e = expect_tree(best.value().tree, acc.value());
  return ok_json(
      optimize_output(best.value(), e, budget.value(), depth.value(), rank.value(), contiguous));
}

Response tree_preset(const std::string& input) {
  const std::size_t first = input.find_first_not_of(" \t\r\n");
  const std::size_t last = input.find_last_not_of(" \t\r\n");
  const std::string trimmed =
      first == std::string::npos ? std::string() : input.substr(first, last - first + 1);
  json in;
  if (!trimmed.empty() && (trimmed[0] == '{' || trimmed[0] == '[' || trimmed[0] == '"')) {
    Expected<json> doc = fields::parse_document(trimmed, "input", kMaxNesting);
    if (!doc.ok()) return fail(doc.error());
    in = doc.value();
  } else {
    in = trimmed;  // a bare name, as typed or piped (trailing newline trimmed)
  }
  if (in.is_string()) {
    if (!fields::valid_utf8(in.get_ref<const std::string&>()))
      return fail(make_error("name", "is not valid UTF-8 text"));
    in = json{{"name", in}};
  }
  if (!in.is_object()) return fail(make_error("", "input must be a preset name or an object"));
  Error err;
  if (!fields::check_keys(in, "", {"name", "acceptance", "total_token", "depth", "top_k"}, &err))
    return fail(err);
  auto name_it = in.find("name");
  if (name_it == in.end() || !name_it->is_string()) {
    return fail(make_error("name", "must be a preset name: " + preset_names() + ", eagle2"));
  }
  const std::string name = name_it->get<std::string>();
  if (name.size() > 64)
    return fail(make_error("name", "is not a tree preset name (longer than 64 characters)"));
  const bool has_acc = in.contains("acceptance");
  AcceptanceMatrix acc;
  if (has_acc || name == "eagle2") {
    Expected<AcceptanceMatrix> parsed = parse_acceptance(in, "acceptance");
    if (!parsed.ok()) {
      Error e = parsed.error();
      if (!has_acc)
        e.message = "is required for eagle2 (candidates are ranked by path probability)";
      return fail(e);
    }
    acc = parsed.value();
  }
  Expected<Tree> tree = make_error("name", "");
  json_write::Object out;
  if (name == "eagle2") {
    Expected<int> total = get_int(in, "total_token", 2, kMaxNodes + 1, 60, false);
    if (!total.ok()) return fail(total.error());
    Expected<int> depth = get_int(in, "depth", 1, kMaxDepth, 6, false);
    if (!depth.ok()) return fail(depth.error());
    Expected<int> top_k = get_int(in, "top_k", 1, kMaxRank, 10, false);
    if (!top_k.ok()) return fail(top_k.error());
    tree = eagle2_tree(acc, total.value(), depth.value(), top_k.value());
    out.integer("total_token", total.value());
    out.integer("eagle_depth", depth.value() - 1);  // EAGLE's --depth: expansions after level 1
    out.integer("top_k", top_k.value());
  } else {
    tree = preset_tree(name, "name");
  }
  if (!tree.ok()) return fail(tree.error());
  tree_members(out, tree.value());
  out.string("name", name);
  if (has_acc || name == "eagle2") expectation_members(out, expect_tree(tree.value(), acc));
  return done(out);
}

Response convert(const std::string& input) {
  Expected<json> doc =
      parse_object(input, {"k", "choices", "preset", "alpha", "tau", "tau_without_bonus",
                           "mean_acceptance_length", "draft_acceptance_rate", "per_position",
                           "per_position_joint"});
  if (!doc.ok()) return fail(doc.error());
  const json& in = doc.value();
  Expected<Draft> parsed = parse_draft(in, false);
  if (!parsed.ok()) return fail(parsed.error());
  const Tree& draft = parsed.value().tree;

  struct Key {
    const char* name;
    MetricKind kind;
    bool list;
  };
  static const Key kKeys[] = {
      {"alpha", MetricKind::kAlpha, false},
      {"tau", MetricKind::kTau, false},
      {"tau_without_bonus", MetricKind::kTauWithoutBonus, false},
      {"mean_acceptance_length", MetricKind::kMeanAcceptanceLength, false},
      {"draft_acceptance_rate", MetricKind::kDraftAcceptanceRate, false},
      {"per_position", MetricKind::kPerPosition, true},
      {"per_position_joint", MetricKind::kPerPositionJoint, true},
  };
  MetricInput given;
  int found = 0;
  for (const Key& key : kKeys) {
    auto it = in.find(key.name);
    if (it == in.end()) continue;
    ++found;
    given.kind = key.kind;
    given.field = key.name;
    if (key.list) {
      Expected<std::vector<double>> v = parse_probability_list(*it, key.name);
      if (!v.ok()) return fail(v.error());
      given.values = v.value();
    } else {
      Expected<double> v = get_number(*it, key.name);
      if (!v.ok()) return fail(v.error());
      given.value = v.value();
    }
  }
  if (found != 1) {
    return fail(make_error("",
                           "give exactly one metric: alpha, tau, tau_without_bonus, "
                           "mean_acceptance_length, draft_acceptance_rate, per_position, "
                           "per_position_joint"));
  }
  Expected<Metrics> m = convert_metrics(draft, given);
  if (!m.ok()) return fail(m.error());
  const Metrics& r = m.value();
  json out;
  out["draft_tokens"] = r.draft_tokens;
  out["depth"] = r.depth;
  out["alpha"] = r.has_alpha ? json(r.alpha) : json(nullptr);
  out["tau"] = r.tau;
  out["tau_without_bonus"] = r.tau_without_bonus;
  out["mean_acceptance_length"] = r.mean_acceptance_length;
  out["draft_acceptance_rate"] = r.draft_acceptance_rate;
  out["per_position"] = r.per_position;
  out["per_position_joint"] = r.per_position_joint;
  json assumptions = json::array();
  if (r.per_position_from_alpha_model) {
    assumptions.push_back(
        "per-position rates derived from the alpha rank model "
        "p[d][r] = alpha*(1-alpha)^r (only a scalar was given)");
  }
  if (!r.has_alpha) {
    assumptions.push_back("no alpha reproduces this tau on this tree under the alpha model");
  }
  out["assumptions"] = assumptions;
  out["definitions"] = {
      {"tau", "mean tokens per cycle, bonus token included"},
      {"tau_without_bonus", "mean accepted draft tokens per cycle (tau - 1)"},
      {"mean_acceptance_length", "vLLM: 1 + accepted draft tokens / drafts (= tau)"},
      {"draft_acceptance_rate",
       "vLLM: accepted draft tokens / proposed draft tokens "
       "= (tau - 1) / draft_tokens"},
      {"per_position", "P(depth i accepted | depth i-1 accepted), i = 1..depth"},
      {"per_position_joint", "P(at least i draft tokens accepted), i = 1..depth"},
      {"alpha", "per-token acceptance that gives this tau on this draft under the alpha model"}};
  return done(out);
}

Response tree_calibrate(const std::string& input) {
  Expected<json> doc =
      parse_object(input, {"k", "choices", "preset", "eagle2", "tau", "family", "acceptance"});
  if (!doc.ok()) return fail(doc.error());
  const json& in = doc.value();
  Expected<Draft> draft = parse_draft(in, true);
  if (!draft.ok()) return fail(draft.error());
  if (draft.value().eagle2) {
    // The fit regenerates the EAGLE-2 tree ~1100 times (1024-point scan, then bisection), each
    // time ranking top_k + (depth - 1) * top_k^2 candidates: bound that work (8000: ~0.3 s native).
    const Draft& d = draft.value();
    const long long candidates = eagle2_candidates(d.top_k, d.depth);
    constexpr long long kMaxCandidates = 8000;
    if (candidates > kMaxCandidates) {
      return fail(make_error("eagle2", "calibrating regenerates the tree about 1100 times; " +
                                           std::to_string(candidates) +
                                           " candidates per tree (top_k + (depth - 1) * "
                                           "top_k^2) is over the limit of " +
                                           std::to_string(kMaxCandidates) +
                                           " (use a smaller depth or top_k)"));
    }
  }
  if (!in.contains("tau"))
    return fail(make_error("tau", "is required (measured tokens per cycle, bonus token included)"));
  Expected<double> tau = get_number(in["tau"], "tau");
  if (!tau.ok()) return fail(tau.error());
  std::string family = "alpha";
  if (in.contains("family")) {
    if (!in["family"].is_string())
      return fail(make_error("family", "must be \"alpha\" or \"scale\""));
    family = in["family"].get<std::string>();
  }
  if (family != "alpha" && family != "scale") {
    return fail(make_error(
        "family", "must be \"alpha\" or \"scale\", got '" + fields::excerpt(family, 40) + "'"));
  }
  AcceptanceMatrix base;
  if (family == "scale") {
    Expected<AcceptanceMatrix> parsed = parse_acceptance(in, "acceptance");
    if (!parsed.ok()) return fail(parsed.error());
    base = parsed.value();
  } else if (in.contains("acceptance")) {
    return fail(make_error("acceptance",
                           "is not used by family alpha (give family \"scale\" "
                           "to fit a multiple of this matrix)"));
  }
  auto matrix = [&](double x) {
    return family == "alpha" ? acceptance_from_alpha(x).value() : scale_acceptance(base, x);
  };
  auto tau_of = [&](double x) {
    const AcceptanceMatrix m = matrix(x);
    return expect_tree(draft_tree(draft.value(), m), m).expected_tau;
  };
  Expected<double> fit = family == "alpha"
                             ? calibrate_alpha_with(tau_of, tau.value(), "tau")
                             : calibrate_scale_with(tau_of, max_scale(base), tau.value(), "tau");
  if (!fit.ok()) return fail(fit.error());
  const AcceptanceMatrix fitted = matrix(fit.value());
  const Tree tree = draft_tree(draft.value(), fitted);
  json_write::Object out;
  tree_members(out, tree);
  out.string("family", family);
  out.number(family == "alpha" ? "alpha" : "scale", fit.value());
  json_write::Object acceptance;
  if (family == "alpha") {
    acceptance.number("alpha", fit.value());
  } else {
    std::string& rows = acceptance.value("p");
    rows += '[';
    for (std::size_t i = 0; i < fitted.rows.size(); ++i) {
      if (i > 0) rows += ',';
      json_write::numbers(rows, fitted.rows[i]);
    }
    rows += ']';
  }
  acceptance.write(out.value("acceptance"));
  out.number("tau_target", tau.value());
  out.number("expected_tau", expect_tree(tree, fitted).expected_tau);
  json_write::Object definitions;
  definitions.string("acceptance",
                     "the fitted acceptance; pass it to tree-expect / tree-optimize to predict "
                     "other trees and sizes");
  definitions.string("alpha", "p[d][r] = alpha * (1 - alpha)^r (docs/tree-model.md)");
  definitions.string("scale", "p = scale * the given matrix");
  definitions.write(out.value("definitions"));
  return done(out);
}

}  // namespace speccalc::commands
