#include "data/published_page.hpp"

#include <algorithm>
#include <map>

#include "fit/published_row_config.hpp"
#include "speccalc/validate.hpp"

namespace speccalc {

using nlohmann::json;

std::string row_json_for_front_ends(const PublishedRow& row) {
  // Spellings differ between sources ("Vicuna-7B (v1.3)", "Vicuna-7B-v1.3"): the preset id
  // names the model once; rows without a preset keep the published name.
  std::string text = row.json;
  text.insert(
      text.size() - 1,
      ",\"model\":" + json(row.target_id.empty() ? row.target_model : row.target_id).dump() +
          ",\"config\":" + published_row_config(row).dump() +
          ",\"use\":" + published_row_use(row).dump());
  return text;
}

json published_filter_choices(const std::vector<PublishedRow>& all) {
  std::map<std::string, int64_t> hardware;  // sorted by id
  std::map<double, int64_t> temperatures;   // sorted by value
  int64_t unstated = 0;
  for (const PublishedRow& r : all) {
    if (!r.hardware_id.empty()) ++hardware[r.hardware_id];
    if (r.temperature)
      ++temperatures[*r.temperature];
    else
      ++unstated;
  }
  json hw = json::array();
  for (const auto& [id, rows] : hardware)
    hw.push_back(json{{"query", id}, {"label", id}, {"rows", rows}});
  json temp = json::array();
  for (const auto& [t, rows] : temperatures) {
    // Whole temperatures as the sources write them ("0", "1"), not "0.0".
    const bool whole = t == static_cast<double>(static_cast<int64_t>(t));
    const json query = whole ? json(static_cast<int64_t>(t)) : json(t);
    const std::string text = query.dump();
    temp.push_back(
        json{{"query", query}, {"label", t == 0 ? text + " (greedy)" : text}, {"rows", rows}});
  }
  if (unstated > 0)
    temp.push_back(json{{"query", "not stated"}, {"label", "not stated"}, {"rows", unstated}});
  return json{{"hardware", hw}, {"temperature", temp}};
}

std::string published_page_json(const std::vector<PublishedRow>& selected,
                                const std::vector<PublishedRow>& all, int64_t offset,
                                int64_t limit) {
  const int64_t total = static_cast<int64_t>(selected.size());
  const int64_t end = std::min(total, offset + limit);
  json rows = json::array();
  for (int64_t i = offset; i < end; ++i)
    rows.push_back(json::parse(row_json_for_front_ends(selected[i]), nullptr, false));
  return json{{"total", total},
              {"offset", offset},
              {"limit", limit},
              {"first", end > offset ? offset + 1 : 0},
              {"last", end > offset ? end : 0},
              {"previous_offset", offset > 0 ? json(std::max<int64_t>(0, offset - limit)) : json()},
              {"next_offset", end < total ? json(end) : json()},
              {"rows", rows},
              {"filters", published_filter_choices(all)}}
      .dump();
}

}  // namespace speccalc
