// nlohmann's number formatting and serializer, compiled once: in api/json_write.cpp, which the
// WASM build optimizes for speed (-O3). The WASM build includes this header into every core
// file (wasm/CMakeLists.txt), so the files it optimizes for size (-Os) call that copy instead of
// instantiating their own: with LTO the linker keeps one copy of a template, and it was an -Os
// one (Grisu2's to_chars 152 -> 89 ns a number in a test program, -Os vs -O3). Natively every
// file is -O3 and the header changes nothing but where the code is instantiated.
#pragma once

#include <nlohmann/json.hpp>

extern template char* nlohmann::detail::to_chars<double>(char*, const char*, double);
extern template class nlohmann::detail::serializer<nlohmann::json>;
