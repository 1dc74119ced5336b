// libFuzzer target: the tree commands. The first byte picks the command; the rest is its input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kCommands[] = {"tree-expect", "tree-optimize", "tree-preset",
                                          "tree-calibrate", "convert"};
  if (size < 1) return 0;
  const char* command = kCommands[data[0] % 5];
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  speccalc_fuzz::checked_run(command, input);
  return 0;
}
