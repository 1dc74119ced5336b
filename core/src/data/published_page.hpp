// One page of the published table for front ends: the rows a query selects, sliced by
// offset/limit with the counts a pager shows ("rows X-Y of N"), and the filter choices
// (hardware, temperature) with their row counts, so a front end lists and counts nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/published.hpp"

namespace speccalc {

// A row as the `tables` JSON formats write it: every stored field, plus `model` (the
// normalized model name: the preset id, or the published name when no preset matches) and
// `config` (the calculator config that reproduces the row; null when it is not modelled).
std::string row_json_for_front_ends(const PublishedRow& row);

// {"hardware": [{"query", "label", "rows"}], "temperature": [{"query", "label", "rows"}]}:
// every value present in `all`, with the value to send as the query's filter.
nlohmann::json published_filter_choices(const std::vector<PublishedRow>& all);

// {"total", "offset", "limit", "first", "last", "previous_offset", "next_offset", "rows",
//  "filters"}: rows [offset, offset + limit) of `selected` (first/last are 1-based, 0 when
// the page is empty; previous/next_offset are null at either end).
std::string published_page_json(const std::vector<PublishedRow>& selected,
                                const std::vector<PublishedRow>& all, int64_t offset,
                                int64_t limit);

}  // namespace speccalc
