#include "speccalc/validate.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "api/commands.hpp"
#include "config/config_json.hpp"
#include "config/general_format.hpp"
#include "config/json_fields.hpp"
#include "fit/cross_validation.hpp"
#include "fit/published_row_config.hpp"
#include "model/host_ops.hpp"
#include "speccalc/config.hpp"
#include "speccalc/evaluate.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

double abs_value(double x) { return x < 0 ? -x : x; }

// Baseline (plain decode) step time a source reports for one model on one machine, read from
// the row's `extra` object: tokens/s of vanilla decoding.
struct BaselineStep {
  double step_s = 0;
  std::string from;
};
using StepKey = std::tuple<std::string, std::string, std::string, int32_t>;

std::map<StepKey, BaselineStep> baseline_steps(const std::vector<PublishedRow>& rows) {
  std::map<StepKey, BaselineStep> out;
  for (const auto& r : rows) {
    if (r.target_id.empty() || r.hardware_id.empty()) continue;
    const json extra = json::parse(r.extra_json, nullptr, false);
    if (!extra.is_object()) continue;
    for (const char* key : {"baseline_tokens_per_s", "tokens_per_s_vanilla_HF_fp16"}) {
      auto it = extra.find(key);
      if (it == extra.end() || !it->is_number() || it->get<double>() <= 0) continue;
      const StepKey k{r.source_id, r.target_id, r.hardware_id, r.gpus};
      if (out.count(k)) continue;  // first row that states it wins (table order)
      out[k] = BaselineStep{
          1.0 / it->get<double>(),
          r.id + " extra." + key + " = " + fields::format_number(it->get<double>()) + " tokens/s"};
    }
  }
  return out;
}

}  // namespace

namespace {

struct Exclusion {
  std::string kind;    // counted in the report's coverage
  std::string reason;  // with the row's details
};

// Why no config reproduces a row (the calculator cannot model it); an empty kind when one does.
Exclusion unmodelled_of(const PublishedRow& r) {
  if (!r.batch) return {"no batch size", "no batch size (maximum-batch comparison)"};
  if (r.family.empty() || r.family == "other" || r.family == "ar")
    return {"no cost model for the method",
            "method '" + r.method + "' (family '" + r.family + "') has no cost model"};
  if (r.target_id.empty())
    return {"no model preset", "no model preset for '" + r.target_model + "'"};
  if (r.hardware_id.empty())
    return {"no GPU preset", "hardware '" + r.hardware + "' maps to no GPU preset"};
  if (r.runtime.empty()) return {"no runtime profile", "no runtime profile"};
  return {};
}

// Why a row with tau and speedup is not validated; an empty kind when it is.
Exclusion exclusion_of(const PublishedRow& r) {
  if (r.superseded)
    return {"superseded leaderboard version",
            "superseded Spec-Bench leaderboard version (the current version of the cell is "
            "validated)"};
  if (!r.duplicate_of.empty())
    return {"reprint of an earlier row",
            "the same model, dataset, temperature, tau and speedup as " + r.duplicate_of +
                ", an earlier table: that measurement reprinted, validated once as the original"};
  if (r.speedup_kind != "latency")
    return {"not a latency speedup", "speedup_kind '" + r.speedup_kind +
                                         "' is not a batch latency speedup over plain decoding"};
  return unmodelled_of(r);
}

// Rows that cannot be compared at all: the prediction starts from the row's measured tau and
// is checked against its measured speedup.
const char* unmeasured_kind(const PublishedRow& r) {
  if (!r.tau && !r.speedup) return "neither tau nor speedup reported";
  if (!r.tau) return "no tau reported (the prediction starts from the measured tau)";
  return "no speedup reported (nothing to compare with)";
}

}  // namespace

std::string validate_exclusion(const PublishedRow& r) { return exclusion_of(r).reason; }

