#include "config/early_exit_alpha.hpp"

#include <algorithm>

#include "config/draft_size_alpha.hpp"

namespace speccalc {

EarlyExitAlpha early_exit_alpha(const ModelArch& target, int64_t exit_layer) {
  EarlyExitAlpha e;
  const double layers = static_cast<double>(std::max<int64_t>(1, target.num_layers));
  const double share = static_cast<double>(exit_layer) / layers;
  e.alpha = share;
  // The exit's weights: the embedding and LM head it reads whole, and its share of the rest
  // (layers, norms; a MoE model's experts counted once, as the draft-size line counts drafts).
  const ParamCounts p = count_params(target);
  const double total = static_cast<double>(p.total);
  const double outer = static_cast<double>(p.embedding + p.lm_head);
  if (total > 0) {
    e.param_share = (outer + share * (total - outer)) / total;
    const DraftSizeAlpha line = draft_size_alpha(e.param_share);
    e.line_clamped = line.clamped;
    e.high = std::max(e.alpha, line.alpha);
  } else {
    e.high = e.alpha;
  }
  e.low = 0;
  return e;
}

}  // namespace speccalc
