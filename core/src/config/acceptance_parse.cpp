#include "config/acceptance_parse.hpp"

#include <algorithm>

#include "config/json_fields.hpp"
#include "config/tree_input.hpp"
#include "speccalc/published_tau.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc {

using fields::json;

namespace {

const char kKeys[] = "tau, alpha, per_position, p, medusa, workload, published";

// Which workload column a family reads and the chain length k it drafts; false with *err
// naming the field when the data (chains of k = 1..8, EAGLE head or n-gram) does not cover it.
bool workload_column(const MethodConfig& m, bool* eagle, int64_t* k, Error* err) {
  const std::string field = "acceptance.workload";
  switch (m.family) {
    case Family::pld:
      *eagle = false;
      *k = m.k;
      break;
    case Family::eagle1: {
      // Only a chain ([[0], [0, 0], ...]) matches the measured chain drafts.
      bool chain = true;
      for (std::size_t i = 0; i < m.choices.size(); ++i) {
        chain = chain && m.choices[i].size() == i + 1 &&
                std::all_of(m.choices[i].begin(), m.choices[i].end(), [](int r) { return r == 0; });
      }
      if (!chain) {
        *err = make_error("method.choices",
                          "is a tree, but workload acceptance is measured with chain drafts; use a "
                          "chain of k nodes ([[0], [0, 0], ...]) or give acceptance.tau");
        return false;
      }
      *eagle = true;
      *k = static_cast<int64_t>(m.choices.size());
      break;
    }
    case Family::eagle2:
    case Family::eagle3:
      if (m.top_k != 1) {
        *err = make_error("method.top_k",
                          "is " + std::to_string(m.top_k) +
                              ", but workload acceptance is measured with chain drafts (top_k 1)");
        return false;
      }
      *eagle = true;
      *k = std::min(m.depth, m.total_token - 1);
      break;
    default:
      *err = make_error(field, std::string("has no data for family ") + family_name(m.family) +
                                   "; the workload traces cover EAGLE heads (eagle1, eagle2, "
                                   "eagle3) and n-gram lookup (pld)");
      return false;
  }
  if (*k < 1 || *k > 8) {
    *err = make_error(
        m.family == Family::pld ? "method.k" : field,
        "drafts " + std::to_string(*k) + " tokens per cycle; the workload traces cover k = 1..8");
    return false;
  }
  return true;
}

bool parse_workload(const json& v, const std::string& path, Config* c, Error* err) {
  auto table = load_workloads();
  if (!table.ok()) {
    *err = table.error();
    return false;
  }
  if (!v.is_string()) {
    *err = make_error(path, "must be a workload id (" + table.value().ids() + ")");
    return false;
  }
  const Workload* w = table.value().find(v.get<std::string>());
  if (!w) {
    *err = make_error(path, "unknown workload; known: " + table.value().ids());
    return false;
  }
  bool eagle = false;
  int64_t k = 0;
  if (!workload_column(c->method, &eagle, &k, err)) return false;
  const WorkloadProposer& p = eagle ? w->eagle : w->ngram;
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::tau;
  a.workload = w->id;
  a.tau = p.tau_by_k[k - 1];
  a.tau_p5 = p.per_request[k - 1].p5;
  a.tau_p50 = p.per_request[k - 1].p50;
  a.tau_p95 = p.per_request[k - 1].p95;
  a.note = "tau " + fields::format_significant(a.tau) + " for " + w->name +
           " at k = " + std::to_string(k) + " (" + (eagle ? "EAGLE head" : "n-gram proposer") +
           "; per-request p5/p50/p95 " + fields::format_number(a.tau_p5) + "/" +
           fields::format_number(a.tau_p50) + "/" + fields::format_number(a.tau_p95) +
           "), measured on " + table.value().target + " in " + table.value().engine + " (" +
           table.value().source + ")";
  if (c->target.id != table.value().target)
    a.note += "; applied to " + c->target.name + " as if its acceptance were the same";
  if (c->method.family == Family::eagle3)
    a.note +=
        "; the traces' EAGLE-head column used for EAGLE-3 (EAGLE-3 heads usually accept more)";
  return true;
}

// No published row, but the vLLM traces were measured on this target with this proposer (n-gram
// lookup = pld): tau = the mean over the traced workloads at the method's k (k > 8: the k = 8
// value, a lower bound since tau grows with k).
bool trace_tau(Config* c) {
  const MethodConfig& m = c->method;
  auto table = load_workloads();
  if (!table.ok() || !c->target_preset || c->target.id != table.value().target ||
      m.family != Family::pld || m.k < 1 || table.value().workloads.empty())
    return false;
  const int64_t k = std::min<int64_t>(m.k, 8);
  double sum = 0;
  std::string names;
  for (const auto& w : table.value().workloads) {
    sum += w.ngram.tau_by_k[k - 1];
    names += (names.empty() ? "" : ", ") + w.name;
  }
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::tau;
  a.tau = sum / static_cast<double>(table.value().workloads.size());
  a.note =
      "no published tau for pld on " + c->target.id + "; tau " + fields::format_number(a.tau) +
      " = mean over the vLLM n-gram traces of " + names + " at k = " + std::to_string(k) +
      (m.k > 8 ? " (the traces stop at k = 8; a lower bound for k = " + std::to_string(m.k) + ")"
               : std::string()) +
      " (core/data/workloads.json, " + table.value().source + ")";
  return true;
}

// Acceptance from the published table: the mean tau of the matching rows, or the default
// alpha (said so) when none match.
void use_published(Config* c) {
  Acceptance& a = c->acceptance;
  a.published = true;
  const MethodConfig& m = c->method;
  if (m.family == Family::ar) return;  // one token per step whatever the acceptance
  const std::string family = family_name(m.family);
  const PublishedTau pub =
      c->target_preset ? published_tau(family, c->target.id, m.draft) : PublishedTau{};
  const std::string what = family + (m.family == Family::sps ? " with draft " + m.draft : "") +
                           " on " + (c->target_preset ? c->target.id : "a custom target");
  if (!pub.found && trace_tau(c)) return;
  if (!pub.found) {
    a.note = "no published tau for " + what +
             " (core/data/published.json); default per-token "
             "acceptance alpha " +
             fields::format_number(kDefaultAlpha) + ", not from data";
    return;
  }
  a.kind = Acceptance::Kind::tau;
  a.tau = pub.mean_tau;
  std::string ids;
  for (const auto& id : pub.row_ids) ids += (ids.empty() ? "" : ", ") + id;
  a.note = "tau " + fields::format_significant(a.tau) + " = mean of " +
           std::to_string(pub.row_ids.size()) + " published " + pub.rule + " rows for " + what +
           " (core/data/published.json: " + ids +
           "), measured at each source's own settings, not adjusted to this config";
}

// Moves a parsed value into *out, or the error into *err.
template <typename T>
bool take(Expected<T> parsed, T* out, Error* err) {
  if (!parsed.ok()) {
    *err = parsed.error();
    return false;
  }
  *out = std::move(parsed.value());
  return true;
}

}  // namespace

