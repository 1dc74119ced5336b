#include "api/output_guard.hpp"

#include <cstring>

#include "api/commands.hpp"
#include "config/json_fields.hpp"

namespace speccalc {

namespace {

using fields::json;

// Where a command documents null (or echoes the caller's values, which may be null).
bool null_allowed(const std::string& command, const std::string& path) {
  if (command == "convert") return path == "alpha";  // no alpha reproduces this tau
  // load: a curve's point past a setup's capacity has no numbers (its state says why).
  if (command == "load") return path.rfind("curve.", 0) == 0;
  if (command == "sweep") {
    return path == "break_even_batch" || path == "best" || path.rfind("axes", 0) == 0 ||
           (path.rfind("points[", 0) == 0 && path.find("].values") != std::string::npos);
  }
  return false;
}

// Commands whose output is computed from the input. list, tables and validate print the
// embedded tables' rows as they are (published rows have documented gaps); link prints text.
bool checked(const std::string& command) {
  static const char* const kChecked[] = {
      "eval",  "eval-link",   "normalize",     "decode-link", "sweep",          "size",    "export",
      "carry", "tree-expect", "tree-optimize", "tree-preset", "tree-calibrate", "convert", "load"};
  for (const char* c : kChecked)
    if (command == c) return true;
  return false;
}

// Depth-first search for a null outside the allowed paths; returns its path via *where.
bool find_null(const std::string& command, const json& v, const std::string& path,
               std::string* where) {
  if (v.is_null()) {
    if (null_allowed(command, path)) return false;
    *where = path.empty() ? "(the whole output)" : path;
    return true;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (find_null(command, it.value(), fields::join(path, it.key()), where)) return true;
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (find_null(command, v[i], path + "[" + std::to_string(i) + "]", where)) return true;
  }
  return false;
}

}  // namespace

Response guard_output(const std::string& command, Response r) {
  // Fast path: nlohmann writes NaN and Inf as the bare word null, so no "null" means no NaN.
  if (!r.ok || !checked(command) || r.output.find("null") == std::string::npos) return r;
  // Outputs are at most a few levels deep; a sweep of full results is the deepest (~8).
  json doc = json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  std::string where;
  if (doc.is_discarded()) {
    where = "(output is not valid JSON)";
  } else if (!find_null(command, doc, "", &where)) {
    return r;
  }
  return commands::fail(
      make_error("", "internal error: command '" + command + "' produced a non-finite number at " +
                         fields::excerpt(where, 120) + "; please report the input that caused it"));
}

}  // namespace speccalc
