#include <cstdint>
#include <cstring>

#include "api/commands.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "config/link_codec.hpp"
#include "speccalc/config.hpp"

namespace speccalc {

using fields::json;

namespace {

constexpr std::size_t kMaxLinkBytes = 64 * 1024;
constexpr int kMaxParams = 256;

// Keys whose values are strings; every other value is a JSON number, boolean or list.
bool is_string_key(const std::string& key) {
  static const char* const kStringKeys[] = {"target",
                                            "hardware",
                                            "runtime",
                                            "runtime.profile",
                                            "dtype",
                                            "dtype.weights",
                                            "dtype.kv",
                                            "method",
                                            "method.family",
                                            "method.draft",
                                            "method.draft_runtime",
                                            "target.name",
                                            "target.released_dtype",
                                            "method.draft.name",
                                            "method.draft.released_dtype",
                                            "hardware.name",
                                            "hardware.vendor",
                                            "acceptance.medusa",
                                            "acceptance.workload",
                                            "method.source",
                                            "offload.target_weights",
                                            "load.workload"};
  for (const char* k : kStringKeys)
    if (key == k) return true;
  return false;
}

bool keep_plain(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == ',' || c == '[' || c == ']';
}

std::string percent_encode(const std::string& s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (keep_plain(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool percent_decode(const std::string& s, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return false;
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return false;
      *out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (s[i] == '+') {
      *out += ' ';
    } else {
      *out += s[i];
    }
  }
  return true;
}

void flatten(const json& node, const std::string& prefix, std::string* out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (prefix.empty() && it.key() == "version") continue;  // written as v=
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
    return;
  }
  *out += "&" + prefix + "=";
  *out += percent_encode(node.is_string() ? node.get<std::string>() : node.dump());
}

bool valid_key(const std::string& key) {
  if (key.empty() || key.size() > 64 || key.front() == '.' || key.back() == '.') return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                    (c == '.' && key[i - 1] != '.');
    if (!ok) return false;
  }
  return true;
}

// A value that is a plain JSON integer ("1024", "0") or true/false, as nlohmann's parser would
// give it (an unsigned integer when it has no sign, as its lexer does), without running the
// whole document parser: most of a link's values are such, and the parser's set-up per value
// (nesting check, duplicate-key callback, lexer) was most of decode-link's time.
// Anything else (a sign, a fraction, an exponent, a list, over 18 digits) returns false and
// goes through fields::parse_document.
bool plain_scalar(const std::string& value, json* out) {
  if (value == "true" || value == "false") {
    *out = value == "true";
    return true;
  }
  if (value.empty() || value.size() > 18) return false;   // < 10^18: fits a uint64 exactly
  if (value[0] == '0' && value.size() > 1) return false;  // "01" is not JSON
  std::uint64_t n = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  *out = n;  // number_unsigned, as nlohmann's parser types an unsigned integer literal
  return true;
}

// Link text quoted in an error: short, whole characters, no control bytes.
std::string shown(const std::string& s) { return fields::excerpt(s, 40); }

}  // namespace

std::string encode_link(const json& normalized_config) {
  std::string out = "v=" + std::to_string(kLinkVersion);
  flatten(normalized_config, "", &out);
  return out;
}

Expected<json> decode_link(const std::string& link) {
  if (link.size() > kMaxLinkBytes) {
    return make_error("link", "is " + std::to_string(link.size()) +
                                  " bytes; a share link is at most " +
                                  std::to_string(kMaxLinkBytes) + " bytes");
  }
  std::string fragment = link;
  const std::size_t hash = fragment.find('#');
  if (hash != std::string::npos) {
    fragment = fragment.substr(hash + 1);
  } else if (fragment.find('?') != std::string::npos) {
    fragment = fragment.substr(fragment.find('?') + 1);
  }
  // A comparison link (the page's Compare) holds two scenarios: "<A>&compare&<B>", each a v=1
  // link of its own. The config is A, the scenario the page shows and edits; B is the link after
  // the marker (a v=1 link never contains "&compare&": every key has a value).
  const std::size_t compare = fragment.find("&compare&");
  if (compare != std::string::npos) fragment = fragment.substr(0, compare);
  if (fragment.empty()) return make_error("link", "is empty; expected v=1&key=value&...");

  json config = json::object();
  bool version_seen = false;
  int params = 0;
  std::size_t start = 0;
  while (start <= fragment.size()) {
    std::size_t end = fragment.find('&', start);
    if (end == std::string::npos) end = fragment.size();
    const std::string part = fragment.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    if (++params > kMaxParams)
      return make_error("link", "has more than " + std::to_string(kMaxParams) + " parameters");
    const std::size_t eq = part.find('=');
    std::string key, value;
    if (eq == std::string::npos || !percent_decode(part.substr(0, eq), &key) ||
        !percent_decode(part.substr(eq + 1), &value)) {
      return make_error("link",
                        "parameter '" + shown(part) + "' is not key=value with valid %-escapes");
    }
    if (key == "v") {
      if (version_seen) return make_error("v", "appears more than once in the link");
      if (value != std::to_string(kLinkVersion)) {
        return make_error("v", "unsupported link version '" + shown(value) +
                                   "'; this SpecCalc reads v=" + std::to_string(kLinkVersion) +
                                   " (a newer SpecCalc made this link, or it was edited)");
      }
      version_seen = true;
      continue;
    }
    if (!valid_key(key))
      return make_error("link", "'" + shown(key) + "' is not a config field path");
    // Decoded bytes become JSON strings; nlohmann cannot print malformed UTF-8 (it aborts).
    if (!fields::valid_utf8(value))
      return make_error(key, "value '" + shown(value) + "' is not valid UTF-8 text");
    json parsed;
    if (is_string_key(key) || (key == "method.choices" && !value.empty() && value[0] != '[')) {
      parsed = value;
    } else if (plain_scalar(value, &parsed)) {
      // parsed holds the integer or boolean
    } else {
      auto v = fields::parse_document(value, key, 8);
      if (!v.ok() || v.value().is_object() || v.value().is_string() || v.value().is_null()) {
        return make_error(key,
                          "value '" + shown(value) + "' is not a number, true/false or a list");
      }
      parsed = std::move(v.value());
    }
    // Walk/create the nested objects named by the dotted key.
    json* node = &config;
    std::size_t pos = 0;
    while (true) {
      const std::size_t dot = key.find('.', pos);
      const std::string name =
          key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
      if (dot == std::string::npos) {
        if (node->contains(name)) return make_error(key, "appears more than once in the link");
        (*node)[name] = parsed;
        break;
      }
      json& child = (*node)[name];
      if (child.is_null()) child = json::object();
      if (!child.is_object())
        return make_error(key, "conflicts with '" + key.substr(0, dot) + "' given as a value");
      node = &child;
      pos = dot + 1;
    }
  }
  if (!version_seen) return make_error("v", "is missing; share links start with v=1");
  return config;
}

namespace commands {

Response link(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  return ok_json(encode_link(config_to_json(config.value())));
}

Response decode_link(const std::string& link) {
  auto doc = speccalc::decode_link(link);
  if (!doc.ok()) return fail(doc.error());
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config(doc.value(), catalog.value());
  if (!config.ok()) return fail(config.error());
  return ok_json(config_to_json(config.value()).dump());
}

}  // namespace commands

}  // namespace speccalc
