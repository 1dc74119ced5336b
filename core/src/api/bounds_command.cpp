// `bounds`: what a workload preset's traces say beyond the configured k (every fixed chain,
// the oracle proposer, the best of EAGLE and n-gram; model/workload_bounds.hpp). Its own
// command, in the full module: eval stays as lean as the page's first load needs.
#include <string>

#include <nlohmann/json.hpp>

#include "api/commands.hpp"
#include "model/workload_bounds.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc::commands {

using nlohmann::json;

Response bounds(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  if (config.value().acceptance.workload.empty()) {
    return fail(
        make_error("acceptance", "bounds come from a workload's traces: set acceptance.workload (" +
                                     std::string("sharegpt, cnn, gsm8k, instructcoder") + ")"));
  }
  auto result = evaluate(config.value());
  if (!result.ok()) return fail(result.error());
  std::vector<std::string> assumptions = result.value().assumptions;
  auto b = workload_bounds(config.value(), result.value(), &assumptions);
  if (!b.ok()) return fail(b.error());
  return ok_json(json{
      {"speedup", result.value().speedup},
      {"tau", result.value().tau},
      {"bounds", b.value()},
      {"assumptions",
       assumptions}}.dump());
}

}  // namespace speccalc::commands
