// The config's `acceptance` input: parsing (one place for every form the config takes) and
// its normalized JSON. Runs after the target and method are parsed: a workload preset needs
// the method's k, and an omitted acceptance looks up the published tau of method x target.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/config_json.hpp"
#include "speccalc/config.hpp"

namespace speccalc {

// Default per-token acceptance when neither the config nor the published table gives one.
constexpr double kDefaultAlpha = 0.7;

// The tau card's words for a tau resting on kDefaultAlpha, with why no data gave it.
std::string assumed_alpha_basis(const std::string& why);

// Reads doc["acceptance"] into c->acceptance. Forms: {"tau"}, {"alpha"}, {"per_position"},
// {"p"}, {"medusa"}, {"workload"}, {"published": true}; omitted = {"published": true}.
bool parse_acceptance(const nlohmann::json& doc, Config* c, Error* err);

// The normalized form config_to_json writes (re-parses to the same acceptance).
nlohmann::json acceptance_to_json(const Acceptance& a);

// The acceptance as resolved, in the forms the tree commands also take ({"tau"}, {"alpha"},
// {"per_position"}, {"p"}): what a workload or the published table turned into. For outputs
// that hand the acceptance on (sizing's "acceptance", the page's tree view).
nlohmann::json resolved_acceptance_json(const Acceptance& a);

}  // namespace speccalc
