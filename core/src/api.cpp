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
  CommandInfo info;
  Handler handler;
};

// The command table: the one list of commands. run() dispatches on it, command_names() and
// command_table() list it (the CLI's --help and the WASM binding). Names are kebab-case.
const Command kCommands[] = {
    {{"eval", "config JSON", "evaluate a config: speedup, tau, time/bytes/FLOPs of every pass"},
     commands::eval},
    {{"eval-link", "URL or #fragment", "evaluate a share link (same bytes as eval of its config)"},
     commands::eval_link},
    {{"eval-tree", "config JSON", "the evaluated draft tree, node probabilities, tau"},
     commands::eval_tree},
    {{"link", "config JSON", "the share link (URL fragment v=1&...) of a config"}, commands::link},
    {{"decode-link", "URL or #fragment", "the normalized config a share link encodes"},
     commands::decode_link},
    {{"normalize", "config JSON", "the config with every default filled in"}, commands::normalize},
    {{"list", "models|drafts|hardware|methods|runtimes", "the presets of one kind"}, commands::list},
    {{"tree-expect", "{choices, acceptance}", "expected tau and node probabilities of a tree"},
     commands::tree_expect},
    {{"tree-optimize", "{acceptance, budget, ...}", "the optimal draft tree for each size"},
     commands::tree_optimize},
    {{"tree-preset", "name or {name, acceptance}", "an engine's default tree"},
     commands::tree_preset},
    {{"convert", "{k|choices|preset, one metric}", "convert alpha, tau, vLLM acceptance metrics"},
     commands::convert},
    {{"tree-calibrate", "{draft shape, tau}", "fit the acceptance that reproduces a measured tau"},
     commands::tree_calibrate},
    {{"sweep", "{config, axis+values | axes}", "evaluate a config over one to four axes"},
     commands::sweep},
    {{"size", "{config, budget, max_depth, batches}", "the best tree or k for this GPU, by batch"},
     commands::size},
    {{"export", "config JSON", "EAGLE / SGLang / vLLM / TensorRT-LLM settings for the method"},
     commands::export_engines},
    {{"import-engine", "{engine, text, config?}", "vLLM / SGLang speculative flags as a config"},
     commands::import_engine},
    {{"tables", "{method, model, dataset, source, hardware, format}", "published measurements"},
     commands::tables},
    {{"validate", "{source, format, calibrated, context, runtimes}",
      "predicted vs measured speedup: cross-validated, in-sample, engines"},
     commands::validate},
    {{"fit", "{} (optional)", "refit every runtime profile on the stored measurements"}, commands::fit},
    {{"calibrate", "{config, decode_steps, spec_step}", "fit the config's engine profile to your measurements"},
     commands::calibrate},
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
    if (command == c.info.name) return guard_output(c.info.name, c.handler(input));
  }
  return commands::fail(make_error("command", "unknown command '" + command +
                                                  "'; known: " + command_names()));
}

std::string command_names() {
  std::string names;
  for (const Command& c : kCommands) {
    if (!names.empty()) names += ", ";
    names += c.info.name;
  }
  return names;
}

std::vector<CommandInfo> command_table() {
  std::vector<CommandInfo> table;
  for (const Command& c : kCommands) table.push_back(c.info);
  return table;
}

}  // namespace speccalc
