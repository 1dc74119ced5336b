// libFuzzer target: requests that wrap a config (sweep, size, export), the tables query and
// the engine-settings import (pasted command lines). The first byte picks the command; the rest
// is its input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const char* const kCommands[] = {"tables", "size",  "export", "sweep",
                                          "sweep",  "sweep", "sweep",  "import-engine"};
  const char* command = kCommands[data[0] % 8];
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  speccalc_fuzz::checked_run(command, input);
  return 0;
}
