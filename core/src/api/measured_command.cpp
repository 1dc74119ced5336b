// `fit-measured`: calibrates a config to what users of serving engines actually measure
// and says how the prediction compares, before and after. It takes the text they paste:
//  - vLLM's spec-decode metrics log line (vllm/v1/spec_decode/metrics.py, SpecDecodingLogging.log:
//    "SpecDecoding metrics: Mean acceptance length: %.2f, Accepted throughput: %.2f tokens/s,
//    Drafted throughput: %.2f tokens/s, Accepted: %d tokens, Drafted: %d tokens, Per-position
//    acceptance rate: %s, Avg Draft acceptance rate: %.1f%%"; the mean acceptance length counts
//    the bonus token: 1 + accepted / drafts). Several lines: weighted by their Drafted tokens.
//  - SGLang's decode log line (python/sglang/srt/managers/scheduler.py, "Decode batch. ...
//    accept len: %.2f, ..."; accepted tokens per forward, bonus included). Several: the mean.
//  - `vllm bench serve`'s summary (vllm/benchmarks/serve.py: "Mean TPOT (ms): ..." and, with
//    speculative decoding, "Acceptance length: ...").
//  - or the numbers: "tau", "tpot_s" (seconds per output token of one sequence) or
//    "tokens_per_s" (output tokens per second of the whole batch at the config's batch).
// What they determine is fitted: tau (acceptance.tau) from an acceptance length, and the
// engine's speed from a TPOT or tokens/s (runtime.measured_decode_step_s solved by bisection
// so the predicted TPOT equals the measured one). The answer holds both predictions next to the
// measurement and the calibrated config.
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "api/commands.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc::commands {

using fields::json;

namespace {

constexpr double kTolerance = 0.005;  // relative: after calibrating, predicted = measured

// Every match of `pattern`'s first group as a number.
std::vector<double> numbers_after(const std::string& text, const std::regex& pattern) {
  std::vector<double> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
       it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1].str()));
  return out;
}

struct Measured {
  double tau = 0, tpot_s = 0;
  std::vector<std::string> sources;
};

bool read_text(const json& req, const char* key, std::string* out, Error* err) {
  if (!req.contains(key)) return true;
  if (!req[key].is_string()) {
    *err = make_error(key, "must be the pasted text (a string)");
    return false;
  }
  *out = req[key].get<std::string>();
  if (out->size() > 1000000) {
    *err = make_error(key, "is longer than 1,000,000 characters");
    return false;
  }
  return true;
}

// The key a pasted text plainly belongs to, by the line each tool prints: vLLM's
// "Mean acceptance length:", SGLang's "accept len:", vllm bench serve's "Mean TPOT (ms):" or
// "Acceptance length:"; "" when it shows none or more than one.
std::string paste_kind(const std::string& t) {
  const bool v = t.find("Mean acceptance length:") != std::string::npos;
  const bool s = t.find("accept len:") != std::string::npos;
  const bool b = t.find("Mean TPOT (ms):") != std::string::npos ||
                 t.find("Acceptance length:") != std::string::npos;
  if (static_cast<int>(v) + static_cast<int>(s) + static_cast<int>(b) != 1) return "";
  return v ? "vllm_log" : s ? "sglang_log" : "bench_serve";
}