namespace {

json row_config(const PublishedRow& r, const ValidateOptions& o, double measured_step_s) {
  json method = json::parse(r.method_params_json, nullptr, false);
  if (!method.is_object()) method = json::object();
  method["family"] = r.family;
  // The table names Medusa's tree as the engines' source does (mc_sim_7b_63); the tree
  // presets prefix it with its origin.
  auto choices = method.find("choices");
  if (choices != method.end() && choices->is_string() && *choices == "mc_sim_7b_63")
    *choices = "medusa-mc_sim_7b_63";
  if (r.family == "sps" && !r.draft_id.empty() && !method.contains("draft"))
    method["draft"] = r.draft_id;
  json runtime = json::object();
  runtime["profile"] = r.runtime;
  // The baseline the source's speedups are measured against (EAGLE's syncs per layer).
  const double baseline_syncs = published_baseline_layer_syncs(r.source_id, r.family);
  if (r.runtime == "hf-eager" && baseline_syncs > 0)
    runtime["baseline_layer_syncs"] = baseline_syncs;
  for (const auto& [profile, params] : o.runtimes) {
    if (profile != r.runtime) continue;
    for (const auto& [name, value] : params) runtime[name] = value;
  }
  if (measured_step_s > 0) runtime["measured_decode_step_s"] = measured_step_s;
  json doc = json{
      {"target", r.target_id},
      {"hardware", r.hardware_id},
      {"gpus", r.gpus},
      {"runtime", runtime},
      {"batch", *r.batch},
      {"context", o.context},
      {"dtype", {{"weights", r.weights_dtype.empty() ? "fp16" : r.weights_dtype}, {"kv", "fp16"}}},
      {"method", method},
      {"acceptance", r.tau ? json{{"tau", *r.tau}} : json{{"alpha", 0.7}}}};
  // Sampled rows run the methods' sampling paths (model/sampler_ops.hpp).
  if (r.temperature && *r.temperature > 0) doc["temperature"] = *r.temperature;
  return doc;
}

Expected<double> predict(const json& config_doc, const Catalog& catalog) {
  auto config = parse_config(config_doc, catalog);
  if (!config.ok()) return config.error();
  auto e = evaluate(config.value());
  if (!e.ok()) return e.error();
  return e.value().speedup;
}

void add(ErrorSummary* s, double error_pct) {
  // Running sums kept in mape/mean; divided in finish() (fixed row order, so deterministic).
  s->rows += 1;
  s->mape_pct += abs_value(error_pct);
  s->mean_error_pct += error_pct;
  s->max_abs_error_pct = std::max(s->max_abs_error_pct, abs_value(error_pct));
}

void finish(ErrorSummary* s) {
  if (s->rows == 0) return;
  s->mape_pct /= static_cast<double>(s->rows);
  s->mean_error_pct /= static_cast<double>(s->rows);
}

json summary_json(const ErrorSummary& s) {
  return json{{"rows", s.rows},
              {"mape_pct", s.mape_pct},
              {"max_abs_error_pct", s.max_abs_error_pct},
              {"mean_error_pct", s.mean_error_pct}};
}

}  // namespace

Expected<ValidateReport> validate_rows(const std::vector<PublishedRow>& rows,
                                       const ValidateOptions& o) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return catalog.error();
  const auto steps = baseline_steps(rows);
  TableQuery query;
  query.source = o.source;

  ValidateReport report;
  std::map<std::string, std::size_t> source_index;
  std::vector<const PublishedRow*> seen_sources;  // first row of each source, table order
  std::map<std::string, std::pair<int64_t, int64_t>> counts;  // source_id -> (rows, not predicted)
  for (const auto& r : rows) {
    if (!matches(r, query)) continue;
    report.published_rows += 1;
    auto [count, first] = counts.emplace(r.source_id, std::make_pair(int64_t{0}, int64_t{0}));
    if (first) seen_sources.push_back(&r);
    count->second.first += 1;
    if (!r.tau || !r.speedup) {
      count->second.second += 1;
      report.unmeasured.push_back(ExcludedRow{&r, unmeasured_kind(r), unmeasured_kind(r)});
      continue;
    }
    Exclusion why = exclusion_of(r);
    ValidatedRow v;
    v.row = &r;
    v.measured = *r.speedup;
    if (why.kind.empty()) {
      auto p = predict(row_config(r, o, 0), catalog.value());
      if (p.ok()) {
        v.predicted = p.value();
      } else {
        why = {"config rejected", "config rejected: " + p.error().field + ": " + p.error().message};
      }
    }
    if (!why.kind.empty()) {
      count->second.second += 1;
      report.excluded.push_back(ExcludedRow{&r, why.reason, why.kind});
      continue;
    }
    v.error_pct = 100.0 * (v.predicted - v.measured) / v.measured;
    if (o.calibrated) {
      auto it = steps.find(StepKey{r.source_id, r.target_id, r.hardware_id, r.gpus});
      if (it != steps.end()) {
        auto p = predict(row_config(r, o, it->second.step_s), catalog.value());
        if (p.ok()) {
          v.calibration_step_s = it->second.step_s;
          v.calibration_from = it->second.from;
          v.calibrated_predicted = p.value();
          v.calibrated_error_pct = 100.0 * (v.calibrated_predicted - v.measured) / v.measured;
        }
      }
    }
    auto [slot, inserted] = source_index.emplace(r.source_id, report.sources.size());
    if (inserted) report.sources.push_back(SourceSummary{r.source_id, r.source, {}, {}});
    SourceSummary& s = report.sources[slot->second];
    add(&s.stock, v.error_pct);
    add(&report.overall, v.error_pct);
    if (v.calibration_step_s > 0) {
      add(&s.calibrated, v.calibrated_error_pct);
      add(&report.overall_calibrated, v.calibrated_error_pct);
    } else {
      add(&report.overall_calibrated, v.error_pct);
    }
    report.rows.push_back(v);
  }
  for (const PublishedRow* r : seen_sources)
    if (!source_index.count(r->source_id)) {
      source_index.emplace(r->source_id, report.sources.size());
      report.sources.push_back(SourceSummary{r->source_id, r->source, {}, {}});
    }
  for (auto& s : report.sources) {
    finish(&s.stock);
    finish(&s.calibrated);
    s.published_rows = counts[s.source_id].first;
    s.not_predicted = counts[s.source_id].second;
  }
  finish(&report.overall);
  finish(&report.overall_calibrated);
  return report;
}

