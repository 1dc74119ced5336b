#include "speccalc/published_tau.hpp"

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

}  // namespace

PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id, bool sampled) {
  if (target_id.empty()) return PublishedTau{};
  static const std::vector<Entry> entries = parse_entries();
  for (const Entry& e : entries) {
    if (e.family != family || e.target_id != target_id) continue;
    if (family == "sps" && e.draft_id != draft_id) continue;
    if (e.sampled != sampled) continue;
    return e.tau;
  }
  return PublishedTau{};
}

}  // namespace speccalc
