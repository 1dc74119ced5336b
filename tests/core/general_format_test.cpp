// format_general (printf's %.*g by exact arithmetic) against the C library's snprintf, which
// glibc rounds correctly (ties to even on the exact binary value); and the WASM build's
// snprintf subset (wasm/printf_subset.cpp) against the same, on every form the module uses.
#include "config/general_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <cstdarg>

// wasm/printf_subset.cpp, compiled into this test natively.
extern "C" int __wrap_snprintf(char* buf, std::size_t size, const char* format, ...);
extern "C" int speccalc_vsnprintf_subset(char* buf, std::size_t size, const char* format,
                                         va_list args);

namespace {

std::string libc_general(double v, int precision) {
  char buf[1200];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

double from_bits(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

TEST(GeneralFormat, HandWrittenCases) {
  // Each expected string is what C's %g prints, worked out by hand.
  EXPECT_EQ(speccalc::format_general(0.0, 3), "0");
  EXPECT_EQ(speccalc::format_general(-0.0, 3), "-0");
  EXPECT_EQ(speccalc::format_general(1234.5, 3), "1.23e+03");  // X = 3 = precision: exponent
  EXPECT_EQ(speccalc::format_general(123.45, 3), "123");
  EXPECT_EQ(speccalc::format_general(0.0001234, 3), "0.000123");  // X = -4: still fixed
  EXPECT_EQ(speccalc::format_general(0.00001234, 3), "1.23e-05");
  EXPECT_EQ(speccalc::format_general(2.5, 1), "2");       // a tie, to even
  EXPECT_EQ(speccalc::format_general(3.5, 1), "4");       // a tie, to even
  EXPECT_EQ(speccalc::format_general(0.125, 2), "0.12");  // 0.125 is exact: a tie, to even
  // 0.1235 is 0.12349999999999999811... in binary: below the tie, so down.
  EXPECT_EQ(speccalc::format_general(0.1235, 3), "0.123");
  EXPECT_EQ(speccalc::format_general(9.9996, 4), "10");  // the carry adds a place
  EXPECT_EQ(speccalc::format_general(99999.5, 5), "1e+05");
  EXPECT_EQ(speccalc::format_general(1.5, 0), "2");  // precision 0 is 1
  EXPECT_EQ(speccalc::format_general(1e100, 3), "1e+100");
  EXPECT_EQ(speccalc::format_general(-4.2e-7, 2), "-4.2e-07");
  EXPECT_EQ(speccalc::format_general(std::numeric_limits<double>::infinity(), 3), "inf");
  EXPECT_EQ(speccalc::format_general(-std::numeric_limits<double>::infinity(), 3), "-inf");
  EXPECT_EQ(speccalc::format_general(std::numeric_limits<double>::quiet_NaN(), 3), "nan");
}

TEST(GeneralFormat, EqualsTheCLibraryOnRandomDoublesAtEveryPrecision) {
  std::mt19937_64 rng(20261205);
  int checked = 0;
  for (int i = 0; i < 60000; ++i) {
    // Uniform bit patterns reach every exponent, subnormals included (NaN and inf skipped).
    const uint64_t bits = rng();
    const double v = from_bits(bits);
    if (!std::isfinite(v)) continue;
    const int precision = 1 + static_cast<int>(rng() % 17);
    ASSERT_EQ(speccalc::format_general(v, precision), libc_general(v, precision))
        << "bits 0x" << std::hex << bits << std::dec << " precision " << precision;
    ++checked;
  }
  EXPECT_GT(checked, 59000);
}

TEST(GeneralFormat, EqualsTheCLibraryOnTheNumbersTheCorePrints) {
  // Times, sizes and ratios between 1e-9 and 1e13, the decimal ties and the values next to
  // powers of ten, where rounding carries and the layout switches.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-9, 13);
  for (int i = 0; i < 60000; ++i) {
    const double v = std::pow(10.0, exponent(rng));
    for (int precision : {1, 2, 3, 4, 6})
      ASSERT_EQ(speccalc::format_general(v, precision), libc_general(v, precision)) << v;
  }
  for (int e = -12; e <= 20; ++e) {
    const double p = std::pow(10.0, e);
    for (double v : {p, std::nextafter(p, 0.0), std::nextafter(p, 1e300), 0.5 * p, 1.5 * p, 2.5 * p,
                     9.995 * p, 9.9995 * p, 0.00995 * p, 0.125 * p, 0.375 * p})
      for (int precision = 1; precision <= 17; ++precision)
        ASSERT_EQ(speccalc::format_general(v, precision), libc_general(v, precision))
            << v << " at " << precision;
  }
  for (double v : {std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::max(), std::numeric_limits<double>::epsilon()})
    for (int precision : {1, 3, 17, 40, 400, 800})
      ASSERT_EQ(speccalc::format_general(v, precision), libc_general(v, precision)) << v;
}

std::string libc_fixed(double v, int decimals) {
  char buf[1600];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

TEST(FixedFormat, HandWrittenCases) {
  EXPECT_EQ(speccalc::format_fixed(0.0, 2), "0.00");
  EXPECT_EQ(speccalc::format_fixed(-0.0, 1), "-0.0");
  EXPECT_EQ(speccalc::format_fixed(12.345, 1), "12.3");
  EXPECT_EQ(speccalc::format_fixed(0.0996, 3), "0.100");  // the carry adds a place
  EXPECT_EQ(speccalc::format_fixed(9.9996, 3), "10.000");
  EXPECT_EQ(speccalc::format_fixed(0.0006, 3), "0.001");  // every digit below the last place
  EXPECT_EQ(speccalc::format_fixed(0.0004, 3), "0.000");
  EXPECT_EQ(speccalc::format_fixed(0.5, 0), "0");  // ties to even
  EXPECT_EQ(speccalc::format_fixed(1.5, 0), "2");
  EXPECT_EQ(speccalc::format_fixed(2.5, 0), "2");
  EXPECT_EQ(speccalc::format_fixed(0.125, 2), "0.12");
  EXPECT_EQ(speccalc::format_fixed(-7.0, 0), "-7");
}

TEST(FixedFormat, EqualsTheCLibraryOnRandomDoubles) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> exponent(-12, 16);
  for (int i = 0; i < 60000; ++i) {
    const double v = (i % 2 ? -1 : 1) * std::pow(10.0, exponent(rng));
    const int decimals = static_cast<int>(rng() % 12);
    ASSERT_EQ(speccalc::format_fixed(v, decimals), libc_fixed(v, decimals)) << v;
  }
  for (int i = 0; i < 20000; ++i) {
    const uint64_t bits = rng();
    const double v = from_bits(bits);
    if (!std::isfinite(v)) continue;
    const int decimals = static_cast<int>(rng() % 8);
    ASSERT_EQ(speccalc::format_fixed(v, decimals), libc_fixed(v, decimals))
        << "bits 0x" << std::hex << bits;
  }
  for (int e = -8; e <= 8; ++e)
    for (double m : {0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.35, 9.95, 9.995, 0.0005, 0.00049})
      for (int decimals = 0; decimals <= 6; ++decimals) {
        const double v = m * std::pow(10.0, e);
        ASSERT_EQ(speccalc::format_fixed(v, decimals), libc_fixed(v, decimals))
            << v << " at " << decimals;
      }
}

std::string subset(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string subset(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  const int n = speccalc_vsnprintf_subset(buf, sizeof buf, format, args);
  va_end(args);
  EXPECT_GE(n, 0) << format;
  return buf;
}

template <typename... A>
std::string libc(const char* format, A... a) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, a...);
  return buf;
}

TEST(PrintfSubset, EqualsTheCLibraryOnEveryFormNlohmannUses) {
  // nlohmann/json 3.11: serializer.hpp ("\\u%04x", "\\u%04x\\u%04x", "%.*g" for other float
  // types), lexer.hpp ("<U+%.4X>"), binary_reader.hpp ("%.2hhX").
  for (unsigned c = 0; c <= 0x10FFFF; c += (c < 0x100 ? 1 : 977)) {
    EXPECT_EQ(subset("\\u%04x", c), libc("\\u%04x", c));
    EXPECT_EQ(subset("\\u%04x\\u%04x", c, c ^ 0xdc00u), libc("\\u%04x\\u%04x", c, c ^ 0xdc00u));
  }
  for (int c = -300; c <= 300; ++c) {
    EXPECT_EQ(subset("<U+%.4X>", static_cast<unsigned char>(c)),
              libc("<U+%.4X>", static_cast<unsigned char>(c)));
    EXPECT_EQ(subset("%.2hhX", static_cast<unsigned char>(c)),
              libc("%.2hhX", static_cast<unsigned char>(c)));
  }
  for (double v : {0.0, -0.0, 1.0 / 3, 1e-300, 123456789.0, -2.5e17})
    for (int precision : {1, 6, 15, 17})
      EXPECT_EQ(subset("%.*g", precision, v), libc("%.*g", precision, v));
}

TEST(PrintfSubset, WidthsFlagsAndLengthsAsTheCLibrary) {
  EXPECT_EQ(subset("%5d|%-5d|%05d|%.3d|%d", 42, 42, -42, 7, -2147483647 - 1),
            libc("%5d|%-5d|%05d|%.3d|%d", 42, 42, -42, 7, -2147483647 - 1));
  EXPECT_EQ(
      subset("%lld %llu %zu %lx %hd %hhu", -9000000000LL, 18000000000000000000ULL, std::size_t{12},
             0xabcdefUL, static_cast<short>(-5), static_cast<unsigned char>(250)),
      libc("%lld %llu %zu %lx %hd %hhu", -9000000000LL, 18000000000000000000ULL, std::size_t{12},
           0xabcdefUL, static_cast<short>(-5), static_cast<unsigned char>(250)));
  EXPECT_EQ(subset("[%s|%.2s|%6s|%-6s|%c|%%]", "abc", "abc", "abc", "abc", 'z'),
            libc("[%s|%.2s|%6s|%-6s|%c|%%]", "abc", "abc", "abc", "abc", 'z'));
  EXPECT_EQ(subset("%.0d|%.0x|%8.3g|%-8.3g|%08.3g", 0, 0u, 3.14159, 3.14159, -3.14159),
            libc("%.0d|%.0x|%8.3g|%-8.3g|%08.3g", 0, 0u, 3.14159, 3.14159, -3.14159));
}

TEST(PrintfSubset, TruncatesLikeSnprintfAndRefusesWhatItDoesNotKnow) {
  char small[4];
  EXPECT_EQ(__wrap_snprintf(small, sizeof small, "%d", 123456), 6);  // the full length
  EXPECT_STREQ(small, "123");
  char buf[16] = "untouched";
  EXPECT_EQ(__wrap_snprintf(buf, sizeof buf, "%f", 1.0), -1);  // not in the subset
  EXPECT_STREQ(buf, "");
}

}  // namespace