namespace {

// Every row the query selects is either predicted or counted here under its reason (most
// rows first; ties in table order), so the report accounts for the whole table.
json coverage_json(const ValidateReport& rep) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  auto add_row = [&groups](const ExcludedRow& x) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&x](const auto& g) { return g.first == x.kind; });
    if (it == groups.end()) it = groups.insert(groups.end(), {x.kind, {}});
    it->second.push_back(x.row->id);
  };
  for (const auto& x : rep.unmeasured) add_row(x);
  for (const auto& x : rep.excluded) add_row(x);
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  json reasons = json::array();
  for (const auto& [kind, ids] : groups)
    reasons.push_back(json{{"reason", kind}, {"rows", ids.size()}, {"ids", ids}});
  const int64_t predicted = static_cast<int64_t>(rep.rows.size());
  return json{{"published_rows", rep.published_rows},
              {"predicted", predicted},
              {"not_predicted", rep.published_rows - predicted},
              {"reasons", reasons}};
}

json report_json(const ValidateReport& rep, const ValidateOptions& o) {
  json rows = json::array();
  for (const auto& v : rep.rows) {
    const PublishedRow& r = *v.row;
    json j{{"id", r.id},
           {"source", r.source},
           {"source_id", r.source_id},
           {"table", r.table},
           {"method", r.method},
           {"family", r.family},
           {"model", r.target_id},
           {"dataset", r.dataset},
           {"hardware", r.hardware_id},
           {"gpus", r.gpus},
           {"runtime", r.runtime},
           {"tau", *r.tau},
           {"measured", v.measured},
           {"predicted", v.predicted},
           {"error_pct", v.error_pct},
           {"large_error", std::abs(v.error_pct) > kLargeErrorPct}};
    if (r.hardware_assumed) j["hardware_assumption"] = r.hardware_assumption;
    j["config"] = row_config(r, ValidateOptions{}, 0);
    if (v.calibration_step_s > 0) {
      j["calibrated"] = json{{"decode_step_s", v.calibration_step_s},
                             {"from", v.calibration_from},
                             {"predicted", v.calibrated_predicted},
                             {"error_pct", v.calibrated_error_pct}};
    }
    rows.push_back(j);
  }
  json excluded = json::array();
  for (const auto& x : rep.excluded)
    excluded.push_back(
        json{{"id", x.row->id}, {"source_id", x.row->source_id}, {"reason", x.reason}});
  json sources = json::array();
  for (const auto& s : rep.sources) {
    json j{{"source_id", s.source_id},
           {"source", s.source},
           {"stock", summary_json(s.stock)},
           {"published_rows", s.published_rows},
           {"not_predicted", s.not_predicted}};
    if (o.calibrated && s.calibrated.rows > 0) j["calibrated"] = summary_json(s.calibrated);
    sources.push_back(j);
  }
  json out{
      {"definition",
       "error_pct = 100 * (predicted - measured) / measured speedup; MAPE = mean |error_pct|; "
       "predicted from the row's measured tau (bonus token included), model, method, hardware and "
       "runtime profile"},
      {"large_error_pct", kLargeErrorPct},
      {"rows", rows},
      {"excluded", excluded},
      {"coverage", coverage_json(rep)},
      {"sources", sources},
      {"overall", summary_json(rep.overall)}};
  if (o.calibrated) {
    out["overall_calibrated"] = summary_json(rep.overall_calibrated);
    out["calibration"] =
        "calibrated: runtime.measured_decode_step_s set to the plain-decode step time the source "
        "itself "
        "reports for that model and machine (rows without one keep the stock prediction in "
        "overall_calibrated)";
  }
  return out;
}

