#include "config/json_fields.hpp"

#include "config/general_format.hpp"

#include <cmath>
#include <set>
#include <vector>

namespace speccalc::fields {

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string describe_type(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    default:
      return "an unsupported value";
  }
}

std::string format_number(double v) { return json(v).dump(); }

std::string format_significant(double v, int digits) { return format_general(v, digits); }

std::string format_seconds(double s) {
  const double a = std::fabs(s);
  // The unit whose value rounds to [1, 1000) at 3 significant digits.
  if (a == 0) return "0 s";
  // A fitted time at its bound of 0 lands at 1e-10 s or so: nothing to read in its digits.
  if (a < 1e-9) return s < 0 ? "> -1 ns" : "< 1 ns";
  if (a < 0.9995e-6) return format_significant(s * 1e9) + " ns";
  if (a < 0.9995e-3) return format_significant(s * 1e6) + " \u00b5s";
  if (a < 0.9995) return format_significant(s * 1e3) + " ms";
  return format_significant(s) + " s";
}

namespace {
int nesting_depth(const std::string& text) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{')
      max_depth = std::max(max_depth, ++depth);
    else if (c == ']' || c == '}')
      --depth;
  }
  return max_depth;
}
}  // namespace

namespace {

// Length in bytes of the well-formed UTF-8 sequence at s[i], or 0 if there is none
// (Unicode 15, table 3-7).
std::size_t utf8_sequence(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c == 0xE0)
    n = 3, lo = 0xA0;
  else if (c == 0xED)
    n = 3, hi = 0x9F;  // no UTF-16 surrogates
  else if (c >= 0xE1 && c <= 0xEF)
    n = 3;
  else if (c == 0xF0)
    n = 4, lo = 0x90;
  else if (c == 0xF4)
    n = 4, hi = 0x8F;  // nothing above U+10FFFF
  else if (c >= 0xF1 && c <= 0xF3)
    n = 4;
  else
    return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

// Rejects repeated keys while parsing (the parse callback sees every key with its object).
// A frame records only how its parent addresses it (a key or an index): the path text is
// composed when a repeated key is found, not for every container (tree-expect's 4096 choices
// had built 4096 "choices[i]" strings).
struct DuplicateKeyCheck {
  struct Frame {
    bool object;
    std::string key_in_parent;  // when the parent is an object
    int64_t index_in_parent;    // when the parent is an array
    std::set<std::string> keys;
    std::string last_key;
    int64_t next_index = 0;
  };
  std::vector<Frame> frames;
  Error error;
  bool found = false;

  // The path of frames[0..n) as the messages write it: "a.b[2].c".
  std::string path_of(std::size_t n) const {
    std::string path;
    for (std::size_t i = 1; i < n; ++i) {
      if (frames[i - 1].object)
        path = join(path, frames[i].key_in_parent);
      else
        path += "[" + std::to_string(frames[i].index_in_parent) + "]";
    }
    return path;
  }
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start: {
        Frame frame{event == json::parse_event_t::object_start, {}, 0, {}, {}};
        if (!frames.empty()) {
          Frame& top = frames.back();
          if (top.object)
            frame.key_in_parent = top.last_key;
          else
            frame.index_in_parent = top.next_index++;
        }
        frames.push_back(std::move(frame));
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames.empty()) frames.pop_back();
        break;
      case json::parse_event_t::key:
        if (!frames.empty() && frames.back().object && parsed.is_string()) {
          Frame& top = frames.back();
          top.last_key = parsed.get<std::string>();
          if (!top.keys.insert(top.last_key).second && !found) {
            found = true;
            error = make_error(excerpt(join(path_of(frames.size()), top.last_key), 120),
                               "appears more than once in its object (JSON keys must be unique)");
          }
        }
        break;
      case json::parse_event_t::value:
        if (!frames.empty() && !frames.back().object) ++frames.back().next_index;
        break;
    }
    return true;
  }
};
}  // namespace

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string excerpt(const std::string& s, std::size_t max_bytes) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_sequence(s, i);
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const bool shown_as_is = n > 1 || (n == 1 && c >= 0x20 && c != 0x7F);
    if (n == 0) n = 1;
    if (out.size() + (shown_as_is ? n : 1) > max_bytes) return out + "...";
    if (shown_as_is)
      out.append(s, i, n);
    else
      out += '?';
    i += n;
  }
  return out;
}

Expected<json> parse_document(const std::string& text, const std::string& what, int max_depth) {
  // Checked before parsing: nlohmann's parser recurses, so a hostile 100k-deep document
  // must never reach it.
  if (nesting_depth(text) > max_depth) {
    return make_error("", what + " is nested deeper than " + std::to_string(max_depth) + " levels");
  }
  DuplicateKeyCheck duplicates;
  json doc = json::parse(
      text, [&](int d, json::parse_event_t e, json& v) { return duplicates(d, e, v); },
      /*allow_exceptions=*/false);
  if (doc.is_discarded()) return make_error("", what + " is not valid JSON");
  if (duplicates.found) return duplicates.error;
  return Expected<json>(std::move(doc));  // Expected(T) takes its value: move, not copy
}

namespace {

template <typename Keys>
bool check_keys_in(const json& obj, const std::string& path, const Keys& allowed, Error* err) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const auto& a : allowed) known = known || it.key() == a;
    if (!known) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      *err =
          make_error(join(path, excerpt(it.key(), 64)), "unknown field; expected one of: " + list);
      return false;
    }
  }
  return true;
}

}  // namespace

bool check_keys(const json& obj, const std::string& path,
                std::initializer_list<const char*> allowed, Error* err) {
  return check_keys_in(obj, path, allowed, err);
}

bool check_keys(const json& obj, const std::string& path, const std::vector<const char*>& allowed,
                Error* err) {
  return check_keys_in(obj, path, allowed, err);
}

bool int_value(const json& v, const std::string& path, int64_t lo, int64_t hi, int64_t* out,
               Error* err) {
  int64_t value = 0;
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      *err = make_error(
          path, "must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi));
      return false;
    }
    value = v.get<int64_t>();
  } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             std::floor(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) < 9e15) {
    value = static_cast<int64_t>(v.get<double>());  // 4.0 is accepted as 4
  } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             std::floor(v.get<double>()) == v.get<double>()) {
    // A whole number too large to hold (1e20 typed as 99999999999999999999): out of range, not
    // "enter a whole number" (the walk).
    *err = make_error(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                ", got " + format_number(v.get<double>()));
    return false;
  } else {
    // Plain words for the form (issue 12): what to type, and what was typed when it was text.
    std::string got;
    if (v.is_string()) {
      const std::string& text = v.get_ref<const std::string&>();
      got = text.empty() ? "" : ", not '" + excerpt(text, 40) + "'";
    } else if (v.is_number_float() && std::isfinite(v.get<double>())) {
      got = ", not " + format_number(v.get<double>());
    } else {
      got = ", not " + describe_type(v);
    }
    *err = make_error(path, "enter a whole number" + got);
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
    // Text typed into a number field reads as the whole-number fields do: what to type, and
    // what was typed (the walk: "must be a number, got a string" beside the request rate).
    if (v.is_string()) {
      const std::string& text = v.get_ref<const std::string&>();
      *err = make_error(
          path,
          "enter a number" + (text.empty() ? std::string() : ", not '" + excerpt(text, 40) + "'"));
    } else {
      *err = make_error(path, "must be a number, got " + describe_type(v));
    }
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
