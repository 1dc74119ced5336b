#include "speccalc/api.hpp"

#include <cstddef>

#include "commands.hpp"
#include "engine_import.hpp"
#include "evaluated_tree.hpp"
#include "output_guard.hpp"
#include "speccalc/sizing.hpp"
#include "speccalc/sweep.hpp"
#include "speccalc/tree_commands.hpp"
#include "tables_command.hpp"
#include "speccalc/validate.hpp"

namespace speccalc {
namespace {

using Handler = Response (*)(const std::string&);
struct Command {
  const char* name;
  Handler handler;
};

// The command table. One line per command; keep names kebab-case.
const Command kCommands[] = {
    {"eval", commands::eval},
    {"eval-link", commands::eval_link},
    {"eval-tree", commands::eval_tree},
    {"link", commands::link},
    {"decode-link", commands::decode_link},
    {"normalize", commands::normalize},
    {"list", commands::list},
    {"tree-expect", commands::tree_expect},
    {"tree-optimize", commands::tree_optimize},
    {"tree-preset", commands::tree_preset},
    {"convert", commands::convert},
    {"tree-calibrate", commands::tree_calibrate},
    {"sweep", commands::sweep},
    {"size", commands::size},
    {"export", commands::export_engines},
    {"import-engine", commands::import_engine},
    {"tables", commands::tables},
    {"validate", commands::validate},
    {"fit", commands::fit},
    {"calibrate", commands::calibrate},
};

// Inputs larger than this are refused before parsing (a share link or config is a few KB).
constexpr std::size_t kMaxInputBytes = 1 << 20;

}  // namespace

namespace commands {
Response ok_json(std::string json_text) {
  Response r;
  r.ok = true;
  r.output = std::move(json_text);
  return r;
}
Response fail(Error error) {
  Response r;
  r.ok = false;
  r.error = std::move(error);
  return r;
}
}  // namespace commands

Response run(const std::string& command, const std::string& input) {
  if (input.size() > kMaxInputBytes) {
    return commands::fail(make_error("", "input is " + std::to_string(input.size()) +
                                             " bytes; the limit is 1048576 bytes"));
  }
  for (const Command& c : kCommands) {
    if (command == c.name) return guard_output(c.name, c.handler(input));
  }
  return commands::fail(make_error("command", "unknown command '" + command +
                                                  "'; known: " + command_names()));
}

std::string command_names() {
  std::string names;
  for (const Command& c : kCommands) {
    if (!names.empty()) names += ", ";
    names += c.name;
  }
  return names;
}

}  // namespace speccalc
