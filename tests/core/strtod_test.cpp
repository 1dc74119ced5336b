// The WASM build's strtod (wasm/fast_strtod.cpp: Clinger's fast path, then exact big-integer
// rounding) against glibc's, which rounds correctly: the same double, bit for bit, and the same
// end of the number, on the page's kinds of numbers, long and extreme decimals, subnormals,
// ties, hexadecimal floats, inf / nan spellings and text that is no number at all.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// wasm/fast_strtod.cpp, compiled into this test natively.
extern "C" double speccalc_strtod(const char* text, char** end);

namespace {

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Same bits (every NaN counts as the same NaN up to its sign) and the same end.
void expect_as_glibc(const std::string& text) {
  char* end_ours = nullptr;
  char* end_glibc = nullptr;
  const double ours = speccalc_strtod(text.c_str(), &end_ours);
  const double glibc = std::strtod(text.c_str(), &end_glibc);
  if (std::isnan(glibc)) {
    EXPECT_TRUE(std::isnan(ours)) << text;
    EXPECT_EQ(std::signbit(ours), std::signbit(glibc)) << text;
  } else {
    EXPECT_EQ(bits_of(ours), bits_of(glibc)) << "'" << text << "': " << ours << " vs " << glibc;
  }
  EXPECT_EQ(end_ours - text.c_str(), end_glibc - text.c_str()) << "end of '" << text << "'";
}

TEST(Strtod, HandPickedCases) {
  for (const char* t : {"0",
                        "-0",
                        "0.7",
                        "1024",
                        "3.2e-5",
                        "1e23",
                        "8.98846567431158e307",
                        "1.7976931348623157e308",
                        "1.7976931348623158e308",
                        "1.7976931348623159e308",
                        "2e308",
                        "4.9e-324",
                        "2.4703282292062327e-324",
                        "2.4703282292062328e-324",
                        "2.2250738585072011e-308",
                        "2.2250738585072014e-308",
                        "9007199254740993",
                        "9007199254740992.5",
                        "0.30000000000000004",
                        "123456789012345678901234567890",
                        "1e-400",
                        "1e400",
                        "-1e-400",
                        "  42",
                        "\t\n+7.5",
                        "1.",
                        ".5",
                        "1.e3",
                        "1e",
                        "1e+",
                        "-.e3",
                        ".",
                        "+",
                        "-",
                        "",
                        "abc",
                        "1x",
                        "1e5x",
                        "0x",
                        "0x1p3",
                        "0X1.8P-2",
                        "-0x.8p1",
                        "0x1p-1074",
                        "0x1p-1075",
                        "0x1.8p-1075",
                        "0x1p1024",
                        "0x1.fffffffffffff8p1023",
                        "0x123456789abcdef12p0",
                        "0xp3",
                        "0x1p",
                        "inf",
                        "-Infinity",
                        "INFIN",
                        "nan",
                        "-NaN",
                        "nan(123abc)",
                        "nan(",
                        "nan(x y)",
                        "0.000000000000000000000000000000000000001",
                        "1e0000000000000000000000000000000000005"})
    expect_as_glibc(t);
}

TEST(Strtod, RandomDecimalsOfEveryLengthAndExponent) {
  std::mt19937_64 rng(31);
  for (int i = 0; i < 40000; ++i) {
    std::string t = (rng() % 4 == 0) ? "-" : "";
    const int digits = 1 + static_cast<int>(rng() % (i % 50 == 0 ? 900 : 25));
    const int point = static_cast<int>(rng() % (digits + 1));
    for (int d = 0; d < digits; ++d) {
      if (d == point) t += '.';
      t += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 2) t += "e" + std::to_string(static_cast<int>(rng() % 700) - 350);
    expect_as_glibc(t);
  }
}

TEST(Strtod, ExactTiesBetweenDoublesRoundToEven) {
  // Midpoints between neighbouring doubles, written out exactly (%.40e of a midpoint computed in
  // long double, which holds it exactly for normal doubles), and the numbers just beside them.
  std::mt19937_64 rng(9);
  for (int i = 0; i < 3000; ++i) {
    uint64_t b = rng() & 0x7fefffffffffffffULL;
    double x;
    std::memcpy(&x, &b, sizeof x);
    if (!std::isnormal(x) || x > 1e300) continue;
    const long double mid = (static_cast<long double>(x) + std::nextafter(x, 1e308)) / 2;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.40Le", mid);
    expect_as_glibc(buf);
    std::snprintf(buf, sizeof buf, "%.25Le", mid);  // a few digits short of the tie
    expect_as_glibc(buf);
  }
}

TEST(Strtod, RandomHexFloats) {
  std::mt19937_64 rng(77);
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 20000; ++i) {
    std::string t = "0x";
    const int digits = 1 + static_cast<int>(rng() % 20);
    for (int d = 0; d < digits; ++d) {
      if (d == 1) t += '.';
      t += hex[rng() % 16];
    }
    t += "p" + std::to_string(static_cast<int>(rng() % 2200) - 1100);
    expect_as_glibc(t);
  }
}

}  // namespace
