#include "speccalc/api.hpp"

#include <cstddef>
#include <string_view>

#include "api/command_registry.hpp"
#include "api/commands.hpp"
#include "api/output_guard.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

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
  return run(command, input, Data{data::published()});
}

Response run(const std::string& command, const std::string& input, const Data& data) {
  if (input.size() > kMaxInputBytes) {
    return commands::fail(make_error(
        "", "input is " + std::to_string(input.size()) + " bytes; the limit is 1048576 bytes"));
  }
  for (const Command& c : registered_commands()) {
    if (command != c.info.name) continue;
    return guard_output(c.info.name, c.published_handler != nullptr
                                         ? c.published_handler(input, data.published)
                                         : c.handler(input));
  }
  return commands::fail(
      make_error("command", "unknown command '" + command + "'; known: " + command_names()));
}

std::string data_needed(const std::string& command) {
  for (const Command& c : registered_commands()) {
    if (command == c.info.name) return c.published_handler != nullptr ? "published" : "";
  }
  return "";
}

std::string command_names() {
  std::string names;
  for (const Command& c : registered_commands()) {
    if (!names.empty()) names += ", ";
    names += c.info.name;
  }
  return names;
}

std::vector<CommandInfo> command_table() {
  std::vector<CommandInfo> table;
  for (const Command& c : registered_commands()) table.push_back(c.info);
  return table;
}

}  // namespace speccalc
