#include "json_fields.hpp"

#include <cmath>

namespace speccalc::fields {

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string describe_type(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a number";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    default: return "an unsupported value";
  }
}

std::string format_number(double v) { return json(v).dump(); }

namespace {
int nesting_depth(const std::string& text) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') max_depth = std::max(max_depth, ++depth);
    else if (c == ']' || c == '}') --depth;
  }
  return max_depth;
}
}  // namespace

Expected<json> parse_document(const std::string& text, const std::string& what, int max_depth) {
  // Checked before parsing: nlohmann's parser recurses, so a hostile 100k-deep document
  // must never reach it.
  if (nesting_depth(text) > max_depth) {
    return make_error("", what + " is nested deeper than " + std::to_string(max_depth) + " levels");
  }
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return make_error("", what + " is not valid JSON");
  return doc;
}

bool check_keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed,
                Error* err) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known = known || it.key() == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      std::string key = it.key().size() > 64 ? it.key().substr(0, 64) + "..." : it.key();
      *err = make_error(join(path, key), "unknown field; expected one of: " + list);
      return false;
    }
  }
  return true;
}

bool int_value(const json& v, const std::string& path, int64_t lo, int64_t hi, int64_t* out,
               Error* err) {
  int64_t value = 0;
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      *err = make_error(path, "must be an integer between " + std::to_string(lo) + " and " +
                                  std::to_string(hi));
      return false;
    }
    value = v.get<int64_t>();
  } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             std::floor(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) < 9e15) {
    value = static_cast<int64_t>(v.get<double>());  // 4.0 is accepted as 4
  } else {
    *err = make_error(path, "must be an integer, got " + describe_type(v));
    return false;
  }
  if (value < lo || value > hi) {
    *err = make_error(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                ", got " + std::to_string(value));
    return false;
  }
  *out = value;
  return true;
}

bool number_value(const json& v, const std::string& path, double lo, double hi, double* out,
                  Error* err) {
  if (!v.is_number()) {
    *err = make_error(path, "must be a number, got " + describe_type(v));
    return false;
  }
  double value = v.get<double>();
  if (!std::isfinite(value)) {
    *err = make_error(path, "must be a finite number");
    return false;
  }
  if (value < lo || value > hi) {
    *err = make_error(path, "must be between " + format_number(lo) + " and " + format_number(hi) +
                                ", got " + format_number(value));
    return false;
  }
  *out = value;
  return true;
}

bool read_int(const json& obj, const char* key, const std::string& path, int64_t lo, int64_t hi,
              int64_t* out, Error* err) {
  auto it = obj.find(key);
  if (it == obj.end()) return true;
  return int_value(*it, join(path, key), lo, hi, out, err);
}

bool read_number(const json& obj, const char* key, const std::string& path, double lo, double hi,
                 double* out, Error* err) {
  auto it = obj.find(key);
  if (it == obj.end()) return true;
  return number_value(*it, join(path, key), lo, hi, out, err);
}

bool read_string(const json& obj, const char* key, const std::string& path, std::string* out,
                 Error* err, std::size_t max_len) {
  auto it = obj.find(key);
  if (it == obj.end()) return true;
  if (!it->is_string()) {
    *err = make_error(join(path, key), "must be a string, got " + describe_type(*it));
    return false;
  }
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() > max_len) {
    *err = make_error(join(path, key), "is longer than " + std::to_string(max_len) + " characters");
    return false;
  }
  *out = s;
  return true;
}

bool read_bool(const json& obj, const char* key, const std::string& path, bool* out, Error* err) {
  auto it = obj.find(key);
  if (it == obj.end()) return true;
  if (!it->is_boolean()) {
    *err = make_error(join(path, key), "must be true or false, got " + describe_type(*it));
    return false;
  }
  *out = it->get<bool>();
  return true;
}

}  // namespace speccalc::fields
