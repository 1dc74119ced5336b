// The command table run() dispatches on. Its entries come from commands.def; which table a
// binary links decides which commands it has: command_table.cpp (every command: the CLI, tests,
// the page's on-demand full module) or wasm/command_table_page.cpp (the page's first-load
// module). Both define registered_commands(); a binary links exactly one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "speccalc/api.hpp"

namespace speccalc {

using Handler = Response (*)(const std::string&);
// Commands that read the published table get it as text (Data::published).
using PublishedHandler = Response (*)(const std::string&, std::string_view published_json);

struct Command {
  CommandInfo info;
  Handler handler;
  PublishedHandler published_handler;  // set instead of handler
};

struct CommandList {
  const Command* first;
  std::size_t size;
  const Command* begin() const { return first; }
  const Command* end() const { return first + size; }
};

CommandList registered_commands();
// Every command of commands.def, comma separated, whichever table this binary links.
std::string all_command_names();

}  // namespace speccalc
