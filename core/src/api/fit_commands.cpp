// `fit`: refits every runtime profile on the stored observations (what runtimes.json's params
// come from). `calibrate`: fits the chosen profile to a user's own measurements and returns a
// runtime object for the config and the share link.
#include <algorithm>
#include <map>

#include "api/commands.hpp"
#include "api/llama_bench.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "fit/fit.hpp"
#include "model/method_cost.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc {

using fields::json;

namespace {

json params_json(const RuntimeParams& p) {
  json j = json::object();
  for (const auto& [name, value] : shown_runtime_params(p)) j[name] = value;
  return j;
}

}  // namespace

// Every profile refitted in fit_specs() order; profiles with priors take the fitted values of
// the profile named there for every parameter they do not fit themselves.
Expected<std::vector<std::pair<FitSpec, FitResult>>> fit_all(const Catalog& catalog,
                                                             const std::vector<Observation>& obs) {
  std::vector<std::pair<FitSpec, FitResult>> out;
  std::map<std::string, RuntimeParams> fitted;
  for (const FitSpec& spec : fit_specs()) {
    const RuntimeProfile* profile = catalog.find_runtime(spec.profile);
    if (!profile) return make_error("", "internal error: no runtime profile " + spec.profile);
    // Parameters a profile neither fits nor ties keep its table's values, or the fitted values
    // of the profile it takes priors from.
    RuntimeParams start =
        fit_start(spec, spec.priors_from.empty() ? profile->params : fitted.at(spec.priors_from));
    keep_structural_constants(profile->params, &start);
    // A method path's own costs are that engine's code, not priors to copy: a profile that
    // does not fit them keeps its table's values (0 unless its own data fit them).
    for (const char* const* own = runtime_param_names(); *own; ++own)
      if (is_method_path_param(*own) &&
          std::find(spec.params.begin(), spec.params.end(), *own) == spec.params.end() &&
          std::none_of(spec.own_kind_params.begin(), spec.own_kind_params.end(),
                       [&](const auto& kp) { return kp.second == *own; }))
        *runtime_param(start, *own) = runtime_param_value(profile->params, *own);
    FitResult r = fit_profile(spec, obs, start);
    fitted[spec.profile] = r.params;
    out.emplace_back(spec, r);
  }
  return out;
}

namespace commands {

Response fit(const std::string&, std::string_view published_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto obs = load_observations(catalog.value(), published_json);
  if (!obs.ok()) return fail(obs.error());
  auto all = fit_all(catalog.value(), obs.value());
  if (!all.ok()) return fail(all.error());
  json profiles = json::array();
  for (const auto& [spec, r] : all.value()) {
    json tied = json::object();
    for (const auto& [a, b] : spec.tied) tied[a] = b;
    std::vector<std::string> fitted = spec.params;
    json alone = json::object();  // fitted alone on the rows of one kind, after the rest
    for (const auto& kp : spec.own_kind_params) {
      fitted.push_back(kp.second);
      alone[kp.second] = kp.first;
    }
    // In-sample error by source, for reading the fit (validate reports the held-out figures).
    std::map<std::string, std::pair<double, int>> by_source;
    for (const auto& o : obs.value()) {
      if (o.profile != spec.profile || o.check_only) continue;  // checks: validate's engines
      const double e = (predict_fast(o, r.params) - o.measured) / o.measured;
      auto& s = by_source[o.source + " (" + o.kind + ")"];
      s.first += e < 0 ? -e : e;
      s.second += 1;
    }
    json sources = json::object();
    for (const auto& [name, s] : by_source)
      sources[name] = json{{"rows", s.second}, {"mape_pct", 100.0 * s.first / s.second}};
    profiles.push_back(json{{"id", spec.profile},
                            {"in_sample_by_source", sources},
                            {"params", params_json(r.params)},
                            {"fitted", fitted},
                            {"fitted_alone", alone},
                            {"tied", tied},
                            {"priors_from", spec.priors_from},
                            {"observations", r.observations},
                            {"stated_hardware_observations", r.stated_hardware_observations},
                            {"at_bound", r.at_bound},
                            {"mean_relative_error_pct", 100.0 * r.objective},
                            {"evaluations", r.evaluations}});
  }
  return ok_json(json{
      {"definition",
       "Nelder-Mead minimizing the mean over kinds (speedup rows; step times) of the mean "
       "relative error; at_bound lists fitted parameters that ended at an end of their range "
       "(a structural term the data asks for and the model lacks); "
       "stated_hardware_observations counts rows whose source names the GPU; observations: "
       "published rows validate predicts (hf-eager) and core/data/engine-measurements.json"},
      {"profiles",
       profiles}}.dump());
}

namespace {

// The user's measurements as observations of the config's profile.
struct Calibration {
  const Catalog& catalog;
  const Config& config;
  json base;  // the config as given
  std::vector<Observation> observations;
  std::size_t decode_batches = 0;  // distinct batches among the decode steps
  bool spec = false;               // a speculative step was given
  // llama-bench rows by kernel regime: one row, matrix-vector rows (2..max), tile rows.
  bool bench_single = false, bench_matvec = false, bench_tiles = false;

