#include "api/json_write.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace speccalc::json_write {

void number(std::string& out, double x) {
  // nlohmann's serializer::dump_float: non-finite -> null, else its Grisu2 to_chars.
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, static_cast<std::size_t>(end - buf));
}

void integer(std::string& out, long long x) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

void string(std::string& out, std::string_view text) {
  // Printable ASCII without quote or backslash is written as is (what dump() does with it);
  // anything else goes through nlohmann's escaping.
  for (const char c : text) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
      out += nlohmann::json(std::string(text)).dump();
      return;
    }
  }
  out += '"';
  out += text;
  out += '"';
}

void numbers(std::string& out, const std::vector<double>& xs) {
  out += '[';
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i > 0) out += ',';
    number(out, xs[i]);
  }
  out += ']';
}

void integers(std::string& out, const std::vector<int>& xs) {
  out += '[';
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i > 0) out += ',';
    integer(out, xs[i]);
  }
  out += ']';
}

void key(std::string& out, std::string_view name, bool first) {
  if (!first) out += ',';
  string(out, name);
  out += ':';
}

void Object::add(std::string_view k, std::size_t begin) {
  members_.push_back(Member{k, begin, values_.size()});
}

void Object::number(std::string_view k, double x) {
  const std::size_t begin = values_.size();
  json_write::number(values_, x);
  add(k, begin);
}

void Object::integer(std::string_view k, long long x) {
  const std::size_t begin = values_.size();
  json_write::integer(values_, x);
  add(k, begin);
}

void Object::boolean(std::string_view k, bool b) {
  const std::size_t begin = values_.size();
  values_ += b ? "true" : "false";
  add(k, begin);
}

void Object::string(std::string_view k, std::string_view text) {
  const std::size_t begin = values_.size();
  json_write::string(values_, text);
  add(k, begin);
}

void Object::raw(std::string_view k, std::string_view json_text) {
  const std::size_t begin = values_.size();
  values_ += json_text;
  add(k, begin);
}

void Object::write(std::string& out) {
  // nlohmann's object_t is a std::map<std::string, json, std::less<>>: byte-wise key order.
  std::sort(members_.begin(), members_.end(),
            [](const Member& a, const Member& b) { return a.key < b.key; });
  out += '{';
  for (std::size_t i = 0; i < members_.size(); ++i) {
    key(out, members_[i].key, i == 0);
    out.append(values_, members_[i].begin, members_[i].end - members_[i].begin);
  }
  out += '}';
}

}  // namespace speccalc::json_write
