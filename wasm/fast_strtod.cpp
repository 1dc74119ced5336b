// strtod for the WASM build, linked with -Wl,--wrap=strtod (wasm/CMakeLists.txt): every call
// the module makes (nlohmann's lexer converts each JSON number with it; llama-bench tables are
// read with it) lands here instead of musl's.
//
// Why: musl's strtod computes in 128-bit long double, which WebAssembly has no instructions
// for: its software float routines (__addtf3, __multf3, __divtf3, fmodl, scalbnl, ...) and
// __floatscan were about 14 KB of the page's first download, and a profile of tree-expect with
// a 64-entry acceptance vector in Node spent 34 % of its time there.
//
// Two paths, both correctly rounded (ties to even), so every result is bit for bit glibc's
// (the native build's) and musl's:
// - Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers Accurately", PLDI
//   1990, section 5): when the decimal's significant digits form an integer w < 2^53 and its
//   exponent e has |e| <= 22, both w and 10^|e| are exact doubles, so w * 10^e (or w / 10^-e)
//   is one IEEE operation and therefore the correctly rounded value. The page's numbers (0.7,
//   1024, 3.2e-5) are all of this kind.
// - Everything else strtod reads (more digits, far exponents, subnormals, leading white space,
//   "1.", ".5", hexadecimal floats, inf, infinity, nan, nan(...)): speccalc_strtod below, which
//   starts from a double estimate and moves it one ulp at a time until the exact decimal value
//   (big integers, core/src/config/big_integer.hpp) lies within half an ulp - Clinger's
//   AlgorithmR. errno is not set (nothing in the core reads it).
// tests/core/strtod_test.cpp compares both with glibc's strtod natively.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "config/big_integer.hpp"

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

