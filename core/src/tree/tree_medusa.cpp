// Medusa-1 head accuracies (embedded core/data/medusa-head-accuracy.json) as an acceptance matrix.
#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"
#include "speccalc/tree_acceptance.hpp"

namespace speccalc::tree {

std::string medusa_model_names() { return "vicuna-7b, vicuna-13b, vicuna-33b"; }

Expected<AcceptanceMatrix> medusa_acceptance(const std::string& model, const std::string& field) {
  std::string key = model;
  if (key.size() < 5 || key.compare(key.size() - 5, 5, "-v1.3") != 0) key += "-v1.3";
  // Parsed once per process (a compiled-in constant): a default Medusa acceptance on another
  // draft than Medusa's tree reads it three times per evaluation (config/paper_tree.hpp).
  static const nlohmann::json doc =
      nlohmann::json::parse(data::medusa_head_accuracy(), nullptr, false);
  if (doc.is_discarded() || !doc.contains("models") || !doc["models"].is_object()) {
    return make_error(field, "embedded Medusa accuracy table is unreadable");
  }
  auto it = doc["models"].find(key);
  if (it == doc["models"].end()) {
    return make_error(field,
                      "unknown Medusa model '" + model + "'; known: " + medusa_model_names());
  }
  std::vector<std::vector<double>> cumulative;
  for (const nlohmann::json& head : *it) {
    std::vector<double> row;
    for (const nlohmann::json& x : head) {
      if (!x.is_number()) return make_error(field, "embedded Medusa table has a non-number");
      row.push_back(x.get<double>());
    }
    cumulative.push_back(std::move(row));
  }
  return acceptance_from_topk_accuracy(cumulative, field);
}

}  // namespace speccalc::tree
