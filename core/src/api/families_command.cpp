// `families`: every method family this model and engine can run, each evaluated at its own
// default acceptance (what a config without an acceptance gets: published rows, the vLLM
// traces or a model's own report, cited, with their spread), beside the user's own setup, and
// every other family with the reason it is absent. Acceptance is a property of the method, the
// model and the workload, so one acceptance for every family would compare nothing; a family
// whose acceptance on this model no data gives is named absent rather than drawn from a guess.
#include <string>
#include <vector>

#include "api/commands.hpp"
#include "config/config_json.hpp"
#include "config/families.hpp"
#include "data/engine_repos.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/presets.hpp"
#include "speccalc/published_tau.hpp"

namespace speccalc::commands {

using nlohmann::json;

namespace {

// The draft model a draft-model family uses on this target: the one published rows measured
// with it, else the first listed draft with the target's vocabulary; "" when none has it.
std::string draft_for(const Config& user, const Catalog& catalog) {
  if (user.method.family == Family::sps && !user.method.draft.empty()) return user.method.draft;
  for (const ModelArch& d : catalog.drafts)
    if (user.target_preset && published_tau("sps", user.target.id, d.id).found) return d.id;
  for (const ModelArch& d : catalog.drafts)
    if (d.vocab == user.target.vocab) return d.id;
  return "";
}

json summary(const Evaluation& e, const Config& c) {
  json out = json{{"family", family_name(c.method.family)},
                  {"speedup", e.speedup},
                  {"tau", e.tau},
                  {"tau_source", e.tau_source},
                  {"tau_from_data", e.tau_from_data},
                  {"tokens_per_s", e.tokens_per_s},
                  {"fits_in_memory", e.fits_in_memory},
                  {"verdict", e.verdict},
                  {"config", config_to_json(c)}};
  if (e.has_band)
    out["spread"] = json{{"label", e.band_label},
                         {"tau_low", e.tau_p5},
                         {"tau_high", e.tau_p95},
                         {"speedup_low", e.speedup_p5},
                         {"speedup_high", e.speedup_p95}};
  return out;
}

// The family's method object on this setup: the family's own defaults, or where the engine
// verifies chains only, an EAGLE chain of 3 (top_k 1; vLLM's num_speculative_tokens = 3).
json method_for(const FamilySpec& f, const Config& user, const Catalog& catalog) {
  json m = json{{"family", f.id}};
  if (f.family == Family::sps)
    m["draft"] = user.method.family == Family::sps && !user.method.draft_preset
                     ? model_to_json(user.method.draft_model)  // the user's own draft
                     : json(draft_for(user, catalog));
  if (!user.engine.trees) {
    if (f.family == Family::eagle2 || f.family == Family::eagle3)
      m.update(json{{"total_token", 4}, {"depth", 3}, {"top_k", 1}});
    if (f.family == Family::eagle1) m["choices"] = json::parse("[[0],[0,0],[0,0,0]]");
  }
  return m;
}

}  // namespace

Response families(const std::string& config_json) {
  // A setup eval refuses (its load block included) is refused here with the same words: the
  // chart never shows families for a setup the headline calls invalid.
  const Response as_given = eval(config_json);
  if (!as_given.ok) return as_given;
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  const Catalog& cat = catalog.value();
  auto user = parse_config_text(config_json, cat);
  if (!user.ok()) return fail(user.error());
  const Config& u = user.value();
  auto own = evaluate(u);
  if (!own.ok()) return fail(own.error());

  json present = json::array();
  json absent = json::array();
  // The user's own family is drawn anyway (the bar "yours"): where the comparison leaves it
  // out, the reason says what that bar is, so the two do not read as a contradiction (the walk).
  const std::string own_id = family_name(u.method.family);
  const std::string own_basis = own.value().tau_basis;
  auto skip = [&](const char* id, const std::string& reason) {
    absent.push_back(
        json{{"family", id},
             {"reason",
              reason + (own_id == id
                            ? "; the bar 'yours' is your own setting, its acceptance " + own_basis
                            : std::string())}});
  };
  const std::string target_name = u.target_preset ? u.target.name : "this custom target";
  json base = config_to_json(u);
  base.erase("acceptance");
  for (const FamilySpec& f : family_table()) {
    if (f.family == Family::ar) continue;
    if (!u.engine.supports(f.id)) {
      skip(f.id, u.engine.name + " does not run " + f.id);
      continue;
    }
    const char* head_id = head_family(f.family);  // one table with the exports'
    const std::string head = head_id ? head_id : "";
    if (!head.empty() && (!u.target_preset || !cat.find_head(head, u.target.id))) {
      skip(f.id, "no published " + head + " head for " + target_name + " (models.json heads)");
      continue;
    }
    json doc = base;
    doc["method"] = method_for(f, u, cat);
    if (f.family == Family::sps && doc["method"]["draft"] == "") {
      skip(f.id, "no draft model with " + target_name + "'s " + std::to_string(u.target.vocab) +
                     "-token vocabulary in the drafts list");
      continue;
    }
    auto config = parse_config(doc, cat);
    if (!config.ok()) {
      skip(f.id, config.error().describe());
      continue;
    }
    auto e = evaluate(config.value());
    if (!e.ok()) {
      skip(f.id, e.error().describe());
      continue;
    }
    if (!e.value().tau_from_data) {
      // The tau card's few words (tau_basis), not the whole source: the page lists every absent
      // family under the chart, where the full sources ran to ~300 words (the walk).
      skip(f.id, "no acceptance from data for " + std::string(f.id) + " on " + target_name + " (" +
                     e.value().tau_basis + ")");
      continue;
    }
    present.push_back(summary(e.value(), config.value()));
  }
  json out = json{
      {"definition",
       "each family at its own default acceptance (the published rows, the vLLM traces or the "
       "model's report for this method and target, as a config without acceptance gets it), "
       "with the family's default knobs on this model, GPU, engine, batch and context; a family "
       "is absent when the engine does not run it, the model has no published head or draft "
       "for it, the setup is invalid, or no data gives its acceptance on this model"},
      {"yours", summary(own.value(), u)},
      {"families", present},
      {"absent", absent}};
  return ok_json(out.dump());
}

}  // namespace speccalc::commands
