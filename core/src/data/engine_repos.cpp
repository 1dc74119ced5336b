#include "data/engine_repos.hpp"

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

json parse(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

// hf_repo of the entry with this id in models.json's `targets` or `drafts`.
std::string model_repo(const json& models, const char* list, const std::string& id) {
  if (!models.is_object() || !models.contains(list)) return "";
  for (const json& m : models[list]) {
    if (m.value("id", "") == id) return m.value("hf_repo", "");
  }
  return "";
}

// The repository of a published head of `family` ("eagle", "eagle3", "medusa", "hydra") for
// this target (models.json `heads`): the authors' own first, as Catalog::find_head orders them.
// A head trained for a neighbouring model (same architecture and tokenizer) comes with its
// note, which *neighbour receives.
std::string head_repo(const json& models, const char* family, const std::string& target_id,
                      std::string* neighbour) {
  std::string other, other_note;
  for (const json& h : models.value("heads", json::array())) {
    if (h.value("family", "") != family || h.value("target", "") != target_id) continue;
    const std::string note = h.contains("neighbour_of") ? h.value("note", "") : "";
    if (h.value("official", false)) {
      *neighbour = note;
      return h.value("repo_id", "");
    }
    if (other.empty()) {
      other = h.value("repo_id", "");
      other_note = note;
    }
  }
  *neighbour = other_note;
  return other;
}

}  // namespace

const char* head_family(Family f) {
  switch (f) {
    case Family::eagle1:
    case Family::eagle2:
      return "eagle";
    case Family::eagle3:
      return "eagle3";
    case Family::medusa:
      return "medusa";
    case Family::hydra:
      return "hydra";
    default:
      return nullptr;
  }
}

EngineRepos engine_repos(const Config& c) {
  EngineRepos out;
  const json models = parse(data::models());
  const std::string target_id = c.target.id;
  out.target = model_repo(models, "targets", target_id);
  if (out.target.empty()) {
    out.target = "PATH/TO/TARGET-MODEL";
    out.missing.push_back(
        "the target is not a preset with a Hugging Face repository: replace PATH/TO/TARGET-MODEL");
  }
  const Family f = c.method.family;
  if (f == Family::sps) {
    // A draft of your own has no repository here, even one named like a preset.
    out.draft = c.method.draft_preset ? model_repo(models, "drafts", c.method.draft) : "";
    if (out.draft.empty()) {
      out.draft = "PATH/TO/DRAFT-MODEL";
      out.missing.push_back(
          "the draft model has no Hugging Face repository in the presets: replace "
          "PATH/TO/DRAFT-MODEL");
    }
  } else if (const char* family = head_family(f)) {
    std::string neighbour;
    out.draft = head_repo(models, family, target_id, &neighbour);
    if (!neighbour.empty()) out.missing.push_back(out.draft + " is " + neighbour);
    if (out.draft.empty()) {
      out.draft = "DRAFT_REPO";
      out.missing.push_back("no published " + std::string(family) + " head for " +
                            (c.target_preset ? target_id : std::string("a custom target")) +
                            ": train one and put its path where DRAFT_REPO stands");
    }
  }
  return out;
}

}  // namespace speccalc
