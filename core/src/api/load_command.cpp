// The `load` command and the load block of `eval`: the load model (model/load_model.hpp) for
// plain decoding and for the configured speculation, over a range of request rates.
#include <algorithm>
#include <cmath>

#include "api/commands.hpp"
#include "api/load_report.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "model/cycle_time.hpp"
#include "model/load_model.hpp"
#include "model/method_cost.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc {

using fields::json;

namespace {

// The mean context a decoding sequence attends and holds: its prompt plus half its output.
int64_t mean_context(const LoadConfig& l) {
  return static_cast<int64_t>(std::llround(l.input_tokens + 0.5 * l.output_tokens));
}

// The option's step at every decode batch 1..cap, from the same functions `eval` uses
// (cycle_work + time_cycle, after evaluate's calibration and tau at batch 1).
Expected<LoadOption> build_option(const Config& config, const std::string& name, int64_t k,
                                  double* prefill_s_per_token,
                                  double* request_overhead_s = nullptr) {
  const LoadConfig& l = config.load;
  Config c = config;
  c.batch = 1;
  c.context = mean_context(l);
  auto e = evaluate(c);
  if (!e.ok()) return e.error();
  LoadOption o;
  o.name = name;
  o.k = k;
  o.tau = e.value().tau;
  o.max_num_seqs = l.max_num_seqs;
  o.memory_seqs = e.value().memory.max_batch;
  const Machine target = machine_for(c, e.value().runtime);
  const Machine draft = draft_machine_for(c, e.value().draft_runtime);
  const Placement place = placement_for(c, target.tensor_parallel);
  const int64_t cap = std::max<int64_t>(1, o.seq_cap());
  o.step_s.resize(static_cast<std::size_t>(cap));
  const MethodShape shape = method_shape(c, o.tau);  // the same at every batch
  for (int64_t b = 1; b <= cap; ++b) {
    c.batch = b;
    const CycleWork w = cycle_work(c, place, o.tau, shape, false);
    if (b == 1) o.step_tokens_per_seq = w.has_verify ? w.verify.tokens_per_pass : 1;
    o.step_s[static_cast<std::size_t>(b - 1)] = time_cycle(w, target, draft, b).cycle_s;
  }
  if (request_overhead_s) *request_overhead_s = e.value().runtime.request_overhead_s;
  if (prefill_s_per_token) {
    // A prompt token's compute: the decoder over the prompt (causal attention within it) and
    // the LM head for the first output token, with no weight bytes (the step's decode pass
    // streams the weights) and no host overhead (the step pays it once).
    const auto tokens = std::max<int64_t>(1, std::llround(l.input_tokens));
    Work w = decoder_work(c.target, c.target.num_layers, 1, tokens, 0, 1, c.dtype, place.target);
    for (auto& kw : w.kernels) kw.weights_bytes = 0;
    Machine m = target;
    m.runtime.pass_overhead_s = 0;
    m.runtime.layer_overhead_s = 0;
    *prefill_s_per_token = time_pass(w, m).time_s / static_cast<double>(tokens);
  }
  return o;
}

Expected<Config> variant(const Config& config, const Catalog& catalog, const json& method,
                         bool keep_acceptance) {
  json doc = config_to_json(config);
  doc["method"] = method;
  if (!keep_acceptance) doc.erase("acceptance");
  return parse_config(doc, catalog);
}

// A chain of n EAGLE-1 nodes ([[0], [0, 0], ...]) drafts n tokens; a tree has no single k.
int64_t eagle1_chain_k(const MethodConfig& m) {
  for (std::size_t i = 0; i < m.choices.size(); ++i) {
    if (m.choices[i].size() != i + 1) return 0;
    for (int r : m.choices[i])
      if (r != 0) return 0;
  }
  return static_cast<int64_t>(m.choices.size());
}

// Draft lengths a schedule may pick: the method's own k field varied 1..8, for chain methods
// whose acceptance gives tau at every k (alpha, per-position, workload traces); a single
// measured tau says nothing about other k.
json method_with_k(const Config& c, int64_t k) {
  json m = config_to_json(c)["method"];
  switch (c.method.family) {
    case Family::pld:
    case Family::mtp:
      m["k"] = k;
      return m;
    case Family::sps:
      if (c.method.sps_tree != MethodConfig::SpsTree::chain) return json();
      m["k"] = k;
      return m;
    case Family::eagle1: {
      if (eagle1_chain_k(c.method) == 0) return json();
      json chain = json::array();
      for (int64_t i = 1; i <= k; ++i)
        chain.push_back(std::vector<int>(static_cast<std::size_t>(i), 0));
      m["choices"] = chain;
      return m;
    }
    case Family::eagle2:
    case Family::eagle3:
      if (c.method.top_k != 1) return json();
      m["depth"] = k;
      m["total_token"] = k + 1;
      return m;
    default:
      return json();
  }
}

int64_t chain_k(const Config& c) {
  switch (c.method.family) {
    case Family::eagle1:
      return eagle1_chain_k(c.method);
    case Family::sps:  // a token tree is no chain of k (its option is labelled "speculative")
      return c.method.sps_token_tree() ? 0 : c.method.k;
    case Family::pld:
    case Family::mtp:
      return c.method.k;
    case Family::eagle2:
    case Family::eagle3:
      return std::min(c.method.depth, c.method.total_token - 1);
    default:
      return 0;
  }
}

// The SLO's targets that are set (an unset one is absent, not null).
json slo_json(const LoadSlo& s) {
  json out = json::object();
  if (s.tpot_s > 0) out["tpot_s"] = s.tpot_s;
  if (s.ttft_s > 0) out["ttft_s"] = s.ttft_s;
  if (s.e2e_s > 0) out["e2e_s"] = s.e2e_s;
  return out;
}

json point_json(const LoadPoint& p) {
  json out = json{{"state", load_state_name(p.state)}, {"rate_rps", p.rate_rps}};
  if (p.state != LoadState::steady) {
    out["limit"] = p.limit;
    return out;
  }
  out["tpot_s"] = p.tpot_s;
  out["ttft_s"] = p.ttft_s;
  out["e2e_s"] = p.e2e_s;
  out["step_s"] = p.step_s;
  out["decode_batch"] = p.decode_batch;
  out["prefill_seqs"] = p.prefill_seqs;
  out["in_flight"] = p.in_flight;
  out["prefill_tokens_per_step"] = p.prefill_tokens_per_step;
  out["output_tokens_per_s"] = p.output_tokens_per_s;
  out["output_tokens_per_s_per_user"] = p.output_tokens_per_s_per_user;
  out["meets_slo"] = p.meets_slo;
  out["goodput_rps"] = p.goodput_rps;
  return out;
}

// Speculation stops paying where its TPOT reaches plain decoding's, or where it can no longer
// serve a rate plain decoding serves. Bisection between two rates that bracket the change.
bool spec_pays(const LoadOption& plain, const LoadOption& spec, const LoadRequests& r, double x) {
  const LoadSlo none;
  const LoadPoint a = solve_at_rate(plain, r, none, x);
  const LoadPoint b = solve_at_rate(spec, r, none, x);
  if (b.state != LoadState::steady) return false;
  if (a.state != LoadState::steady) return true;
  return b.tpot_s < a.tpot_s;
}

json crossover_json(const LoadOption& plain, const LoadOption& spec, const LoadRequests& r,
                    double plain_capacity, double spec_capacity) {
  const double top = std::max(plain_capacity, spec_capacity);
  if (top <= 0)
    return json{{"state", "does_not_fit"},
                {"what", "neither plain nor speculative decoding fits one sequence in memory"}};
  const double low = 1e-9 * top;
  if (!spec_pays(plain, spec, r, low))
    return json{{"state", "never_pays"},
                {"what", "speculation is slower than plain decoding even for one request alone"}};
  if (spec_pays(plain, spec, r, top))
    return json{{"state", "pays_at_every_rate"},
                {"what", "speculation is faster at every rate either setup serves"}};
  // The first rate on a fine grid where it stops paying, then bisection inside that interval.
  double lo = low, hi = top;
  constexpr int kGrid = 256;
  for (int i = 1; i <= kGrid; ++i) {
    const double x = top * i / kGrid;
    if (!spec_pays(plain, spec, r, x)) {
      hi = x;
      break;
    }
    lo = x;
  }
  for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (spec_pays(plain, spec, r, mid) ? lo : hi) = mid;
  }
  return json{{"state", "stops_paying"},
              {"rate_rps", lo},
              {"what",
               "above this request rate speculative decoding's time per output token exceeds "
               "plain decoding's (or it no longer keeps up)"}};
}

