#include "api/output_guard.hpp"

#include <cstring>

#include "api/commands.hpp"
#include "api/null_scan.hpp"
#include "config/json_fields.hpp"

namespace speccalc {

namespace {

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

}  // namespace

Response guard_output(const std::string& command, Response r) {
  // Fast path: nlohmann writes NaN and Inf as the bare word null, so no "null" means no NaN.
  if (!r.ok || !checked(command) || r.output.find("null") == std::string::npos) return r;
  // The text is walked, not parsed: no document, no number converted (api/null_scan.hpp).
  std::string where;
  switch (first_refused_null(
      r.output, [&](const std::string& path) { return null_allowed(command, path); }, &where)) {
    case NullScan::none:
      return r;
    case NullScan::invalid:
      where = "(output is not valid JSON)";
      break;
    case NullScan::found:
      if (where.empty()) where = "(the whole output)";
      break;
  }
  return commands::fail(
      make_error("", "internal error: command '" + command + "' produced a non-finite number at " +
                         fields::excerpt(where, 120) + "; please report the input that caused it"));
}

}  // namespace speccalc
