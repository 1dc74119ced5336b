// printf's "%.*g" by exact big-integer arithmetic (the fixed-precision digit loop of Steele and
// White, "How to Print Floating-Point Numbers Accurately", PLDI 1990): the double is m x 2^e
// exactly, so v = R / S with integers R and S; scaled by 10^-k so that 1 <= R / S < 10, each
// quotient digit is exact, and the remainder decides the rounding of the last digit.
#include "config/general_format.hpp"

#include "config/big_integer.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace speccalc {

namespace {

// 40 limbs (1280 bits) hold every value the digit loop makes: the largest is 2 R < 20 S with
// S <= 2^1074 (a subnormal's denominator) or R <= 2^53 x 10^324 (the smallest subnormal scaled
// up), both under 2^1081.
using Big = BigInteger<40>;

// Finite v > 0 as r / s x 10^k with 1 <= r / s < 10, all exact.
struct Scaled {
  Big r{0}, s{1};
  int k = 0;
};

Scaled scale(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t m = biased == 0 ? fraction : fraction | (uint64_t{1} << 52);
  const int e = biased == 0 ? -1074 : biased - 1075;  // v = m x 2^e exactly
  Scaled x;
  x.r = Big(m);
  if (e >= 0)
    x.r.shift_left(e);
  else
    x.s.shift_left(-e);
  // An estimate of floor(log10 v), then corrected until s <= r < 10 s.
  x.k = static_cast<int>(std::floor(std::log10(v)));
  if (x.k >= 0)
    x.s.multiply_pow10(x.k);
  else
    x.r.multiply_pow10(-x.k);
  while (compare(x.r, x.s) < 0) {
    x.r.multiply(10);
    --x.k;
  }
  for (;;) {
    Big ten_s = x.s;
    ten_s.multiply(10);
    if (compare(x.r, ten_s) < 0) break;
    x.s = ten_s;
    ++x.k;
  }
  return x;
}

// The first `count` (>= 1) digits of x, correctly rounded (ties to even); a carry out of the
// first digit ("9.99" -> "10.0") makes it "1" followed by zeros and raises x->k by one.
std::string leading_digits(Scaled* x, int count) {
  std::string digits(static_cast<std::size_t>(count), '0');
  for (int i = 0; i < count; ++i) {
    if (i > 0) x->r.multiply(10);
    int d = 0;
    while (compare(x->r, x->s) >= 0) {
      x->r.subtract(x->s);
      ++d;
    }
    digits[static_cast<std::size_t>(i)] = static_cast<char>('0' + d);
  }
  // The rest, r / s in [0, 1) of the last digit: up past a half, to even at exactly a half.
  x->r.shift_left(1);
  const int half = compare(x->r, x->s);
  const bool odd = (digits.back() - '0') % 2 == 1;
  if (half > 0 || (half == 0 && odd)) {
    int i = count - 1;
    while (i >= 0 && digits[static_cast<std::size_t>(i)] == '9')
      digits[static_cast<std::size_t>(i--)] = '0';
    if (i >= 0) {
      ++digits[static_cast<std::size_t>(i)];
    } else {
      digits[0] = '1';
      ++x->k;
    }
  }
  return digits;
}

// "1.2300" -> "1.23", "5.000" -> "5" (printf's %g without the '#' flag).
void trim_fraction(std::string* s) {
  if (s->find('.') == std::string::npos) return;
  while (s->back() == '0') s->pop_back();
  if (s->back() == '.') s->pop_back();
}

}  // namespace

std::string format_general(double v, int precision) {
  if (precision <= 0) precision = 1;
  const bool negative = std::signbit(v);
  const std::string sign = negative ? "-" : "";
  if (std::isnan(v)) return sign + "nan";
  if (std::isinf(v)) return sign + "inf";
  if (v == 0) return sign + "0";
  Scaled scaled = scale(std::fabs(v));
  const std::string digits = leading_digits(&scaled, precision);
  const int x = scaled.k;
  std::string out;
  if (x >= -4 && x < precision) {
    if (x >= 0) {
      out = digits.substr(0, static_cast<std::size_t>(x) + 1);
      if (precision > x + 1) out += "." + digits.substr(static_cast<std::size_t>(x) + 1);
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-x - 1), '0') + digits;
    }
    trim_fraction(&out);
    return sign + out;
  }
  out = digits.substr(0, 1);
  if (precision > 1) out += "." + digits.substr(1);
  trim_fraction(&out);
  const int ax = x < 0 ? -x : x;
  out += x < 0 ? "e-" : "e+";
  if (ax < 10) out += '0';
  out += std::to_string(ax);
  return sign + out;
}

std::string format_fixed(double v, int decimals) {
  if (decimals < 0) decimals = 0;
  const bool negative = std::signbit(v);
  const std::string sign = negative ? "-" : "";
  if (std::isnan(v)) return sign + "nan";
  if (std::isinf(v)) return sign + "inf";
  const std::string zero_fraction =
      decimals > 0 ? "." + std::string(static_cast<std::size_t>(decimals), '0') : "";
  if (v == 0) return sign + "0" + zero_fraction;
  Scaled x = scale(std::fabs(v));
  // Digits from 10^k down to 10^-decimals.
  const int count = x.k + decimals + 1;
  std::string digits;
  if (count > 0) {
    digits = leading_digits(&x, count);
    if (static_cast<int>(digits.size()) < x.k + decimals + 1) digits += '0';  // the carry's
  } else {
    // Every digit lies below the last place: v rounds to 0 or to one unit of it. At
    // count == 0, v / unit = r / s / 10, past a half when r > 5 s (exactly a half: to even, 0).
    Big five_s = x.s;
    five_s.multiply(5);
    const bool one = count == 0 && compare(x.r, five_s) > 0;
    digits = std::string(static_cast<std::size_t>(decimals) + 1, '0');  // units and decimals
    if (one) digits.back() = '1';
    x.k = 0;
  }
  // digits holds 10^max(k, 0) .. 10^-decimals once the units place is there.
  if (x.k < 0) digits.insert(0, static_cast<std::size_t>(-x.k), '0');
  const std::size_t units = digits.size() - static_cast<std::size_t>(decimals);
  std::string out = digits.substr(0, units);
  if (decimals > 0) out += "." + digits.substr(units);
  return sign + out;
}

std::string format_shortest(double v) {
  std::string out;
  for (int precision = 1; precision <= 17; ++precision) {
    out = format_general(v, precision);
    if (std::strtod(out.c_str(), nullptr) == v) break;
  }
  return out;
}

}  // namespace speccalc