std::string pct(double x) { return format_fixed(x, 1); }

std::string fixed(double x, int digits) { return format_fixed(x, digits); }

std::string pad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' ');
}

std::string report_text(const ValidateReport& rep, const ValidateOptions& o) {
  std::string t;
  t += pad("id", 18) + pad("method", 10) + pad("model", 24) + pad("dataset", 14) +
       pad("hardware", 18) + pad("tau", 6) + pad("measured", 9) + pad("predicted", 10) +
       pad("error%", 8) + (o.calibrated ? "calib.error%" : "") + "\n";
  for (const auto& v : rep.rows) {
    const PublishedRow& r = *v.row;
    std::string hw = r.hardware_id + (r.gpus > 1 ? " x" + std::to_string(r.gpus) : "") +
                     (r.hardware_assumed ? "*" : "");
    t += pad(r.id, 18) + pad(r.family, 10) + pad(r.target_id, 24) +
         pad(r.dataset.substr(0, 13), 14) + pad(hw, 18) + pad(fixed(*r.tau, 2), 6) +
         pad(fixed(v.measured, 2), 9) + pad(fixed(v.predicted, 2), 10) + pad(pct(v.error_pct), 8) +
         (v.calibration_step_s > 0 ? pct(v.calibrated_error_pct) : "") + "\n";
  }
  t += "\n* hardware assumed; the assumption text is in the JSON output (format json)\n\n";
  t += pad("source", 14) + pad("rows", 6) + pad("MAPE%", 8) + pad("max|err|%", 10) +
       pad("mean err%", 10) + (o.calibrated ? "calibrated rows / MAPE%" : "") + "\n";
  for (const auto& s : rep.sources) {
    if (s.stock.rows == 0) continue;  // counted under "not predicted" below
    t += pad(s.source_id, 14) + pad(std::to_string(s.stock.rows), 6) +
         pad(pct(s.stock.mape_pct), 8) + pad(pct(s.stock.max_abs_error_pct), 10) +
         pad(pct(s.stock.mean_error_pct), 10);
    if (o.calibrated && s.calibrated.rows > 0)
      t += std::to_string(s.calibrated.rows) + " / " + pct(s.calibrated.mape_pct);
    t += "\n";
  }
  t += pad("overall", 14) + pad(std::to_string(rep.overall.rows), 6) +
       pad(pct(rep.overall.mape_pct), 8) + pad(pct(rep.overall.max_abs_error_pct), 10) +
       pad(pct(rep.overall.mean_error_pct), 10);
  if (o.calibrated)
    t += "calibrated where possible: MAPE " + pct(rep.overall_calibrated.mape_pct) + "%";
  const json coverage = coverage_json(rep);
  t += "\n\nnot predicted: " + std::to_string(coverage["not_predicted"].get<int64_t>()) + " of " +
       std::to_string(rep.published_rows) + " published rows\n";
  for (const auto& g : coverage["reasons"])
    t += "  " + pad(std::to_string(g["rows"].get<int64_t>()), 5) + g["reason"].get<std::string>() +
         "\n";
  t += "\nexcluded (" + std::to_string(rep.excluded.size()) + "):\n";
  for (const auto& x : rep.excluded) t += "  " + pad(x.row->id, 18) + x.reason + "\n";
  return t;
}

}  // namespace

