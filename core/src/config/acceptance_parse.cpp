#include "config/acceptance_parse.hpp"

#include <algorithm>

#include "config/draft_size_alpha.hpp"
#include "config/early_exit_alpha.hpp"
#include "config/families.hpp"
#include "config/json_fields.hpp"
#include "config/paper_tree.hpp"
#include "config/tree_input.hpp"
#include "speccalc/presets.hpp"
#include "speccalc/published_tau.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc {

std::string assumed_alpha_basis(const std::string& why) {
  return "assumed: per-token acceptance " + fields::format_number(kDefaultAlpha) + why;
}

using fields::json;

namespace {

const char kKeys[] = "tau, alpha, per_position, p, medusa, workload, published";

// One per-token acceptance as the acceptance rows a band end holds (alpha in [0, 1]).
std::vector<std::vector<double>> alpha_rows(double alpha) {
  auto mat = tree::acceptance_from_alpha(alpha, "acceptance.alpha");
  return mat.ok() ? mat.value().rows : std::vector<std::vector<double>>{};
}

// Which workload column a family reads and the chain length k it drafts; false with *err
// naming the field when the data (chains of k = 1..8, EAGLE head or n-gram) does not cover it.
bool workload_column(const MethodConfig& m, bool* eagle, int64_t* k, Error* err) {
  const std::string field = "acceptance.workload";
  switch (m.family) {
    case Family::pld:
      *eagle = false;
      *k = m.k;
      break;
    case Family::eagle1: {
      // Only a chain ([[0], [0, 0], ...]) matches the measured chain drafts.
      bool chain = true;
      for (std::size_t i = 0; i < m.choices.size(); ++i) {
        chain = chain && m.choices[i].size() == i + 1 &&
                std::all_of(m.choices[i].begin(), m.choices[i].end(), [](int r) { return r == 0; });
      }
      if (!chain) {
        *err = make_error("method.choices",
                          "is a tree, but workload acceptance is measured with chain drafts; use a "
                          "chain of k nodes ([[0], [0, 0], ...]) or give acceptance.tau");
        return false;
      }
      *eagle = true;
      *k = static_cast<int64_t>(m.choices.size());
      break;
    }
    case Family::eagle2:
    case Family::eagle3:
      if (m.top_k != 1) {
        *err = make_error("method.top_k",
                          "is " + std::to_string(m.top_k) +
                              ", but workload acceptance is measured with chain drafts (top_k 1)");
        return false;
      }
      *eagle = true;
      *k = std::min(m.depth, m.total_token - 1);
      break;
    default:
      *err = make_error(field, std::string("has no data for family ") + family_name(m.family) +
                                   "; the workload traces cover EAGLE heads (eagle1, eagle2, "
                                   "eagle3) and n-gram lookup (pld)");
      return false;
  }
  if (*k < 1 || *k > 8) {
    *err = make_error(
        m.family == Family::pld ? "method.k" : field,
        "drafts " + std::to_string(*k) + " tokens per cycle; the workload traces cover k = 1..8");
    return false;
  }
  return true;
}

// An EAGLE-3 head on the traces' EAGLE-head column: tau and its spread times the ratio of the two
// heads' tau at this k, measured on the same stack and target (workloads.json
// eagle3_vs_eagle_head: vLLM issue #20780, MT-Bench), a spread end held at k + 1 (every draft
// accepted). Returns the sentence that says so ("" for other families).
std::string scale_for_eagle3(const WorkloadTable& t, const MethodConfig& m, int64_t k,
                             Acceptance* a) {
  if (m.family != Family::eagle3 || t.eagle3_ratio_by_k.size() != 8 || k < 1 || k > 8) return "";
  const double r = t.eagle3_ratio_by_k[static_cast<std::size_t>(k - 1)];
  const double top = static_cast<double>(k + 1);
  a->tau = std::min(top, a->tau * r);
  if (a->tau_p5 > 0) a->tau_p5 = std::min(top, a->tau_p5 * r);
  if (a->tau_p50 > 0) a->tau_p50 = std::min(top, a->tau_p50 * r);
  if (a->tau_p95 > 0) a->tau_p95 = std::min(top, a->tau_p95 * r);
  return "; EAGLE-3: the traces measured an EAGLE head, so tau and its spread are x" +
         fields::format_significant(r) +
         ", an EAGLE-3 head's tau over an EAGLE head's at k = " + std::to_string(k) +
         " on the same stack and target (" + t.eagle3_ratio_source + ")";
}

bool parse_workload(const json& v, const std::string& path, Config* c, Error* err) {
  auto table = load_workloads();
  if (!table.ok()) {
    *err = table.error();
    return false;
  }
  if (!v.is_string()) {
    *err = make_error(path, "must be a workload id (" + table.value().ids() + ")");
    return false;
  }
  const Workload* w = table.value().find(v.get<std::string>());
  if (!w) {
    *err = make_error(path, "unknown workload; known: " + table.value().ids());
    return false;
  }
  bool eagle = false;
  int64_t k = 0;
  if (!workload_column(c->method, &eagle, &k, err)) return false;
  const WorkloadProposer& p = eagle ? w->eagle : w->ngram;
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::tau;
  a.workload = w->id;
  a.tau = p.tau_by_k[k - 1];
  a.tau_p5 = p.per_request[k - 1].p5;
  a.tau_p50 = p.per_request[k - 1].p50;
  a.tau_p95 = p.per_request[k - 1].p95;
  a.note = "tau " + fields::format_significant(a.tau) + " for " + w->name +
           " at k = " + std::to_string(k) + " (" + (eagle ? "EAGLE head" : "n-gram proposer") +
           "; per-request p5/p50/p95 " + fields::format_number(a.tau_p5) + "/" +
           fields::format_number(a.tau_p50) + "/" + fields::format_number(a.tau_p95) +
           "), measured on " + table.value().target + " in " + table.value().engine + " (" +
           table.value().source + ")";
  if (c->target.id != table.value().target)
    a.note += "; applied to " + c->target.name + " as if its acceptance were the same";
  const std::string eagle3 = scale_for_eagle3(table.value(), c->method, k, &a);
  if (!eagle3.empty()) {
    // The note's numbers above are the EAGLE head's, as traced; the scaled ones are a's.
    a.note += eagle3 + ": tau " + fields::format_significant(a.tau) + ", p5/p50/p95 " +
              fields::format_significant(a.tau_p5) + "/" + fields::format_significant(a.tau_p50) +
              "/" + fields::format_significant(a.tau_p95);
  }
  a.basis = "measured: " + w->name + " traces (" + table.value().target + ", " +
            table.value().engine + ")" + (eagle3.empty() ? "" : ", scaled to an EAGLE-3 head");
  return true;
}

// The chain length k an EAGLE config drafts (eagle1: a chain of choices; eagle2/3: top_k 1),
// 0 when it drafts a tree.
int64_t eagle_chain_k(const MethodConfig& m) {
  if (m.family == Family::eagle1) {
    for (std::size_t i = 0; i < m.choices.size(); ++i)
      if (m.choices[i].size() != i + 1 ||
          !std::all_of(m.choices[i].begin(), m.choices[i].end(), [](int r) { return r == 0; }))
        return 0;
    return static_cast<int64_t>(m.choices.size());
  }
  if ((m.family == Family::eagle2 || m.family == Family::eagle3) && m.top_k == 1)
    return std::min(m.depth, m.total_token - 1);
  return 0;
}

// The vLLM traces were measured on this target with this proposer as a chain of k (n-gram
// lookup = pld, an EAGLE head drafting a chain): tau = the mean over the traced workloads at k
// (k > 8: the k = 8 value, a lower bound since tau grows with k), and the spread = the lowest
// per-request p5 and the highest p95 over the workloads. For pld only when no published row
// matches; for an EAGLE chain before the published rows, which are research-code trees up to
// depth 8 that a chain of k cannot reach.
bool trace_tau(Config* c) {
  const MethodConfig& m = c->method;
  auto table = load_workloads();
  if (!table.ok() || !c->target_preset || c->target.id != table.value().target ||
      table.value().workloads.empty())
    return false;
  const bool eagle = m.family != Family::pld;
  const int64_t chain_k = eagle ? eagle_chain_k(m) : m.k;
  if (chain_k < 1) return false;
  const int64_t k = std::min<int64_t>(chain_k, 8);
  double sum = 0, low = 0, high = 0;
  std::string names;
  for (const auto& w : table.value().workloads) {
    const WorkloadProposer& p = eagle ? w.eagle : w.ngram;
    sum += p.tau_by_k[k - 1];
    low = names.empty() ? p.per_request[k - 1].p5 : std::min(low, p.per_request[k - 1].p5);
    high = std::max(high, p.per_request[k - 1].p95);
    names += (names.empty() ? "" : ", ") + w.name;
  }
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::tau;
  a.tau = sum / static_cast<double>(table.value().workloads.size());
  a.tau_p5 = low;
  a.tau_p95 = high;
  const double traced_tau = a.tau;
  const std::string eagle3 = scale_for_eagle3(table.value(), m, k, &a);
  a.spread_label = "over requests (lowest p5 to highest p95 of the traced workloads)";
  a.basis = "measured: mean of the vLLM " + std::string(eagle ? "EAGLE-head" : "n-gram") +
            " traces at k = " + std::to_string(k) +
            (eagle3.empty() ? "" : ", scaled to an EAGLE-3 head");
  const std::string family = family_name(m.family);
  a.note =
      (eagle ? "tau from the vLLM EAGLE-head traces (chains of k, as vLLM drafts)"
             : "no published tau for pld on " + c->target.id) +
      // 4 significant digits: the traces' means carry float noise ("1.5736500000000002").
      "; tau " + fields::format_significant(traced_tau, 4) + " = mean over the vLLM " +
      (eagle ? "EAGLE-head" : "n-gram") + " traces of " + names + " at k = " + std::to_string(k) +
      (chain_k > 8
           ? " (the traces stop at k = 8; a lower bound for k = " + std::to_string(chain_k) + ")"
           : std::string()) +
      ", per-request spread " + fields::format_number(low) + "-" + fields::format_number(high) +
      " (core/data/workloads.json, " + table.value().source + ")" +
      (eagle3.empty() ? std::string()
                      : eagle3 + ": tau " + fields::format_significant(a.tau) + ", spread " +
                            fields::format_significant(a.tau_p5) + "-" +
                            fields::format_significant(a.tau_p95));
  return true;
}

// Acceptance a model's own report publishes for its multi-token prediction module (no row of
// the published table). DeepSeek-V3 Technical Report (DeepSeek-AI, arXiv 2412.19437v1, section
// 5.4.3 "Multi-Token Prediction Evaluation"): "the acceptance rate of the second token
// prediction ranges between 85% and 90% across various generation topics" (one MTP module,
// k = 1), so tau = 1 + 0.85 .. 1 + 0.90, mean 1.875.
// DeepSeek-R1, V3.1 and V3.2 ship the same single MTP module on V3's base (config.json
// num_nextn_predict_layers 1, V3's layer shapes) and publish no rate of their own: V3's report
// is the nearest measurement, said so beside the number.
constexpr double kV3SecondTokenLow = 0.85, kV3SecondTokenHigh = 0.90;
constexpr double kV3SecondToken = (kV3SecondTokenLow + kV3SecondTokenHigh) / 2;  // 0.875

bool deepseek_v3_mtp(const Config& c) {
  const std::string& id = c.target.id;
  return c.target_preset && (id == "deepseek-v3" || id == "deepseek-r1" || id == "deepseek-v3.1" ||
                             id == "deepseek-v3.2");
}

// "" for DeepSeek-V3 itself; for its siblings, the assumption that carries V3's rate over.
std::string v3_rate_assumed(const Config& c) {
  return c.target.id == "deepseek-v3"
             ? std::string()
             : "; " + c.target.id +
                   " publishes none of its own: V3's, assumed alike (same module on V3's base)";
}

bool model_card_tau(Config* c) {
  const MethodConfig& m = c->method;
  if (m.family != Family::mtp || !deepseek_v3_mtp(*c) || m.k != 1) return false;
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::tau;
  a.tau_p5 = 1 + kV3SecondTokenLow;  // 1.85 and 1.90 exactly, as written before
  a.tau_p95 = 1 + kV3SecondTokenHigh;
  a.tau = (a.tau_p5 + a.tau_p95) / 2;
  a.spread_label = "over the report's 85–90% second-token acceptance";
  a.basis = c->target.id == "deepseek-v3"
                ? "reported: DeepSeek-V3's 85–90% second-token acceptance"
                : "reported for DeepSeek-V3 (85–90% second token), assumed for this model";
  a.note = "tau " + fields::format_number(a.tau) +
           " = 1 + the second-token acceptance 85-90% (midpoint) the DeepSeek-V3 Technical "
           "Report gives for its MTP module (arXiv 2412.19437, section 5.4.3), k = 1" +
           v3_rate_assumed(*c);
  return true;
}

// Per-position acceptance of a single MTP module run k times (vLLM, SGLang). SpecDecode-Bench
// (Liu et al., arXiv 2601.11580; production-engines.json specdecode_bench facts[7]) measured
// GLM-4.5-Air's released MTP head at k = 3 on GPQA-Main: vLLM's per-position rates 0.92, 0.68,
// 0.38 (position i accepted, so unconditional), i.e. conditional 0.92, 0.68 / 0.92, 0.38 / 0.68.
constexpr double kGlmMtpPositions[] = {0.92, 0.68, 0.38};

// GLM-4.5-Air at any k, and DeepSeek-V3 at k > 1 (its report gives only the second token's
// 85-90 %; later positions take GLM's measured conditional decay, said so): a chain of
// conditional rates. Positions past the third repeat the third's rate (not measured). Any other
// model with an MTP module (a preset or a config.json: Qwen3.5, GLM-5, MiniMax-M2.5, GLM-4.6)
// publishes no rate: it takes the two models' measurements pooled, each weighted alike (the
// rule of published_tau_other_models): first position the mean of V3's 0.875 and GLM's 0.92,
// its band their extremes 0.85-0.92, later positions GLM's decay.
bool mtp_positions_tau(Config* c) {
  const MethodConfig& m = c->method;
  if (m.family != Family::mtp) return false;
  const bool glm = c->target_preset && c->target.id == "glm-4.5-air";
  const bool deepseek = deepseek_v3_mtp(*c) && m.k > 1;
  const bool pooled = !glm && !deepseek_v3_mtp(*c) && c->target.mtp_modules > 0;
  if (!glm && !deepseek && !pooled) return false;
  auto rates = [&](double first) {
    std::vector<double> r;
    for (int64_t i = 0; i < m.k; ++i) {
      const int64_t j = std::min<int64_t>(i, 2);
      r.push_back(j == 0 ? first : kGlmMtpPositions[j] / kGlmMtpPositions[j - 1]);
    }
    return r;
  };
  Acceptance& a = c->acceptance;
  a.kind = Acceptance::Kind::per_position;
  const double first = glm      ? kGlmMtpPositions[0]
                       : pooled ? (kV3SecondToken + kGlmMtpPositions[0]) / 2
                                : kV3SecondToken;
  a.per_position = rates(first);
  const std::string glm_source =
      "SpecDecode-Bench's GLM-4.5-Air MTP head at k = 3 on GPQA-Main (arXiv 2601.11580): "
      "per-position acceptance 0.92, 0.68, 0.38, conditional 0.92, 0.739, 0.559";
  const std::string beyond =
      m.k > 3 ? "; positions 4-" + std::to_string(m.k) + " repeat the third's 0.559 (not measured)"
              : std::string();
  if (glm) {
    a.note = "conditional acceptance per position from " + glm_source + beyond;
    a.basis = "measured: per position (SpecDecode-Bench, k = 3)" +
              std::string(m.k > 3 ? "; later positions assumed" : "");
    return true;
  }
  // The band's two ends as matrices, built as per_position acceptances are.
  for (double end : {kV3SecondTokenLow, pooled ? kGlmMtpPositions[0] : kV3SecondTokenHigh}) {
    auto ends = tree::acceptance_from_per_position(rates(end), "acceptance.per_position");
    if (ends.ok()) (end < first ? a.band_low : a.band_high) = ends.value().rows;
  }
  if (pooled) {
    a.guessed = true;
    a.spread_label = "over the two models' first-position rates (0.85–0.92)";
    a.basis = "assumed from 2 other models' MTP measurements, none for this one";
    a.note = "no published MTP acceptance for " +
             (c->target_preset ? c->target.id : std::string("this custom target")) +
             "; first position " + fields::format_number(first) +
             ", the mean of DeepSeek-V3's reported 85-90% (0.875; arXiv 2412.19437, section 5.4.3) "
             "and " +
             glm_source + beyond + ", assumed for this model";
    return true;
  }
  a.spread_label = "over the report's 85–90% second-token acceptance";
  a.basis = c->target.id == "deepseek-v3"
                ? "reported: first position 85–90% (DeepSeek-V3); later positions assumed"
                : "reported for DeepSeek-V3 (first position 85–90%), assumed for this model";
  a.note =
      "first position 0.875, the midpoint of the 85-90% second-token acceptance the "
      "DeepSeek-V3 Technical Report gives for its MTP module (arXiv 2412.19437, section "
      "5.4.3); later positions are not reported: they take the conditional decay of " +
      glm_source + " (another model's MTP head, an assumption)" + beyond + v3_rate_assumed(*c);
  return true;
}

// Acceptance from the published table: the mean tau of the matching rows, or the default
// alpha (said so) when none match.
void use_published(Config* c) {
  Acceptance& a = c->acceptance;
  a.published = true;
  const MethodConfig& m = c->method;
  if (m.family == Family::ar) return;  // one token per step whatever the acceptance
  // A trace or a model card gives tau at its own sampling settings: said when they may differ.
  const std::string unadjusted = c->temperature > 0
                                     ? "; not adjusted to this config's temperature " +
                                           fields::format_number(c->temperature) +
                                           " (the source's own sampling)"
                                     : std::string();
  // The tau card says it too, in its few words.
  const std::string unadjusted_basis =
      c->temperature > 0 ? " (the source's sampling, not this temperature)" : std::string();
  if ((m.family != Family::pld && trace_tau(c)) || model_card_tau(c) || mtp_positions_tau(c)) {
    a.note += unadjusted;
    a.basis += unadjusted_basis;
    return;
  }
  const std::string family = family_name(m.family);
  // Sampled requests take the rows measured at temperature 1; where none are stored, the
  // greedy rows, said so (sampling usually accepts fewer tokens than greedy decoding).
  const bool sampled = c->temperature > 0;
  // Published rows name preset models: a custom target or an SpS draft of your own has none
  // (even one named like a preset).
  const bool presets = c->target_preset && (m.family != Family::sps || m.draft_preset);
  PublishedTau pub =
      presets ? published_tau(family, c->target.id, m.draft, sampled) : PublishedTau{};
  std::string temperature_note;
  bool greedy_rows = false;
  const std::string greedy_note =
      "; no published rows at temperature > 0 for this method and model: "
      "the greedy rows' tau, which sampling at temperature " +
      fields::format_number(c->temperature) + " usually lowers";
  if (sampled && !pub.found && presets) {
    pub = published_tau(family, c->target.id, m.draft, false);
    greedy_rows = pub.found;
    if (pub.found) temperature_note = greedy_note;
  } else if (sampled && pub.found) {
    temperature_note =
        "; rows at temperature 1 (the only sampled temperature the sources "
        "report) for this config's temperature " +
        fields::format_number(c->temperature);
  }
  const std::string what = family + (m.family == Family::sps ? " with draft " + m.draft : "") +
                           " on " + (c->target_preset ? c->target.id : "a custom target");
  if (!pub.found && m.family == Family::pld && trace_tau(c)) {
    a.note += unadjusted;
    a.basis += unadjusted_basis;
    return;
  }
  if (!pub.found && m.family == Family::sps && !m.draft.empty()) {
    // A draft model with no published tau on this target: the default follows its size.
    const double target_params = static_cast<double>(count_params(c->target).total);
    const double draft_params = static_cast<double>(count_params(m.draft_model).total);
    if (target_params > 0 && draft_params > 0) {
      const DraftSizeAlpha d = draft_size_alpha(draft_params / target_params);
      a.guessed = true;
      a.alpha = d.alpha;
      a.band_low = alpha_rows(std::max(0.01, d.low));
      a.band_high = alpha_rows(d.high);
      a.spread_label = "as far as the draft-size default may be off (alpha " +
                       fields::format_significant(std::max(0.01, d.low)) + "–" +
                       fields::format_significant(d.high) + ")";
      a.basis = "assumed from the draft's size: per-token acceptance " +
                fields::format_significant(d.alpha) + " for a draft " +
                fields::format_significant(d.ratio) + " x the target's parameters" +
                (d.clamped ? " (outside the fitted sizes: the nearest end)" : "") +
                ", no published data for this pair";
      a.note = "no published tau for " + what + " (core/data/published.json); " +
               draft_size_alpha_source() + "; not from data for this pair";
      return;
    }
  }
  if (!pub.found && m.family == Family::layerskip) {
    // An early exit with no published tau: its depth sets the default, inside the band between
    // an untrained exit and a draft trained at its size (config/early_exit_alpha.hpp).
    const EarlyExitAlpha e = early_exit_alpha(c->target, m.exit_layer);
    a.guessed = true;
    a.alpha = e.alpha;
    a.band_low = alpha_rows(e.low);
    a.band_high = alpha_rows(e.high);
    const std::string layers = std::to_string(m.exit_layer) + " of the target's " +
                               std::to_string(c->target.num_layers) + " layers";
    a.spread_label =
        "from an exit never trained to predict (alpha 0) to a draft trained at the "
        "exit's size (alpha " +
        fields::format_significant(e.high) + ")";
    a.basis = "assumed from the exit's depth: per-token acceptance " +
              fields::format_significant(e.alpha) + ", the share of the layers the draft runs (" +
              layers + "), no published data for an early exit of this model";
    a.note = "no published tau for " + what +
             " (core/data/published.json); per-token acceptance alpha = exit_layer / num_layers "
             "= " +
             fields::format_significant(e.alpha) +
             " (0 with no layers, 1 at the whole model; an assumption, not from data); it may "
             "be as low as 0 (an exit never trained to predict the next token) or as high as " +
             fields::format_significant(e.high) + " (" + draft_size_alpha_source() +
             ", at the exit's " + fields::format_significant(e.param_share) +
             " x the target's parameters" + (e.line_clamped ? ", outside its fitted sizes" : "") +
             ": a draft trained at that size, as LayerSkip's recipe trains its exits)";
    return;
  }
  if (!pub.found && m.family == Family::streaming && m.kv_budget >= c->context) {
    // A window that holds the whole context drops nothing: the draft computes what the target
    // computes, and speculative sampling keeps every token of an identical distribution.
    a.guessed = true;  // not from data: exact by construction
    a.alpha = 1;
    a.basis = "the target's own: the draft's window of " + std::to_string(m.kv_budget) +
              " tokens holds the whole " + std::to_string(c->context) +
              "-token context, so the draft is the target and every drafted token is kept "
              "(alpha 1)";
    a.note = "no published tau for " + what + " (core/data/published.json); kv_budget " +
             std::to_string(m.kv_budget) + " >= context " + std::to_string(c->context) +
             ": the draft attends every cached token, as the target does, so it is the target "
             "and alpha is 1 (a smaller kv_budget is what makes the draft cheaper)";
    return;
  }
  // No rows on this target: the family's rows on the models that have them, pooled and said to
  // be assumed (issue 19: a default that knows the drafter family; Medusa heads on the 63-node
  // tree measure tau 2.0-3.0, where the generic alpha 0.7 gives 4.2).
  bool other_models = false;
  if (!pub.found) {
    const std::string own = c->target_preset ? c->target.id : std::string();
    pub = published_tau_other_models(family, own, sampled);
    if (sampled && !pub.found) {
      pub = published_tau_other_models(family, own, false);
      greedy_rows = pub.found;
      if (pub.found) temperature_note = greedy_note;
    }
    other_models = pub.found;
  }
  if (!pub.found) {
    a.guessed = true;
    a.basis = assumed_alpha_basis(", no published data for this method and model");
    a.note = "no published tau for " + what +
             " (core/data/published.json); default per-token "
             "acceptance alpha " +
             fields::format_number(kDefaultAlpha) + ", not from data";
    return;
  }
  a.kind = Acceptance::Kind::tau;
  a.tau = pub.mean_tau;
  const std::string n_rows = std::to_string(pub.row_ids.size());
  const std::string models = pub.models.size() == 1 ? " model" : " models";
  const std::string n_models = std::to_string(pub.models.size()) + " other" + models;
  if (pub.row_ids.size() > 1) {
    a.tau_p5 = pub.min_tau;
    a.tau_p95 = pub.max_tau;
    a.spread_label = "over the " + n_rows + " published rows" +
                     (other_models ? " on " + n_models : "") + " (min–max)";
  }
  std::string ids;
  for (const auto& id : other_models ? pub.models : pub.row_ids)
    ids += (ids.empty() ? "" : ", ") + id;
  const std::string rows_rule = !sampled      ? ""
                                : greedy_rows ? " (greedy rows)"
                                              : " (rows at temperature 1)";
  if (other_models) {
    a.guessed = true;
    a.basis = std::string("assumed from ") + family_short_label(m.family) +
              "'s published rows on " + n_models + rows_rule + ", none for this one";
    a.note = "no published tau for " + what + "; tau " + fields::format_significant(a.tau) +
             " = mean over the " + std::to_string(pub.models.size()) + models +
             " with published rows, each model alike (" + n_rows +
             " rows, core/data/published.json: " + ids + "), assumed for this model";
  } else {
    a.basis =
        "published: mean of " + n_rows + " row" + (pub.row_ids.size() == 1 ? "" : "s") + rows_rule;
    a.note = "tau " + fields::format_significant(a.tau) + " = mean of " + n_rows + " published " +
             pub.rule + " rows for " + what + " (core/data/published.json: " + ids + ")";
  }
  const bool medusa = m.family == Family::medusa;
  const double x = medusa ? pub.scale : pub.top1;
  std::vector<std::vector<double>> implied;
  if (x > 0) implied = paper_acceptance(*c, x);
  if (implied.empty()) {
    a.note +=
        ", measured at each source's own settings, not adjusted to this config" + temperature_note;
    return;
  }
  a.note += ", measured on " + paper_tree_words(*c) + temperature_note;
  if (on_paper_tree(*c)) return;
  // Another draft than the paper's: the per-depth acceptance that tree's tau implies, applied
  // to this draft (a chain of 3 reaches fewer tokens than a 60-node tree at the same acceptance).
  a.kind = Acceptance::Kind::matrix;
  a.p = std::move(implied);
  a.basis += ", rescaled from the paper's tree to this draft";
  if (pub.row_ids.size() > 1) {
    a.band_low = paper_acceptance(*c, medusa ? pub.scale_min : pub.top1_min);
    a.band_high = paper_acceptance(*c, medusa ? pub.scale_max : pub.top1_max);
    a.spread_label += ", rescaled to this draft";
  }
  a.note +=
      "; this config drafts another tree, so its tau is the one of the acceptance that "
      "tau implies on the paper's tree: ";
  if (medusa)
    a.note +=
        "Medusa-1's head accuracies for this model (core/data/medusa-head-accuracy.json) "
        "scaled by " +
        fields::format_significant(x) + " (config/paper_tree.hpp)";
  else
    a.note += "top-1 acceptance " + fields::format_significant(x) +
              " at every depth, rank r accepted with top1 ((1 - top1) " +
              fields::format_number(kSiblingShare) +
              ")^r (the sibling share fitted on EAGLE's Table 5 chain-vs-tree pairs, "
              "config/paper_tree.hpp)";
}

// Moves a parsed value into *out, or the error into *err.
template <typename T>
bool take(Expected<T> parsed, T* out, Error* err) {
  if (!parsed.ok()) {
    *err = parsed.error();
    return false;
  }
  *out = std::move(parsed.value());
  return true;
}

}  // namespace

