// Every command of commands.def (the CLI, the tests and the page's full module).
#include "api/command_registry.hpp"
#include "api/commands.hpp"
#include "api/tables_command.hpp"
#include "engines/engine_import.hpp"
#include "model/evaluated_tree.hpp"
#include "speccalc/validate.hpp"

namespace speccalc {

namespace {
const Command kCommands[] = {
#define SPECCALC_COMMAND(page, name, input, summary, handler, published) \
  {{name, input, summary}, handler, published},
#include "api/commands.def"
#undef SPECCALC_COMMAND
};
}  // namespace

CommandList registered_commands() { return {kCommands, sizeof kCommands / sizeof kCommands[0]}; }

std::string all_command_names() { return command_names(); }

}  // namespace speccalc
