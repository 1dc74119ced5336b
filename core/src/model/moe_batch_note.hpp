// Why a speculative MoE target's speedup is not monotone in batch: said wherever a result
// spans batches (sweep over batch, sizing's schedule by batch), in one wording.
#pragma once

#include "speccalc/config.hpp"

namespace speccalc {

// True for a speculative method on a mixture-of-experts target.
bool moe_batch_note_applies(const Config& c);

// The note itself (routing locality from Mixtral's measured repeat rate; no router skew).
const char* moe_batch_note();

}  // namespace speccalc
