#include "fit/cross_validation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fit/fit.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

struct Tally {
  int rows = 0;
  double abs_sum = 0, signed_sum = 0, max_abs = 0;
  void add(double error_pct) {
    const double a = error_pct < 0 ? -error_pct : error_pct;
    rows += 1;
    abs_sum += a;
    signed_sum += error_pct;
    max_abs = std::max(max_abs, a);
  }
  json to_json() const {
    return json{{"rows", rows},
                {"mape_pct", rows ? abs_sum / rows : 0.0},
                {"mean_error_pct", rows ? signed_sum / rows : 0.0},
                {"max_abs_error_pct", max_abs}};
  }
};

// Whether the stored profile was fitted on this row: not a check, and the profile's fit uses
// speedup rows (vLLM's fits step times only).
bool fitted_on(const Observation& o) {
  if (o.check_only) return false;
  for (const FitSpec& spec : fit_specs())
    if (spec.profile == o.profile) return !spec.times_only;
  return false;
}

}  // namespace

Expected<json> cross_validation_json(const Catalog& catalog, std::string_view published_json) {
  auto loaded = load_observations(catalog, published_json);
  if (!loaded.ok()) return loaded.error();
  const std::vector<Observation>& obs = loaded.value();
  Tally overall;
  std::map<std::string, Tally> by_profile, by_family;
  json sources = json::array();
  std::vector<std::string> over_limit;
  for (const FitSpec& spec : fit_specs()) {
    std::vector<std::string> held;  // sources with speedup rows, in table order
    for (const auto& o : obs)
      if (o.profile == spec.profile && o.kind == "speedup" && !o.check_only &&
          std::find(held.begin(), held.end(), o.source) == held.end())
        held.push_back(o.source);
    // The same start as the in-sample fit (the table holds its fitted values for the rest).
    const RuntimeProfile* profile = catalog.find_runtime(spec.profile);
    const RuntimeParams start = fit_start(spec, profile ? profile->params : neutral_start());
    for (const std::string& source : held) {
      const FitResult fold = fit_profile(spec, obs, start, source);
      Tally t, in_sample;
      for (const auto& o : obs) {
        if (o.profile != spec.profile || o.source != source || o.kind != "speedup" || o.check_only)
          continue;
        auto p = predict_full(o, fold.params);
        if (!p.ok()) return p.error();
        const double e = 100.0 * (p.value() - o.measured) / o.measured;
        t.add(e);
        overall.add(e);
        by_profile[spec.profile].add(e);
        by_family[family_name(o.config.method.family)].add(e);
        // In-sample: the stored profile, fitted with this source in.
        auto q = predict_full(o, o.config.runtime.resolved);
        if (!q.ok()) return q.error();
        in_sample.add(100.0 * (q.value() - o.measured) / o.measured);
      }
      json j = t.to_json();
      j["source"] = source;
      j["profile"] = spec.profile;
      j["fit_observations"] = fold.observations;
      j["in_sample"] = in_sample.to_json();
      j["held_out_over_limit"] = t.rows > 0 && t.abs_sum / t.rows > kSourceLimitPct;
      if (j["held_out_over_limit"].get<bool>()) over_limit.push_back(source);
      sources.push_back(j);
    }
  }
  json profiles = json::object();
  for (const auto& [k, t] : by_profile) profiles[k] = t.to_json();
  json families = json::object();
  for (const auto& [k, t] : by_family) families[k] = t.to_json();
  json out = overall.to_json();
  out["method"] = "leave-one-source-out";
  out["definition"] =
      "for each profile and each source of its speedup rows: refit the profile's shared parameters "
      "from the neutral "
      "start without that source (every observation of it left out), predict the source's rows, "
      "pool the errors";
  out["by_profile"] = profiles;
  out["by_family"] = families;
  out["by_source"] = sources;
  out["source_limit_pct"] = kSourceLimitPct;
  out["sources_over_limit"] = over_limit;
  return out;
}

