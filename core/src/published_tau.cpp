#include "speccalc/published_tau.hpp"

#include "speccalc/published.hpp"

namespace speccalc {

namespace {

// The table is a compiled-in constant: parse it once per process, and only when a config
// actually leaves acceptance to the data.
const std::vector<PublishedRow>& rows() {
  static const std::vector<PublishedRow> parsed = [] {
    auto r = load_published();
    return r.ok() ? r.value() : std::vector<PublishedRow>{};
  }();
  return parsed;
}

}  // namespace

PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id) {
  PublishedTau out;
  if (target_id.empty()) return out;
  std::vector<const PublishedRow*> greedy, unstated;
  for (const auto& r : rows()) {
    if (r.family != family || r.target_id != target_id || !r.tau || r.superseded) continue;
    if (family == "sps" && r.draft_id != draft_id) continue;
    // "Mean (6 datasets)" rows average per-dataset rows of the same table: counting them too
    // would weight those rows twice.
    if (r.dataset.rfind("Mean (", 0) == 0) continue;
    if (!r.temperature) {
      unstated.push_back(&r);
    } else if (*r.temperature == 0) {
      greedy.push_back(&r);
    }
  }
  const bool use_greedy = !greedy.empty();
  const auto& chosen = use_greedy ? greedy : unstated;
  if (chosen.empty()) return out;
  double sum = 0;
  for (const PublishedRow* r : chosen) {
    sum += *r->tau;
    out.row_ids.push_back(r->id);
  }
  out.found = true;
  out.mean_tau = sum / static_cast<double>(chosen.size());
  out.rule = use_greedy ? "greedy" : "temperature not stated";
  return out;
}

}  // namespace speccalc
