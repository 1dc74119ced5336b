// Fidelity (issue 3, item 5): `validate` over the published rows, its exclusions, testbed
// calibration, and the regression guard on the overall MAPE.
#include "speccalc/validate.hpp"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "speccalc/api.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

const ValidateReport& report() {
  static const std::vector<PublishedRow> rows = load_published().value();
  static const ValidateReport rep = [] {
    auto r = validate_rows(rows, ValidateOptions{});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.value();
  }();
  return rep;
}

TEST(Validate, InSampleMapeStaysWithinTenPercent) {
  // In-sample over every validated published row with the stored hf-eager profile (fitted by
  // `speccalc fit` on these rows and 6 eager decode steps): 9.5 % when fitted. Fails on a
  // regression of the model or the fit.
  // 383 rows: 470 predicted less the 87 that reprint an earlier table's row.
  EXPECT_GE(report().overall.rows, 380);
  EXPECT_LE(report().overall.mape_pct, 10.0);
}

TEST(Validate, CrossValidatedMapeIsTheHeadlineAndMeetsTheTarget) {
  // Issue 10's target: leave-one-source-out MAPE <= 12 %. Each fold refits from the neutral
  // start without one source, so no fold sees the rows it predicts.
  const speccalc::Response r = speccalc::run("validate", "{}");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json j = nlohmann::json::parse(r.output);
  const nlohmann::json& cv = j["cross_validation"];
  EXPECT_EQ(cv["method"], "leave-one-source-out");
  EXPECT_GE(cv["rows"].get<int>(), 390);
  EXPECT_LE(cv["mape_pct"].get<double>(), 12.0);
  // Every source is held out once, and its fold saw fewer observations than the full fit.
  int sources = 0;
  for (const auto& s : cv["by_source"]) {
    EXPECT_GT(s["rows"].get<int>(), 0) << s["source"];
    ++sources;
  }
  EXPECT_GE(sources, 8);  // six published sources (hf-eager) + three vLLM sources
  // The engines' own speedup rows are reported with the stored profiles.
  EXPECT_GE(j["engines"]["by_engine"]["vllm"]["rows"].get<int>(), 16);
}

TEST(Validate, ExcludesSupersededAndNonLatencyRowsWithReasons) {
  int superseded = 0;
  for (const auto& x : report().excluded) {
    EXPECT_FALSE(x.reason.empty()) << x.row->id;
    if (x.row->superseded) {
      ++superseded;
      EXPECT_NE(x.reason.find("superseded"), std::string::npos) << x.row->id;
    }
    if (x.row->speedup_kind != "latency") {
      EXPECT_NE(x.reason.find("speedup_kind"), std::string::npos);
    }
  }
  // 16 superseded Spec-Bench rows carry tau and speedup (13 modelled + 3 'other' families,
  // counted in core/data/published.json with superseded = true).
  EXPECT_EQ(superseded, 16);
  for (const auto& v : report().rows) {
    EXPECT_FALSE(v.row->superseded) << v.row->id;
    EXPECT_EQ(v.row->speedup_kind, "latency") << v.row->id;
  }
}

