#include "api/null_scan.hpp"

#include <vector>

namespace speccalc {
namespace {

// One open object or array: the member or element being read.
struct Frame {
  bool object = false;
  std::size_t index = 0;  // arrays: the element's position
  std::string key;        // objects: the member's name, unescaped
};

class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  NullScan run(const std::function<bool(const std::string&)>& allowed, std::string* where) {
    std::vector<Frame> stack;
    skip_space();
    for (;;) {
      // A value starts here.
      if (at_end()) return NullScan::invalid;
      const char c = s_[pos_];
      if (c == '{' || c == '[') {
        ++pos_;
        stack.push_back(Frame{c == '{', 0, {}});
        skip_space();
        if (!at_end() && s_[pos_] == (c == '{' ? '}' : ']')) {
          ++pos_;
          stack.pop_back();
        } else if (c == '{') {
          if (!read_key(&stack.back().key)) return NullScan::invalid;
          continue;  // the member's value
        } else {
          continue;  // the first element
        }
      } else if (c == '"') {
        if (!read_string(nullptr)) return NullScan::invalid;
      } else if (literal("null")) {
        const std::string p = path(stack);
        if (!allowed(p)) {
          *where = p;
          return NullScan::found;
        }
      } else if (literal("true") || literal("false")) {
      } else if (!skip_number()) {
        return NullScan::invalid;
      }
      // After a value: the next member or element, or the ends of containers.
      for (;;) {
        skip_space();
        if (stack.empty()) return at_end() ? NullScan::none : NullScan::invalid;
        if (at_end()) return NullScan::invalid;
        Frame& top = stack.back();
        const char d = s_[pos_++];
        if (d == ',') {
          skip_space();
          if (top.object) {
            if (!read_key(&top.key)) return NullScan::invalid;
          } else {
            ++top.index;
          }
          break;
        }
        if (d != (top.object ? '}' : ']')) return NullScan::invalid;
        stack.pop_back();
      }
    }
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }

  void skip_space() {
    while (!at_end() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      ++pos_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // A number's characters, checked only for the grammar's alphabet: its value is never needed.
  bool skip_number() {
    const std::size_t start = pos_;
    while (!at_end()) {
      const char c = s_[pos_];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')
        ++pos_;
      else
        break;
    }
    return pos_ > start;
  }

  // A member's name and the colon after it.
  bool read_key(std::string* key) {
    if (at_end() || s_[pos_] != '"' || !read_string(key)) return false;
    skip_space();
    if (at_end() || s_[pos_] != ':') return false;
    ++pos_;
    skip_space();
    return true;
  }

  // A string from its opening quote; into *out unescaped when out is given (keys are the
  // core's identifiers: an escape other than a one-character one is kept as written).
  bool read_string(std::string* out) {
    ++pos_;  // the opening quote
    if (out != nullptr) out->clear();
    while (!at_end()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (at_end()) return false;
        const char e = s_[pos_++];
        if (out == nullptr) continue;
        switch (e) {
          case 'n':
            *out += '\n';
            break;
          case 't':
            *out += '\t';
            break;
          case 'r':
            *out += '\r';
            break;
          case 'b':
            *out += '\b';
            break;
          case 'f':
            *out += '\f';
            break;
          case 'u':
            *out += "\\u";
            break;
          default:
            *out += e;
        }
      } else if (out != nullptr) {
        *out += c;
      }
    }
    return false;
  }

  static std::string path(const std::vector<Frame>& stack) {
    std::string p;
    for (const Frame& f : stack) {
      if (f.object) {
        if (!p.empty()) p += '.';
        p += f.key;
      } else {
        p += '[' + std::to_string(f.index) + ']';
      }
    }
    return p;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

NullScan first_refused_null(std::string_view text,
                            const std::function<bool(const std::string&)>& allowed,
                            std::string* where) {
  return Scanner(text).run(allowed, where);
}

}  // namespace speccalc