bool parse_measurements(const json& req, int64_t batch, Measured* m, Error* err) {
  std::string vllm, sglang, bench;
  if (!read_text(req, "vllm_log", &vllm, err) || !read_text(req, "sglang_log", &sglang, err) ||
      !read_text(req, "bench_serve", &bench, err))
    return false;
  // A text given under one kind that is plainly another's is read as that one (the walk: a
  // `vllm bench serve` summary pasted under the default "vLLM log" answered "has no Mean
  // acceptance length"), said first among the sources.
  const char* keys[] = {"vllm_log", "sglang_log", "bench_serve"};
  std::string* texts[] = {&vllm, &sglang, &bench};
  for (int i = 0; i < 3; ++i) {
    if (texts[i]->empty()) continue;
    const std::string kind = paste_kind(*texts[i]);
    for (int j = 0; j < 3; ++j)
      if (j != i && kind == keys[j] && texts[j]->empty()) {
        *texts[j] = std::move(*texts[i]);
        texts[i]->clear();
        m->sources.push_back(std::string("the text given as ") + keys[i] + " is read as " +
                             keys[j] + " (it has that output's lines)");
      }
  }
  const std::string num = R"(([0-9]+(?:\.[0-9]+)?))";
  if (!vllm.empty()) {
    const auto lengths = numbers_after(vllm, std::regex("Mean acceptance length: " + num));
    const auto drafted = numbers_after(vllm, std::regex("Drafted: " + num + " tokens"));
    if (lengths.empty()) {
      *err = make_error("vllm_log",
                        "has no \"Mean acceptance length: X\" (vLLM's SpecDecoding "
                        "metrics log line)");
      return false;
    }
    double sum = 0, weight = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      const double w = drafted.size() == lengths.size() ? drafted[i] : 1.0;
      sum += w * lengths[i];
      weight += w;
    }
    if (weight <= 0) {
      *err = make_error("vllm_log", "drafted no tokens (Drafted: 0 tokens)");
      return false;
    }
    m->tau = sum / weight;
    m->sources.push_back(
        "tau " + fields::format_number(m->tau) + " = vLLM's mean acceptance length" +
        (lengths.size() > 1
             ? " over " + std::to_string(lengths.size()) + " log lines, weighted by drafted tokens"
             : std::string()));
  }
  if (!sglang.empty()) {
    const auto lengths = numbers_after(sglang, std::regex("accept len: " + num));
    if (lengths.empty()) {
      *err = make_error("sglang_log", "has no \"accept len: X\" (SGLang's decode log line)");
      return false;
    }
    double sum = 0;
    for (double x : lengths) sum += x;
    m->tau = sum / static_cast<double>(lengths.size());
    m->sources.push_back("tau " + fields::format_number(m->tau) + " = SGLang's accept len" +
                         (lengths.size() > 1
                              ? " (mean of " + std::to_string(lengths.size()) + " log lines)"
                              : std::string()));
  }
  if (!bench.empty()) {
    const auto tpot = numbers_after(bench, std::regex("Mean TPOT \\(ms\\):\\s*" + num));
    const auto len = numbers_after(bench, std::regex("Acceptance length:\\s*" + num));
    if (tpot.empty() && len.empty()) {
      *err = make_error("bench_serve",
                        "has neither \"Mean TPOT (ms):\" nor \"Acceptance length:\" "
                        "(the `vllm bench serve` summary)");
      return false;
    }
    if (!tpot.empty()) {
      m->tpot_s = tpot.back() / 1000;
      m->sources.push_back("TPOT " + fields::format_seconds(m->tpot_s) +
                           " = vllm bench serve's Mean TPOT");
    }
    if (!len.empty()) {
      m->tau = len.back();
      m->sources.push_back("tau " + fields::format_number(m->tau) +
                           " = vllm bench serve's Acceptance length");
    }
  }
  if (req.contains("tau")) {
    if (!fields::number_value(req["tau"], "tau", 1, 1000, &m->tau, err)) return false;
    m->sources.push_back("tau " + fields::format_number(m->tau) + " given");
  }
  if (req.contains("tpot_s")) {
    if (!fields::number_value(req["tpot_s"], "tpot_s", 1e-6, 100, &m->tpot_s, err)) return false;
    m->sources.push_back("TPOT " + fields::format_seconds(m->tpot_s) + " given");
  }
  if (req.contains("tokens_per_s")) {
    double tps = 0;
    if (!fields::number_value(req["tokens_per_s"], "tokens_per_s", 1e-3, 1e9, &tps, err))
      return false;
    m->tpot_s = static_cast<double>(batch) / tps;
    // In the unit people read (the walk: "TPOT 0.004761904761904762 s = batch 1 / 210").
    m->sources.push_back("TPOT " + fields::format_seconds(m->tpot_s) + " = batch " +
                         std::to_string(batch) + " / " + fields::format_number(tps) + " tokens/s");
  }
  if (m->tau == 0 && m->tpot_s == 0) {
    *err = make_error("",
                      "give at least one measurement: vllm_log, sglang_log, bench_serve, tau, "
                      "tpot_s or tokens_per_s");
    return false;
  }
  return true;
}

json prediction(const Evaluation& e) {
  return json{{"tau", e.tau},
              {"tpot_s", e.cycle_time_s / e.tau},
              {"tokens_per_s", e.tokens_per_s},
              {"speedup", e.speedup}};
}

}  // namespace