TEST(Validate, PromptLookupRowsAreCloseToTau) {
  // PLD drafts on the CPU (0.2 ms) and verifies 11 tokens: under hf-eager on a 3090 the verify
  // pass is launch-bound like the decode step, so the cycle is one step plus the n-gram match
  // and bookkeeping: the predicted speedup is a little under tau, never above it.
  int checked = 0;
  for (const auto& v : report().rows) {
    if (v.row->family != "pld") continue;
    EXPECT_LE(v.predicted, *v.row->tau) << v.row->id;
    EXPECT_GE(v.predicted, 0.85 * *v.row->tau) << v.row->id;
    EXPECT_NEAR(v.error_pct, 100.0 * (v.predicted - *v.row->speedup) / *v.row->speedup, 1e-9);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(Validate, CalibratesFromTheSourcesOwnBaseline) {
  // Medusa's table prints 37.07 tokens/s for plain decoding of Vicuna-7B on its A100
  // (published.json medusa-691 extra.baseline_tokens_per_s): step 1 / 37.07 s.
  int calibrated = 0;
  for (const auto& v : report().rows) {
    if (v.row->source_id == "medusa" && v.row->target_id == "vicuna-7b-v1.3") {
      EXPECT_DOUBLE_EQ(v.calibration_step_s, 1.0 / 37.07) << v.row->id;
      ++calibrated;
    }
  }
  EXPECT_GT(calibrated, 0);
}

TEST(Validate, CommandReportsJsonAndTable) {
  Response r = run("validate", R"({"source":"medusa","calibrated":true})");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const auto doc = nlohmann::json::parse(r.output);
  // "medusa" also matches the Medusa repository's rows, which have no tau: listed after the
  // paper, with none predicted.
  ASSERT_EQ(doc["sources"].size(), 2u);
  EXPECT_EQ(doc["sources"][0]["source_id"], "medusa");
  EXPECT_TRUE(doc["sources"][0].contains("calibrated"));
  EXPECT_EQ(doc["sources"][1]["source_id"], "medusa-repo");
  EXPECT_EQ(doc["sources"][1]["stock"]["rows"], 0);
  EXPECT_EQ(doc["sources"][1]["not_predicted"], doc["sources"][1]["published_rows"]);
  for (const auto& row : doc["rows"]) EXPECT_TRUE(row.contains("hardware"));
  Response t = run("validate", R"({"format":"table"})");
  ASSERT_TRUE(t.ok);
  EXPECT_NE(t.output.find("overall"), std::string::npos);
}

TEST(Validate, FamilyChecksAreNeverFittedAndMeetThePublishedNumbers) {
  // SpecDecode-Bench facts kept as checks (engine-measurements.json check_only): MTP on
  // GLM-4.5-Air in vLLM (1.3-1.8x, k = 3) and SGLang EAGLE chain vs tree on Qwen3-8B/GSM8K.
  const nlohmann::json j = nlohmann::json::parse(run("validate", "{}").output);
  const nlohmann::json fit = nlohmann::json::parse(run("fit", "{}").output);
  // No fit sees them: vLLM fits 35 step-time observations (SpecDecode-Bench: 5 decode steps,
  // 5 EAGLE and 5 n-gram cycles and its 3 draft-forward ratios; issue #20780: its decode step and
  // 12 EAGLE-1/3 cycles; PR #16937: its decode step and 3 cycles; speedup rows are held out of a
  // times-only fit), SGLang its one decode anchor.
  for (const auto& p : fit["profiles"]) {
    if (p["id"] == "vllm") {
      EXPECT_EQ(p["observations"], 35);
    }
    if (p["id"] == "sglang") {
      EXPECT_EQ(p["observations"], 1);
    }
  }
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : j["engines"]["rows"]) rows[r["id"].get<std::string>()] = r;
  for (const char* id :
       {"sdb-mtp-glm45air-b1", "sdb-mtp-glm45air-b128", "sdb-sglang-eagle-chain-k3-b1",
        "sdb-sglang-eagle-tree-k21-b1", "sdb-sglang-eagle-tree-k21-b64"}) {
    ASSERT_TRUE(rows.count(id)) << id;
    EXPECT_FALSE(rows[id]["fitted_on"].get<bool>()) << id;
  }
  // A range scores 0 inside and the error to its nearer end outside.
  for (const auto& [id, r] : rows) {
    if (!r.contains("measured_range")) continue;
    const double lo = r["measured_range"][0], hi = r["measured_range"][1];
    const double p = r["predicted"], e = r["error_pct"];
    const double end = p < lo ? lo : hi;
    if (p >= lo && p <= hi) {
      EXPECT_EQ(e, 0.0) << id;
    } else {
      EXPECT_NEAR(e, 100.0 * (p - end) / end, 1e-9) << id;
    }
  }
  // MTP at batch 1 inside the study's 1.3-1.8x; the 21-token tree below 1x at batch 64, as the
  // study says. Chain and tree at batch 1 within 20% of 1.65x and 1.85x: the SGLang profile
  // prices speculation with vLLM's fitted values, and vLLM's own held-out MAPE is ~21%.
  // MTP at batch 1 within 10% of the study's range: since issue 18 the MTP module runs at the
  // target's TP 4, as vLLM runs it when draft_tensor_parallel_size is not given (it was priced
  // on 1 GPU before, and fell inside the range); priced so it is 6.4% above 1.8x.
  EXPECT_LT(rows["sdb-mtp-glm45air-b1"]["error_pct"].get<double>(), 10.0);
  EXPECT_LT(rows["sdb-sglang-eagle-tree-k21-b64"]["predicted"].get<double>(), 1.0);
  EXPECT_NEAR(rows["sdb-sglang-eagle-chain-k3-b1"]["predicted"].get<double>(), 1.65, 0.2 * 1.65);
  EXPECT_NEAR(rows["sdb-sglang-eagle-tree-k21-b1"]["predicted"].get<double>(), 1.85, 0.2 * 1.85);
  EXPECT_EQ(j["engines"]["by_family"]["mtp"]["rows"], 2);
}

TEST(Validate, CommandNamesBadFields) {
  Response r = run("validate", R"({"colour":"red"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "colour");
  r = run("validate", R"({"runtimes":{"hf-eager":{"pass_overhead":1}}})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "runtimes.hf-eager.pass_overhead");
  r = run("validate", R"({"format":"csv"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "format");
}

TEST(Validate, CountsEveryRowNotPredictedWithItsReason) {
  // The whole table is accounted for: predicted rows plus every reason's rows = 764, and the
  // counts of rows without a measured tau / speedup are taken from the raw table here.
  const Response r = run("validate", "{}");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.output);
  const nlohmann::json table = nlohmann::json::parse(data::published());
  ASSERT_EQ(table.size(), 764u);
  std::size_t no_tau = 0, no_speedup = 0, neither = 0;
  for (const auto& row : table) {
    const bool tau = row["tau"].is_number(), speedup = row["speedup"].is_number();
    no_tau += !tau && speedup;
    no_speedup += tau && !speedup;
    neither += !tau && !speedup;
  }
  const nlohmann::json& c = doc["coverage"];
  EXPECT_EQ(c["published_rows"], 764);
  EXPECT_EQ(c["predicted"], doc["rows"].size());
  std::size_t counted = 0;
  std::set<std::string> ids;
  for (const auto& row : doc["rows"]) ids.insert(row["id"].get<std::string>());
  std::map<std::string, std::size_t> by_reason;
  for (const auto& g : c["reasons"]) {
    EXPECT_EQ(g["rows"], g["ids"].size());
    for (const auto& id : g["ids"]) EXPECT_TRUE(ids.insert(id.get<std::string>()).second) << id;
    counted += g["rows"].get<std::size_t>();
    by_reason[g["reason"].get<std::string>().substr(0, 12)] = g["rows"].get<std::size_t>();
  }
  EXPECT_EQ(ids.size(), 764u) << "every row is predicted or counted, none twice";
  EXPECT_EQ(counted, c["not_predicted"].get<std::size_t>());
  EXPECT_EQ(by_reason["no tau repor"], no_tau);
  EXPECT_EQ(by_reason["no speedup r"], no_speedup);
  EXPECT_EQ(by_reason["neither tau "], neither);
  EXPECT_EQ(by_reason["superseded l"], 16u);
  // Per source: its rows split into predicted and not predicted; the held-out error is the
  // cross-validation fold that left that source out.
  std::size_t source_rows = 0;
  for (const auto& s : doc["sources"]) {
    EXPECT_EQ(s["published_rows"].get<int64_t>(),
              s["stock"]["rows"].get<int64_t>() + s["not_predicted"].get<int64_t>())
        << s["source_id"];
    source_rows += s["published_rows"].get<std::size_t>();
    if (s["stock"]["rows"] == 0) continue;
    bool found = false;
    for (const auto& f : doc["cross_validation"]["by_source"])
      if (f["source"] == s["source_id"]) {
        EXPECT_EQ(s["cross_validated"]["mape_pct"], f["mape_pct"]) << s["source_id"];
        found = true;
      }
    EXPECT_TRUE(found) << s["source_id"];
  }
  EXPECT_EQ(source_rows, 764u);
}

TEST(Validate, TimeChecksPriceEachStackStepWithTheStoredProfile) {
  // check_only step times (never fitted) are reported with the stored profile's prediction:
  // TensorRT-LLM's own static-batch throughput (LLaMA 7B, H100 FP8, batch 112: 6,818 tok/s ->
  // 16.43 ms per step) and SGLang's DeepSeek-V3 decode (PR #2643: batch 1, 30.29 tok/s -> 33.0
  // ms). The prediction is the plain decode step `eval` gives for the row's own config.
  const nlohmann::json j = nlohmann::json::parse(run("validate", "{}").output);
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : j["engines"]["time_checks"]) rows[r["id"].get<std::string>()] = r;
  ASSERT_TRUE(rows.count("decode-tensorrt-llm-llama7b-h100-b112"));
  ASSERT_TRUE(rows.count("decode-sglang-deepseek-v3-b1"));
  const auto& trt = rows["decode-tensorrt-llm-llama7b-h100-b112"];
  EXPECT_NEAR(trt["measured_s"].get<double>(), 112.0 / 6818, 1e-9);
  const nlohmann::json e = nlohmann::json::parse(
      run("eval",
          R"({"target":"llama2-chat-7b","hardware":"h100-sxm","gpus":1,"runtime":"tensorrt-llm",)"
          R"("batch":112,"context":1152,"dtype":{"weights":"fp8","kv":"fp8"}})")
          .output);
  EXPECT_DOUBLE_EQ(trt["predicted_s"].get<double>(), e["baseline_step_s"].get<double>());
  const double m = trt["measured_s"].get<double>();  // stored to the nanosecond
  EXPECT_NEAR(trt["error_pct"].get<double>(), 100.0 * (e["baseline_step_s"].get<double>() - m) / m,
              1e-9);
  const auto& ds = rows["decode-sglang-deepseek-v3-b1"];
  EXPECT_NEAR(ds["measured_s"].get<double>(), 1.0 / 30.29, 1e-9);
  EXPECT_FALSE(ds["hardware_stated"].get<bool>());  // the PR names no GPU
  // Reported per source; no fit sees them.
  EXPECT_EQ(j["engines"]["time_checks_by_source"]["sglang-pr-2643"]["rows"], 3);
  EXPECT_EQ(j["engines"]["time_checks_by_source"]["decode-tensorrt-llm"]["rows"], 4);
}

}  // namespace
}  // namespace speccalc
