// snprintf for the WASM build, linked with -Wl,--wrap=snprintf (wasm/CMakeLists.txt): every
// snprintf call in the module lands here instead of musl's.
//
// Why: musl's snprintf is printf_core, fmt_fp and their helpers, about 7 KB of the page's
// first download, kept alive only by nlohmann's escapes ("\\u%04x" in the serializer,
// "<U+%.4X>" in the lexer's error text). The core itself prints numbers with format_general
// (core/src/config/general_format.hpp), which this file also uses for %g, so a %g printed here
// has the native build's digits.
//
// The subset: flags '-' and '0', a width, a precision (digits or '*'), lengths hh, h, l, ll,
// z, and the conversions d i u x X c s g %. Anything else writes an empty string and returns
// -1, as snprintf does on an encoding error; nothing in the module asks for more
// (tests/core/printf_subset_test.cpp compares every form used against the C library's).
#include <cstdarg>
#include <cstddef>
#include <cstring>
#include <string>

#include "config/general_format.hpp"

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string in_base(unsigned long long v, unsigned base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[v % base]);
    v /= base;
  } while (v != 0);
  return out;
}

}  // namespace

// vsnprintf over the subset above.
extern "C" int speccalc_vsnprintf_subset(char* buf, std::size_t size, const char* format,
                                         va_list args) {
  std::string out;
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    ++p;
    bool left = false, zero = false;
    for (; *p == '-' || *p == '0'; ++p) (*p == '-' ? left : zero) = true;
    int width = 0;
    for (; is_digit(*p); ++p) width = width * 10 + (*p - '0');
    int precision = -1;
    if (*p == '.') {
      ++p;
      precision = 0;
      if (*p == '*') {
        precision = va_arg(args, int);
        ++p;
      } else {
        for (; is_digit(*p); ++p) precision = precision * 10 + (*p - '0');
      }
    }
    int longs = 0, shorts = 0;
    bool size_t_arg = false;
    for (; *p == 'l' || *p == 'h' || *p == 'z'; ++p) {
      if (*p == 'l') ++longs;
      if (*p == 'h') ++shorts;
      if (*p == 'z') size_t_arg = true;
    }
    std::string field, sign;
    bool numeric = true;
    switch (*p) {
      case '%':
        out += '%';
        continue;
      case 'd':
      case 'i': {
        long long v = longs >= 2   ? va_arg(args, long long)
                      : longs == 1 ? va_arg(args, long)
                      : size_t_arg ? static_cast<long long>(va_arg(args, std::ptrdiff_t))
                                   : va_arg(args, int);
        if (shorts == 2) v = static_cast<signed char>(v);
        if (shorts == 1) v = static_cast<short>(v);
        if (v < 0) sign = "-";
        const unsigned long long magnitude =
            v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
        field = precision == 0 && magnitude == 0 ? "" : in_base(magnitude, 10, false);
        break;
      }
      case 'u':
      case 'x':
      case 'X': {
        unsigned long long v = longs >= 2   ? va_arg(args, unsigned long long)
                               : longs == 1 ? va_arg(args, unsigned long)
                               : size_t_arg ? va_arg(args, std::size_t)
                                            : va_arg(args, unsigned);
        if (shorts == 2) v = static_cast<unsigned char>(v);
        if (shorts == 1) v = static_cast<unsigned short>(v);
        field = precision == 0 && v == 0 ? "" : in_base(v, *p == 'u' ? 10 : 16, *p == 'X');
        break;
      }
      case 'g': {
        const double v = va_arg(args, double);
        field = speccalc::format_general(v, precision < 0 ? 6 : precision);
        if (field[0] == '-') {
          sign = "-";
          field.erase(0, 1);
        }
        numeric = field != "inf" && field != "nan";
        precision = -1;  // a %g's precision counts significant digits, not a minimum length
        break;
      }
      case 'c':
        field = std::string(1, static_cast<char>(va_arg(args, int)));
        numeric = false;
        break;
      case 's': {
        const char* s = va_arg(args, const char*);
        field = precision < 0 ? std::string(s)
                              : std::string(s, strnlen(s, static_cast<std::size_t>(precision)));
        numeric = false;
        precision = -1;
        break;
      }
      default:
        if (size > 0) buf[0] = '\0';
        return -1;
    }
    // A precision on an integer is its least number of digits.
    if (precision > static_cast<int>(field.size()))
      field.insert(0, static_cast<std::size_t>(precision) - field.size(), '0');
    const int pad = width - static_cast<int>(sign.size() + field.size());
    if (pad > 0 && left) {
      field += std::string(static_cast<std::size_t>(pad), ' ');
    } else if (pad > 0 && zero && numeric && precision < 0) {
      field.insert(0, static_cast<std::size_t>(pad), '0');
    } else if (pad > 0) {
      sign.insert(0, static_cast<std::size_t>(pad), ' ');
    }
    out += sign + field;
  }
  if (size > 0) {
    const std::size_t n = out.size() < size - 1 ? out.size() : size - 1;
    std::memcpy(buf, out.data(), n);
    buf[n] = '\0';
  }
  return static_cast<int>(out.size());
}

// What the module's snprintf calls run (natively an ordinary function the tests call).
extern "C" int __wrap_snprintf(char* buf, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = speccalc_vsnprintf_subset(buf, size, format, args);
  va_end(args);
  return n;
}
