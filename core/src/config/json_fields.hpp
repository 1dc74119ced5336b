// Typed, range-checked field access on nlohmann::json objects. Every failure names the
// field path and the reason, and nothing is clamped: out-of-range values are errors.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/status.hpp"

namespace speccalc::fields {

using json = nlohmann::json;

std::string join(const std::string& path, const std::string& key);
std::string describe_type(const json& v);

// Parses text with exceptions off; rejects documents nested deeper than max_depth and objects
// that repeat a key (nlohmann would silently keep the last value).
Expected<json> parse_document(const std::string& text, const std::string& what, int max_depth = 16);

// True when s is well-formed UTF-8 (no overlong forms, surrogates or code points > U+10FFFF).
// nlohmann's dump() aborts on anything else, so strings from links are checked with it.
bool valid_utf8(const std::string& s);

// Untrusted text quoted inside an error message: at most max_bytes, cut on a character
// boundary ("..." marks the cut), control characters and invalid UTF-8 bytes shown as '?'.
std::string excerpt(const std::string& s, std::size_t max_bytes = 40);

// Errors if obj has a key not in `allowed` (typos must not be silently ignored).
bool check_keys(const json& obj, const std::string& path,
                std::initializer_list<const char*> allowed, Error* err);
bool check_keys(const json& obj, const std::string& path, const std::vector<const char*>& allowed,
                Error* err);

// Each reader leaves *out untouched and returns true when the key is absent (the caller's
// default stays), reads the value when valid, and returns false with *err set otherwise.
bool read_int(const json& obj, const char* key, const std::string& path, int64_t lo, int64_t hi,
              int64_t* out, Error* err);
bool read_number(const json& obj, const char* key, const std::string& path, double lo, double hi,
                 double* out, Error* err);
bool read_string(const json& obj, const char* key, const std::string& path, std::string* out,
                 Error* err, std::size_t max_len = 128);
bool read_bool(const json& obj, const char* key, const std::string& path, bool* out, Error* err);

// Checks a standalone value (an array element, say).
bool number_value(const json& v, const std::string& path, double lo, double hi, double* out,
                  Error* err);
bool int_value(const json& v, const std::string& path, int64_t lo, int64_t hi, int64_t* out,
               Error* err);

std::string format_number(double v);  // shortest round-trip text, as nlohmann prints it
// For sentences people read (assumptions, notes): `digits` significant digits ("0.812"), and
// a duration with its unit ("64.6 µs", "1.25 ms", "0.300 s" -> "300 ms"). Numbers a program
// reads stay full precision in their own fields.
std::string format_significant(double v, int digits = 3);
std::string format_seconds(double s);

}  // namespace speccalc::fields
