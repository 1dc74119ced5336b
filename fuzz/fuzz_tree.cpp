// libFuzzer target: the tree commands. The first byte picks the command; the rest is its input.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kCommands[] = {"tree-expect", "tree-optimize", "tree-preset",
                                          "tree-calibrate", "convert"};
  speccalc_fuzz::run_picked(kCommands, data, size);
  return 0;
}
