#include "api/draft_shape.hpp"

#include <algorithm>
#include <cstddef>

#include "config/config_json.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

struct Shape {
  const char* id;
  const char* label;
  const char* key;  // the method key that marks it; nullptr: the chain (no tree form)
};

constexpr Shape kShapes[] = {
    {"chain", "A chain of k tokens", nullptr},
    {"tree", "The best tree of n nodes (Sequoia)", "tree_size"},
    {"sequences", "Independent chains, merged (SpecInfer)", "sequences"},
    {"choices", "A tree of paths you give", "choices"},
};

// The tree forms a method may hold (one at a time) and the chain's length.
constexpr const char* kTreeKeys[] = {"k", "choices", "tree_size", "depth", "sequences"};

}  // namespace

json draft_shapes() {
  json out = json::array();
  for (const Shape& s : kShapes)
    out.push_back({{"id", s.id}, {"label", s.label}, {"key", s.key ? json(s.key) : json()}});
  return out;
}

bool reshape_draft(json* doc, const json& before, const Catalog& catalog,
                   std::vector<std::string>* notes, Error* err) {
  json& method = (*doc)["method"];
  const json given = method.is_object() && method.contains("shape") ? method["shape"] : json();
  const Shape* shape = nullptr;
  for (const Shape& s : kShapes)
    if (given.is_string() && given.get<std::string>() == s.id) shape = &s;
  if (!shape) {
    *err = make_error("method.shape", "must be one of chain, tree, sequences, choices");
    return false;
  }
  method.erase("shape");
  // The draft tree the config held before the edit, as paths (a chain of k: k paths).
  json probe = before.is_object() ? before : *doc;
  if (probe.contains("method") && probe["method"].is_object()) probe["method"].erase("shape");
  const auto was = parse_config(probe, catalog);
  if (!was.ok()) return true;
  const MethodConfig& m = was.value().method;
  if (m.family != Family::sps) return true;  // not a draft model: nothing to size from
  Choices paths = m.choices;
  if (!m.sps_token_tree()) {
    paths.clear();  // a chain of k: the paths [0], [0, 0], ...
    for (int64_t i = 1; i <= m.k; ++i) paths.emplace_back(static_cast<std::size_t>(i), 0);
  }
  if (paths.empty()) return true;
  const int64_t nodes = static_cast<int64_t>(paths.size());
  std::size_t deepest = 0;
  for (const auto& p : paths) deepest = std::max(deepest, p.size());
  const int64_t depth = static_cast<int64_t>(deepest);
  for (const char* k : kTreeKeys) method.erase(k);
  const std::string id = shape->id;
  std::string said;
  if (id == "chain") {
    method["k"] = depth;
    said = "k " + std::to_string(depth) + " (the depth before)";
  } else if (id == "tree") {
    method["tree_size"] = nodes;
    method["depth"] = depth;
    said = "the best tree of " + std::to_string(nodes) + " draft nodes, depth at most " +
           std::to_string(depth) + " (the nodes and depth before)";
  } else if (id == "sequences") {
    // Two chains: the fewest that make it a SpecInfer tree; each as long as the depth before.
    method["sequences"] = 2;
    method["k"] = depth;
    said = "2 chains of " + std::to_string(depth) + " (the depth before)";
  } else {
    json arr = json::array();
    for (const auto& p : paths) arr.push_back(p);
    method["choices"] = arr;
    said = "the " + std::to_string(nodes) + " paths of the tree before, to edit";
  }
  notes->push_back("method: " + said);
  return true;
}

}  // namespace speccalc
