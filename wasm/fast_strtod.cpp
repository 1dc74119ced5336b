// strtod for the WASM build, linked with -Wl,--wrap=strtod (wasm/CMakeLists.txt): every call
// the core makes (nlohmann's lexer converts each JSON number with it) lands here first.
//
// Why: musl's strtod computes in 128-bit long double, which WebAssembly has no instructions
// for; each conversion runs software float routines (__floatscan, __addtf3, fmodl). A profile
// of tree-expect with a 64-entry acceptance vector in Node spent 34 % of its time there.
// fast_float (Debian's libfast-float-dev, Lemire's exact Eisel-Lemire algorithm with a big-
// integer fallback) gives the correctly rounded double in 64-bit arithmetic. musl's strtod and
// glibc's (the native build) are correctly rounded too, so every value is bit-identical and
// native <-> WASM parity holds; tests/parity's number corpus checks hard cases.
//
// Only plain decimal text in JSON's grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
// whose result is a normal, finite double takes the fast path. Everything else strtod accepts
// (leading space, '+', hex floats, inf/nan, "1.", ".5") and the range cases where strtod sets
// errno (overflow to inf, underflow to zero or a subnormal) go to musl's own strtod, unchanged.
#include <cfloat>
#include <cmath>

#include <fast_float/fast_float.h>

extern "C" double __real_strtod(const char* text, char** end);

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The end of the JSON number at `p`, or nullptr when the text there is not one, or when the
// character after it could continue a number strtod would read differently ("0x1p3", "01",
// "1.", "1e").
const char* json_number_end(const char* p) {
  if (*p == '-') ++p;
  if (*p == '0') {
    ++p;
  } else if (digit(*p)) {
    while (digit(*p)) ++p;
  } else {
    return nullptr;
  }
  if (*p == '.') {
    ++p;
    if (!digit(*p)) return nullptr;
    while (digit(*p)) ++p;
  }
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') ++p;
    if (!digit(*p)) return nullptr;
    while (digit(*p)) ++p;
  }
  const char c = *p;
  if (digit(c) || c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'X' || c == 'p' || c == 'P')
    return nullptr;
  return p;
}

}  // namespace

extern "C" double __wrap_strtod(const char* text, char** end) {
  if (const char* stop = json_number_end(text)) {
    double x = 0.0;
    const fast_float::from_chars_result r = fast_float::from_chars(text, stop, x);
    if (r.ec == std::errc() && r.ptr == stop && std::isfinite(x) &&
        (x == 0.0 || std::fabs(x) >= DBL_MIN)) {
      // A zero from text with a nonzero digit ("1e-400") is an underflow: musl's, for errno.
      bool written_zero = true;
      if (x == 0.0)
        for (const char* p = text; p < stop && *p != 'e' && *p != 'E'; ++p)
          if (*p >= '1' && *p <= '9') written_zero = false;
      if (written_zero) {
        if (end != nullptr) *end = const_cast<char*>(stop);
        return x;
      }
    }
  }
  return __real_strtod(text, end);
}
