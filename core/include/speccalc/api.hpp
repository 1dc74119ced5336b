// The one entry point every front end (CLI, WASM) calls: a command name and its
// input text in, JSON text (or an Error) out. Keeping the boundary as text makes
// native/WASM parity a byte comparison and keeps the bindings a few lines long.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

struct Response {
  bool ok = false;
  std::string output;  // JSON text (or the link, for "link"); empty on error
  Error error;         // set when !ok
};

// Commands (input -> output):
//   "eval"          config JSON            -> result JSON
//   "eval-link"     URL or #fragment       -> result JSON
//   "link"          config JSON            -> share fragment "v=1&..." (no '#')
//   "decode-link"   URL or #fragment       -> normalized config JSON
//   "normalize"     config JSON            -> config JSON with every default filled in
//   "list"          "models"|"drafts"|"heads"|"hardware"|"methods"|"runtimes" -> JSON array
// Further commands are registered in core/src/api/commands.def; an unknown command is an Error.
// Uses the tables compiled into the library (see Data).
Response run(const std::string& command, const std::string& input);

// Large tables a few commands read, handed in by the caller. The native build compiles them in
// (run() above passes those); the WASM build leaves them out so the page's first load stays
// small, and its binding passes the text the page fetched once a command needs it.
struct Data {
  std::string_view published;  // core/data/published.json text; empty = not available
};
Response run(const std::string& command, const std::string& input, const Data& data);

// Which Data member `command` reads: "published", or "" when it reads none (unknown commands too).
std::string data_needed(const std::string& command);

// The names of all registered commands, comma separated (for --help and the binding).
std::string command_names();

// One registered command: its name, what its input is and what it answers (for --help).
struct CommandInfo {
  const char* name;
  const char* input;
  const char* summary;
};
// Every registered command, in the table's order.
std::vector<CommandInfo> command_table();

}  // namespace speccalc
