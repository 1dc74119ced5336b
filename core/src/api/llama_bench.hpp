// Reads llama-bench output as users paste it: its markdown table (the default `-o md`) or its
// JSON (`-o json`). Each row is a plain forward measurement: `pp n` one forward of n prompt
// tokens, `tg n` n decode steps of one token (context growing from 0 to n), optionally at a
// depth `@ d` of cached tokens (pp512@d4096, or n_depth in JSON).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

struct BenchRow {
  bool generation = false;  // tg (decode steps) rather than pp (one forward)
  int64_t tokens = 0;       // n of pp n / tg n
  int64_t depth = 0;        // cached tokens before the test (@d)
  double tokens_per_s = 0;  // the mean t/s llama-bench reports
  std::string quant;        // the model column's quantization name ("Q4_K_M"), "" when absent
  std::string label;        // the row as written, for messages ("pp 4")
};

// At most kMaxBenchRows rows; every error names the line (or JSON entry) and the reason.
constexpr std::size_t kMaxBenchRows = 64;
Expected<std::vector<BenchRow>> parse_llama_bench(const std::string& text);

// mlx_lm.generate's summary as users paste it, one or more runs:
//   Prompt: 512 tokens, 1234.5 tokens-per-sec
//   Generation: 128 tokens, 45.6 tokens-per-sec
// A prompt line is one forward of its tokens (mlx_lm prefills in steps of 2048 tokens; longer
// prompts are refused); a generation line is that many decode steps after the prompt (depth =
// the prompt's tokens). Errors name the field "mlx_lm" and the line.
Expected<std::vector<BenchRow>> parse_mlx_lm(const std::string& text);

}  // namespace speccalc
