// The `tables` command: query the published-results table (core/data/published.json).
#pragma once

#include <string>
#include <string_view>

#include "speccalc/api.hpp"

namespace speccalc::commands {

// Input: a JSON object, every key optional (empty input = {}):
//   {"method": M, "model": X, "dataset": D, "source": S, "hardware": H,
//    "format": "json" (default) | "csv" | "table"}
// Filters follow TableQuery (speccalc/published.hpp): case-insensitive substring of the
// published string, or exact normalized id (family, target_id, source_id, hardware_id).
// Output: json -> JSON array of matching rows with all fields; csv -> RFC 4180 text with a
// header line; table -> fixed-width text. An unknown key or format is an Error naming it.
// `published_json` is the table's text (speccalc::Data::published).
Response tables(const std::string& query_json, std::string_view published_json);

}  // namespace speccalc::commands
