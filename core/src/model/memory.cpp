#include "model/memory.hpp"

#include <algorithm>
#include <cmath>

#include "config/json_fields.hpp"

namespace speccalc {

namespace {

// Bytes per GPU at batch b and context l.
double bytes_at(const MemoryNeed& n, double b, double l) {
  return n.target_weights_bytes + n.draft_weights_bytes +
         b * (n.kv_bytes_per_seq(l) + n.activations_bytes_per_seq + n.state_bytes_per_seq);
}

// The longest context whose KV cache fits in kv_room_per_seq bytes per sequence (-1: not even
// the tokens in flight). The KV grows with the context, piecewise linearly (sliding-window
// layers stop growing at their window), so the largest fitting integer is found by bisection;
// when nothing grows past some context, every context up to the cap fits.
double max_context_for(const MemoryNeed& n, double kv_room_per_seq) {
  const double cap = static_cast<double>(ConfigLimits::kMaxContext);
  if (n.kv_bytes_per_seq(0) > kv_room_per_seq) return -1;
  if (n.kv_bytes_per_seq(cap) <= kv_room_per_seq) return cap;
  double lo = 0, hi = cap;  // fits at lo, not at hi
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (n.kv_bytes_per_seq(mid) <= kv_room_per_seq ? lo : hi) = mid;
  }
  return lo;
}

// The KV cache of B sequences at context L, per GPU (the linear-attention state included: it is
// the cache of those layers).
double kv_cache_bytes(const MemoryNeed& n, double B, double L) {
  return B * (L + static_cast<double>(n.tokens_in_flight)) * n.kv_bytes_per_seq_token +
         B * n.kv_window_bytes_per_seq(L) + B * n.state_bytes_per_seq;
}

std::string gb(double bytes) { return fields::format_number(std::round(bytes / 1e8) / 10) + " GB"; }

// Whether the config check would take g GPUs: attention groups of g / data_attention GPUs whose
// tensor parallelism splits the target's heads (and the draft's, when the draft's degree follows
// the target's by the engine's default), as check_setup and check_draft_placement ask.
bool runs_on(const Config& c, int64_t g) {
  if (!c.engine.tensor_parallel) return true;
  if (g % c.data_attention != 0) return false;
  const int64_t attn_tp = g / c.data_attention;
  if (!tp_splits_query_heads(c.target, attn_tp) || !tp_splits_kv_heads(c.target, attn_tp))
    return false;
  const bool draft_follows =
      !c.method.draft_tensor_parallel_given && c.engine.draft_tp_follows_target;
  const ModelArch& d = c.method.family == Family::sps ? c.method.draft_model : c.target;
  return !draft_follows || tp_splits_query_heads(d, attn_tp);
}

// Smallest GPU count whose share of the target's weights (plus the draft) fits, among counts
// the config check takes; 0 when even 64 GPUs are not enough (tensor parallelism beyond that
// is not suggested: its all-reduces would cross many nodes).
int64_t gpus_for_weights(const Config& c, const MemoryNeed& n, double usable_bytes) {
  constexpr int64_t kMaxSuggestedTp = 64;
  const double all_weights = n.target_weights_bytes * static_cast<double>(c.gpus);
  for (int64_t g = c.gpus + 1; g <= kMaxSuggestedTp; ++g) {
    if (!runs_on(c, g)) continue;
    if (all_weights / static_cast<double>(g) + n.draft_weights_bytes < usable_bytes) return g;
  }
  return 0;
}

}  // namespace

std::vector<DType> narrower_formats(const Config& c, bool kv) {
  const double bytes_now = dtype_bytes(kv ? c.dtype.kv : c.dtype.weights);
  const std::string& formats = c.engine.weight_formats;
  constexpr int kFormats = static_cast<int>(DType::mlx_8bit) + 1;
  DType widest_first[kFormats];
  int n = 0;
  for (int i = 0; i < kFormats; ++i) {
    const DType d = static_cast<DType>(i);
    const bool runs = kv ? engine_runs_kv(formats, d) : engine_runs_weights(formats, d);
    if (!runs || dtype_bytes(d) >= bytes_now) continue;
    if (d == DType::fp8 && c.hardware.fp8_tflops <= 0) continue;
    if (d == DType::nvfp4 && !(c.hardware.nvfp4 && c.hardware.fp4_tflops > 0)) continue;
    if (d == DType::mxfp4 && (formats == "gguf" ? c.target.released_weights_dtype != "mxfp4"
                                                : !(c.hardware.mxfp4 && c.hardware.fp4_tflops > 0)))
      continue;
    // Insertion that keeps the table's order among equal widths.
    int at = n++;
    for (; at > 0 && dtype_bytes(widest_first[at - 1]) < dtype_bytes(d); --at)
      widest_first[at] = widest_first[at - 1];
    widest_first[at] = d;
  }
  return std::vector<DType>(widest_first, widest_first + n);
}

