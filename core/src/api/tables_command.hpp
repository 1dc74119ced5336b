// The `tables` command: query the published-results table (core/data/published.json).
#pragma once

#include <string>
#include <string_view>

#include "speccalc/api.hpp"

namespace speccalc::commands {

// Input: a JSON object, every key optional (empty input = {}):
//   {"method": M, "model": X, "dataset": D, "source": S, "hardware": H,
//    "temperature": T (a number, or "not stated"), "model_id": exact target preset id,
//    "comparable": true (only rows with a reproducing config and a latency speedup, not
//    superseded; JSON rows then carry "family_best", the fastest of its family among them),
//    "offset": O, "limit": L (1..1000), "format": "json" (default) | "csv" | "table" | "page"}
// Filters follow TableQuery (speccalc/published.hpp): case-insensitive substring of the
// published string, or exact normalized id (family, target_id, source_id, hardware_id).
// Output: json -> JSON array of matching rows with all fields, the normalized `model` and the
// reproducing `config`; csv -> RFC 4180 text with a header line; table -> fixed-width text;
// page -> published_page_json (published_page.hpp): rows offset..offset+limit (default 50)
// with the total and the filter choices. offset/limit slice the other formats too (default:
// every row). An unknown key or format, or an offset past the last row, is an Error naming it.
// `published_json` is the table's text (speccalc::Data::published).
Response tables(const std::string& query_json, std::string_view published_json);

}  // namespace speccalc::commands
