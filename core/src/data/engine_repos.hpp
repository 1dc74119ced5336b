// Hugging Face repository ids for an engine export: the target model, the SpS draft model and
// the EAGLE / EAGLE-3 / Medusa / Hydra head trained for the target (core/data/models.json
// `hf_repo` of targets and drafts, and its `heads` table by target). Where none is
// published the id is a placeholder that says what to put there, and `missing` says why.
#pragma once

#include <string>
#include <vector>

#include "speccalc/config.hpp"

namespace speccalc {

struct EngineRepos {
  std::string target;  // e.g. "meta-llama/Llama-2-7b-chat-hf"
  std::string draft;   // the SpS draft model, or the method's trained head; "" when none applies
  std::vector<std::string> missing;  // plain sentences, one per placeholder
};

EngineRepos engine_repos(const Config& config);

// The models.json `heads` family of a method's published draft weights ("eagle", "eagle3",
// "medusa", "hydra"; EAGLE-1 and -2 share weights), nullptr for a method without heads.
const char* head_family(Family f);

}  // namespace speccalc
