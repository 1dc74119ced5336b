#include "model/workload_bounds.hpp"

#include <cmath>

#include "config/json_fields.hpp"
#include "model/cycle_time.hpp"
#include "model/method_cost.hpp"
#include "model/trace_models.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

constexpr int64_t kTracedK = 8;  // the traces replay chains of k = 1..8
// Host time of one n-gram lookup when the best-of-two runs it beside the EAGLE head: the pld
// family's default draft_cpu_s (docs/config.md), not a measurement.
constexpr double kNgramLookupS = 0.0002;

std::string rounded(double x, double scale) {
  return fields::format_number(std::round(x * scale) / scale);
}

// The config's method as a chain of k drafts (pld: k; EAGLE: a top_k-1 tree of depth k).
Config with_chain(const Config& c, int64_t k) {
  Config out = c;
  MethodConfig& m = out.method;
  if (m.family == Family::pld) {
    m.k = k;
  } else if (m.family == Family::eagle1) {
    m.tree_preset.clear();
    m.choices.clear();
    for (int64_t d = 1; d <= k; ++d)
      m.choices.push_back(std::vector<int>(static_cast<std::size_t>(d), 0));
  } else {
    m.depth = k;
    m.total_token = k + 1;
    m.top_k = 1;
  }
  return out;
}

struct ChainTime {
  double draft_s = 0;  // draft passes (and host lookup) of a cycle
  double rest_s = 0;   // verify + engine step + speculative bookkeeping
  double baseline_step_s = 0;
  double cycle_s() const { return draft_s + rest_s; }
};

// One cycle of a chain of k drafts at tau (tau sets how many accepted tokens an EAGLE head
// re-reads), with the evaluation's (possibly calibrated) runtimes.
ChainTime chain_time(const Config& c, const Evaluation& e, int64_t k, double tau) {
  const Config ck = with_chain(c, k);
  const Machine target = machine_for(ck, e.runtime);
  const Machine draft = draft_machine_for(ck, e.draft_runtime);
  const CycleWork w =
      cycle_work(ck, placement_for(ck, target.tensor_parallel), tau, method_shape(ck, tau), true);
  const CycleTime t = time_cycle(w, target, draft, ck.batch);
  return ChainTime{t.draft.time_s, t.cycle_s - t.draft.time_s, t.baseline_step_s};
}

// A cycle that drafts `drafts` tokens on average: linear between the whole chains around it
// (exact where a pass's time is linear in its tokens, as SpecDecode-Bench's fitted vLLM step
// model is). EAGLE chains start at one draft.
ChainTime mean_chain_time(const Config& c, const Evaluation& e, double drafts, double tau) {
  const double lo = c.method.family == Family::pld ? 0.0 : 1.0;
  if (drafts < lo) drafts = lo;
  const auto k0 = static_cast<int64_t>(drafts);
  const double f = drafts - static_cast<double>(k0);
  const ChainTime a = chain_time(c, e, k0, tau);
  if (f <= 0) return a;
  const ChainTime b = chain_time(c, e, k0 + 1, tau);
  return ChainTime{(1 - f) * a.draft_s + f * b.draft_s, (1 - f) * a.rest_s + f * b.rest_s,
                   a.baseline_step_s};
}

std::string model_words(const TraceModel& m) {
  if (m.id == "runs")
    return "runs (an accepted run of a tokens gives acc_len a, a-1, ..., 1 at its positions, as "
           "a prompt-lookup match continues; the oracle's cycles are the runs, tau = 1 / h(1) "
           "with h the acc_len histogram over output positions)";
  return "independent cycles (each cycle starts afresh after a rejection with the k = 8 "
         "replay's conditional acceptance per position, the 8th beyond 8: the k = 8 chain grown "
         "without a cap)";
}

json model_json(const TraceModel& m) {
  json j = json{{"id", m.id}, {"consistent", m.consistent}};
  if (!m.consistent) {
    j["inconsistency"] = m.inconsistency;
    return j;
  }
  j["tau"] = m.oracle.mean();
  j["tau_by_k_predicted"] = m.tau_by_k;
  j["max_error_pct_vs_measured_tau_by_k"] = m.max_error_pct;
  return j;
}