MemoryReport memory_report(const Config& c, const MemoryNeed& n, const FitsWith* fits_with) {
  MemoryReport r;
  // Sequences one GPU caches: the whole batch, or its attention group's share of it.
  const int64_t groups = std::max<int64_t>(1, n.attention_groups);
  const double B = static_cast<double>((c.batch + groups - 1) / groups);
  const double L = static_cast<double>(c.context);
  r.capacity_gb = c.hardware.mem_gb;
  // Unified memory: the OS caps what the GPU may wire (Metal's working-set limit), and the
  // engine's own fraction cannot go above it.
  const bool capped =
      c.hardware.unified_memory && c.hardware.usable_memory_fraction < c.memory_utilization;
  r.utilization = capped ? c.hardware.usable_memory_fraction : c.memory_utilization;
  const double usable = c.hardware.mem_gb * 1e9 * r.utilization;
  r.usable_gb = usable / 1e9;
  r.weights_gb = n.target_weights_bytes / 1e9;
  r.draft_weights_gb = n.draft_weights_bytes / 1e9;
  // The linear-attention state is the cache of those layers: reported with the KV cache.
  r.kv_cache_gb = kv_cache_bytes(n, B, L) / 1e9;
  r.activations_gb = B * n.activations_bytes_per_seq / 1e9;
  const double total = bytes_at(n, B, L);
  r.total_gb = total / 1e9;
  r.fits = total <= usable;

  const double fixed = n.target_weights_bytes + n.draft_weights_bytes;
  const double per_seq =
      n.kv_bytes_per_seq(L) + n.activations_bytes_per_seq + n.state_bytes_per_seq;
  if (fixed < usable && per_seq > 0) {
    const double b = std::floor((usable - fixed) / per_seq) * static_cast<double>(groups);
    r.max_batch = static_cast<int64_t>(std::min<double>(b, ConfigLimits::kMaxBatch));
  }
  const double kv_room =
      usable - fixed - B * n.activations_bytes_per_seq - B * n.state_bytes_per_seq;
  if (kv_room > 0 && n.kv_windows[0].tokens > 0) {
    r.max_context = static_cast<int64_t>(std::max(0.0, max_context_for(n, kv_room / B)));
  } else if (kv_room > 0 && n.kv_bytes_per_seq_token > 0) {
    const double l = std::floor(kv_room / (B * n.kv_bytes_per_seq_token)) -
                     static_cast<double>(n.tokens_in_flight);
    r.max_context =
        static_cast<int64_t>(std::max(0.0, std::min<double>(l, ConfigLimits::kMaxContext)));
  }
  // Never past what the model (or an SpS draft) is configured for: eval refuses that.
  for (const ModelArch* m :
       {&c.target, c.method.family == Family::sps ? &c.method.draft_model : nullptr})
    if (m && m->max_position_embeddings > 0)
      r.max_context = std::min<int64_t>(r.max_context, m->max_position_embeddings - 1);
  if (r.fits) return r;

  const std::string pct = fields::format_number(c.memory_utilization * 100) + "%";
  const std::string need =
      gb(total) + " per " + device_noun(c.hardware) + " needed, " + gb(usable) + " usable" +
      (c.hardware.unified_memory
           ? " of " + fields::format_number(c.hardware.mem_gb) +
                 " GB unified memory (the GPU may use " +
                 std::to_string(std::lround(c.hardware.usable_memory_fraction * 100)) +
                 "%: Metal's working-set limit" +
                 (capped ? "" : "; memory_utilization " + pct + " is lower") + ")"
           : " (" + pct + " of " + fields::format_number(c.hardware.mem_gb) + " GB)");
  if (fixed >= usable) {
    r.suggestions.push_back("The weights alone (" + gb(fixed) + " per " + device_noun(c.hardware) +
                            ") do not fit: " + need + ".");
  } else {
    r.suggestions.push_back("Does not fit: " + need + ".");
    if (r.max_batch >= 1)
      r.suggestions.push_back("Fits at batch " + std::to_string(r.max_batch) +
                              " or less at this context.");
    if (r.max_context >= 1)
      r.suggestions.push_back("Fits at context " + std::to_string(r.max_context) +
                              " or less at this batch.");
  }
  // More GPUs only where more can be had: not on a CPU, a Mac's unified memory, or an engine
  // that runs on one device (MLX).
  const bool more_gpus =
      device_noun(c.hardware) == "GPU" && !c.hardware.unified_memory && !c.engine.single_device;
  if (const int64_t g = more_gpus ? gpus_for_weights(c, n, usable) : 0; g > 0 && fixed >= usable)
    r.suggestions.push_back("The weights fit on " + std::to_string(g) + " GPUs (" +
                            (c.engine.tensor_parallel ? "tensor parallel" : "layers split") +
                            ") or more.");
  else if (!more_gpus && fixed >= usable)
    r.suggestions.push_back(
        "A smaller model, fewer bits per weight or a machine with more memory (" +
        (c.engine.single_device      ? c.engine.name + " runs on one device"
         : c.hardware.unified_memory ? std::string("unified memory is one pool: no GPU to add")
                                     : std::string("a CPU has no GPUs to add")) +
        ").");
  // Fewer bits a weight or a cached value: the widest format the engine runs that fits alone.
  if (fits_with && fits_with->weights) {
    const NarrowerFormat& w = *fits_with->weights;
    r.fits_with_weights = dtype_name(w.dtype);
    r.suggestions.push_back("With " + r.fits_with_weights + " weights (" +
                            fields::format_significant(dtype_bytes(w.dtype) * 8) +
                            " bits a weight, target and draft) it fits: " +
                            gb(w.need.target_weights_bytes + w.need.draft_weights_bytes) +
                            " of weights, " + gb(bytes_at(w.need, B, L)) + " in all per " +
                            device_noun(c.hardware) + ".");
  }
  if (fits_with && fits_with->kv) {
    const NarrowerFormat& kv = *fits_with->kv;
    r.fits_with_kv = dtype_name(kv.dtype);
    r.suggestions.push_back("With the KV cache in " + r.fits_with_kv + " (" +
                            fields::format_significant(dtype_bytes(kv.dtype) * 8) +
                            " bits a value) it fits: " + gb(kv_cache_bytes(kv.need, B, L)) +
                            " of KV cache, " + gb(bytes_at(kv.need, B, L)) + " in all per " +
                            device_noun(c.hardware) + ".");
  }
  if (fits_with && fits_with->fp8_weights_and_kv)
    r.suggestions.push_back("fp8 weights and KV cache would fit.");
  return r;
}

}  // namespace speccalc