Expected<json> engine_rows_json(const Catalog& catalog, std::string_view published_json) {
  auto loaded = load_observations(catalog, published_json);
  if (!loaded.ok()) return loaded.error();
  json rows = json::array();
  std::map<std::string, Tally> by_source, by_profile, by_family;
  for (const auto& o : loaded.value()) {
    const bool range = o.kind == "speedup_range";
    if ((o.kind != "speedup" && !range) || o.profile == "hf-eager") continue;
    auto p = predict_full(o, o.config.runtime.resolved);
    if (!p.ok()) return p.error();
    // A range counts as met inside it; outside, the error is to its nearer end.
    // `reference` is the measured value the error is taken against: the measurement, or for a
    // range the prediction itself inside it and the nearer end outside (the page plots it).
    double reference = o.measured;
    if (range) reference = std::min(std::max(p.value(), o.measured_low), o.measured_high);
    const double e = 100.0 * (p.value() - reference) / reference;
    by_source[o.source].add(e);
    by_profile[o.profile].add(e);
    by_family[family_name(o.config.method.family)].add(e);
    json row = json{{"id", o.id},
                    {"source", o.source},
                    {"engine", o.profile},
                    {"family", family_name(o.config.method.family)},
                    {"batch", o.config.batch},
                    {"tau", o.tau},
                    {"predicted", p.value()},
                    {"error_pct", e},
                    {"large_error", std::abs(e) > kLargeErrorPct},
                    {"measured_reference", reference},
                    {"fitted_on", fitted_on(o)},
                    {"cite", o.cite}};
    if (range)
      row["measured_range"] = json::array({o.measured_low, o.measured_high});
    else
      row["measured"] = o.measured;
    rows.push_back(row);
  }
  // Time checks (check_only decode steps, cycles, forwards): a stack's own non-speculative or
  // cycle timings, never fitted, priced with the stored profile.
  json time_checks = json::array();
  std::map<std::string, Tally> time_by_source;
  for (const auto& o : loaded.value()) {
    if (!o.check_only || o.kind == "speedup" || o.kind == "speedup_range") continue;
    auto p = predict_full(o, o.config.runtime.resolved);
    if (!p.ok()) return p.error();
    const double e = 100.0 * (p.value() - o.measured) / o.measured;
    time_by_source[o.source].add(e);
    time_checks.push_back(json{{"id", o.id},
                               {"source", o.source},
                               {"engine", o.profile},
                               {"kind", o.kind},
                               {"target", o.config.target.id},
                               {"hardware", o.config.hardware.id},
                               {"gpus", o.config.gpus},
                               {"batch", o.config.batch},
                               {"measured_s", o.measured},
                               {"predicted_s", p.value()},
                               {"error_pct", e},
                               {"large_error", std::abs(e) > kLargeErrorPct},
                               {"hardware_stated", o.hardware_stated},
                               {"cite", o.cite}});
    if (!o.measured_on.empty()) time_checks.back()["measured_on"] = o.measured_on;
    if (o.kind == "serving_tpot") {
      json& c = time_checks.back();
      c["concurrency"] = o.config.load.concurrency;
      c["input_tokens"] = o.config.load.input_tokens;
      c["output_tokens"] = o.config.load.output_tokens;
    }
  }
  json time_sources = json::object();
  for (const auto& [k, t] : time_by_source) time_sources[k] = t.to_json();
  json sources = json::object();
  for (const auto& [k, t] : by_source) sources[k] = t.to_json();
  json engines = json::object();
  for (const auto& [k, t] : by_profile) engines[k] = t.to_json();
  json families = json::object();
  for (const auto& [k, t] : by_family) families[k] = t.to_json();
  return json{{"rows", rows},
              {"by_source", sources},
              {"by_engine", engines},
              {"by_family", families},
              {"time_checks", time_checks},
              {"time_checks_by_source", time_sources},
              {"error_definition",
               "100 (predicted - measured) / measured; a measured range counts 0 inside it and "
               "the error to its nearer end outside"}};
}

