#include "api/json_write.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "api/json_hot_code.hpp"

// The one instantiation of each (api/json_hot_code.hpp says why).
template char* nlohmann::detail::to_chars<double>(char*, const char*, double);
template class nlohmann::detail::serializer<nlohmann::json>;

namespace speccalc::json_write {
namespace {

// Bytes dump() writes between quotes unchanged: printable ASCII other than quote and backslash
// (a table: one load per byte; eval's text scans ~3 KB of assumptions each call).
constexpr std::array<bool, 256> plain_bytes() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7e; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}
constexpr std::array<bool, 256> kPlain = plain_bytes();

bool plain(std::string_view text) {
  for (const char c : text)
    if (!kPlain[static_cast<unsigned char>(c)]) return false;
  return true;
}

}  // namespace

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
  if (!plain(text)) {
    out += nlohmann::json(std::string(text)).dump();
    return;
  }
  out += '"';
  out.append(text.data(), text.size());
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
  // Keys are the core's own identifiers (string literals), never text that needs escaping.
  if (!first) out += ',';
  out += '"';
  out.append(name.data(), name.size());
  out.append("\":", 2);
}

// Members are appended to values_ in order, each as its whole `"key":value` text, so each ends
// where the next begins (or at the buffer's end): write() sets the ends before sorting. The key
// is written here in one step and write() copies each member in one piece: in WASM each
// std::string append is a call into libc++ (a profile of eval: 12.5 % of its time in append).
std::string& Object::value(std::string_view k) {
  const std::size_t at = values_.size();
  members_.push_back(Member{k, at, 0});
  values_.resize(at + k.size() + 3);
  char* p = &values_[at];
  *p++ = '"';
  std::memcpy(p, k.data(), k.size());
  p += k.size();
  *p++ = '"';
  *p = ':';
  return values_;
}

void Object::number(std::string_view k, double x) { json_write::number(value(k), x); }

void Object::integer(std::string_view k, long long x) { json_write::integer(value(k), x); }

void Object::boolean(std::string_view k, bool b) { value(k) += b ? "true" : "false"; }

void Object::string(std::string_view k, std::string_view text) {
  json_write::string(value(k), text);
}

void Object::raw(std::string_view k, std::string_view json_text) { value(k) += json_text; }

void Object::write(std::string& out) {
  // (No reserve here: libc++'s reserve allocates exactly what is asked, so reserving a little
  // more for each nested object written into a parent's buffer would copy it again each time.)
  for (std::size_t i = 0; i < members_.size(); ++i)
    members_[i].end = i + 1 < members_.size() ? members_[i + 1].begin : values_.size();
  // nlohmann's object_t is a std::map<std::string, json, std::less<>>: byte-wise key order.
  // (First bytes compared inline: most keys differ there, and memcmp is a call.)
  std::sort(members_.begin(), members_.end(), [](const Member& a, const Member& b) {
    if (!a.key.empty() && !b.key.empty() && a.key[0] != b.key[0])
      return static_cast<unsigned char>(a.key[0]) < static_cast<unsigned char>(b.key[0]);
    return a.key < b.key;
  });
  // {m1,m2,...}: the members' text and a comma between each, written in one resize.
  const std::size_t n = members_.size();
  const std::size_t at = out.size();
  out.resize(at + values_.size() + (n > 0 ? n - 1 : 0) + 2);
  char* p = &out[at];
  *p++ = '{';
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) *p++ = ',';
    const std::size_t len = members_[i].end - members_[i].begin;
    std::memcpy(p, values_.data() + members_[i].begin, len);
    p += len;
  }
  *p = '}';
}

void Object::clear() {
  members_.clear();
  values_.clear();
}

}  // namespace speccalc::json_write
