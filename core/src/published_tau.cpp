#include "speccalc/published_tau.hpp"

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {

namespace {

// The fields of a published row the lookup reads (the table's normalized columns).
struct TauRow {
  std::string id, family, target_id, draft_id, dataset;
  double tau = 0;
  bool has_temperature = false;
  double temperature = 0;
};

std::string str(const nlohmann::json& row, const char* key) {
  auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The table is a compiled-in constant: read it once per process, and only when a config
// actually leaves acceptance to the data. Only the columns used here are extracted (the full
// PublishedRow parse re-serializes every row and doubled the one-time cost in WASM).
const std::vector<TauRow>& rows() {
  static const std::vector<TauRow> parsed = [] {
    std::vector<TauRow> out;
    const nlohmann::json doc = nlohmann::json::parse(data::published(), nullptr, false);
    if (!doc.is_array()) return out;
    for (const auto& r : doc) {
      auto tau = r.find("tau");
      auto superseded = r.find("superseded");
      if (tau == r.end() || !tau->is_number()) continue;
      if (superseded != r.end() && superseded->is_boolean() && superseded->get<bool>()) continue;
      TauRow row;
      row.id = str(r, "id");
      row.family = str(r, "family");
      row.target_id = str(r, "target_id");
      row.draft_id = str(r, "draft_id");
      row.dataset = str(r, "dataset");
      row.tau = tau->get<double>();
      auto t = r.find("temperature");
      if (t != r.end() && t->is_number()) {
        row.has_temperature = true;
        row.temperature = t->get<double>();
      }
      out.push_back(row);
    }
    return out;
  }();
  return parsed;
}

}  // namespace

PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id) {
  PublishedTau out;
  if (target_id.empty()) return out;
  std::vector<const TauRow*> greedy, unstated;
  for (const auto& r : rows()) {
    if (r.family != family || r.target_id != target_id) continue;
    if (family == "sps" && r.draft_id != draft_id) continue;
    // "Mean (6 datasets)" rows average per-dataset rows of the same table: counting them too
    // would weight those rows twice.
    if (r.dataset.rfind("Mean (", 0) == 0) continue;
    if (!r.has_temperature) {
      unstated.push_back(&r);
    } else if (r.temperature == 0) {
      greedy.push_back(&r);
    }
  }
  const bool use_greedy = !greedy.empty();
  const auto& chosen = use_greedy ? greedy : unstated;
  if (chosen.empty()) return out;
  double sum = 0;
  for (const TauRow* r : chosen) {
    sum += r->tau;
    out.row_ids.push_back(r->id);
  }
  out.found = true;
  out.mean_tau = sum / static_cast<double>(chosen.size());
  out.rule = use_greedy ? "greedy" : "temperature not stated";
  return out;
}

}  // namespace speccalc