Response calibrate_measured(const std::string& input) {
  auto parsed = fields::parse_document(input, "the fit-measured request", 16);
  if (!parsed.ok()) return fail(parsed.error());
  const json& req = parsed.value();
  if (!req.is_object())
    return fail(make_error("", "the fit-measured request must be a JSON object"));
  Error err;
  if (!fields::check_keys(
          req, "",
          {"config", "vllm_log", "sglang_log", "bench_serve", "tau", "tpot_s", "tokens_per_s"},
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
  if (config.value().method.family == Family::ar)
    return fail(make_error("config.method.family", "is ar: calibrate a speculative method"));
  Measured m;
  if (!parse_measurements(req, config.value().batch, &m, &err)) return fail(err);
  auto before = evaluate(config.value());
  if (!before.ok()) return fail(before.error());

  json doc = config_to_json(config.value());
  if (m.tau > 0) doc["acceptance"] = json{{"tau", m.tau}};
  // A measured tau the config's draft cannot yield is the measurement's error, not the config's.
  auto tau_error = [](Error e) {
    if (e.field.rfind("acceptance", 0) == 0) e.field = "tau";
    return fail(e);
  };
  auto with_tau = parse_config(doc, catalog.value());
  if (!with_tau.ok()) return tau_error(with_tau.error());
  auto after = evaluate(with_tau.value());
  if (!after.ok()) return tau_error(after.error());
  if (m.tpot_s > 0) {
    // Predicted TPOT grows with the plain-decode step the runtime is calibrated to (a slower
    // step lowers the fitted bandwidth efficiency of every pass): bisect on its logarithm.
    json runtime = json{{"profile", with_tau.value().runtime.profile},
                        {"measured_decode_batch", with_tau.value().batch}};
    auto tpot_at = [&](double step_s, Evaluation* out) {
      json d = doc;
      json r = runtime;
      r["measured_decode_step_s"] = step_s;
      d["runtime"] = r;
      auto c = parse_config(d, catalog.value());
      if (!c.ok()) return -1.0;
      auto e = evaluate(c.value());
      if (!e.ok()) return -1.0;  // faster than the GPU's bandwidth allows
      if (out) *out = e.value();
      return e.value().cycle_time_s / e.value().tau;
    };
    // The config field allows 1e-6..100 s, and a calibration at most 100 x the profile's own
    // step (model/cost_plan.cpp): the search stays just inside both.
    const double slowest_s = std::min(99.0, 99.9 * after.value().baseline_step_s);
    double lo = std::log(1e-6), hi = std::log(slowest_s);
    if (tpot_at(std::exp(hi), nullptr) < m.tpot_s)
      return fail(make_error("tpot_s", "is slower than any plain-decode step up to " +
                                           fields::format_seconds(slowest_s) +
                                           " (100 x this engine profile's) explains"));
    for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
      const double mid = (lo + hi) / 2;
      const double t = tpot_at(std::exp(mid), nullptr);
      if (t < 0 || t < m.tpot_s)
        lo = mid;
      else
        hi = mid;
    }
    Evaluation fitted;
    if (tpot_at(std::exp(hi), &fitted) < 0)
      return fail(make_error("tpot_s",
                             "is faster than this GPU's memory bandwidth allows for "
                             "this model, batch and method"));
    after = fitted;
    runtime["measured_decode_step_s"] = std::exp(hi);
    doc["runtime"] = runtime;
  }
  json measured = json::object();
  if (m.tau > 0) measured["tau"] = m.tau;
  if (m.tpot_s > 0) {
    measured["tpot_s"] = m.tpot_s;
    measured["tokens_per_s"] = static_cast<double>(config.value().batch) / m.tpot_s;
  }
  const Evaluation& a = after.value();
  bool agree = true;
  if (m.tau > 0) agree = agree && std::fabs(a.tau - m.tau) <= kTolerance * m.tau;
  if (m.tpot_s > 0)
    agree = agree && std::fabs(a.cycle_time_s / a.tau - m.tpot_s) <= kTolerance * m.tpot_s;
  json out = json{
      {"measured", measured},   {"sources", m.sources},    {"before", prediction(before.value())},
      {"after", prediction(a)}, {"tolerance", kTolerance}, {"agree", agree},
      {"config", doc}};
  return ok_json(out.dump());
}

}  // namespace speccalc::commands
