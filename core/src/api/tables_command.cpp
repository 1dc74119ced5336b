#include "api/tables_command.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "api/commands.hpp"
#include "config/json_fields.hpp"
#include "data/published_page.hpp"
#include "fit/published_row_config.hpp"
#include "speccalc/published.hpp"
#include "speccalc/validate.hpp"

namespace speccalc::commands {

namespace {

constexpr int64_t kDefaultPageRows = 50;
constexpr int64_t kMaxPageRows = 1000;

// The temperature filter: `by` is set when the query has one; `value` absent selects the rows
// that do not state a temperature.
struct TemperatureFilter {
  bool by = false;
  std::optional<double> value;
};

// "temperature": a number (rows at exactly that temperature) or "not stated".
bool read_temperature(const fields::json& q, TemperatureFilter* filter, Error* err) {
  auto it = q.find("temperature");
  if (it == q.end()) return true;
  filter->by = true;
  if (it->is_string() && *it == "not stated") return true;
  double t = 0;
  if (!it->is_number()) {
    *err = make_error("temperature", "must be a number or \"not stated\"");
    return false;
  }
  if (!fields::number_value(*it, "temperature", 0, 100, &t, err)) return false;
  filter->value = t;
  return true;
}

bool comparable_row(const PublishedRow& r) {
  return r.speedup && r.speedup_kind == "latency" && !r.superseded && r.duplicate_of.empty() &&
         !published_row_config(r).is_null();
}

}  // namespace

Response tables(const std::string& query_json, std::string_view published_json) {
  // Empty (or blank) input means "everything, as JSON": handy for `speccalc run tables`.
  const bool blank = query_json.find_first_not_of(" \t\r\n") == std::string::npos;
  auto parsed = fields::parse_document(blank ? std::string("{}") : query_json, "tables query");
  if (!parsed.ok()) return fail(parsed.error());
  const fields::json& q = parsed.value();
  if (!q.is_object()) return fail(make_error("", "tables query must be a JSON object"));
  Error err;
  if (!fields::check_keys(q, "",
                          {"method", "model", "dataset", "source", "hardware", "temperature",
                           "model_id", "comparable", "format", "offset", "limit"},
                          &err)) {
    return fail(err);
  }
  TableQuery query;
  TemperatureFilter temperature;
  std::string model_id;
  bool comparable = false;
  std::string format = "json";
  if (!fields::read_string(q, "method", "", &query.method, &err) ||
      !fields::read_string(q, "model", "", &query.model, &err) ||
      !fields::read_string(q, "dataset", "", &query.dataset, &err) ||
      !fields::read_string(q, "source", "", &query.source, &err) ||
      !fields::read_string(q, "hardware", "", &query.hardware, &err) ||
      !fields::read_string(q, "format", "", &format, &err) ||
      !fields::read_string(q, "model_id", "", &model_id, &err) ||
      !fields::read_bool(q, "comparable", "", &comparable, &err) ||
      !read_temperature(q, &temperature, &err)) {
    return fail(err);
  }
  if (format != "json" && format != "csv" && format != "table" && format != "page") {
    return fail(make_error(
        "format", "must be \"json\", \"csv\", \"table\" or \"page\", got \"" + format + "\""));
  }
  int64_t offset = 0;
  int64_t limit = format == "page" ? kDefaultPageRows : kMaxPageRows;
  const bool sliced = q.contains("offset") || q.contains("limit");
  if (!fields::read_int(q, "offset", "", 0, 1000000, &offset, &err) ||
      !fields::read_int(q, "limit", "", 1, kMaxPageRows, &limit, &err))
    return fail(err);
  auto rows = load_published(published_json);
  if (!rows.ok()) return fail(rows.error());
  auto selected = filter_rows(rows.value(), query);
  // model_id: exactly this preset (model matches substrings of the published names too).
  // comparable: rows a calculator result can be set beside: a reproducing config and a
  // latency speedup, not superseded, not a reprint of an earlier table's row (one point each).
  selected.erase(std::remove_if(selected.begin(), selected.end(),
                                [&](const PublishedRow& r) {
                                  return (temperature.by && r.temperature != temperature.value) ||
                                         (!model_id.empty() && r.target_id != model_id) ||
                                         (comparable && !comparable_row(r));
                                }),
                 selected.end());
  const int64_t total = static_cast<int64_t>(selected.size());
  if (offset > 0 && offset >= total)
    return fail(make_error(
        "offset", "is past the last row (" + std::to_string(total) + " rows match the filters)"));
  if (format == "page") return ok_json(published_page_json(selected, rows.value(), offset, limit));
  // The other formats give every matching row unless offset or limit asks for a slice.
  if (sliced) {
    selected.erase(selected.begin(), selected.begin() + offset);
    if (static_cast<int64_t>(selected.size()) > limit) selected.resize(limit);
  }
  if (format == "csv") return ok_json(rows_to_csv(selected));
  if (format == "table") return ok_json(rows_to_text(selected));
  // JSON rows carry the normalized model name and the config that reproduces them (null when
  // not modelled), from core, so front ends never rebuild them.
  // Comparable rows also say which is the fastest of its family among them (the first on a
  // tie): the one a per-family chart shows.
  std::map<std::string, std::size_t> best;
  if (comparable)
    for (std::size_t i = 0; i < selected.size(); ++i) {
      auto [it, fresh] = best.emplace(selected[i].family, i);
      if (!fresh && *selected[i].speedup > *selected[it->second].speedup) it->second = i;
    }
  std::string out = "[";
  for (std::size_t i = 0; i < selected.size(); ++i) {
    std::string row = row_json_for_front_ends(selected[i]);
    if (comparable)
      row.insert(row.size() - 1, std::string(",\"family_best\":") +
                                     (best[selected[i].family] == i ? "true" : "false"));
    out += (i > 0 ? "," : "") + row;
  }
  return ok_json(out + "]");
}

}  // namespace speccalc::commands
