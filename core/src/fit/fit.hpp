// Fitting runtime profiles to measurements: the observations (published speedups with their
// tau, measured step times of engines), a fast predictor over precomputed work, and a
// deterministic Nelder-Mead search. Used by `fit` (writes runtimes.json's params), `validate`
// (leave-one-source-out cross-validation) and `calibrate` (a user's own measurements).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/method_cost.hpp"
#include "speccalc/config.hpp"
#include "speccalc/runtime.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// One pass shape with its work reduced to seconds at 100% efficiency, so that time under any
// parameter set is a handful of divisions (the fit evaluates thousands of parameter sets).
struct FastPass {
  // Per kernel class (Kernel order): seconds at 100% of peak bandwidth / FLOP/s.
  std::array<double, kKernelKinds> weights_s{};  // weight bytes / (peak bandwidth x dtype factor)
  // Of weights_s, the routed experts' (streamed at moe_bw_efficiency where set; 0 when the
  // weights arrive over the host link, which streams them like the rest).
  std::array<double, kKernelKinds> expert_weights_s{};
  std::array<double, kKernelKinds> kv_s{};     // KV bytes / peak bandwidth
  std::array<double, kKernelKinds> act_s{};    // activation bytes / peak bandwidth
  std::array<double, kKernelKinds> score_s{};  // score elements / peak bandwidth (x bytes each)
  std::array<double, kKernelKinds> flops_s{};  // FLOPs / peak FLOP/s
  std::array<double, kKernelKinds> rows{};     // matmul rows (kernel regimes of local engines)
  double comm_bytes_s = 0;         // all-reduce payload time on the link, summed over the pass
  double allreduces = 0;           // all-reduce count (each pays allreduce_latency_s)
  double network_collectives = 0;  // of them, those across nodes (kInterNodeCollectiveLatencyS)
  double layers = 0;
  double arch_kernels = 0;   // Work::arch_kernels
  double quant_kernels = 0;  // act_quant_kernels(): Work::quant_linears where they run
  double moe_layers = 0;     // Work::moe_layers
  double moe_slice_k = 0;    // Work::moe_slice_k
  double passes = 1;
};

struct Observation {
  std::string id, source, profile, kind,
      cite;  // kind: speedup | speedup_range | decode_step | spec_cycle | forward | matmul |
             // draft_pass_ratio (one draft forward, its host step included, over the verify pass) |
             // serving_tpot (check only: a serving benchmark's mean time per output token with
             // config.load.concurrency requests in flight, their prefills inside it)
  double measured = 0;
  // Checks the fits never see (engine-measurements.json `check_only`): rows kept to validate a
  // profile or a family, and ranges (kind speedup_range: the source gives low..high only).
  bool check_only = false;
  double measured_low = 0, measured_high = 0;
  double tau = 1;
  int64_t forward_tokens = 0;  // kind forward: prompt tokens; kind matmul: the matmul's rows
  // kind matmul (one quantized matrix multiply timed on its own, e.g. MLX's quantized_matmul;
  // measured = its time as a multiple of the one-row multiply's): input width k, output width
  // n and the weight format's bits per weight (scales included).
  double matmul_k = 0, matmul_n = 0, matmul_weight_bits = 0;
  Config config;
  // Precomputed for the fast path.
  FastPass baseline, verify;
  std::vector<FastPass> draft;
  bool has_verify = false, tree = false, draft_fitted = false;
  double host_s = 0;
  int64_t eagle3_steps = 0;         // EAGLE-3 draft forwards per cycle
  int64_t draft_model_steps = 0;    // draft-model (SpS) forwards per cycle
  bool gpu_proposer = false;        // proposer_cycle_s applies
  HostOps host_ops;                 // the method's own host work per cycle
  HostOps baseline_host_ops;        // the decoding loop's per token (none for a single forward)
  double baseline_layer_syncs = 0;  // the source's baseline (runtime.baseline_layer_syncs)
  // The source names the GPU the row ran on (false: the hardware is assumed). Counted in the
  // fit's report; fitting GPU parameters on these rows only was measured and is worse held
  // out (docs/cost-model.md, Fit).
  bool hardware_stated = true;
  // When the stack was measured (ISO date, from the cite; "" = not dated): a check on an
  // engine speaks for the engine as it was then (fidelity prefers the newest).
  std::string measured_on;
};

// An observation of `seed.kind` for the config `doc` (precomputes its work).
Expected<Observation> make_observation(const nlohmann::json& doc, const Catalog& catalog,
                                       Observation seed, int64_t tokens);

// The observations every profile is fitted on: published rows `validate` predicts (hf-eager)
// and core/data/engine-measurements.json (engines).
// `published_json`: the published table text (speccalc::Data::published).
Expected<std::vector<Observation>> load_observations(const Catalog& catalog,
                                                     std::string_view published_json);

// Prediction of o with target params p (and p for drafts on the fitted stack).
double predict_fast(const Observation& o, const RuntimeParams& p);
// The same through the full cost model (evaluate), with p as the profile's parameters.
Expected<double> predict_full(const Observation& o, const RuntimeParams& p);

// What each profile fits, what it ties, and whose values it starts from.
struct FitSpec {
  std::string profile;
  std::vector<std::string> params;                        // fitted
  std::vector<std::pair<std::string, std::string>> tied;  // (param, equals param)
  std::string priors_from;  // profile whose fitted values the rest copy ("" = own)
  bool times_only = false;  // fit on step times only; speedup rows stay held out
  // (kind, param): rows of that kind fit that one parameter alone, after the main fit and with
  // its values held; the main fit does not see them.
  std::vector<std::pair<std::string, std::string>> own_kind_params = {};
};
const std::vector<FitSpec>& fit_specs();
RuntimeParams neutral_start();
// Where a fit of `spec` starts: neutral_start() for the parameters it fits or ties, `others`
// (the profile's table, or the fitted profile it takes priors from) for the rest.
RuntimeParams fit_start(const FitSpec& spec, const RuntimeParams& others);
// Copies the engine's own counted constants (kernels per layer and per pass, kernel-regime
// row counts) from `own` into *p: they describe the engine's code, never another profile's.
void keep_structural_constants(const RuntimeParams& own, RuntimeParams* p);

struct FitResult {
  RuntimeParams params;
  double objective = 0;  // mean over kinds (speedup, time) of the mean relative error
  int evaluations = 0;
  int observations = 0;
  int stated_hardware_observations = 0;  // rows whose source names the GPU
  std::vector<std::string> at_bound;     // fitted parameters that ended at a bound
};

// Whether a fitted value sits at (within 1 % of) an end of its allowed range.
bool param_at_bound(const std::string& name, double value);

// Fits spec.profile on the observations of that profile, leaving out `exclude_source` (if
// set), from `start`.
FitResult fit_profile(const FitSpec& spec, const std::vector<Observation>& obs,
                      const RuntimeParams& start, const std::string& exclude_source = "");

// Nelder-Mead over x (deterministic; no libm): minimizes f, returns the best point.
std::vector<double> nelder_mead(const std::vector<double>& x0, const std::vector<double>& step,
                                double (*f)(const std::vector<double>&, const void*),
                                const void* ctx, int max_evals, int* evals);

}  // namespace speccalc
