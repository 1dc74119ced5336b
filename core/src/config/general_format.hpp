// printf's "%.*g" without the C library: the core's one way of printing a number to a few
// significant digits (fields::format_significant), and what the WASM build's snprintf runs.
//
// Why not snprintf: in WebAssembly it is musl's printf_core and fmt_fp, 7 KB of the page's
// first download for a handful of "%.3g" calls; and the digits must be the same natively and in
// WASM (parity), which exact arithmetic gives by construction.
#pragma once

#include <string>

namespace speccalc {

// `v` to `precision` significant digits (0 is read as 1, as printf does), correctly rounded
// (ties to even on the exact binary value), in printf's %g layout: fixed notation when the
// rounded decimal exponent X satisfies -4 <= X < precision, else d.ddde+XX; trailing zeros and
// a bare decimal point removed; "inf", "-inf", "nan", "-nan" as glibc and musl print them.
// Byte for byte what glibc's snprintf(buf, n, "%.*g", precision, v) gives (a test compares).
std::string format_general(double v, int precision);

// printf's "%.*f": v with `decimals` digits after the point, correctly rounded (ties to even on
// the exact binary value); byte for byte glibc's snprintf(buf, n, "%.*f", decimals, v).
std::string format_fixed(double v, int decimals);

// The fewest %g digits (1 to 17) that read back as exactly v: "5.0000001" where %f's six
// decimals printed "5.000000" for it and for 5 alike.
std::string format_shortest(double v);

}  // namespace speccalc
