// Writes JSON text straight into a string, byte for byte what nlohmann's dump() writes for the
// same values (no spaces, shortest round-trip doubles, NaN/Inf as null), without building a
// tree of json objects first. For outputs with large arrays (tree-optimize's 4096 paths and
// per-node probabilities), where building and dumping the tree cost ~8x the computation.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace speccalc::json_write {

void number(std::string& out, double x);  // as nlohmann: 1.0, 0.25, 1e-07, null
void integer(std::string& out, long long x);
void string(std::string& out, std::string_view text);           // quoted, escaped as nlohmann does
void numbers(std::string& out, const std::vector<double>& xs);  // [x,...]
void integers(std::string& out, const std::vector<int>& xs);    // [i,...]
// "key": at an object's start (first) or after a member; keys must come in sorted order to
// match dump() (nlohmann's objects are std::map), which the caller keeps. Keys are the core's
// identifiers: written without escaping.
void key(std::string& out, std::string_view name, bool first = false);

// An object whose members are given in any order and written in dump()'s (sorted by key, as
// nlohmann's std::map holds them). Keys are not copied: they must outlive the object (string
// literals). Each value is its JSON text.
class Object {
 public:
  // Most of the core's objects have under 24 members and under 512 bytes of values: reserved
  // once, not grown step by step (in WASM each growth is a malloc and a copy).
  Object() {
    members_.reserve(24);
    values_.reserve(512);
  }
  void number(std::string_view key, double x);
  void integer(std::string_view key, long long x);
  void boolean(std::string_view key, bool b);
  void string(std::string_view key, std::string_view text);
  void raw(std::string_view key, std::string_view json_text);  // a value already in JSON
  // A member whose JSON text the caller appends to the returned buffer (no copy of a separate
  // string); the text must be complete before the next member is added.
  std::string& value(std::string_view key);
  void write(std::string& out);  // {"a":..,"b":..}: sorted by key; once (clear() to reuse)
  void clear();                  // empty again, keeping the buffers' capacity (reuse in loops)
  void reserve(std::size_t value_bytes) { values_.reserve(value_bytes); }

 private:
  struct Member {
    std::string_view key;
    std::size_t begin, end;  // the value's text in values_ (end set by write())
  };
  std::vector<Member> members_;
  std::string values_;  // every value's text, one after another (one buffer, not one each)
};

}  // namespace speccalc::json_write
