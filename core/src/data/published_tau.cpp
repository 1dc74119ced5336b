#include "speccalc/published_tau.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {

namespace {

struct Entry {
  std::string family, target_id, draft_id;
  bool sampled = false;
  PublishedTau tau;
};

// core/data/published-tau.json holds the means (scripts/import_published.py computes them from
// published.json with the rules written there): small enough to embed in both builds, so an
// evaluation never needs the full table the page loads on demand. Parsed once per process (a
// compiled-in constant, as the catalog): parsing it on every evaluation cost ~0.5 ms in WASM.
std::vector<Entry> parse_entries() {
  std::vector<Entry> out;
  const nlohmann::json doc = nlohmann::json::parse(data::published_tau(), nullptr, false);
  if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array()) return out;
  for (const auto& e : doc["entries"]) {
    Entry x;
    x.family = e.value("family", "");
    x.target_id = e.value("target_id", "");
    x.draft_id = e.value("draft_id", "");
    x.sampled = e.value("temperature", 0.0) > 0;
    PublishedTau& t = x.tau;
    t.found = true;
    t.sampled = x.sampled;
    t.mean_tau = e.value("mean_tau", 0.0);
    t.min_tau = e.value("min_tau", t.mean_tau);
    t.max_tau = e.value("max_tau", t.mean_tau);
    t.rule = e.value("rule", "");
    t.top1 = e.value("top1", 0.0);
    t.top1_min = e.value("top1_min", 0.0);
    t.top1_max = e.value("top1_max", 0.0);
    t.scale = e.value("scale", 0.0);
    t.scale_min = e.value("scale_min", 0.0);
    t.scale_max = e.value("scale_max", 0.0);
    if (e.contains("row_ids") && e["row_ids"].is_array())
      for (const auto& id : e["row_ids"]) t.row_ids.push_back(id.get<std::string>());
    out.push_back(std::move(x));
  }
  return out;
}

// Parsed once per process (a compiled-in constant, as the catalog).
const std::vector<Entry>& entries() {
  static const std::vector<Entry> parsed = parse_entries();
  return parsed;
}

}  // namespace

PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id, bool sampled) {
  if (target_id.empty()) return PublishedTau{};
  for (const Entry& e : entries()) {
    if (e.family != family || e.target_id != target_id) continue;
    if (family == "sps" && e.draft_id != draft_id) continue;
    if (e.sampled != sampled) continue;
    return e.tau;
  }
  return PublishedTau{};
}

PublishedTau published_tau_other_models(const std::string& family, const std::string& target_id,
                                        bool sampled) {
  PublishedTau out;
  // sps rows depend on their draft model (its default follows the draft's size); retrieval rows
  // on their datastore (REST, Token Recycling), which the config's source may not be.
  if (family == "sps" || family == "retrieval") return out;
  out.min_tau = out.top1_min = 1e9;
  for (const Entry& e : entries()) {
    if (e.family != family || e.target_id == target_id || e.sampled != sampled) continue;
    const PublishedTau& t = e.tau;
    out.min_tau = std::min(out.min_tau, t.min_tau);
    out.max_tau = std::max(out.max_tau, t.max_tau);
    out.mean_tau += t.mean_tau;
    // Every EAGLE entry stores top1 and no other family's does (0): a sum over all is theirs.
    // Medusa's scale is left out: it multiplies the target's own head table, which only the
    // targets with Medusa rows have.
    out.top1 += t.top1;
    out.top1_min = std::min(out.top1_min, t.top1_min);
    out.top1_max = std::max(out.top1_max, t.top1_max);
    for (const std::string& id : t.row_ids) out.row_ids.push_back(id);  // (no range insert: bytes)
    out.models.push_back(e.target_id);
  }
  if (out.models.empty()) return PublishedTau{};  // no model has rows: nothing to divide
  const double n = static_cast<double>(out.models.size());
  out.found = true;
  out.sampled = sampled;
  out.mean_tau /= n;
  out.top1 /= n;
  return out;
}

}  // namespace speccalc