json oracle_json(const Config& c, const Evaluation& e, const TraceModelChoice& choice,
                 double best_fixed_speedup, std::vector<std::string>* assumptions) {
  const double tau = choice.chosen.oracle.mean();
  const ChainTime t = mean_chain_time(c, e, tau - 1, tau);
  const double speedup = tau * t.baseline_step_s / t.cycle_s();
  json alt = model_json(choice.other);
  if (choice.other.consistent) {
    const double alt_tau = choice.other.oracle.mean();
    const ChainTime ta = mean_chain_time(c, e, alt_tau - 1, alt_tau);
    alt["speedup"] = alt_tau * ta.baseline_step_s / ta.cycle_s();
  }
  assumptions->push_back(
      "oracle bound (bounds.oracle): tokens per cycle from the " + model_words(choice.chosen) +
      ", the trace model that reproduces the measured tau of chains k = 1..8 best (max error " +
      rounded(choice.chosen.max_error_pct, 10) + "%); " +
      (choice.other.consistent ? "the " + choice.other.id + " model would give tau " +
                                     rounded(choice.other.oracle.mean(), 1000) + " (max error " +
                                     rounded(choice.other.max_error_pct, 10) + "%)"
                               : "the " + choice.other.id + " model does not fit these data: " +
                                     choice.other.inconsistency) +
      ". The oracle cycle drafts tau - 1 tokens and verifies tau, priced between whole chains "
      "(with a batch, an engine's EAGLE loop would run as many steps as the longest proposal; "
      "the bound assumes every sequence proposes the mean length)");
  return json{
      {"definition",
       "each cycle proposes exactly the tokens that will be accepted (acc_len - 1 drafts, all "
       "accepted) and verifies acc_len tokens: no wasted verification (SpecDecode-Bench's upper "
       "bound)"},
      {"tau", tau},
      {"drafts_per_cycle", tau - 1},
      {"cycle_time_s", t.cycle_s()},
      {"speedup", speedup},
      {"vs_this_k", speedup / e.speedup},
      {"vs_best_fixed_k", speedup / best_fixed_speedup},
      {"trace_model", model_json(choice.chosen)},
      {"alternative", alt},
      {"bucket_16_plus",
       "runs: the 16+ bucket's share over h(1) is the runs' mean excess over 15 tokens, kept "
       "whole (tau = 1 / h(1) does not depend on how it splits; a geometric tail with that sum "
       "serves the per-length sums); independent cycles: not used"}};
}

json best_of_two_json(const Config& c, const Evaluation& e, const TraceModelChoice& eagle,
                      const TraceModelChoice& ngram, std::vector<std::string>* assumptions) {
  const BestOfTwo b = best_of_two(eagle.chosen.oracle, ngram.chosen.oracle);
  json out = json{
      {"definition",
       "per cycle, the oracle proposal of whichever of the EAGLE head and the n-gram proposer "
       "would be accepted longer (SpecDecode-Bench's combined proposer)"},
      {"tau", json{{"comonotone", b.comonotone},
                   {"independent", b.independent},
                   {"countermonotone", b.countermonotone}}},
      {"couplings",
       "the traces give each proposer's acceptance alone, not jointly per position: comonotone "
       "(both good at the same cycles) is the least any joint gives, countermonotone (one good "
       "exactly where the other is bad) the most"}};
  assumptions->push_back(
      "best of two (bounds.best_of_two): the data hold each proposer's acceptance alone, not "
      "jointly, so tau is given for the comonotone coupling (" +
      rounded(b.comonotone, 1000) + ", the least possible), independence (" +
      rounded(b.independent, 1000) + ") and the countermonotone coupling (" +
      rounded(b.countermonotone, 1000) +
      ", the most possible); each cycle is taken to start where both proposers start afresh, "
      "with their oracle cycle distributions (EAGLE: " +
      eagle.chosen.id + ", n-gram: " + ngram.chosen.id + ")");
  if (c.method.family == Family::pld) {
    out["speedup_note"] =
        "an n-gram config does not price the EAGLE head; evaluate eagle1, eagle2 or eagle3 with "
        "this workload for the best-of-two speedup";
    return out;
  }
  // The EAGLE head proposes its own oracle length every cycle and the n-gram lookup runs beside
  // it; the target verifies the longer proposal.
  const double eagle_tau = eagle.chosen.oracle.mean();
  json speedup = json::object();
  for (const auto& [name, tau] : {std::pair<const char*, double>{"comonotone", b.comonotone},
                                  {"independent", b.independent},
                                  {"countermonotone", b.countermonotone}}) {
    const ChainTime draft = mean_chain_time(c, e, eagle_tau - 1, tau);
    const ChainTime verify = mean_chain_time(c, e, tau - 1, tau);
    const double cycle = draft.draft_s + kNgramLookupS + verify.rest_s;
    speedup[name] = tau * verify.baseline_step_s / cycle;
  }
  out["speedup"] = speedup;
  out["cost"] =
      "the EAGLE head drafts its own oracle length each cycle, the n-gram lookup adds 0.2 ms "
      "(the pld default), the target verifies the longer proposal";
  return out;
}

}  // namespace

