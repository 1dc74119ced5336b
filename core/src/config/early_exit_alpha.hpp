// The default per-token acceptance of a self-speculative early exit (LayerSkip: the target's
// first exit_layer layers and its LM head draft) where no published tau exists for it (issue 19
// item 6: the exit layer moves the default; exiting at layer 4 of 40 was priced at the generic
// alpha 0.7, 2.06x, where an exit that deep drafts almost nothing a full pass keeps).
// No stored measurement covers early exits, so this is an assumption, said as one, with the
// band it may be off by:
//   alpha = exit_layer / num_layers: the share of the layers the draft runs, 0 with none, 1 at
//           the whole model (then the draft is the model and every token is kept); the least
//           informed monotone assumption between those two ends;
//   low   = 0: an exit never trained to predict the next token (a plain checkpoint read out
//           early) keeps almost none of its drafts;
//   high  = the draft-size line's alpha (config/draft_size_alpha.hpp) for a draft with the exit's
//           parameters (embedding, LM head and exit_layer / num_layers of the rest): a draft
//           trained at that size, as LayerSkip's recipe trains its exits; never below alpha.
#pragma once

#include <cstdint>

#include "speccalc/presets.hpp"

namespace speccalc {

struct EarlyExitAlpha {
  double alpha = 0;           // exit_layer / num_layers
  double low = 0;             // 0
  double high = 0;            // max(alpha, the draft-size line at param_share)
  double param_share = 0;     // the exit's parameters over the target's (total)
  bool line_clamped = false;  // param_share lay outside the line's fitted ratios
};

// exit_layer in [1, num_layers - 1] (method_parse.cpp checks it).
EarlyExitAlpha early_exit_alpha(const ModelArch& target, int64_t exit_layer);

}  // namespace speccalc
