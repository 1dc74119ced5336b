// Share links: a config as a human-readable, versioned URL fragment,
//   v=1&acceptance.alpha=0.7&batch=1&...&method.family=sps&method.k=4&target=llama2-chat-7b
// Every leaf of the normalized config becomes one dotted key; strings are written as they are
// (percent-encoded), numbers in shortest round-trip form, lists as compact JSON. Decoding a
// link and normalizing gives back exactly the config that was encoded.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/config_json.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

constexpr int kLinkVersion = 1;

// `normalized_config` should come from config_to_json(); the fragment has no leading '#'.
std::string encode_link(const nlohmann::json& normalized_config);

// Accepts a full URL, "#fragment", "?query" or a bare fragment. Returns the config document
// (not yet validated as a config). Errors name the link key at fault.
Expected<nlohmann::json> decode_link(const std::string& link);

}  // namespace speccalc