Expected<json> workload_bounds(const Config& c, const Evaluation& e,
                               std::vector<std::string>* assumptions) {
  if (c.acceptance.workload.empty()) return json(nullptr);
  auto table = load_workloads();
  if (!table.ok()) return table.error();
  const Workload* w = table.value().find(c.acceptance.workload);
  if (!w) return make_error("acceptance.workload", "unknown workload");
  const bool eagle = c.method.family != Family::pld;
  const WorkloadProposer& p = eagle ? w->eagle : w->ngram;

  // An EAGLE-3 head on the EAGLE-head traces: each k's tau times the two heads' measured ratio
  // (as the acceptance itself, config/acceptance_parse.cpp scale_for_eagle3).
  const bool eagle3 =
      c.method.family == Family::eagle3 && table.value().eagle3_ratio_by_k.size() == kTracedK;
  json fixed = json::array();
  json best;
  for (int64_t k = 1; k <= kTracedK; ++k) {
    const double tau =
        eagle3 ? std::min(static_cast<double>(k + 1),
                          p.tau_by_k[k - 1] *
                              table.value().eagle3_ratio_by_k[static_cast<std::size_t>(k - 1)])
               : p.tau_by_k[k - 1];
    const ChainTime t = chain_time(c, e, k, tau);
    const double speedup = tau * t.baseline_step_s / t.cycle_s();
    json row = json{{"k", k}, {"tau", tau}, {"cycle_time_s", t.cycle_s()}, {"speedup", speedup}};
    if (best.is_null() || speedup > best["speedup"].get<double>()) best = row;
    fixed.push_back(row);
  }
  json out = json{{"what",
                   "what the workload's traces say beyond the configured k: every fixed chain "
                   "they cover, the oracle proposer and the best of the two proposers, priced "
                   "like the result above"},
                  {"workload", w->id},
                  {"proposer", eagle ? "eagle" : "ngram"},
                  {"fixed_k", fixed},
                  {"best_fixed_k", best}};
  if (eagle3) {
    out["note"] =
        "EAGLE-3: each fixed chain's tau is the EAGLE-head trace's times an EAGLE-3 head's "
        "measured ratio to it at that k; no oracle or best-of-two bound (the traces hold an EAGLE "
        "head's per-token acceptance, not an EAGLE-3 head's)";
    return out;
  }
  const TraceModelChoice mine = choose_trace_model(p);
  if (!mine.ok) {
    out["note"] = "no trace model fits this proposer's data: no oracle or best-of-two bound";
    return out;
  }
  out["oracle"] = oracle_json(c, e, mine, best["speedup"].get<double>(), assumptions);
  const TraceModelChoice ea = eagle ? mine : choose_trace_model(w->eagle);
  const TraceModelChoice ng = eagle ? choose_trace_model(w->ngram) : mine;
  if (ea.ok && ng.ok) out["best_of_two"] = best_of_two_json(c, e, ea, ng, assumptions);
  return out;
}

}  // namespace speccalc
