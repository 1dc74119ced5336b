// Shared oracle for the libFuzzer targets: besides "no crash, no sanitizer report", every
// response must be well formed. A violation calls abort() so libFuzzer saves the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "speccalc/api.hpp"

namespace speccalc_fuzz {

[[noreturn]] inline void fail(const char* command, const char* why, const std::string& detail) {
  std::fprintf(stderr, "fuzz oracle (%s): %s\n%.2000s\n", command, why, detail.c_str());
  std::abort();
}

// Ok: output non-empty, no non-finite number spelled out. Error: a reason is given, it is one
// line, and it is not the core's own "internal error" guard.
inline speccalc::Response checked_run(const char* command, const std::string& input) {
  speccalc::Response r = speccalc::run(command, input);
  if (r.ok) {
    if (r.output.empty()) fail(command, "ok with empty output", input);
    if (!r.error.message.empty()) fail(command, "ok with an error message", input);
  } else {
    if (r.error.message.empty()) fail(command, "error without a message", input);
    // Only the guard's own message starts this way (untrusted text is quoted later on).
    if (r.error.message.rfind("internal error: ", 0) == 0)
      fail(command, "internal error", r.error.describe());
    if (!r.output.empty()) fail(command, "error with output", input);
  }
  return r;
}

// The targets that drive several commands: the first byte picks one of `commands` (its value
// modulo N), the rest of the input is that command's input.
template <std::size_t N>
inline void run_picked(const char* const (&commands)[N], const uint8_t* data, size_t size) {
  if (size < 1) return;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  checked_run(commands[data[0] % N], input);
}

}  // namespace speccalc_fuzz