bool parse_acceptance(const json& doc, Config* c, Error* err) {
  Acceptance& a = c->acceptance;
  a = Acceptance{};
  a.kind = Acceptance::Kind::alpha;
  a.alpha = kDefaultAlpha;
  auto it = doc.find("acceptance");
  if (it == doc.end()) {
    use_published(c);
    return true;
  }
  if (!it->is_object() || it->size() != 1) {
    *err = make_error("acceptance", std::string("must be an object with exactly one of: ") + kKeys);
    return false;
  }
  const std::string key = it->begin().key();
  const json& v = it->begin().value();
  const std::string path = "acceptance." + key;
  if (key == "tau") {
    a.kind = Acceptance::Kind::tau;
    return fields::number_value(v, path, 1, 1025, &a.tau, err);
  }
  if (key == "alpha") {
    a.kind = Acceptance::Kind::alpha;
    return fields::number_value(v, path, 0, 1, &a.alpha, err);
  }
  if (key == "workload") return parse_workload(v, path, c, err);
  if (key == "published") {
    if (!v.is_boolean() || !v.get<bool>()) {
      *err = make_error(path,
                        "must be true (acceptance from the published table); to set it "
                        "yourself use tau, alpha, per_position, p, medusa or workload");
      return false;
    }
    use_published(c);
    return true;
  }
  // The matrix forms share their reader with the tree commands (config/tree_input.hpp).
  if (key == "per_position") {
    a.kind = Acceptance::Kind::per_position;
    return take(parse_probability_list(v, path), &a.per_position, err);
  }
  if (key == "p") {
    a.kind = Acceptance::Kind::matrix;
    return take(parse_probability_rows(v, path, /*exclusive=*/true), &a.p, err);
  }
  if (key == "medusa") {
    a.kind = Acceptance::Kind::matrix;
    if (!take(parse_medusa_table(v, path), &a.medusa_table, err)) return false;
    auto matrix = tree::medusa_acceptance(a.medusa_table, path);
    if (!matrix.ok()) {
      *err = matrix.error();
      return false;
    }
    a.p = matrix.value().rows;
    return true;
  }
  *err = make_error(path.size() > 80 ? path.substr(0, 80) + "..." : path,
                    std::string("unknown field; expected one of: ") + kKeys);
  return false;
}

json resolved_acceptance_json(const Acceptance& a) {
  switch (a.kind) {
    case Acceptance::Kind::tau:
      return json{{"tau", a.tau}};
    case Acceptance::Kind::alpha:
      return json{{"alpha", a.alpha}};
    case Acceptance::Kind::per_position:
      return json{{"per_position", a.per_position}};
    case Acceptance::Kind::matrix:
      return json{{"p", a.p}};
  }
  return json{{"alpha", a.alpha}};
}

json acceptance_to_json(const Acceptance& a) {
  // The form the user gave; resolved_acceptance_json() writes the numbers it resolved to.
  if (a.published) return json{{"published", true}};
  if (!a.workload.empty()) return json{{"workload", a.workload}};
  if (a.kind == Acceptance::Kind::matrix && !a.medusa_table.empty())
    return json{{"medusa", a.medusa_table}};
  return resolved_acceptance_json(a);
}

}  // namespace speccalc
