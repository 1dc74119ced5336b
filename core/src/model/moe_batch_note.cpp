#include "model/moe_batch_note.hpp"

namespace speccalc {

bool moe_batch_note_applies(const Config& c) {
  return c.target.experts > 1 && c.method.family != Family::ar;
}

const char* moe_batch_note() {
  return "MoE target: a pass reads the experts its tokens touch. A verify of k + 1 tokens "
         "per sequence touches more experts than a decode step (its tokens share experts "
         "only at the rate Mixtral's routing measured: a token repeats the previous one's "
         "experts 12 % of the time beyond chance); the gap is largest at middle batches, "
         "where decoding reads a fraction of the experts and verifying many more, and small "
         "at batch 1 (a few experts either way) and at large batches (nearly all experts "
         "either way), so the speedup can dip and rise again with batch. Router skew (some "
         "experts far busier than others) is not modeled";
}

}  // namespace speccalc