Expected<json> validation_bands_json(const Catalog& catalog, std::string_view published_json) {
  auto loaded = load_observations(catalog, published_json);
  if (!loaded.ok()) return loaded.error();
  const std::vector<Observation>& obs = loaded.value();
  // (profile, family) -> the held-out errors, each row once.
  std::map<std::string, std::map<std::string, Tally>> cv, engine;
  // (profile, family) -> the target presets its rows measured: eval says when its model is not
  // among them (the walk: a 70B's band came from 8B rows only, unsaid).
  std::map<std::string, std::map<std::string, std::set<std::string>>> targets;
  // (profile, family) -> the longest context its rows were priced at: eval says when its own
  // context is far beyond (a band measured at 1k says little at 32k, where other terms rule).
  std::map<std::string, std::map<std::string, int64_t>> max_context;
  auto note_row = [&](const Observation& o) {
    const std::string family = family_name(o.config.method.family);
    targets[o.profile][family].insert(o.config.target.id);
    int64_t& m = max_context[o.profile][family];
    m = std::max(m, o.config.context);
  };
  std::set<std::string> counted;
  for (const FitSpec& spec : fit_specs()) {
    std::vector<std::string> held;
    for (const auto& o : obs)
      if (o.profile == spec.profile && o.kind == "speedup" && !o.check_only &&
          std::find(held.begin(), held.end(), o.source) == held.end())
        held.push_back(o.source);
    const RuntimeProfile* profile = catalog.find_runtime(spec.profile);
    const RuntimeParams start = fit_start(spec, profile ? profile->params : neutral_start());
    for (const std::string& source : held) {
      const FitResult fold = fit_profile(spec, obs, start, source);
      for (const auto& o : obs) {
        if (o.profile != spec.profile || o.source != source || o.kind != "speedup" || o.check_only)
          continue;
        auto p = predict_full(o, fold.params);
        if (!p.ok()) return p.error();
        cv[o.profile][family_name(o.config.method.family)].add(100.0 * (p.value() - o.measured) /
                                                               o.measured);
        note_row(o);
        counted.insert(o.id);
      }
    }
  }
  // Engine speedup rows the stored profile was not fitted on (checks; the vLLM profile is
  // fitted on step times only) and the cross-validation did not already count.
  for (const auto& o : obs) {
    if (o.kind != "speedup" || o.profile == "hf-eager" || fitted_on(o) || counted.count(o.id))
      continue;
    auto p = predict_full(o, o.config.runtime.resolved);
    if (!p.ok()) return p.error();
    engine[o.profile][family_name(o.config.method.family)].add(100.0 * (p.value() - o.measured) /
                                                               o.measured);
    note_row(o);
  }
  json out = json::object();
  auto put = [&out](const auto& table, const char* basis) {
    for (const auto& [profile, families] : table)
      for (const auto& [family, t] : families) {
        json& slot = out[profile][family];
        json j = t.to_json();
        if (slot.is_null()) {
          j["basis"] = basis;
          slot = j;
          continue;
        }
        // Pool with the rows already there (both are held out, no row twice).
        const int n = slot["rows"].get<int>() + t.rows;
        const double mape =
            (slot["mape_pct"].get<double>() * slot["rows"].get<int>() + t.abs_sum) / n;
        const double bias =
            (slot["mean_error_pct"].get<double>() * slot["rows"].get<int>() + t.signed_sum) / n;
        slot["max_abs_error_pct"] = std::max(slot["max_abs_error_pct"].get<double>(), t.max_abs);
        slot["rows"] = n;
        slot["mape_pct"] = mape;
        slot["mean_error_pct"] = bias;
        slot["basis"] = slot["basis"].get<std::string>() + " + " + basis;
      }
  };
  put(cv, "leave-one-source-out");
  put(engine, "engine rows the profile is not fitted on");
  for (const auto& [profile, families] : targets)
    for (const auto& [family, ids] : families)
      if (out.contains(profile) && out[profile].contains(family))
        out[profile][family]["targets"] = json(std::vector<std::string>(ids.begin(), ids.end()));
  for (const auto& [profile, families] : max_context)
    for (const auto& [family, context] : families)
      if (out.contains(profile) && out[profile].contains(family))
        out[profile][family]["max_context"] = context;
  return out;
}

}  // namespace speccalc
