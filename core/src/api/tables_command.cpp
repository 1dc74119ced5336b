#include "api/tables_command.hpp"

#include <string>

#include "api/commands.hpp"
#include "config/json_fields.hpp"
#include "fit/published_row_config.hpp"
#include "speccalc/published.hpp"
#include "speccalc/validate.hpp"

namespace speccalc::commands {

Response tables(const std::string& query_json, std::string_view published_json) {
  // Empty (or blank) input means "everything, as JSON": handy for `speccalc run tables`.
  const bool blank = query_json.find_first_not_of(" \t\r\n") == std::string::npos;
  auto parsed = fields::parse_document(blank ? std::string("{}") : query_json, "tables query");
  if (!parsed.ok()) return fail(parsed.error());
  const fields::json& q = parsed.value();
  if (!q.is_object()) return fail(make_error("", "tables query must be a JSON object"));
  Error err;
  if (!fields::check_keys(q, "", {"method", "model", "dataset", "source", "hardware", "format"},
                          &err)) {
    return fail(err);
  }
  TableQuery query;
  std::string format = "json";
  if (!fields::read_string(q, "method", "", &query.method, &err) ||
      !fields::read_string(q, "model", "", &query.model, &err) ||
      !fields::read_string(q, "dataset", "", &query.dataset, &err) ||
      !fields::read_string(q, "source", "", &query.source, &err) ||
      !fields::read_string(q, "hardware", "", &query.hardware, &err) ||
      !fields::read_string(q, "format", "", &format, &err)) {
    return fail(err);
  }
  if (format != "json" && format != "csv" && format != "table") {
    return fail(
        make_error("format", "must be \"json\", \"csv\" or \"table\", got \"" + format + "\""));
  }
  auto rows = load_published(published_json);
  if (!rows.ok()) return fail(rows.error());
  const auto selected = filter_rows(rows.value(), query);
  if (format == "csv") return ok_json(rows_to_csv(selected));
  if (format == "table") return ok_json(rows_to_text(selected));
  // JSON rows carry the config that reproduces them (null when not modelled), from core, so
  // front ends never rebuild it.
  std::string out = "[";
  for (std::size_t i = 0; i < selected.size(); ++i) {
    std::string row = selected[i].json;
    row.insert(row.size() - 1, ",\"config\":" + published_row_config(selected[i]).dump());
    out += (i > 0 ? "," : "") + row;
  }
  return ok_json(out + "]");
}

}  // namespace speccalc::commands
