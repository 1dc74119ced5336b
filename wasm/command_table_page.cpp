// The page's first-load module: only the commands of commands.def marked page = 1 (what the
// page calls while it draws a result). The rest (sizing, tables, validate, fit, ...) live in
// the full module the page loads on demand, so their code is not in the first download.
// Linked before the core library, this registered_commands() is the one the module uses
// (the library's command_table.cpp is then never pulled in).
#include "api/command_registry.hpp"
#include "api/commands.hpp"
#include "api/tables_command.hpp"
#include "engines/engine_import.hpp"
#include "model/evaluated_tree.hpp"
#include "speccalc/validate.hpp"

namespace speccalc {

namespace {
#define SPECCALC_PAGE_1(...) __VA_ARGS__,
#define SPECCALC_PAGE_0(...)
#define SPECCALC_COMMAND(page, name, input, summary, handler, published) \
  SPECCALC_PAGE_##page(Command{CommandInfo{name, input, summary}, handler, published})
const Command kCommands[] = {
#include "api/commands.def"
};
#undef SPECCALC_COMMAND
#undef SPECCALC_PAGE_0
#undef SPECCALC_PAGE_1
}  // namespace

CommandList registered_commands() { return {kCommands, sizeof kCommands / sizeof kCommands[0]}; }

// One string literal joined by the preprocessor ("eval, eval-link, ..., "), less its trailing
// ", ": a concatenation per command was 4.9 KB of code in the first download.
std::string all_command_names() {
  static constexpr char kNames[] =
#define SPECCALC_COMMAND(page, name, input, summary, handler, published) name ", "
#include "api/commands.def"
#undef SPECCALC_COMMAND
      ;
  return std::string(kNames, sizeof kNames - 3);
}

}  // namespace speccalc
