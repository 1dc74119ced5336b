// libFuzzer target: requests that wrap a config (sweep, size, export), the tables query and
// the engine-settings import (pasted command lines). The first byte picks the command; the rest
// is its input.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kCommands[] = {"tables", "size",  "export", "sweep",
                                          "sweep",  "sweep", "sweep",  "import-engine"};
  speccalc_fuzz::run_picked(kCommands, data, size);
  return 0;
}