  bool add(json doc, const std::string& kind, double measured, const std::string& id, Error* err,
           int64_t forward_tokens = 0) {
    Observation seed;
    seed.id = id;
    seed.source = "user";
    seed.profile = config.runtime.profile;
    seed.kind = kind;
    seed.measured = measured;
    auto o = make_observation(doc, catalog, seed, forward_tokens);
    if (!o.ok()) {
      *err = o.error();
      err->field = id + (err->field.empty() ? "" : " (" + err->field + ")");
      return false;
    }
    observations.push_back(std::move(o.value()));
    return true;
  }
};

// decode_steps: plain decoding's step time at 1..16 batches.
bool read_decode_steps(const json& req, Calibration* cal, Error* err) {
  if (!req.contains("decode_steps") || !req["decode_steps"].is_array() ||
      req["decode_steps"].empty() || req["decode_steps"].size() > 16) {
    *err = make_error("decode_steps", "must be a list of 1 to 16 measurements {batch, step_s}");
    return false;
  }
  const json& steps = req["decode_steps"];
  std::map<int64_t, bool> batches;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string p = "decode_steps[" + std::to_string(i) + "]";
    if (!steps[i].is_object() || !fields::check_keys(steps[i], p, {"batch", "step_s"}, err)) {
      if (err->message.empty()) *err = make_error(p, "must be {batch, step_s}");
      return false;
    }
    int64_t batch = 1;
    double step_s = 0;
    if (!fields::read_int(steps[i], "batch", p, 1, ConfigLimits::kMaxBatch, &batch, err))
      return false;
    if (!steps[i].contains("step_s")) {
      *err = make_error(p + ".step_s", "is required (seconds per decode step)");
      return false;
    }
    if (!fields::read_number(steps[i], "step_s", p, 1e-6, 100, &step_s, err)) return false;
    batches[batch] = true;
    json doc = cal->base;
    doc["batch"] = batch;
    doc["method"] = json{{"family", "ar"}};
    doc.erase("acceptance");
    if (!cal->add(doc, "decode_step", step_s, p, err)) return false;
  }
  cal->decode_batches = batches.size();
  return true;
}

// spec_step (optional): the configured method's measured TPOT at a measured tau.
bool read_spec_step(const json& req, Calibration* cal, Error* err) {
  if (!req.contains("spec_step")) return true;
  const json& s = req["spec_step"];
  const std::string p = "spec_step";
  if (!s.is_object() || !fields::check_keys(s, p, {"tpot_s", "tau"}, err)) {
    if (err->message.empty()) *err = make_error(p, "must be {tpot_s, tau}");
    return false;
  }
  if (cal->config.method.family == Family::ar) {
    *err = make_error("spec_step", "needs a speculative method in config.method");
    return false;
  }
  double tpot = 0, tau = 0;
  if (!s.contains("tpot_s") || !s.contains("tau")) {
    *err = make_error(p, "needs tpot_s (seconds per output token) and tau (tokens per cycle)");
    return false;
  }
  if (!fields::read_number(s, "tpot_s", p, 1e-6, 100, &tpot, err) ||
      !fields::read_number(s, "tau", p, 1, 1025, &tau, err))
    return false;
  json doc = cal->base;
  doc["acceptance"] = json{{"tau", tau}};
  // One cycle emits tau tokens: cycle time = TPOT x tau.
  if (!cal->add(doc, "spec_cycle", tpot * tau, p, err)) return false;
  cal->spec = true;
  return true;
}

// llama_bench (local engines): llama-bench's pp/tg rows as plain forwards of the target at
// batch 1 (api/llama_bench.hpp says what each row is).
bool read_llama_bench(const json& req, Calibration* cal, Error* err) {
  const bool mlx = req.contains("mlx_lm");
  const char* key = mlx ? "mlx_lm" : "llama_bench";
  if (!req.contains(key)) return true;
  const Config& c = cal->config;
  if (!req[key].is_string()) {
    *err = make_error(key, mlx ? "must be the text mlx_lm.generate printed"
                               : "must be the text llama-bench printed (markdown or -o json)");
    return false;
  }
  const char* wanted = calibration_paste_key(c.engine);
  if (!wanted || std::string(wanted) != key) {
    *err = make_error(
        key, std::string(mlx ? "calibrates the mlx runtime" : "calibrates a llama.cpp runtime") +
                 "; the config's is " + c.engine.name +
                 (wanted ? std::string(" (paste its output as ") + wanted + ")" : ""));
    return false;
  }
  auto rows = mlx ? parse_mlx_lm(req[key].get<std::string>())
                  : parse_llama_bench(req[key].get<std::string>());
  if (!rows.ok()) {
    *err = rows.error();
    return false;
  }
  const double max_rows = c.runtime.resolved.matvec_max_rows;
  for (const BenchRow& r : rows.value()) {
    std::string lower;
    for (char ch : r.quant)
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    DType measured;
    if (!lower.empty() && dtype_from_name(lower, &measured) && measured != c.dtype.weights) {
      *err =
          make_error("config.dtype.weights", std::string("is ") + dtype_name(c.dtype.weights) +
                                                 " but the table measured " + r.quant +
                                                 ": set the weights to the file llama-bench ran");
      return false;
    }
    json doc = cal->base;
    doc["batch"] = 1;
    doc["method"] = json{{"family", "ar"}};
    doc.erase("acceptance");
    doc.erase("load");
    // tg n: n decode steps over a context growing from depth to depth + n (its middle here).
    const int64_t tokens = r.generation ? 1 : r.tokens;
    doc["context"] = r.depth + (r.generation ? r.tokens / 2 : 0);
    if (!cal->add(doc, "forward", static_cast<double>(tokens) / r.tokens_per_s,
                  std::string(key) + " " + r.label, err, tokens))
      return false;
    const double n = static_cast<double>(tokens);
    (n <= 1 ? cal->bench_single : n <= max_rows ? cal->bench_matvec : cal->bench_tiles) = true;
  }
  return true;
}

// As many parameters as the measurements can separate: one step time fixes the per-step
// overhead; a second batch separates bandwidth from overhead; a third adds the per-sequence
// cost; a speculative step fixes the per-cycle bookkeeping.
FitSpec calibration_spec(const Calibration& cal) {
  const Config& c = cal.config;
  FitSpec spec;
  spec.profile = c.runtime.profile;
  if (cal.bench_single || cal.bench_matvec || cal.bench_tiles) {
    // A llama-bench table: each kernel regime it covers fixes that regime's efficiency; the
    // host time per forward stays the profile's (one model size cannot separate it).
    if (cal.bench_single) spec.params.push_back("bw_efficiency");
    if (cal.bench_matvec) spec.params.push_back("matvec_flops_efficiency");
    if (cal.bench_tiles) spec.params.push_back("flops_efficiency");
    if (cal.bench_single) spec.tied.push_back({"kv_bw_efficiency", "bw_efficiency"});
    return spec;
  }
  spec.params.push_back("step_overhead_s");
  if (cal.decode_batches >= 2) spec.params.push_back("bw_efficiency");
  if (cal.decode_batches >= 3) spec.params.push_back("seq_overhead_s");
  if (cal.spec) spec.params.push_back("cycle_overhead_s");
  if (runtime_param_value(c.runtime.resolved, "kv_bw_efficiency") ==
      runtime_param_value(c.runtime.resolved, "bw_efficiency"))
    spec.tied.push_back({"kv_bw_efficiency", "bw_efficiency"});
  return spec;
}

// The answer: the fitted runtime object, what changed, each measurement before and after.
Response calibration_output(const Calibration& cal, const FitResult& r) {
  const Config& c = cal.config;
  json runtime = cal.base.contains("runtime") && cal.base["runtime"].is_object()
                     ? cal.base["runtime"]
                     : json::object();
  runtime["profile"] = c.runtime.profile;
  json changes = json::array();
  for (const char* const* n = runtime_param_names(); *n; ++n) {
    const double before = runtime_param_value(c.runtime.resolved, *n);
    const double after = runtime_param_value(r.params, *n);
    if (before == after) continue;
    runtime[*n] = after;
    changes.push_back(json{{"param", *n}, {"before", before}, {"after", after}});
  }
  json fit_rows = json::array();
  for (const auto& o : cal.observations) {
    fit_rows.push_back(json{{"input", o.id},
                            {"kind", o.kind},
                            {"batch", o.config.batch},
                            {"measured_s", o.measured},
                            {"predicted_before_s", predict_fast(o, c.runtime.resolved)},
                            {"predicted_after_s", predict_fast(o, r.params)}});
  }
  // A fitted parameter at an end of its range (an efficiency of 1: the datasheet's peak) means
  // the measurements ask for more than the model allows: said, not passed off as a fit.
  json at_bound = json::array();
  std::string warning;
  for (const std::string& n : r.at_bound) {
    at_bound.push_back(n);
    warning += (warning.empty() ? "" : ", ") + n + " " +
               fields::format_significant(runtime_param_value(r.params, n));
  }
  if (!warning.empty())
    warning = "at the end of its range: " + warning +
              " (an efficiency of 1 is the datasheet's peak). The measurements ask for more than "
              "this device and quantization allow: check the hardware preset and the dtype the "
              "table was measured with";
  json new_config = cal.base;
  new_config["runtime"] = runtime;
  auto check = parse_config(new_config, cal.catalog);
  if (!check.ok())
    return fail(
        make_error(check.error().field, "calibrated value out of range: " + check.error().message));
  return ok_json(
      json{{"runtime", runtime},
           {"changes", changes},
           {"fit", fit_rows},
           {"mean_relative_error_pct", 100.0 * r.objective},
           {"at_bound", at_bound},
           {"warning", warning},
           {"config", config_to_json(check.value())},
           {"note",
            "paste `runtime` into the config (or open the config's link): every batch of sweeps "
            "and sizing uses it"}}
          .dump());
}

}  // namespace

