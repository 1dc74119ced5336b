// Memory is a hard limit: what one GPU must hold (weights, draft, KV cache for every sequence
// over context + tokens in flight, activation and logits workspace) against what the engine
// may use (capacity x memory_utilization), and what would fit instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/method_cost.hpp"
#include "speccalc/config.hpp"

namespace speccalc {

struct MemoryReport {
  double capacity_gb = 0;  // per GPU (1e9 bytes)
  double usable_gb = 0;    // capacity x memory_utilization
  double utilization = 0;
  double weights_gb = 0;        // target weights per GPU
  double draft_weights_gb = 0;  // draft weights on the GPU that runs the draft
  double kv_cache_gb = 0;       // target + draft KV at this batch and context, per GPU
  double activations_gb = 0;    // activation + logits workspace of the widest pass
  double total_gb = 0;
  bool fits = true;
  int64_t max_batch = 0;                 // largest batch that fits at this context (0: none)
  int64_t max_context = 0;               // longest context that fits at this batch (0: none)
  std::vector<std::string> suggestions;  // what would fit, in plain words
  // The widest weight format narrower than the config's that its engine runs and with which
  // this setup fits (KV cache as set); "" when it fits already or none does.
  std::string fits_with_weights;
  // The same for the KV cache (weights as set).
  std::string fits_with_kv;
};

// Formats narrower than the config's weights (kv false) or KV cache (kv true) that c's engine
// runs, widest first (ties in the dtype table's order): fp8 only on a GPU with fp8 tensor cores
// and nvfp4 / mxfp4 only where the GPU runs them natively (as the fp8 suggestion always did: a
// format a card emulates is no way to make a setup fit that anyone would take); MXFP4 GGUFs
// only for a model released in it.
std::vector<DType> narrower_formats(const Config& c, bool kv);

// A narrower format with which the setup fits, and the setup's memory need in it (for weights:
// target and draft in that format; for the KV cache: both caches; everything else as
// configured).
struct NarrowerFormat {
  DType dtype = DType::fp16;
  MemoryNeed need;
};

// What fits instead, each found by evaluating the setup's memory need in that format (the cost
// plan tries them): a narrower weight format alone, a narrower KV cache alone, and whether fp8
// weights with an fp8 cache fit where neither alone does. memory_report says so.
struct FitsWith {
  std::optional<NarrowerFormat> weights, kv;
  bool fp8_weights_and_kv = false;
};

MemoryReport memory_report(const Config& c, const MemoryNeed& need,
                           const FitsWith* fits_with = nullptr);

}  // namespace speccalc
