// The default per-token acceptance of a draft model for which no published tau exists, from its
// size against the target's (issue 19 item 6: a 68M and a 1B draft of one target no longer get
// the same default). The only stored measurements of acceptance against draft size are
// Leviathan, Kalman and Matias (arXiv 2211.17192) Table 3, in shared/data/published-results.json:
// alpha of 10 greedy (target, draft model) pairs. Their least-squares line, alpha against
// log10(draft parameters / target parameters), is the default; its residuals and a check on
// the Vicuna-68M rows bound how far it may be off.
#pragma once

#include <string>

namespace speccalc {

struct DraftSizeAlpha {
  double alpha = 0;      // the line at this size ratio (the ratio held inside the fitted range)
  double low = 0;        // alpha minus the largest miss below (the Vicuna-68M check, 0.16)
  double high = 0;       // alpha plus the largest residual above (0.085)
  double ratio = 0;      // draft / target total parameters as given
  bool clamped = false;  // the ratio lay outside the fitted range and its end value was used
};

// ratio = draft total parameters / target total parameters (> 0).
DraftSizeAlpha draft_size_alpha(double ratio);

// Where the numbers come from, in a sentence for the assumptions list.
std::string draft_size_alpha_source();

}  // namespace speccalc