Response calibrate(const std::string& input) {
  auto parsed = fields::parse_document(input, "the calibrate request", 16);
  if (!parsed.ok()) return fail(parsed.error());
  const json& req = parsed.value();
  if (!req.is_object()) return fail(make_error("", "the calibrate request must be a JSON object"));
  Error err;
  if (!fields::check_keys(req, "", {"config", "decode_steps", "spec_step", "llama_bench", "mlx_lm"},
                          &err))
    return fail(err);
  if (!req.contains("config") || !req["config"].is_object())
    return fail(make_error("config", "is required and must be a config object"));
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config(req["config"], catalog.value());
  if (!config.ok()) {
    Error e = config.error();
    e.field = e.field.empty() ? "config" : "config." + e.field;
    return fail(e);
  }
  const Config& c = config.value();
  if (c.runtime.measured_decode_step_s > 0)
    return fail(make_error("config.runtime.measured_decode_step_s",
                           "remove it: calibrate fits the profile from decode_steps instead"));
  if (layer_split(c).cpu_layers > 0)
    return fail(make_error("config.offload.gpu_layers",
                           "leaves layers on the CPU: calibrate fits the GPU's engine profile "
                           "from timings of a setup with every layer on the GPU (llama-bench "
                           "-ngl 99); calibrate that, then set gpu_layers"));
  Calibration cal{catalog.value(), c, req["config"], {}, 0, false};
  if (req.contains("llama_bench") || req.contains("mlx_lm")) {
    const char* key = req.contains("mlx_lm") ? "mlx_lm" : "llama_bench";
    if (req.contains("decode_steps") || req.contains("spec_step") ||
        (req.contains("llama_bench") && req.contains("mlx_lm")))
      return fail(make_error(key, "is calibrated on its own: remove the other measurements"));
    if (!read_llama_bench(req, &cal, &err)) return fail(err);
    return calibration_output(
        cal, fit_profile(calibration_spec(cal), cal.observations, c.runtime.resolved));
  }
  if (!read_decode_steps(req, &cal, &err) || !read_spec_step(req, &cal, &err)) return fail(err);
  RuntimeParams start = c.runtime.resolved;
  if (start.step_overhead_s <= 0) start.step_overhead_s = 1e-4;
  return calibration_output(cal, fit_profile(calibration_spec(cal), cal.observations, start));
}

}  // namespace commands
}  // namespace speccalc