// The verdict at the load the user chose (the rate, or the concurrency): the two setups' time
// per output token there, or which of them keeps up.
json at_load_json(const LoadPoint& plain, const LoadPoint& spec, bool by_concurrency) {
  const bool p_ok = plain.state == LoadState::steady, s_ok = spec.state == LoadState::steady;
  json out = json{{"load", by_concurrency ? "concurrency" : "rate"}};
  if (p_ok && s_ok) {
    const bool pays = spec.tpot_s < plain.tpot_s;
    out["state"] = pays ? "pays" : "loses";
    // Plain decoding's TPOT over speculative decoding's: > 1 when speculation pays.
    out["tpot_speedup"] = plain.tpot_s / spec.tpot_s;
    out["what"] = std::string("speculative decoding's time per output token is ") +
                  (pays ? "lower" : "not lower") + " than plain decoding's";
  } else if (p_ok) {
    out["state"] = "only_plain_keeps_up";
    out["what"] = "speculative decoding cannot keep up; plain decoding does";
  } else if (s_ok) {
    out["state"] = "only_speculative_keeps_up";
    out["what"] = "plain decoding cannot keep up; speculative decoding does";
  } else {
    out["state"] = "neither_keeps_up";
    out["what"] = "neither setup keeps up";
  }
  return out;
}

