#include "speccalc/published_tau.hpp"

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {

PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id, bool sampled) {
  // core/data/published-tau.json holds the means (scripts/import_published.py computes them
  // from published.json with the rules written there): small enough to embed in both builds,
  // so an evaluation never needs the full table the page loads on demand.
  PublishedTau out;
  if (target_id.empty()) return out;
  const nlohmann::json doc = nlohmann::json::parse(data::published_tau(), nullptr, false);
  if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array()) return out;
  for (const auto& e : doc["entries"]) {
    if (e.value("family", "") != family || e.value("target_id", "") != target_id) continue;
    if (family == "sps" && e.value("draft_id", "") != draft_id) continue;
    if ((e.value("temperature", 0.0) > 0) != sampled) continue;
    out.found = true;
    out.sampled = sampled;
    out.mean_tau = e.value("mean_tau", 0.0);
    out.min_tau = e.value("min_tau", out.mean_tau);
    out.max_tau = e.value("max_tau", out.mean_tau);
    out.rule = e.value("rule", "");
    out.top1 = e.value("top1", 0.0);
    out.top1_min = e.value("top1_min", 0.0);
    out.top1_max = e.value("top1_max", 0.0);
    if (e.contains("row_ids") && e["row_ids"].is_array())
      for (const auto& id : e["row_ids"]) out.row_ids.push_back(id.get<std::string>());
    return out;
  }
  return out;
}

}  // namespace speccalc
