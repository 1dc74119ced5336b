// A draft model's shape, the form's "Draft shape" (carry with changed = "method.shape"): the
// chain of k, the best tree of n nodes (Sequoia's question), SpecInfer's independent chains, or
// a tree of explicit paths. The config has no shape key; the shape is which tree form the
// method holds (docs/config.md, `sps`).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/presets.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// The shapes as `list methods` gives them for sps: {id, label, key}, key being the method key
// whose presence marks the shape (none for the chain).
nlohmann::json draft_shapes();

// Rewrites doc's method from the shape its `shape` key names (the key is removed), sized from
// the shape `before` (the config before the edit, or doc itself) held: as many draft nodes and
// as deep, so the two read side by side; a note says what was set. false: `shape` is not one
// of draft_shapes() (err names method.shape). A before that does not parse leaves doc's tree
// keys as they were (its own error then shows).
bool reshape_draft(nlohmann::json* doc, const nlohmann::json& before, const Catalog& catalog,
                   std::vector<std::string>* notes, Error* err);

}  // namespace speccalc