namespace {

// Decimal digits kept: a midpoint between two doubles has at most 767 significant digits, so
// 800 digits with a nonzero one standing for any dropped nonzero tail round as the full text.
constexpr int kMaxDigits = 800;

// Values up to 2^3800 (docs in correctly_rounded): 128 limbs of 32 bits.
using Big = speccalc::BigInteger<128>;

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_word(const char* p, const char* word) {
  for (; *word != '\0'; ++p, ++word)
    if (lower(*p) != *word) return false;
  return true;
}

// An exponent part at p ("e-12" after a decimal, "p+3" after a hex float): adds it to
// *exponent (held at +-100000 at most: far past any double) and returns where it ends; p itself
// when there is none (a bare "e" or "e+" is not part of the number).
const char* read_exponent(const char* p, char marker, int* exponent) {
  if (lower(*p) != marker) return p;
  const char* q = p + 1;
  const bool minus = *q == '-';
  if (*q == '+' || *q == '-') ++q;
  if (*q < '0' || *q > '9') return p;
  int x = 0;
  for (; *q >= '0' && *q <= '9'; ++q)
    if (x < 100000) x = x * 10 + (*q - '0');
  *exponent += minus ? -x : x;
  return q;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = lower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// 10^n for |n| <= 300 within about 16 ulps: a product of exact powers up to 10^22 (std::pow
// would bring musl's pow and its tables into the module).
double pow10_estimate(int n) {
  double p = 1;
  int a = n < 0 ? -n : n;
  for (; a > 22; a -= 22) p *= 1e22;
  p *= kPow10[a];
  return n < 0 ? 1 / p : p;
}

// The decimal D x 10^e (D given by its `n` digits, the first nonzero) correctly rounded to a
// double, for -325 <= e + n <= 310. Sizes: D < 10^800; e + n in that range puts e in
// [-1125, 310]; the comparison's sides then stay under 2^3800.
double correctly_rounded(const char* digits, int n, int e) {
  // An estimate from the first 19 digits, a few ulps off at most; scaled in two steps so that
  // neither factor overflows or underflows before the product does.
  const int taken = n < 19 ? n : 19;
  uint64_t w = 0;
  for (int i = 0; i < taken; ++i) w = w * 10 + static_cast<uint64_t>(digits[i] - '0');
  const int e19 = e + (n - taken);
  double x = static_cast<double>(w);
  if (e19 > 300)
    x = x * pow10_estimate(e19 - 300) * 1e300;
  else if (e19 < -300)
    x = x * pow10_estimate(e19 + 300) * 1e-300;
  else if (e19 < 0 && e19 >= -22)
    x = x / kPow10[-e19];  // one rounding, the common case of a long fraction
  else
    x = x * pow10_estimate(e19);
  if (std::isinf(x)) x = std::numeric_limits<double>::max();
  if (x == 0) x = std::numeric_limits<double>::denorm_min();

  Big d(0);
  for (int i = 0; i < n; ++i) d.multiply_add(10, static_cast<uint32_t>(digits[i] - '0'));
  // D x 10^e against M x 2^q: both sides times 10^max(0, -e) x 2^max(0, -q), as integers.
  const auto compare_with = [&](uint64_t m, int q) {
    Big lhs = d, rhs(m);
    if (e > 0) lhs.multiply_pow10(e);
    if (e < 0) rhs.multiply_pow10(-e);
    if (q > 0) rhs.shift_left(q);
    if (q < 0) lhs.shift_left(-q);
    return speccalc::compare(lhs, rhs);
  };
  // The estimate is a few ulps off; the steps only ever go one way. The cap turns a bug into
  // a wrong digit the tests catch, never a hang.
  for (int step = 0; step < 64; ++step) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int biased = static_cast<int>(bits >> 52);
    const uint64_t m = biased == 0 ? (bits & ((uint64_t{1} << 52) - 1))
                                   : (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    const int k = biased == 0 ? -1074 : biased - 1075;  // x = m x 2^k
    const bool odd = (m & 1) != 0;
    // The midpoint to the next double up, (2m + 1) 2^(k - 1): past it, or on it with m odd, x
    // moves up (from the largest double, to infinity).
    const int up = compare_with(2 * m + 1, k - 1);
    if (up > 0 || (up == 0 && odd)) {
      if (x == std::numeric_limits<double>::max()) return std::numeric_limits<double>::infinity();
      x = std::nextafter(x, std::numeric_limits<double>::infinity());
      continue;
    }
    // The midpoint to the next double down: a quarter ulp below a power of two whose lower
    // neighbour is closer (a normal exponent above the smallest), half an ulp otherwise.
    const bool closer_below = m == (uint64_t{1} << 52) && biased > 1;
    const int down = closer_below ? compare_with(4 * m - 1, k - 2) : compare_with(2 * m - 1, k - 1);
    if (down < 0 || (down == 0 && odd)) {
      if (x == std::numeric_limits<double>::denorm_min()) return 0.0;
      x = std::nextafter(x, 0.0);
      continue;
    }
    return x;
  }
  return x;
}

// "0x1.8p3" after the "0x": hex digits with an optional point and a binary exponent, rounded to
// the nearest double (ties to even). False when no hex digit follows (the caller reads "0").
bool hex_float(const char* p, double* value, const char** stop) {
  uint64_t mantissa = 0;  // the first 15 significant hex digits (60 bits)
  int exponent = 0;       // binary exponent of mantissa's last bit
  bool sticky = false, any = false, point = false;
  int kept = 0;
  for (;; ++p) {
    if (*p == '.' && !point) {
      point = true;
      continue;
    }
    const int h = hex_value(*p);
    if (h < 0) break;
    any = true;
    if (mantissa == 0 && h == 0) {
      if (point) exponent -= 4;
      continue;
    }
    if (kept < 15) {
      mantissa = mantissa * 16 + static_cast<uint64_t>(h);
      ++kept;
      if (point) exponent -= 4;
    } else {
      sticky = sticky || h != 0;
      if (!point) exponent += 4;
    }
  }
  if (!any) return false;
  p = read_exponent(p, 'p', &exponent);
  *stop = p;
  if (mantissa == 0) {
    *value = 0;
    return true;
  }
  // Round mantissa x 2^exponent to 53 bits (fewer below the normal range).
  int top = 63;
  while (((mantissa >> top) & 1) == 0) --top;
  const int value_exponent = exponent + top;  // of the leading bit
  if (value_exponent > 1023) {
    *value = std::numeric_limits<double>::infinity();
    return true;
  }
  const int lowest_bit = value_exponent >= -1022 ? value_exponent - 52 : -1074;
  const int drop = lowest_bit - exponent;  // bits below the last kept one
  if (drop >= 64) {
    // mantissa < 2^64 is then at most the smallest place's half (drop 64) or below it.
    const uint64_t half = uint64_t{1} << 63;
    const bool up = drop == 64 && (mantissa > half || (mantissa == half && sticky));
    *value = up ? std::ldexp(1.0, lowest_bit) : 0.0;
    return true;
  }
  if (drop > 0) {
    const uint64_t rest = mantissa & ((uint64_t{1} << drop) - 1);
    const uint64_t half = uint64_t{1} << (drop - 1);
    mantissa >>= drop;
    const bool tail = sticky || (rest & (half - 1)) != 0;
    if ((rest & half) != 0 && (tail || (mantissa & 1) != 0)) ++mantissa;
    exponent = lowest_bit;
  }
  *value = std::ldexp(static_cast<double>(mantissa), exponent);
  return true;
}

}  // namespace

// C's strtod, all of it but errno: what the module's strtod calls run (see the top of the file).
extern "C" double speccalc_strtod(const char* text, char** end) {
  double fast;
  const char* fast_stop;
  if (clinger(text, &fast, &fast_stop)) {
    if (end != nullptr) *end = const_cast<char*>(fast_stop);
    return fast;
  }
  const auto done = [&](double v, const char* stop) {
    if (end != nullptr) *end = const_cast<char*>(stop);
    return v;
  };
  const char* p = text;
  while (is_space(*p)) ++p;
  const bool negative = *p == '-';
  if (*p == '+' || *p == '-') ++p;
  const double sign = negative ? -1.0 : 1.0;
  if (starts_with_word(p, "infinity")) return done(sign * HUGE_VAL, p + 8);
  if (starts_with_word(p, "inf")) return done(sign * HUGE_VAL, p + 3);
  if (starts_with_word(p, "nan")) {
    const char* q = p + 3;
    if (*q == '(') {
      const char* r = q + 1;
      while ((*r >= '0' && *r <= '9') || (lower(*r) >= 'a' && lower(*r) <= 'z') || *r == '_') ++r;
      if (*r == ')') q = r + 1;
    }
    return done(std::copysign(std::numeric_limits<double>::quiet_NaN(), sign), q);
  }
  if (*p == '0' && lower(p[1]) == 'x') {
    double v;
    const char* stop;
    if (hex_float(p + 2, &v, &stop)) return done(sign * v, stop);
  }
  // Decimal: digits, an optional point and digits (one digit at least), an optional exponent.
  char digits[kMaxDigits];
  int n = 0, e = 0;
  bool any = false, point = false, dropped = false;
  for (;; ++p) {
    if (*p == '.' && !point) {
      point = true;
      continue;
    }
    if (*p < '0' || *p > '9') break;
    any = true;
    if (n == 0 && *p == '0') {
      if (point) --e;
      continue;
    }
    if (n < kMaxDigits - 1) {
      digits[n++] = *p;
      if (point) --e;
    } else {
      dropped = dropped || *p != '0';
      if (!point) ++e;
    }
  }
  if (!any) return done(0.0, text);
  p = read_exponent(p, 'e', &e);
  if (dropped) {  // a nonzero tail beyond the kept digits: one more nonzero digit stands for it
    digits[n++] = '1';
    --e;
  }
  if (n == 0) return done(sign * 0.0, p);
  if (e + n > 310) return done(sign * HUGE_VAL, p);
  if (e + n < -325) return done(sign * 0.0, p);
  return done(sign * correctly_rounded(digits, n, e), p);
}

#ifdef __EMSCRIPTEN__
extern "C" double __wrap_strtod(const char* text, char** end) { return speccalc_strtod(text, end); }
#endif
