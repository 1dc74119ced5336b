#include "model/fidelity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/families.hpp"
#include "config/general_format.hpp"
#include "config/json_fields.hpp"
#include "data/model_keys.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

// The embedded table, parsed once per process (a compiled-in constant).
const json& validation_table() {
  static const json doc = [] {
    json d = json::parse(data::validation_bands(), nullptr, false);
    return d.is_object() ? d : json::object();
  }();
  return doc;
}

const json& bands() {
  static const json none = json::object();
  const json& d = validation_table();
  return d.contains("bands") ? d["bands"] : none;
}

// Above this the engine's own plain-decoding step times for the target say the model misses
// there (validate's large-error mark).
constexpr double kTimeCheckWarnPct = 25;
// A context more than this many times the longest one the band's rows were priced at: the
// band says little there (attention, KV reads and eager score traffic grow with the context,
// the weights do not), and eval says so.
constexpr double kContextBeyondBand = 2;

// Whether a check run on target preset `id` speaks for this target: the same preset, or a
// preset of the same architecture (a check of DeepSeek-R1 prices DeepSeek-V3's steps alike). A
// check run on a custom model (its target id is "custom": a config.json object) names no model
// a user's own custom target could be the same as.
bool speaks_for(const std::string& id, const ModelArch& target) {
  if (id == "custom") return false;
  if (id == target.id) return true;
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return false;
  const ModelArch* other = catalog.value().find_target(id);
  return other != nullptr && same_architecture(*other, target);
}

// The engine's own step-time check that speaks for this setup: one run on this machine (GPU and
// count) outranks any other; then the newest run (measured_on: an engine gets faster from
// release to release, and a user runs today's); then the nearest batch. eval warns when that
// check misses by kTimeCheckWarnPct or more. The page must not show a featured setup as if
// nothing contradicted it, nor warn an 8-GPU node with a two-node run's miss where a run on
// that node measured close (DeepSeek-R1 under SGLang: -78 % on 16 x H100 over InfiniBand, -16
// to -21 % on 8 x H200), nor speak for today's SGLang with its December 2024 release (PR
// #2643's DeepSeek-V3 steps, -83 % at batch 1, where InferenceX's 2026 runs of DeepSeek-R1, the
// same architecture, miss by a quarter).
const json* time_check_miss(const Config& config) {
  const json& d = validation_table();
  if (!d.contains("time_checks")) return nullptr;
  const json* best = nullptr;
  bool best_here = false;
  const auto gap = [&](const json& x) {
    return std::llabs(x["batch"].get<long long>() - config.batch);
  };
  const auto date = [](const json& x) { return x.value("measured_on", std::string()); };
  for (const json& c : d["time_checks"]) {
    if (c["engine"] != config.runtime.profile ||
        (c["kind"] != "decode_step" && c["kind"] != "serving_tpot") ||
        !speaks_for(c["target"].get<std::string>(), config.target))
      continue;
    const bool here = c["hardware"] == config.hardware.id && c["gpus"] == config.gpus;
    const bool better = !best || (here && !best_here) ||
                        (here == best_here && (date(c) > date(*best) ||
                                               (date(c) == date(*best) && gap(c) < gap(*best))));
    if (better) {
      best = &c;
      best_here = here;
    }
  }
  if (!best || std::abs((*best)["error_pct"].get<double>()) < kTimeCheckWarnPct) return nullptr;
  return best;
}

// Whose decoding a time check timed, as the statement names it: `self` for this setup's own
// target, else the checked preset and that it shares this model's architecture.
std::string checked_model(const json& check, const Config& config, const std::string& self) {
  const std::string checked = check["target"].get<std::string>();
  return checked == config.target.id ? self : checked + " (this model's architecture)";
}

std::string pct(double x) {
  // One decimal, as the page prints a percentage.
  const double r = static_cast<double>(static_cast<long long>(x * 10 + (x < 0 ? -0.5 : 0.5))) / 10;
  return fields::format_number(r);
}

}  // namespace

// What a time check measured, after its time: a step at a batch, or a serving benchmark's mean
// time per output token at a concurrency (its prefills inside it, as the load model prices it).
std::string time_check_what(const json& c) {
  if (c["kind"] == "serving_tpot")
    return " per output token serving " + std::to_string(c["concurrency"].get<long long>()) +
           " concurrent requests of " + format_shortest(c["input_tokens"].get<double>()) + " / " +
           format_shortest(c["output_tokens"].get<double>()) +
           " tokens in / out (its prefills inside)";
  return " a step at batch " + std::to_string(c["batch"].get<long long>());
}

