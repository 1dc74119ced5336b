// libFuzzer target: the page's other requests, each a config plus something a user typed or
// pasted: carry (an edit of the setup), load and bounds (serving under load), families,
// eval-tree, fit-measured (pasted vLLM / SGLang logs and `vllm bench serve` summaries) and
// calibrate (pasted llama-bench tables, mlx_lm output, measured steps). The first byte picks the
// command; the rest is its input.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kCommands[] = {"carry",     "load",         "bounds",    "families",
                                          "eval-tree", "fit-measured", "calibrate", "calibrate"};
  speccalc_fuzz::run_picked(kCommands, data, size);
  return 0;
}
