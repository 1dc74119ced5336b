// llama.cpp's variable draft length. Its draft loop (ggml-org/llama.cpp common/speculative.cpp,
// common_speculative_impl_draft_simple::draft) runs the draft on the last accepted token, then
// per position samples the draft's top candidate and stops before taking it when its
// probability is below --draft-p-min; otherwise it keeps it and, until --draft-max tokens are
// kept, runs the draft on it for the next position. A draft shorter than --draft-min is thrown
// away and the target decodes one token as without speculation.
//
// What the stored data does not give (the draft's confidence per position) is an assumption,
// stated in kConfidenceModel: the draft is calibrated (a kept token with confidence p is
// accepted with probability p), a share w of positions is certain (p = 1) and the rest spread
// uniformly over [0, h], with w and h the least-committal pair giving the position's mean
// acceptance a: w = 2a - 1, h = 1 for a >= 1/2; w = 0, h = 2a below. At draft_p_min = 0 it
// reduces to the fixed chain exactly (every position kept, accepted with probability a).
#pragma once

#include <cstdint>
#include <vector>

namespace speccalc {

extern const char* const kConfidenceModel;

struct DraftLengths {
  // Index n = 0..k (k = --draft-max): the probability that n tokens are kept, the expected
  // accepted tokens given n kept (0 when the draft is thrown away), the draft passes run
  // (the seed pass plus one per kept token, the last kept one not run when n = k), and whether
  // the cycle verifies (n >= max(1, draft_min)) or decodes one token plainly.
  std::vector<double> prob, accepted;
  std::vector<int64_t> draft_passes;
  std::vector<bool> verifies;
  double tau = 1;              // tokens per cycle per sequence, bonus included
  double expected_kept = 0;    // drafted tokens kept per cycle
  double expected_passes = 0;  // draft passes per cycle
  double plain_share = 0;      // cycles that verify nothing (too short a draft)
};

// `position_acceptance[i]` = mean acceptance of draft position i + 1 (k entries).
DraftLengths draft_lengths(const std::vector<double>& position_acceptance, double p_min,
                           int64_t draft_min);

// Per-position acceptance of a chain of k that yields `tau` tokens per cycle at one alpha for
// every position (bisection: tau is increasing in alpha), for a tau given without rates.
double chain_alpha_for_tau(double tau, int64_t k);

}  // namespace speccalc
