// The draft tree an evaluation verifies, with each node's acceptance probability and the
// distribution of tau: what the page's tree panel draws, so the panel shows the tree whose tau
// the result reports (issue 12 item 7). Command `eval-tree`: config JSON in, this object out.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// {"family", "tau" (equals eval's tau), "choices", "nodes", "depth" (draft levels, the config's
//  convention), "node_prob" and "tau_pmf" (null when tau was given directly: no per-node
//  acceptance exists then), "acceptance" (plain words: what labels the nodes), "eagle_depth"
//  (EAGLE-2/3 only: EAGLE's own --depth, levels - 1)}
Expected<nlohmann::json> evaluated_tree(const Config& config);

namespace commands {
Response eval_tree(const std::string& config_json);  // config JSON -> evaluated_tree()
}  // namespace commands

}  // namespace speccalc