// The smallest latency any option reaches: one request alone (rate -> 0).
struct Minimums {
  double tpot_s = 0, ttft_s = 0, e2e_s = 0;
};
Minimums minimums(const std::vector<LoadOption>& options, const LoadRequests& r) {
  Minimums m{1e300, 1e300, 1e300};
  const LoadSlo none;
  for (const LoadOption& o : options) {
    const LoadPoint p = solve_at_rate(o, r, none, 1e-12);
    if (p.state != LoadState::steady) continue;
    m.tpot_s = std::min(m.tpot_s, p.tpot_s);
    m.ttft_s = std::min(m.ttft_s, p.ttft_s);
    m.e2e_s = std::min(m.e2e_s, p.e2e_s);
  }
  if (m.tpot_s > 1e299) return Minimums{};  // nothing fits: no minimum (SLOs are not checked)
  return m;
}

Error below_minimum(const char* field, double slo, double minimum) {
  return make_error(field, "is " + fields::format_number(slo) + " s, below the physical minimum " +
                               fields::format_number(minimum) +
                               " s (one request alone on this setup, the faster of plain and "
                               "speculative decoding)");
}

// What the user's SLO means on this setup, said where a number alone would mislead. A TPOT target
// above the TPOT either setup reaches at its capacity rate (the slowest steady step: TPOT grows
// with the rate) never binds; one of 1 s or more is most likely milliseconds typed into this
// seconds field (a serving TPOT target is tens of milliseconds: "20" meant as 20 ms reads as 20 s
// per token).
json slo_notes(const LoadSlo& slo,
               const std::vector<std::pair<const LoadOption*, double>>& options_at_capacity,
               const LoadRequests& r) {
  json notes = json::array();
  if (!(slo.tpot_s > 0)) return notes;
  double slowest_tpot_s = 0;
  for (const auto& [o, capacity] : options_at_capacity) {
    const LoadPoint p = solve_at_rate(*o, r, LoadSlo{}, capacity);
    if (p.state == LoadState::steady) slowest_tpot_s = std::max(slowest_tpot_s, p.tpot_s);
  }
  if (!(slowest_tpot_s > 0) || slo.tpot_s <= slowest_tpot_s) return notes;
  std::string note =
      "the TPOT target (" + fields::format_seconds(slo.tpot_s) +
      " per output token) is above the TPOT at any load this setup serves (at most " +
      fields::format_seconds(slowest_tpot_s) + ", at its capacity): it never binds";
  if (slo.tpot_s >= 1)
    note += "; the field is in seconds: a " + fields::format_significant(slo.tpot_s) +
            " ms target is " + fields::format_number(slo.tpot_s / 1000);
  notes.push_back(note);
  return notes;
}

json curve_json(const std::vector<double>& rates, const LoadOption& o, const LoadRequests& r,
                const LoadSlo& slo) {
  json tpot = json::array(), ttft = json::array(), e2e = json::array(), tps = json::array(),
       per_user = json::array(), in_flight = json::array(), batch = json::array(),
       goodput = json::array(), state = json::array();
  for (double x : rates) {
    const LoadPoint p = solve_at_rate(o, r, slo, x);
    const bool ok = p.state == LoadState::steady;
    state.push_back(load_state_name(p.state));
    tpot.push_back(ok ? json(p.tpot_s) : json());
    ttft.push_back(ok ? json(p.ttft_s) : json());
    e2e.push_back(ok ? json(p.e2e_s) : json());
    tps.push_back(ok ? json(p.output_tokens_per_s) : json());
    per_user.push_back(ok ? json(p.output_tokens_per_s_per_user) : json());
    in_flight.push_back(ok ? json(p.in_flight) : json());
    batch.push_back(ok ? json(p.decode_batch) : json());
    goodput.push_back(ok ? json(p.goodput_rps) : json(0.0));
  }
  return json{{"state", state},
              {"tpot_s", tpot},
              {"ttft_s", ttft},
              {"e2e_s", e2e},
              {"output_tokens_per_s", tps},
              {"output_tokens_per_s_per_user", per_user},
              {"in_flight", in_flight},
              {"decode_batch", batch},
              {"goodput_rps", goodput}};
}