bool parse_acceptance(const json& doc, Config* c, Error* err) {
  Acceptance& a = c->acceptance;
  a = Acceptance{};
  a.kind = Acceptance::Kind::alpha;
  a.alpha = kDefaultAlpha;
  auto it = doc.find("acceptance");
  if (it == doc.end()) {
    use_published(c);
    return true;
  }
  if (!it->is_object() || it->size() != 1) {
    *err = make_error("acceptance", std::string("must be an object with exactly one of: ") + kKeys);
    return false;
  }
  const std::string key = it->begin().key();
  const json& v = it->begin().value();
  const std::string path = "acceptance." + key;
  if (key == "tau") {
    a.kind = Acceptance::Kind::tau;
    return fields::number_value(v, path, 1, 1025, &a.tau, err);
  }
  if (key == "alpha") {
    a.kind = Acceptance::Kind::alpha;
    return fields::number_value(v, path, 0, 1, &a.alpha, err);
  }
  if (key == "workload") return parse_workload(v, path, c, err);
  if (key == "published") {
    if (!v.is_boolean() || !v.get<bool>()) {
      *err = make_error(path,
                        "must be true (acceptance from the published table); to set it "
                        "yourself use tau, alpha, per_position, p, medusa or workload");
      return false;
    }
    use_published(c);
    return true;
  }
  // The matrix forms share their reader with the tree commands (config/tree_input.hpp).
  if (key == "per_position") {
    a.kind = Acceptance::Kind::per_position;
    return take(parse_probability_list(v, path), &a.per_position, err);
  }
  if (key == "p") {
    a.kind = Acceptance::Kind::matrix;
    return take(parse_probability_rows(v, path, /*exclusive=*/true), &a.p, err);
  }
  if (key == "medusa") {
    a.kind = Acceptance::Kind::matrix;
    if (!take(parse_medusa_table(v, path), &a.medusa_table, err)) return false;
    auto matrix = tree::medusa_acceptance(a.medusa_table, path);
    if (!matrix.ok()) {
      *err = matrix.error();
      return false;
    }
    a.p = matrix.value().rows;
    return true;
  }
  *err = make_error(path.size() > 80 ? path.substr(0, 80) + "..." : path,
                    std::string("unknown field; expected one of: ") + kKeys);
  return false;
}

json resolved_acceptance_json(const Acceptance& a) {
  switch (a.kind) {
    case Acceptance::Kind::tau:
      return json{{"tau", a.tau}};
    case Acceptance::Kind::alpha:
      return json{{"alpha", a.alpha}};
    case Acceptance::Kind::per_position:
      return json{{"per_position", a.per_position}};
    case Acceptance::Kind::matrix:
      return json{{"p", a.p}};
  }
  return json{{"alpha", a.alpha}};
}

json acceptance_to_json(const Acceptance& a) {
  // The form the user gave; resolved_acceptance_json() writes the numbers it resolved to.
  if (a.published) return json{{"published", true}};
  if (!a.workload.empty()) return json{{"workload", a.workload}};
  if (a.kind == Acceptance::Kind::matrix && !a.medusa_table.empty())
    return json{{"medusa", a.medusa_table}};
  return resolved_acceptance_json(a);
}

}  // namespace speccalc