namespace commands {

Response validate(const std::string& options_json, std::string_view published_json) {
  const bool blank = options_json.find_first_not_of(" \t\r\n") == std::string::npos;
  auto parsed =
      fields::parse_document(blank ? std::string("{}") : options_json, "validate options");
  if (!parsed.ok()) return fail(parsed.error());
  const json& q = parsed.value();
  if (!q.is_object()) return fail(make_error("", "validate options must be a JSON object"));
  Error err;
  if (!fields::check_keys(q, "", {"format", "source", "calibrated", "context", "runtimes"}, &err))
    return fail(err);
  ValidateOptions o;
  std::string format = "json";
  if (!fields::read_string(q, "format", "", &format, &err) ||
      !fields::read_string(q, "source", "", &o.source, &err) ||
      !fields::read_bool(q, "calibrated", "", &o.calibrated, &err) ||
      !fields::read_int(q, "context", "", 1, ConfigLimits::kMaxContext, &o.context, &err))
    return fail(err);
  if (format != "json" && format != "table")
    return fail(make_error("format", "must be \"json\" or \"table\", got \"" + format + "\""));
  if (q.contains("runtimes")) {
    const json& rt = q["runtimes"];
    if (!rt.is_object())
      return fail(make_error("runtimes", "must be an object {profile: {parameter: value}}"));
    for (const auto& [profile, params] : rt.items()) {
      const std::string path = "runtimes." + profile;
      if (profile != "hf-eager" && profile != "compiled" && profile != "vllm" &&
          profile != "sglang" && profile != "tensorrt-llm")
        return fail(make_error(
            path,
            "unknown runtime profile; expected hf-eager, vllm, sglang, tensorrt-llm or compiled"));
      if (!params.is_object())
        return fail(make_error(path, "must be an object {parameter: value}"));
      std::vector<std::pair<std::string, double>> list;
      for (const auto& [name, value] : params.items()) {
        RuntimeParams probe;
        if (!runtime_param(probe, name))
          return fail(make_error(path + "." + name, "unknown runtime parameter"));
        double x = 0;
        if (!fields::number_value(value, path + "." + name, 0, 1e3, &x, &err)) return fail(err);
        list.emplace_back(name, x);
      }
      o.runtimes.emplace_back(profile, list);
    }
  }
  auto rows = load_published(published_json);
  if (!rows.ok()) return fail(rows.error());
  auto rep = validate_rows(rows.value(), o);
  if (!rep.ok()) return fail(rep.error());
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  json cv = nullptr, engines = nullptr;
  if (o.source.empty() && o.runtimes.empty()) {
    auto c = cross_validation_json(catalog.value(), published_json);
    if (!c.ok()) return fail(c.error());
    cv = c.value();
    auto e = engine_rows_json(catalog.value(), published_json);
    if (!e.ok()) return fail(e.error());
    engines = e.value();
  }
  if (format == "table") {
    std::string t;
    if (!cv.is_null())
      t += "cross-validated (leave-one-source-out): MAPE " + pct(cv["mape_pct"].get<double>()) +
           "% over " + std::to_string(cv["rows"].get<int>()) + " rows; in-sample below\n";
    if (!engines.is_null()) {
      for (const auto& [engine, s] : engines["by_engine"].items())
        t += "engine " + engine + ": MAPE " + pct(s["mape_pct"].get<double>()) + "% over " +
             std::to_string(s["rows"].get<int>()) + " speedup rows\n";
      for (const auto& [family, s] : engines["by_family"].items())
        t += "engine rows, family " + family + ": MAPE " + pct(s["mape_pct"].get<double>()) +
             "% over " + std::to_string(s["rows"].get<int>()) + " rows\n";
    }
    return ok_json(t + report_text(rep.value(), o));
  }
  json out = report_json(rep.value(), o);
  if (!cv.is_null()) {
    // Each source's held-out error beside its in-sample one (the fold that left it out).
    auto held_out = [&cv](const std::string& source) {
      for (const auto& f : cv["by_source"])
        if (f["source"] == source)
          return json{{"profile", f["profile"]},
                      {"rows", f["rows"]},
                      {"mape_pct", f["mape_pct"]},
                      {"max_abs_error_pct", f["max_abs_error_pct"]},
                      {"mean_error_pct", f["mean_error_pct"]}};
      return json();
    };
    for (auto& s : out["sources"]) s["cross_validated"] = held_out(s["source_id"]);
    if (!engines.is_null())
      for (auto& [source, s] : engines["by_source"].items())
        s["cross_validated"] = held_out(source);
    out["cross_validation"] = cv;
  }
  if (!engines.is_null()) out["engines"] = engines;
  if (o.source.empty() && o.runtimes.empty()) {
    // The held-out error per engine profile and family that eval reports beside its speedup
    // (core/data/validation-bands.json holds a copy; validate_test keeps them equal).
    auto bands = validation_bands_json(catalog.value(), published_json);
    if (!bands.ok()) return fail(bands.error());
    out["bands"] = bands.value();
  }
  return ok_json(out.dump());
}

}  // namespace commands

json published_row_config(const PublishedRow& r) {
  if (!unmodelled_of(r).kind.empty()) return nullptr;
  return row_config(r, ValidateOptions{}, 0);
}

json published_row_use(const PublishedRow& r) {
  // A superseded leaderboard cell has a current version to use instead; a row without a
  // speedup has nothing to set the prediction beside; an unmodelled row has no config.
  Exclusion why;
  if (r.superseded)
    why = {"superseded", exclusion_of(r).reason};
  else
    why = unmodelled_of(r);
  if (why.kind.empty() && !r.speedup)
    why = {"no speedup", "no speedup reported: nothing to set the prediction beside"};
  if (why.kind.empty()) return json{{"ok", true}};
  return json{{"ok", false}, {"label", why.kind}, {"reason", why.reason}};
}

}  // namespace speccalc