// By rate: the option with the lowest TPOT among those in steady state (every steady option
// serves the same tokens per second at a given rate, so latency decides).
// The lowest-TPOT option at rate x: its index (-1 when none keeps up) and its point there.
struct Choice {
  int index = -1;
  LoadPoint point;
};
Choice choice_at(const std::vector<LoadOption>& options, const LoadRequests& r, double x) {
  const LoadSlo none;
  Choice best;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const LoadPoint p = solve_at_rate(options[i], r, none, x);
    if (p.state != LoadState::steady) continue;
    if (best.index < 0 || p.tpot_s < best.point.tpot_s) best = Choice{static_cast<int>(i), p};
  }
  return best;
}

// Where the choice made at `inside` stops holding between inside and outside (the grid found it
// at inside and another at outside): bisection to 1e-12 relative. Returns the last rate that
// still has the choice (and that choice's point there).
Choice edge_of(const std::vector<LoadOption>& options, const LoadRequests& r, double inside,
               double outside, int index, double* edge_rps) {
  Choice keep = choice_at(options, r, inside);
  for (int i = 0; i < 200 && std::fabs(outside - inside) > 1e-12 * std::fabs(outside); ++i) {
    const double mid = 0.5 * (inside + outside);
    const Choice c = choice_at(options, r, mid);
    if (c.index == index) {
      inside = mid;
      keep = c;
    } else {
      outside = mid;
    }
  }
  *edge_rps = inside;
  return keep;
}

json schedule_json(const std::vector<double>& rates, const std::vector<LoadOption>& options,
                   const LoadRequests& r) {
  // The grid's samples, merged into runs of one choice.
  struct Run {
    int index;
    std::size_t first, last;  // grid indices
  };
  std::vector<Run> runs;
  for (std::size_t g = 0; g < rates.size(); ++g) {
    const int index = choice_at(options, r, rates[g]).index;
    if (!runs.empty() && runs.back().index == index)
      runs.back().last = g;
    else
      runs.push_back(Run{index, g, g});
  }
  // Each run's ends moved from the grid to where its choice really starts and stops (so the
  // last steady run ends at the capacity the summary gives, not at the grid point before it);
  // a choice too narrow for the grid stays a gap between two runs rather than being claimed.
  json out = json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    double from = rates[run.first], to = rates[run.last];
    Choice at_from = choice_at(options, r, from), at_to = choice_at(options, r, to);
    if (i > 0) at_from = edge_of(options, r, from, rates[runs[i - 1].last], run.index, &from);
    if (i + 1 < runs.size())
      at_to = edge_of(options, r, to, rates[runs[i + 1].first], run.index, &to);
    const int best = run.index;
    const std::string choice = best < 0 ? "over_capacity" : options[best].name;
    // `label`: the choice in words for a table; a segment no setting keeps up with has no
    // requests-in-flight range (nothing reaches a steady state there).
    const std::string label = best < 0          ? "over capacity: no setting keeps up"
                              : choice == "off" ? "don't speculate"
                                                : choice;
    json seg = json{{"from_rps", from}, {"to_rps", to}, {"choice", choice}, {"label", label}};
    if (best >= 0) {
      seg["k"] = options[best].k;
      seg["from_in_flight"] = at_from.point.in_flight;
      seg["to_in_flight"] = at_to.point.in_flight;
    }
    out.push_back(seg);
  }
  return out;
}

