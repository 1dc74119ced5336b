// The config's acceptance input (core/src/config/acceptance_parse.cpp): workload presets from the
// SpecDecode-Bench vLLM traces (core/data/workloads.json) and the published-table default.
// Expected values are copied from the data files named in each comment.
#include <gtest/gtest.h>
#include <algorithm>
#include <cctype>
#include <cmath>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/acceptance_parse.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/link_codec.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"
#include "speccalc/published.hpp"
#include "speccalc/published_tau.hpp"

namespace speccalc {
namespace {

Expected<Config> parse(const std::string& text) {
  return parse_config_text(text, load_catalog().value());
}

Config parse_ok(const std::string& text) {
  auto c = parse(text);
  EXPECT_TRUE(c.ok()) << text << " -> " << (c.ok() ? "" : c.error().describe());
  return c.ok() ? c.value() : Config{};
}

Error parse_error(const std::string& text) {
  auto c = parse(text);
  EXPECT_FALSE(c.ok()) << text;
  return c.ok() ? Error{} : c.error();
}

// The normalized config re-parses to the same normalized config (what links encode).
void expect_round_trip(const Config& c) {
  const std::string once = config_to_json(c).dump();
  const Config again = parse_ok(once);
  EXPECT_EQ(config_to_json(again).dump(), once);
}

TEST(AcceptanceWorkload, NgramColumnAtTheMethodsK) {
  // workloads.json gsm8k, ngram: tau_by_k["4"] = 1.1721; per_request_tau_by_k["4"] =
  // {p5 1.053, p50 1.149, p95 1.342}.
  const Config c = parse_ok(
      R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":4},"acceptance":{"workload":"gsm8k"}})");
  EXPECT_EQ(c.acceptance.kind, Acceptance::Kind::tau);
  EXPECT_EQ(c.acceptance.tau, 1.1721);
  EXPECT_EQ(c.acceptance.tau_p5, 1.053);
  EXPECT_EQ(c.acceptance.tau_p50, 1.149);
  EXPECT_EQ(c.acceptance.tau_p95, 1.342);
  auto tau = expected_tau(c);
  ASSERT_TRUE(tau.ok());
  EXPECT_EQ(tau.value().tau, 1.1721);
  EXPECT_TRUE(tau.value().has_band);
  EXPECT_EQ(tau.value().tau_p95, 1.342);
  EXPECT_NE(tau.value().source.find("GSM8K at k = 4 (n-gram proposer"), std::string::npos)
      << tau.value().source;
  EXPECT_EQ(config_to_json(c)["acceptance"], nlohmann::json({{"workload", "gsm8k"}}));
  expect_round_trip(c);
}

TEST(AcceptanceWorkload, EagleColumnForAChainOfThree) {
  // workloads.json gsm8k, eagle: tau_by_k["3"] = 2.3908; spread {2.113, 2.379, 2.782}.
  const Config c = parse_ok(
      R"({"target":"llama3.1-8b-instruct","method":{"family":"eagle1","choices":[[0],[0,0],[0,0,0]]},)"
      R"("acceptance":{"workload":"gsm8k"}})");
  EXPECT_EQ(c.acceptance.tau, 2.3908);
  EXPECT_EQ(c.acceptance.tau_p5, 2.113);
  EXPECT_EQ(c.acceptance.tau_p95, 2.782);
  // EAGLE-2 with top_k 1 drafts a chain of min(depth, total_token - 1) = 3 tokens.
  const Config e2 = parse_ok(
      R"({"target":"llama3.1-8b-instruct","method":{"family":"eagle2","total_token":4,"depth":6,"top_k":1},)"
      R"("acceptance":{"workload":"gsm8k"}})");
  EXPECT_EQ(e2.acceptance.tau, 2.3908);
  expect_round_trip(e2);
}

TEST(AcceptanceWorkload, ErrorsNameTheField) {
  Error e = parse_error(R"({"method":{"family":"sps","k":4},"acceptance":{"workload":"gsm8k"}})");
  EXPECT_EQ(e.field, "acceptance.workload");
  EXPECT_NE(e.message.find("has no data for family sps"), std::string::npos) << e.message;
  // PLD's default k = 10 is past the traces' k = 1..8.
  e = parse_error(R"({"method":"pld","acceptance":{"workload":"cnn"}})");
  EXPECT_EQ(e.field, "method.k");
  EXPECT_EQ(e.message, "drafts 10 tokens per cycle; the workload traces cover k = 1..8");
  e = parse_error(R"({"method":"eagle1","acceptance":{"workload":"cnn"}})");
  EXPECT_EQ(e.field, "method.choices");
  e = parse_error(R"({"method":"eagle2","acceptance":{"workload":"cnn"}})");
  EXPECT_EQ(e.field, "method.top_k");
  e = parse_error(R"({"method":{"family":"pld","k":4},"acceptance":{"workload":"mtbench"}})");
  EXPECT_EQ(e.field, "acceptance.workload");
  EXPECT_EQ(e.message, "unknown workload; known: sharegpt, cnn, gsm8k, instructcoder");
  e = parse_error(R"({"method":{"family":"pld","k":4},"acceptance":{"workload":3}})");
  EXPECT_EQ(e.field, "acceptance.workload");
}

TEST(AcceptanceWorkload, LinkRoundTrip) {
  const std::string config =
      R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":4},"acceptance":{"workload":"sharegpt"}})";
  const std::string link = encode_link(config_to_json(parse_ok(config)));
  EXPECT_NE(link.find("acceptance.workload=sharegpt"), std::string::npos) << link;
  auto decoded = decode_link(link);
  ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
  EXPECT_EQ(parse_ok(decoded.value().dump()).acceptance.tau, 1.4282);  // sharegpt ngram k = 4
}

TEST(AcceptancePublished, MeanOfTheMatchingRows) {
  // core/data/published.json, family eagle2, target llama3.1-8b-instruct, greedy, not a
  // "Mean (N datasets)" summary: eagle3-365 4.05, -366 4.71, -367 4.24, -368 4.12, -369 3.45,
  // -475 5.37, -476 5.22 (Table 2's -473 4.05 / 3.16x and -474 4.24 / 3.39x reprint -365 and
  // -367 of Table 1: one measurement each, counted once). Sum 31.16 over 7 rows = 4.451428...
  const PublishedTau pub = published_tau("eagle2", "llama3.1-8b-instruct", "");
  ASSERT_TRUE(pub.found);
  EXPECT_EQ(pub.row_ids.size(), 7u);
  EXPECT_NEAR(pub.mean_tau, 31.16 / 7, 1e-12);
  EXPECT_EQ(pub.rule, "greedy");

  const Config c = parse_ok(R"({"target":"llama3.1-8b-instruct","method":"eagle2"})");
  EXPECT_TRUE(c.acceptance.published);
  EXPECT_EQ(c.acceptance.kind, Acceptance::Kind::tau);
  EXPECT_NEAR(c.acceptance.tau, 31.16 / 7, 1e-12);
  auto tau = expected_tau(c);
  ASSERT_TRUE(tau.ok()) << tau.error().describe();
  EXPECT_NEAR(tau.value().tau, 31.16 / 7, 1e-12);
  // The rows are cited in the evaluation's assumptions (the tau source).
  EXPECT_NE(tau.value().source.find("eagle3-365, eagle3-366"), std::string::npos)
      << tau.value().source;
  EXPECT_EQ(config_to_json(c)["acceptance"], nlohmann::json({{"published", true}}));
  expect_round_trip(c);
}

// EAGLE's defaults come from the paper's tree (config/paper_tree.hpp): an EAGLE row drafted as
// a chain (EAGLE's Table 5 "chain of 5") is left out of them.
bool drafted_as_chain(const PublishedRow& r) {
  std::string draft = r.draft;
  for (char& ch : draft) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return r.family.rfind("eagle", 0) == 0 && draft.find("chain") != std::string::npos;
}

// The greedy rows of a family on a target from the full table, with the documented rule (HASS
// and SAMD rows are other drafters costed as EAGLE-2: not EAGLE-2's acceptance; a reprint of an
// earlier table's row is that row, counted once): the rows at temperature 0 when there are
// any, else those whose temperature is not stated.
std::vector<double> greedy_taus(const std::vector<PublishedRow>& rows, const std::string& family,
                                const std::string& target_id) {
  std::vector<double> greedy, unstated;
  for (const auto& r : rows) {
    if (r.family != family || r.target_id != target_id || !r.tau || r.superseded ||
        !r.duplicate_of.empty() || r.dataset.rfind("Mean (", 0) == 0 ||
        r.method.rfind("HASS", 0) == 0 || r.method.rfind("SAM-Decoding", 0) == 0 ||
        drafted_as_chain(r))
      continue;
    if (!r.temperature)
      unstated.push_back(*r.tau);
    else if (*r.temperature == 0)
      greedy.push_back(*r.tau);
  }
  return greedy.empty() ? unstated : greedy;
}

double mean_of(const std::vector<double>& xs) {
  double sum = 0;
  for (double x : xs) sum += x;
  return sum / static_cast<double>(xs.size());
}

TEST(AcceptancePublished, LookupAgreesWithTheFullTableParse) {
  // published_tau reads the precomputed means of core/data/published-tau.json; recompute every
  // family x target mean from load_published()'s rows and compare.
  auto rows = load_published();
  ASSERT_TRUE(rows.ok());
  int checked = 0;
  for (const auto& probe : rows.value()) {
    if (probe.target_id.empty() || probe.family == "sps") continue;
    const std::vector<double> taus = greedy_taus(rows.value(), probe.family, probe.target_id);
    const PublishedTau pub = published_tau(probe.family, probe.target_id, "");
    ASSERT_EQ(pub.found, !taus.empty()) << probe.family << " " << probe.target_id;
    if (taus.empty()) continue;
    EXPECT_EQ(pub.row_ids.size(), taus.size()) << probe.family << " " << probe.target_id;
    EXPECT_NEAR(pub.mean_tau, mean_of(taus), 1e-12) << probe.family << " " << probe.target_id;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(AcceptancePublished, ATargetWithoutRowsTakesTheMeanOverTheModelsThatHaveThem) {
  // Llama-3.1-70B has no published row of any family. Its default for each family is the mean,
  // over the targets with rows of that family, of each target's own mean (recomputed here from
  // the full table, not from published-tau.json), each target weighted alike; the spread is
  // the extremes of every pooled row.
  auto rows = load_published();
  ASSERT_TRUE(rows.ok());
  const std::string target = "llama3.1-70b-instruct";
  for (const char* family : {"pld", "lookahead", "medusa", "hydra", "eagle1", "eagle2", "eagle3"}) {
    std::vector<std::string> targets;
    for (const auto& r : rows.value())
      if (r.family == family && !r.target_id.empty() &&
          std::find(targets.begin(), targets.end(), r.target_id) == targets.end())
        targets.push_back(r.target_id);
    ASSERT_EQ(std::find(targets.begin(), targets.end(), target), targets.end());
    double sum = 0, low = 1e9, high = 0;
    std::size_t models = 0, n = 0;
    for (const auto& t : targets) {
      const std::vector<double> taus = greedy_taus(rows.value(), family, t);
      if (taus.empty()) continue;
      sum += mean_of(taus);
      low = std::min(low, *std::min_element(taus.begin(), taus.end()));
      high = std::max(high, *std::max_element(taus.begin(), taus.end()));
      ++models;
      n += taus.size();
    }
    ASSERT_GT(models, 0u) << family;
    const PublishedTau pub = published_tau_other_models(family, target, false);
    ASSERT_TRUE(pub.found) << family;
    EXPECT_EQ(pub.models.size(), models) << family;
    EXPECT_EQ(pub.row_ids.size(), n) << family;
    EXPECT_NEAR(pub.mean_tau, sum / static_cast<double>(models), 1e-12) << family;
    EXPECT_NEAR(pub.min_tau, low, 1e-12) << family;
    EXPECT_NEAR(pub.max_tau, high, 1e-12) << family;
  }
  // Medusa by hand (published-tau.json's entries): Vicuna-7B 2.384286 (7 greedy rows), -13B
  // 2.441667 (EAGLE-2 Table 1's 6 greedy rows, 14.65 / 6; EAGLE-3's 5 reprint them), -33B
  // 2.803333 (3 rows, temperature not stated): mean 2.543095.
  // On Medusa's own tree that is the config's tau, said to be another model's, not from data.
  const Config c = parse_ok(R"({"target":"llama3.1-70b-instruct","method":"medusa"})");
  EXPECT_EQ(c.acceptance.kind, Acceptance::Kind::tau);
  EXPECT_NEAR(c.acceptance.tau, (2.384286 + 14.65 / 6 + 2.803333) / 3, 1e-5);
  EXPECT_TRUE(c.acceptance.guessed);
  auto tau = expected_tau(c);
  ASSERT_TRUE(tau.ok());
  EXPECT_FALSE(tau.value().from_data);
  EXPECT_EQ(tau.value().basis,
            "assumed from Medusa's published rows on 3 other models, none for this one");
  // sps keeps the draft-size default, retrieval (rows of other datastores) and a family nobody
  // published keep alpha 0.7.
  EXPECT_FALSE(published_tau_other_models("sps", target, false).found);
  EXPECT_FALSE(published_tau_other_models("retrieval", target, false).found);
  EXPECT_FALSE(published_tau_other_models("layerskip", target, false).found);
  expect_round_trip(c);
}

TEST(AcceptancePublished, PldOnVicuna7b) {
  // pld x vicuna-7b-v1.3, greedy, summaries excluded: eagle2-084 1.68, -085 1.87, -086 1.99,
  // -087 1.31, -088 2.72, -089 1.44, specbench-649 1.73. Sum 12.74 / 7 = 1.82.
  const Config c = parse_ok(R"({"target":"vicuna-7b-v1.3","method":"pld"})");
  EXPECT_NEAR(c.acceptance.tau, 12.74 / 7, 1e-12);
}

TEST(AcceptancePublished, FallsBackToTheDraftSizeDefaultAndSaysSo) {
  // No sps rows for llama2-chat-7b with vicuna-68m: the default follows the draft's size, the
  // line 0.9126 + 0.0975 log10(draft / target total parameters) (config/draft_size_alpha.hpp).
  const Config c = parse_ok(R"({"target":"llama2-chat-7b","method":{"family":"sps","k":4}})");
  EXPECT_EQ(c.acceptance.kind, Acceptance::Kind::alpha);
  const double ratio = static_cast<double>(count_params(c.method.draft_model).total) /
                       static_cast<double>(count_params(c.target).total);
  const double alpha = 0.9126 + 0.0975 * std::log10(ratio);
  EXPECT_NEAR(c.acceptance.alpha, alpha, 1e-12);
  EXPECT_TRUE(c.acceptance.guessed);
  auto tau = expected_tau(c);
  ASSERT_TRUE(tau.ok());
  // Chain closed form at that alpha, k 4: (1 - alpha^5) / (1 - alpha).
  EXPECT_NEAR(tau.value().tau, (1 - std::pow(alpha, 5)) / (1 - alpha), 1e-12);
  EXPECT_NE(
      tau.value().source.find("no published tau for sps with draft vicuna-68m on llama2-chat-7b"),
      std::string::npos)
      << tau.value().source;
  expect_round_trip(c);
}

TEST(AcceptancePublished, PldOnLlama31UsesTheVllmTraces) {
  // No published pld row for llama3.1-8b-instruct, but the vLLM n-gram traces are for it.
  // workloads.json ngram tau_by_k["3"]: sharegpt 1.395, cnn 1.3337, gsm8k 1.164,
  // instructcoder 2.0277 -> 5.9204 / 4 = 1.4801.
  Config c = parse_ok(R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":3}})");
  EXPECT_EQ(c.acceptance.kind, Acceptance::Kind::tau);
  EXPECT_NEAR(c.acceptance.tau, 5.9204 / 4, 1e-12);
  // PLD's default k = 10 is past the traces: the k = 8 values 1.487, 1.4044, 1.184, 2.4993
  // -> 6.5747 / 4 = 1.643675, said to be a lower bound.
  c = parse_ok(R"({"target":"llama3.1-8b-instruct","method":"pld"})");
  EXPECT_NEAR(c.acceptance.tau, 6.5747 / 4, 1e-12);
  EXPECT_NE(c.acceptance.note.find("a lower bound for k = 10"), std::string::npos)
      << c.acceptance.note;
  expect_round_trip(c);
}

TEST(AcceptancePublished, TauTheDraftCannotReachFallsBack) {
  // pld on vicuna-7b averages 1.82 tokens per cycle; with k = 0 the draft yields 1.
  const Config c = parse_ok(R"({"target":"vicuna-7b-v1.3","method":{"family":"pld","k":0}})");
  auto tau = expected_tau(c);
  ASSERT_TRUE(tau.ok()) << tau.error().describe();
  EXPECT_EQ(tau.value().tau, 1.0);
  EXPECT_NE(tau.value().source.find("yields at most 1 tokens per cycle"), std::string::npos)
      << tau.value().source;
}

TEST(AcceptancePublished, EveryTauSaysWhereItComesFromInAFewWords) {
  // The tau card's words (tau_basis) and whether tau rests on data, one case per origin.
  struct Case {
    const char* config;
    const char* basis;  // its start
    bool from_data;
  };
  const Case cases[] = {
      // No sps rows for llama2-chat-7b with vicuna-68m (the test above): the draft-size default.
      {R"({"target":"llama2-chat-7b","method":{"family":"sps","k":4}})",
       "assumed from the draft's size: per-token acceptance 0.718", false},
      // PLD on Vicuna-7B: 7 rows (12.74 / 7, the test above), drafted as the rows were.
      {R"({"target":"vicuna-7b-v1.3","method":"pld"})", "published: mean of 7 rows", true},
      // Medusa on Vicuna-7B with a chain of 5 heads: the rows ran mc_sim_7b_63.
      {R"({"target":"vicuna-7b-v1.3","method":{"family":"medusa","heads":5,"choices":[[0],[0,0],[0,0,0],[0,0,0,0],[0,0,0,0,0]]}})",
       "published: mean of", true},
      // The vLLM n-gram traces of Llama-3.1-8B (the test above).
      {R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":3}})",
       "measured: mean of the vLLM n-gram traces at k = 3", true},
      // DeepSeek-V3's report, k = 1.
      {R"({"target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"method":{"family":"mtp","k":1}})",
       "reported: DeepSeek-V3's 85–90% second-token acceptance", true},
      // What the user gives.
      {R"({"method":{"family":"sps","k":4},"acceptance":{"alpha":0.8}})", "as configured", true},
      // PLD's published tau 1.82 with k = 0: beyond the draft's reach, the default is used.
      {R"({"target":"vicuna-7b-v1.3","method":{"family":"pld","k":0}})", "assumed: ", false},
  };
  for (const Case& k : cases) {
    const Config c = parse_ok(k.config);
    auto tau = expected_tau(c);
    ASSERT_TRUE(tau.ok()) << k.config;
    EXPECT_EQ(tau.value().basis.rfind(k.basis, 0), 0u) << k.config << " -> " << tau.value().basis;
    EXPECT_EQ(tau.value().from_data, k.from_data) << k.config;
  }
  // Traces measured at their own sampling: a sampled config's card says tau is not adjusted.
  const Config sampled = parse_ok(
      R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":3},"temperature":1})");
  EXPECT_EQ(expected_tau(sampled).value().basis,
            "measured: mean of the vLLM n-gram traces at k = 3 (the source's sampling, not this "
            "temperature)");
  // A rescaled default says so.
  const Config medusa = parse_ok(cases[2].config);
  EXPECT_NE(expected_tau(medusa).value().basis.find("rescaled from the paper's tree"),
            std::string::npos);
}

// The verdict's reason carries an assumed acceptance too (the headline is read before the card):
// Qwen3-32B has no published row, so its EAGLE-3 default is the other models' rows and its
// LayerSkip default (no model has LayerSkip rows) the assumed alpha 0.7, and the reason says
// so; a given alpha and a published tau add nothing.
TEST(AcceptancePublished, AVerdictOnAnAssumedAcceptanceSaysSo) {
  auto reason = [](const std::string& config) {
    const Response r = run("eval", config);
    EXPECT_TRUE(r.ok) << config;
    return nlohmann::json::parse(r.output)["verdict_reason"].get<std::string>();
  };
  const std::string pooled = reason(
      R"({"target":"qwen3-32b","hardware":"h100-sxm","runtime":"vllm","method":{"family":"eagle3"}})");
  EXPECT_NE(pooled.find("The acceptance behind it is assumed from EAGLE-3's published rows on 4 "
                        "other models, none for this one"),
            std::string::npos)
      << pooled;
  const std::string assumed =
      reason(R"({"target":"qwen3-32b","hardware":"h100-sxm","method":{"family":"streaming"}})");
  EXPECT_NE(assumed.find("The acceptance behind it is assumed: per-token acceptance 0.7"),
            std::string::npos)
      << assumed;
  // LayerSkip's default follows its exit (early_exit_alpha_test.cpp): Qwen3-32B's 64 layers, the
  // default exit 16.
  const std::string exit =
      reason(R"({"target":"qwen3-32b","hardware":"h100-sxm","method":{"family":"layerskip"}})");
  EXPECT_NE(exit.find("The acceptance behind it is assumed from the exit's depth: per-token "
                      "acceptance 0.25, the share of the layers the draft runs (16 of the "
                      "target's 64 layers)"),
            std::string::npos)
      << exit;
  for (
      const char* config :
      {R"({"target":"qwen3-32b","hardware":"h100-sxm","runtime":"vllm","method":{"family":"eagle3"},"acceptance":{"alpha":0.7}})",
       R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","method":{"family":"eagle1"}})"})
    EXPECT_EQ(reason(config).find("assumed"), std::string::npos) << config;
}

TEST(AcceptancePublished, ExplicitFormAndBadValue) {
  const Config c =
      parse_ok(R"({"target":"vicuna-7b-v1.3","method":"pld","acceptance":{"published":true}})");
  EXPECT_NEAR(c.acceptance.tau, 12.74 / 7, 1e-12);
  const Error e = parse_error(R"({"acceptance":{"published":false}})");
  EXPECT_EQ(e.field, "acceptance.published");
}

TEST(AcceptancePublished, ResolvedFormIsWhatTreeCommandsTake) {
  const Config sps = parse_ok(R"({"method":{"family":"sps","k":4}})");
  EXPECT_EQ(resolved_acceptance_json(sps.acceptance),
            nlohmann::json({{"alpha", sps.acceptance.alpha}}));
  EXPECT_EQ(
      resolved_acceptance_json(
          parse_ok(
              R"({"target":"llama3.1-8b-instruct","method":{"family":"pld","k":4},"acceptance":{"workload":"gsm8k"}})")
              .acceptance),
      nlohmann::json({{"tau", 1.1721}}));
}

TEST(AcceptancePublished, OldLinksKeepTheirAlpha) {
  // v=1 links always carried the acceptance they were made with.
  auto decoded =
      decode_link("v=1&target=llama2-chat-7b&method.family=sps&method.k=4&acceptance.alpha=0.7");
  ASSERT_TRUE(decoded.ok());
  const Config c = parse_ok(decoded.value().dump());
  EXPECT_FALSE(c.acceptance.published);
  EXPECT_EQ(c.acceptance.alpha, 0.7);
}

}  // namespace
}  // namespace speccalc
