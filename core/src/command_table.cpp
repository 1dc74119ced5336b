// Every command of commands.def (the CLI, the tests and the page's full module).
#include "command_registry.hpp"
#include "commands.hpp"
#include "engine_import.hpp"
#include "evaluated_tree.hpp"
#include "speccalc/sizing.hpp"
#include "speccalc/sweep.hpp"
#include "speccalc/tree_commands.hpp"
#include "speccalc/validate.hpp"
#include "tables_command.hpp"

namespace speccalc {

namespace {
const Command kCommands[] = {
#define SPECCALC_COMMAND(page, name, input, summary, handler, published) \
  {{name, input, summary}, handler, published},
#include "commands.def"
#undef SPECCALC_COMMAND
};
}  // namespace

CommandList registered_commands() { return {kCommands, sizeof kCommands / sizeof kCommands[0]}; }

std::string all_command_names() { return command_names(); }

}  // namespace speccalc