// Where an engine documents a switch by load. TensorRT-LLM's DecodingBaseConfig has
// max_concurrency ("speculation is disabled when the number of requests in flight exceeds it";
// nvidia.github.io/TensorRT-LLM, llm-api reference). vLLM's V0 speculative_disable_by_batch_size
// is gone from V1; newer vLLM documents a dynamic schedule by batch size whose value format we
// have not verified; SGLang documents none.
json export_json(const Config& config, const LoadPoint& at_crossover, bool has_crossover) {
  json out = json::object();
  const std::string& engine = config.engine.id;
  if (engine == "tensorrt-llm" && has_crossover && at_crossover.state == LoadState::steady) {
    const auto n = static_cast<int64_t>(std::floor(at_crossover.in_flight));
    out["tensorrt-llm"] =
        json{{"speculative_config", json{{"max_concurrency", std::max<int64_t>(1, n)}}},
             {"what", "speculation off above this many requests in flight (the crossover)"}};
  }
  out["note"] =
      "TensorRT-LLM: speculative_config.max_concurrency turns speculation off above a concurrency "
      "(exported when the engine is tensorrt-llm and a crossover exists). vLLM V1 and SGLang: no "
      "load-dependent switch exported (vLLM's V0 speculative_disable_by_batch_size was removed; "
      "its newer dynamic schedule's format is not checked here; SGLang documents none): apply the "
      "schedule by restarting with or without speculation.";
  return out;
}

}  // namespace

