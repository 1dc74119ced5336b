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

// The head trained for this target in drafts.json (`section`: eagle_1_2, eagle_3, medusa, hydra).
std::string head_repo(const json& drafts, const char* section, const std::string& target_id) {
  if (!drafts.is_object() || !drafts.contains(section)) return "";
  for (const json& c : drafts[section].value("checkpoints", json::array())) {
    if (c.value("target_id", "") == target_id) return c.value("hf_repo", "");
  }
  return "";
}

const char* head_section(Family f) {
  switch (f) {
    case Family::eagle1:
    case Family::eagle2:
      return "eagle_1_2";
    case Family::eagle3:
      return "eagle_3";
    case Family::medusa:
      return "medusa";
    case Family::hydra:
      return "hydra";
    default:
      return nullptr;
  }
}

}  // namespace

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
    out.draft = model_repo(models, "drafts", c.method.draft);
    if (out.draft.empty()) {
      out.draft = "PATH/TO/DRAFT-MODEL";
      out.missing.push_back(
          "the draft model has no Hugging Face repository in the presets: replace "
          "PATH/TO/DRAFT-MODEL");
    }
  } else if (const char* section = head_section(f)) {
    out.draft = head_repo(parse(data::drafts()), section, target_id);
    if (out.draft.empty()) {
      out.draft = "DRAFT_REPO";
      // Same words and placeholder as main's export (heads in core/data/models.json there).
      const std::string head_family = f == Family::eagle3   ? "eagle3"
                                      : f == Family::medusa ? "medusa"
                                      : f == Family::hydra  ? "hydra"
                                                            : "eagle";
      out.missing.push_back("no published " + head_family + " head for " +
                            (c.target_preset ? target_id : std::string("a custom target")) +
                            ": train one and put its path where DRAFT_REPO stands");
    }
  }
  return out;
}

}  // namespace speccalc