json fidelity_json(const Evaluation& e, const Config& config) {
  const std::string engine = config.runtime.profile;
  const std::string family = family_name(config.method.family);
  json out =
      json{{"engine", engine},
           {"family", family},
           {"rows", 0},
           {"tau_source", e.tau_source},
           {"profile_source", config.engine.validated_by.empty() ? config.engine.fitted_on
                                                                 : config.engine.validated_by}};
  std::string miss;
  if (const json* c = time_check_miss(config)) {
    const double err = (*c)["error_pct"].get<double>();
    const std::string when = (*c).value("measured_on", std::string());
    miss = " " + config.engine.name + "'s own plain decoding of " +
           checked_model(*c, config, config.target.id) + " measured " +
           fields::format_seconds((*c)["measured_s"].get<double>()) + time_check_what(*c) + " on " +
           std::to_string((*c)["gpus"].get<long long>()) + " x " +
           (*c)["hardware"].get<std::string>() + (when.empty() ? "" : " (" + when + ")") +
           " where this model predicts " +
           fields::format_seconds((*c)["predicted_s"].get<double>()) + " (" + pct(err) + " %; " +
           (*c)["source"].get<std::string>() + ", never fitted): " +
           (config.runtime.measured_decode_step_s > 0
                ? "here step times are calibrated to your measured " +
                      fields::format_seconds(config.runtime.measured_decode_step_s) +
                      " plain decode step instead."
                : "step times here are not trusted; a measured decode step of yours calibrates "
                  "them.");
    out["time_check"] = *c;
  }
  const json& t = bands();
  const json* b = nullptr;
  if (t.contains(engine) && t[engine].contains(family)) b = &t[engine][family];
  if (!b || (*b)["rows"].get<int>() == 0) {
    out["statement"] = "no held-out measurement of " +
                       std::string(family_short_label(config.method.family)) + " under " +
                       config.engine.name + ": the model's error here is not measured" +
                       (miss.empty() ? "" : "." + miss);
    return out;
  }
  const double mape = (*b)["mape_pct"].get<double>();
  const double bias = (*b)["mean_error_pct"].get<double>();
  const int rows = (*b)["rows"].get<int>();
  // error = (predicted - measured) / measured, so measured = predicted / (1 + error). Over the
  // held-out rows the error averaged `bias` with mean magnitude `mape`: the band is the
  // predicted speedup divided by 1 + (bias +- mape) / 100 (the lower factor kept above 0.05).
  const double hi_factor = std::max(0.05, 1 + (bias - mape) / 100);
  const double lo_factor = std::max(0.05, 1 + (bias + mape) / 100);
  out["rows"] = rows;
  out["mape_pct"] = mape;
  out["mean_error_pct"] = bias;
  out["basis"] = (*b)["basis"];
  out["speedup_low"] = e.speedup / lo_factor;
  out["speedup_high"] = e.speedup / hi_factor;
  const std::string direction = bias > 0 ? "over-predicted" : "under-predicted";
  // The statement reads the family by its label (EAGLE-3), the field keeps the id.
  // The models those rows measured, when this one is not among them: the band is borrowed.
  std::string borrowed;
  if (b->contains("targets") && (*b)["targets"].is_array()) {
    const json& ids = (*b)["targets"];
    const bool among = config.target_preset &&
                       std::find(ids.begin(), ids.end(), json(config.target.id)) != ids.end();
    if (!among) {
      std::string names;
      for (const json& id : ids) names += (names.empty() ? "" : ", ") + id.get<std::string>();
      borrowed = "; measured on " + names + ", not on this model";
      out["targets"] = ids;
    }
  }
  std::string beyond;
  if (b->contains("max_context")) {
    const auto longest = (*b)["max_context"].get<int64_t>();
    if (static_cast<double>(config.context) > kContextBeyondBand * static_cast<double>(longest)) {
      beyond = "; its rows were priced at contexts up to " + std::to_string(longest) +
               " tokens, this setup's is " + std::to_string(config.context);
      out["max_context"] = longest;
    }
  }
  out["statement"] = config.engine.name + " + " + family_short_label(config.method.family) +
                     ": held-out error " + pct(mape) + " % over " + std::to_string(rows) +
                     " measured row" + (rows == 1 ? "" : "s") + " (" + direction + " by " +
                     pct(bias < 0 ? -bias : bias) + " % on average" + borrowed + beyond +
                     "; speccalc validate)" + (miss.empty() ? "" : "." + miss);
  return out;
}

std::string verdict_caveat(const Evaluation& e, const Config& config, const json& fidelity) {
  if (e.verdict != "pays" && e.verdict != "loses") return "";
  const bool pays = e.verdict == "pays";
  const std::string other = pays ? "a loss" : "a gain";
  auto range = [](double lo, double hi) {
    return fields::format_significant(lo) + "-" + fields::format_significant(hi) + "x";
  };
  std::vector<std::string> why;
  if (fidelity.contains("speedup_low") && fidelity["speedup_low"].get<double>() < 1 &&
      fidelity["speedup_high"].get<double>() > 1)
    why.push_back(
        "the model's held-out error on " + config.engine.name + " + " +
        family_short_label(config.method.family) + " puts it at " +
        range(fidelity["speedup_low"].get<double>(), fidelity["speedup_high"].get<double>()) +
        ", which includes " + other);
  if (e.has_band && e.speedup_p5 < 1 && e.speedup_p95 > 1)
    why.push_back("over the spread of its acceptance, " + e.band_label + ", it reads " +
                  range(e.speedup_p5, e.speedup_p95) + ", which includes " + other);
  if (fidelity.contains("time_check") && !(config.runtime.measured_decode_step_s > 0)) {
    const json& c = fidelity["time_check"];
    why.push_back(
        config.engine.name + "'s own plain decoding of " + checked_model(c, config, "this model") +
        " measured " + fields::format_seconds(c["measured_s"].get<double>()) +
        (c["kind"] == "serving_tpot" ? " per output token under load" : " a step") +
        " where this model predicts " + fields::format_seconds(c["predicted_s"].get<double>()) +
        ", so its step times and tokens/s are not trusted here (a measured decode "
        "step of yours calibrates them)");
  }
  if (why.empty()) return "";
  std::string out = "Not certain: ";
  for (std::size_t i = 0; i < why.size(); ++i) out += (i ? "; " : "") + why[i];
  return out + ".";
}

}  // namespace speccalc