Expected<json> load_report(const Config& config, const Catalog& catalog, bool full) {
  const LoadConfig& l = config.load;
  const bool spec_method = config.method.family != Family::ar;
  auto plain_config = variant(config, catalog, json{{"family", "ar"}}, false);
  if (!plain_config.ok()) return plain_config.error();
  LoadRequests r;
  r.input_tokens = l.input_tokens;
  r.output_tokens = l.output_tokens;
  r.budget_tokens = l.max_num_batched_tokens;
  auto plain =
      build_option(plain_config.value(), "off", 0, &r.prefill_s_per_token, &r.request_overhead_s);
  if (!plain.ok()) return plain.error();
  std::vector<LoadOption> options{plain.value()};
  if (spec_method) {
    const int64_t k = chain_k(config);
    auto spec = build_option(config, k > 0 ? "k=" + std::to_string(k) : "speculative", k, nullptr);
    if (!spec.ok()) return spec.error();
    options.push_back(spec.value());
  }
  const LoadOption& p_opt = options.front();
  const LoadOption& s_opt = options.back();

  const Minimums mins = minimums(options, r);
  if (l.slo.tpot_s > 0 && l.slo.tpot_s < mins.tpot_s)
    return below_minimum("load.slo.tpot_s", l.slo.tpot_s, mins.tpot_s);
  if (l.slo.ttft_s > 0 && l.slo.ttft_s < mins.ttft_s)
    return below_minimum("load.slo.ttft_s", l.slo.ttft_s, mins.ttft_s);
  if (l.slo.e2e_s > 0 && l.slo.e2e_s < mins.e2e_s)
    return below_minimum("load.slo.e2e_s", l.slo.e2e_s, mins.e2e_s);

  const double plain_cap = capacity_rps(p_opt, r);
  const double spec_cap = spec_method ? capacity_rps(s_opt, r) : plain_cap;
  auto at = [&](const LoadOption& o) {
    return l.concurrency > 0 ? solve_at_concurrency(o, r, l.slo, l.concurrency)
                             : solve_at_rate(o, r, l.slo, l.rate_rps);
  };
  const LoadPoint plain_at = at(p_opt);
  const LoadPoint spec_at = at(s_opt);
  json out;
  out["mode"] = l.concurrency > 0 ? "concurrency" : "rate";
  out["inputs"] = json{{"input_tokens", l.input_tokens},
                       {"output_tokens", l.output_tokens},
                       {"mean_context_tokens", mean_context(l)},
                       {"max_num_seqs", l.max_num_seqs},
                       {"max_num_batched_tokens", l.max_num_batched_tokens},
                       {"prefill_s_per_token", r.prefill_s_per_token},
                       {"slo", slo_json(l.slo)},
                       {"minimum_tpot_s", mins.tpot_s},
                       {"minimum_ttft_s", mins.ttft_s},
                       {"minimum_e2e_s", mins.e2e_s}};
  if (r.request_overhead_s > 0) out["inputs"]["request_overhead_s"] = r.request_overhead_s;
  auto option_json = [&](const LoadOption& o, double cap, const LoadPoint& pt) {
    return json{{"name", o.name},
                {"k", o.k},
                {"tau", o.tau},
                {"step_tokens_per_seq", o.step_tokens_per_seq},
                {"max_num_seqs", o.max_num_seqs},
                {"memory_seqs", o.memory_seqs},
                {"seq_cap", o.seq_cap()},
                {"capacity_rps", cap},
                {"max_rate_meeting_slo_rps", max_rate_meeting_slo_rps(o, r, l.slo, cap)},
                {"at", point_json(pt)}};
  };
  out["plain"] = option_json(p_opt, plain_cap, plain_at);
  // Plain decoding alone (method ar): no speculative option and no crossover.
  json cross = json::object();
  if (spec_method) {
    out["speculative"] = option_json(s_opt, spec_cap, spec_at);
    cross = crossover_json(p_opt, s_opt, r, plain_cap, spec_cap);
    out["crossover"] = cross;
    out["at_load"] = at_load_json(plain_at, spec_at, l.concurrency > 0);
  }
  out["notes"] = spec_method ? slo_notes(l.slo, {{&p_opt, plain_cap}, {&s_opt, spec_cap}}, r)
                             : slo_notes(l.slo, {{&p_opt, plain_cap}}, r);
  if (!full) return out;

  // The curve: points evenly spaced up to curve_max_rps (default 1.2 x the larger capacity).
  const double top = l.curve_max_rps > 0 ? l.curve_max_rps : 1.2 * std::max(plain_cap, spec_cap);
  std::vector<double> rates(static_cast<std::size_t>(l.curve_points));
  for (std::size_t i = 0; i < rates.size(); ++i)
    rates[i] = top * static_cast<double>(i + 1) / static_cast<double>(rates.size());
  json curve = json{{"rates_rps", rates}, {"plain", curve_json(rates, p_opt, r, l.slo)}};
  if (spec_method) curve["speculative"] = curve_json(rates, s_opt, r, l.slo);
  out["curve"] = curve;

  // The schedule: plain decoding, the configured draft and, for chain methods whose acceptance
  // gives tau at every k, k = 1..8.
  std::vector<LoadOption> choices{p_opt};
  const bool vary_k = spec_method && config.acceptance.kind != Acceptance::Kind::tau &&
                      !config.acceptance.published && !method_with_k(config, 1).is_null();
  if (vary_k) {
    for (int64_t k = 1; k <= 8; ++k) {
      auto v = variant(config, catalog, method_with_k(config, k), true);
      if (!v.ok()) continue;  // e.g. per-position rates shorter than k
      auto o = build_option(v.value(), "k=" + std::to_string(k), k, nullptr);
      if (o.ok()) choices.push_back(o.value());
    }
  } else if (spec_method) {
    choices.push_back(s_opt);
  }
  out["schedule"] = schedule_json(rates, choices, r);
  out["schedule_considers"] = vary_k ? "plain decoding and k = 1..8"
                                     : "plain decoding and the configured method (its "
                                       "acceptance gives tau at its own draft shape only)";
  const bool has_cross = spec_method && cross.value("state", "") == "stops_paying";
  const LoadPoint at_cross =
      has_cross ? solve_at_rate(s_opt, r, l.slo, cross["rate_rps"].get<double>()) : LoadPoint{};
  out["export"] = export_json(config, at_cross, has_cross);
  out["assumptions"] = json::array(
      {"continuous batching in steady state, mean values: every request has the mean prompt and "
       "output length and sees the mean step; no queueing delay below capacity (real TTFT climbs "
       "before the capacity rate)",
       "a step decodes every sequence in flight (tau tokens each under speculation, bonus token "
       "included) and carries prompt chunks within max_num_batched_tokens; its time is eval's "
       "cycle at that decode batch (linear between integer batches) plus the prompt tokens' "
       "compute (no weight bytes: the step streams them once)",
       "decode attends the mean context: prompt + half the output",
       "memory: sequences in flight x (mean context + tokens in flight) of KV cache must fit; the "
       "cap is min(max_num_seqs, that)",
       "the first output token comes from the last prompt chunk; the other output_tokens - 1 "
       "take (output_tokens - 1) / tau steps; the draft's own prompt pass is not charged",
       "goodput: the rate when the mean request meets every SLO, else 0 (a mean-value model "
       "has no spread of latencies)"});
  return out;
}

namespace commands {

Response load(const std::string& config_json) {
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(config_json, catalog.value());
  if (!config.ok()) return fail(config.error());
  if (!config.value().load.present)
    return fail(make_error("load",
                           "is required: {rate_rps | concurrency, input_tokens, "
                           "output_tokens} or {..., workload}"));
  auto report = load_report(config.value(), catalog.value(), true);
  if (!report.ok()) return fail(report.error());
  return ok_json(report.value().dump());
}

}  // namespace commands

}  // namespace speccalc
