#include "config/acceptance_forms.hpp"

#include <algorithm>
#include <string>

#include "speccalc/tree_acceptance.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

// The forms as text: parsing one literal costs the page's module far less code than building
// the same objects with initializer lists. The preset forms' choices are added from their
// tables below. "start" of alpha is kDefaultAlpha (acceptance_parse.hpp). "values": the only
// values a form takes, where fewer than its type allows (published: true; acceptance_parse.cpp
// refuses false, since giving no acceptance is what asks for the published one).
constexpr const char* kForms = R"json([
{"id": "alpha", "label": "α — per-token acceptance rate", "start": 0.7,
 "definition": "α: probability that a drafted token is accepted, the same at every position (chains: τ = (1 − α^(k+1)) / (1 − α); trees: the rank-r sibling is accepted with α(1 − α)^r)"},
{"id": "tau", "label": "τ — tokens per cycle (bonus token included)", "start": 2.0,
 "definition": "τ: mean tokens each draft-verify cycle emits per sequence, the bonus token included (≥ 1; plain decoding is 1)"},
{"id": "per_position", "label": "Per-position acceptance rates", "start": [0.8, 0.7, 0.6, 0.5],
 "definition": "Acceptance rate at each draft position, given the position before was accepted (comma separated; the last rate applies to deeper positions)"},
{"id": "p", "label": "Tree acceptance matrix p[depth][rank]",
 "start": [[0.6, 0.15, 0.05], [0.5, 0.15], [0.4, 0.1]],
 "definition": "p[d][r]: probability that the rank-r child of an accepted node at depth d is accepted (JSON rows, one per depth; siblings are exclusive, so a row sums to at most 1; deeper levels repeat the last row; ranks past a row's end are never accepted)"},
{"id": "medusa", "label": "Medusa head accuracies (measured table)", "start": "vicuna-7b",
 "definition": "Medusa-1's measured top-1..5 accuracy of each head on Vicuna (FasterDecoding/Medusa medusa_acc.csv) as the matrix p[depth][rank]: head h at depth h + 1, used as the acceptance given the parent was accepted"},
{"id": "published", "label": "From published results for this method and model", "start": true,
 "values": [true],
 "definition": "τ = mean of the published rows for this method and model (rows listed in the assumptions); no row for this model: other models' rows, else the default α"},
{"id": "workload", "label": "Workload (vLLM acceptance traces)", "start": "sharegpt",
 "definition": "τ measured on this workload in vLLM (SpecDecode-Bench traces) at the method's k (EAGLE head or n-gram proposer), with the per-request p5–p95 spread of τ"}
])json";

}  // namespace

Expected<json> acceptance_forms_json() {
  json forms = json::parse(kForms, nullptr, /*allow_exceptions=*/false);
  auto workloads = load_workloads();
  if (!workloads.ok()) return workloads.error();
  for (json& f : forms) {
    json choices = json::array();
    if (f["id"] == "medusa") {
      // medusa_model_names() is the documented comma-separated list of table names.
      const std::string names = tree::medusa_model_names();
      for (std::size_t start = 0; start < names.size();) {
        const std::size_t end = std::min(names.find(", ", start), names.size());
        const std::string id = names.substr(start, end - start);
        choices.push_back(json{{"id", id}, {"label", "Medusa-1 heads on " + id + " v1.3"}});
        start = end + 2;
      }
    } else if (f["id"] == "workload") {
      for (const Workload& w : workloads.value().workloads)
        choices.push_back(json{{"id", w.id}, {"label", w.name}});
      f["definition"] = "τ measured on this workload in " + workloads.value().engine + " (" +
                        workloads.value().target + ", " + workloads.value().hardware +
                        "; SpecDecode-Bench traces) at the method's k (EAGLE head or n-gram "
                        "proposer), with the per-request p5–p95 spread of τ";
    } else {
      continue;
    }
    f["choices"] = choices;
  }
  return forms;
}

}  // namespace speccalc
