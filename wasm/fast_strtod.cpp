// strtod for the WASM build, linked with -Wl,--wrap=strtod (wasm/CMakeLists.txt): every call
// the core makes (nlohmann's lexer converts each JSON number with it) lands here first.
//
// Why: musl's strtod computes in 128-bit long double, which WebAssembly has no instructions
// for; each conversion runs software float routines (__floatscan, __addtf3, fmodl). A profile
// of tree-expect with a 64-entry acceptance vector in Node spent 34 % of its time there.
//
// The fast path is Clinger's (W. D. Clinger, "How to Read Floating Point Numbers Accurately",
// PLDI 1990, section 5): when the decimal's significant digits form an integer w < 2^53 and its
// exponent e has |e| <= 22, both w and 10^|e| are exact doubles, so w * 10^e (or w / 10^-e) is
// one IEEE operation and therefore the correctly rounded value - bit for bit what musl's and
// glibc's (the native build's) correctly rounded strtod give, so native <-> WASM parity holds.
// The page's numbers (0.7, 1024, 3.2e-5) are all of this kind. (fast_float covers every input
// exactly too, but its 10 KB table of powers of five would put the page's first load over its
// 250 KB budget.)
//
// Only plain decimal text in JSON's grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
// takes the fast path. Everything else strtod accepts (leading space, '+', hex floats, inf,
// nan, "1.", ".5"), more than 15 significant digits and exponents out of that range go to
// musl's own strtod, unchanged; tests/golden/cases/trees.json has cases for both paths.
#include <cstdint>

extern "C" double __real_strtod(const char* text, char** end);

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// 10^0 .. 10^22: every one exactly representable as a double (5^22 < 2^53).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The value of the JSON number at `text` when Clinger's fast path applies; false otherwise
// (not a JSON number, or the character after it could continue a number strtod would read
// differently: "0x1p3", "01", "1.", "1e").
bool clinger(const char* text, double* value, const char** stop) {
  const char* p = text;
  const bool negative = *p == '-';
  if (negative) ++p;
  if (!digit(*p)) return false;
  uint64_t w = 0;    // significant digits, leading zeros skipped
  int digits = 0;    // how many of them
  int exponent = 0;  // decimal exponent of w's last digit
  const auto take = [&](char c) {
    if (w == 0 && c == '0') return;
    w = w * 10 + static_cast<uint64_t>(c - '0');
    ++digits;
  };
  if (*p == '0') {
    ++p;
  } else {
    while (digit(*p) && digits <= 15) take(*p++);
    if (digit(*p)) return false;  // more than 15 significant digits: musl's
  }
  if (*p == '.') {
    ++p;
    if (!digit(*p)) return false;
    while (digit(*p)) {
      if (digits > 15) return false;
      take(*p++);
      --exponent;
    }
  }
  if (*p == 'e' || *p == 'E') {
    ++p;
    const bool minus = *p == '-';
    if (*p == '+' || *p == '-') ++p;
    if (!digit(*p)) return false;
    int e = 0;
    while (digit(*p)) {
      if (e > 1000) return false;  // far out of range: musl's (overflow, underflow, errno)
      e = e * 10 + (*p++ - '0');
    }
    exponent += minus ? -e : e;
  }
  const char c = *p;
  if (digit(c) || c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'X' || c == 'p' || c == 'P')
    return false;
  if (digits > 15 || exponent > 22 || exponent < -22) return false;  // w < 10^15 < 2^53
  double x = static_cast<double>(w);                                 // exact
  x = exponent >= 0 ? x * kPow10[exponent] : x / kPow10[-exponent];
  *value = negative ? -x : x;
  *stop = p;
  return true;
}

}  // namespace

extern "C" double __wrap_strtod(const char* text, char** end) {
  double x;
  const char* stop;
  if (clinger(text, &x, &stop)) {
    if (end != nullptr) *end = const_cast<char*>(stop);
    return x;
  }
  return __real_strtod(text, end);
}
