// The `families` command (each family at its own default acceptance), the page's starter and
// examples (`list ui`), and the held-out error eval reports beside its speedup (`fidelity`).
// Expected values are derived by hand from the data files, written out below.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "data/model_keys.hpp"
#include "fit/cross_validation.hpp"
#include "model/fidelity.hpp"
#include "speccalc/api.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/presets.hpp"

namespace {

using nlohmann::json;
using speccalc::Catalog;
using speccalc::load_catalog;
using speccalc::ModelArch;
using speccalc::same_architecture;

json run_ok(const std::string& command, const std::string& input) {
  const speccalc::Response r = speccalc::run(command, input);
  EXPECT_TRUE(r.ok) << command << " " << input << ": " << r.error.describe();
  return r.ok ? json::parse(r.output) : json();
}

std::map<std::string, json> by_family(const json& list) {
  std::map<std::string, json> out;
  for (const auto& f : list) out[f["family"].get<std::string>()] = f;
  return out;
}

// vLLM EAGLE-head traces of Llama-3.1-8B-Instruct on one H100 (core/data/workloads.json), chain
// k = 3: tau per workload ShareGPT 2.2542, CNN/DM 2.3285, GSM8K 2.3908, InstructCoder 2.3483;
// per-request p5 1.695, 1.946, 2.113, 2.105 and p95 2.804, 2.706, 2.782, 3.3.
constexpr double kTraceTauK3 = (2.2542 + 2.3285 + 2.3908 + 2.3483) / 4;  // 2.33045
constexpr double kTraceLowK3 = 1.695;                                    // lowest p5
constexpr double kTraceHighK3 = 3.3;                                     // highest p95
// The traces measured an EAGLE head; an EAGLE-3 head at k = 3 accepts 2.79 / 2.29 of it on the
// same stack and target (vLLM issue #20780, MT-Bench: EAGLE-3 AL 2.79, EAGLE-1 AL 2.29 at K = 3).
// A spread end is held at k + 1 = 4 (every draft accepted): 3.3 x 1.218 = 4.02 -> 4.
constexpr double kEagle3RatioK3 = 2.79 / 2.29;
constexpr double kEagle3TauK3 = kTraceTauK3 * kEagle3RatioK3;  // 2.839
constexpr double kEagle3LowK3 = kTraceLowK3 * kEagle3RatioK3;  // 2.065
constexpr double kEagle3HighK3 = 4;

// Prompt lookup on Vicuna-7B: the 7 greedy published rows eagle2-084..089 and specbench-649,
// tau 1.68, 1.87, 1.99, 1.31, 2.72, 1.44, 1.73.
constexpr double kPldVicunaTau = (1.68 + 1.87 + 1.99 + 1.31 + 2.72 + 1.44 + 1.73) / 7;  // 1.82

TEST(Families, EachFamilyAtItsOwnPublishedAcceptanceNotTheUsers) {
  // The user's alpha 0.7 must not leak into the other families (issue 18 item 3).
  const json cfg = {{"target", "vicuna-7b-v1.3"},
                    {"hardware", "a100-80gb-sxm"},
                    {"runtime", "hf-eager"},
                    {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}, {"k", 4}}},
                    {"acceptance", {{"alpha", 0.7}}}};
  const json out = run_ok("families", cfg.dump());
  // Yours: the chain closed form at alpha 0.7, k = 4: (1 - 0.7^5) / 0.3.
  EXPECT_NEAR(out["yours"]["tau"].get<double>(), (1 - std::pow(0.7, 5)) / 0.3, 1e-12);
  const auto fams = by_family(out["families"]);
  ASSERT_TRUE(fams.count("pld")) << out.dump();
  const json& pld = fams.at("pld");
  EXPECT_NEAR(pld["tau"].get<double>(), kPldVicunaTau, 1e-12);
  EXPECT_NEAR(pld["spread"]["tau_low"].get<double>(), 1.31, 1e-12);
  EXPECT_NEAR(pld["spread"]["tau_high"].get<double>(), 2.72, 1e-12);
  // The spread scales the speedup with tau at the same cycle time.
  EXPECT_NEAR(pld["spread"]["speedup_low"].get<double>(),
              pld["speedup"].get<double>() * 1.31 / kPldVicunaTau, 1e-9);
  // The bar is exactly what eval gives the same setup with no acceptance (the default).
  const json pld_eval = run_ok("eval", pld["config"].dump());
  EXPECT_EQ(pld_eval["speedup"].get<double>(), pld["speedup"].get<double>());
  json no_acceptance = cfg;
  no_acceptance.erase("acceptance");
  no_acceptance["method"] = {{"family", "pld"}};
  EXPECT_EQ(run_ok("eval", no_acceptance.dump())["speedup"].get<double>(),
            pld["speedup"].get<double>());
  // Medusa on Vicuna-7B: 7 rows eagle2-091..096, specbench-656: tau 2.52, 2.67, 2.59, 2.48,
  // 2.02, 2.09, 2.32.
  ASSERT_TRUE(fams.count("medusa"));
  EXPECT_NEAR(fams.at("medusa")["tau"].get<double>(),
              (2.52 + 2.67 + 2.59 + 2.48 + 2.02 + 2.09 + 2.32) / 7, 1e-12);
  // Absent, each with its reason: no EAGLE-3 head for Vicuna-7B (models.json heads has one for
  // Vicuna-13B only), no MTP modules, no data for LayerSkip / streaming self-speculation.
  const auto absent = by_family(out["absent"]);
  for (const char* f : {"eagle3", "mtp", "layerskip", "streaming"})
    ASSERT_TRUE(absent.count(f)) << f << " " << out.dump();
  EXPECT_NE(absent.at("eagle3")["reason"].get<std::string>().find("no published eagle3 head"),
            std::string::npos);
  EXPECT_NE(absent.at("layerskip")["reason"].get<std::string>().find("no acceptance from data"),
            std::string::npos);
  // Only the user's own family's reason says what the bar 'yours' is instead.
  EXPECT_EQ(absent.at("eagle3")["reason"].get<std::string>().find("'yours'"), std::string::npos);
  {
    json own = cfg;
    own["method"] = {{"family", "eagle3"}};
    own.erase("acceptance");
    const std::string why =
        by_family(run_ok("families", own.dump())["absent"]).at("eagle3")["reason"];
    EXPECT_NE(why.find("no published eagle3 head"), std::string::npos) << why;
    EXPECT_NE(why.find("the bar 'yours' is your own setting, its acceptance assumed"),
              std::string::npos)
        << why;
  }
  // Every family is either drawn or named absent, never both, never dropped (ar aside).
  const json methods = run_ok("list", "methods");
  EXPECT_EQ(fams.size() + absent.size(), methods.size() - 1);
  for (const auto& [f, _] : fams) EXPECT_FALSE(absent.count(f)) << f;
}

TEST(Families, DeepSeekV3ShowsItsMtpAndNoEagleOrGuessedLookup) {
  // DeepSeek-V3 on 8×H200 in fp8 under vLLM: MTP at the report's 85-90 % second-token
  // acceptance, tau = 1 + (0.85 + 0.90) / 2 = 1.875; no EAGLE/Medusa/Hydra head, no draft with
  // its 129280-token vocabulary, no data for prompt lookup on it (issue 18: "PLD beats MTP").
  const json cfg = {{"target", "deepseek-v3"},
                    {"hardware", "h200-sxm"},
                    {"gpus", 8},
                    {"runtime", "vllm"},
                    {"dtype", {{"weights", "fp8"}}},
                    {"method", {{"family", "mtp"}, {"k", 1}}}};
  const json out = run_ok("families", cfg.dump());
  const auto fams = by_family(out["families"]);
  ASSERT_EQ(fams.size(), 1u) << out.dump();
  ASSERT_TRUE(fams.count("mtp"));
  EXPECT_NEAR(fams.at("mtp")["tau"].get<double>(), 1.875, 1e-12);
  EXPECT_NEAR(fams.at("mtp")["spread"]["tau_low"].get<double>(), 1.85, 1e-12);
  EXPECT_NEAR(fams.at("mtp")["spread"]["tau_high"].get<double>(), 1.90, 1e-12);
  const auto absent = by_family(out["absent"]);
  for (const char* f : {"eagle1", "eagle2", "eagle3", "medusa", "sps", "pld"})
    EXPECT_TRUE(absent.count(f)) << f;
}

TEST(Families, VllmEagle3IncludesTheUsersMethodAndTracesForChains) {
  const json cfg = json::parse(run_ok("list", "ui")["starter"].dump());
  const json out = run_ok("families", cfg.dump());
  EXPECT_EQ(out["yours"]["family"], "eagle3");
  const auto fams = by_family(out["families"]);
  ASSERT_TRUE(fams.count("eagle3")) << out.dump();
  // The ratio is stored to 6 decimals (workloads.json): 1.218341.
  EXPECT_NEAR(fams.at("eagle3")["tau"].get<double>(), kEagle3TauK3, 1e-5);
  EXPECT_NEAR(fams.at("eagle3")["spread"]["tau_low"].get<double>(), kEagle3LowK3, 1e-5);
  EXPECT_NEAR(fams.at("eagle3")["spread"]["tau_high"].get<double>(), kEagle3HighK3, 1e-12);
  // EAGLE-1 keeps the traces as measured, and the EAGLE-3 head now ranks above it (as #20780
  // measured at k = 3: 1.73x against 1.65x), where the borrowed EAGLE-head column put it last.
  ASSERT_TRUE(fams.count("eagle1"));
  EXPECT_NEAR(fams.at("eagle1")["tau"].get<double>(), kTraceTauK3, 1e-12);
  EXPECT_NEAR(fams.at("eagle1")["spread"]["tau_high"].get<double>(), kTraceHighK3, 1e-12);
  EXPECT_GT(fams.at("eagle3")["speedup"].get<double>(), fams.at("eagle1")["speedup"].get<double>());
  // vLLM does not run lookahead, and Llama-3.1-8B has no Medusa head.
  const auto absent = by_family(out["absent"]);
  EXPECT_TRUE(absent.count("lookahead"));
  EXPECT_TRUE(absent.count("medusa"));
}

TEST(Families, BadConfigNamesTheField) {
  const speccalc::Response r = speccalc::run("families", R"({"target":"nope"})");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target");
}

// The starter (issue 18 item 8): Llama-3.1-8B on one H100 under the validated vLLM profile,
// EAGLE-3 as a chain of 3, tau = the traces' mean at k = 3 scaled to an EAGLE-3 head (no alpha
// override), fits, pays.
TEST(UiExamples, StarterIsTheValidatedVllmEagle3SetupAtItsTracedAcceptance) {
  const json ui = run_ok("list", "ui");
  const json& s = ui["starter"];
  EXPECT_FALSE(s.contains("acceptance"));
  const json e = run_ok("eval", s.dump());
  EXPECT_EQ(e["config"]["target"], "llama3.1-8b-instruct");
  EXPECT_EQ(e["config"]["hardware"], "h100-sxm");
  EXPECT_EQ(e["engine"]["id"], "vllm");
  EXPECT_TRUE(e["engine"]["validated"].get<bool>());
  EXPECT_EQ(e["config"]["method"]["family"], "eagle3");
  EXPECT_EQ(e["config"]["method"]["top_k"], 1);
  EXPECT_NEAR(e["tau"].get<double>(), kEagle3TauK3, 1e-5);
  EXPECT_NE(e["tau_source"].get<std::string>().find("workloads.json"), std::string::npos);
  EXPECT_NE(e["tau_source"].get<std::string>().find("#20780"), std::string::npos);
  EXPECT_EQ(e["verdict"], "pays");
  EXPECT_TRUE(e["memory"]["fits"].get<bool>());
}

// The page's "Under load" starts from `list ui`'s load: a block the load command accepts on the
// starter, at a rate both plain decoding and speculation serve in a steady state.
TEST(UiExamples, TheLoadDefaultIsALightLoadOnTheStarter) {
  const json ui = run_ok("list", "ui");
  json config = ui["starter"];
  config["load"] = ui["load"];
  EXPECT_EQ(ui["load"]["workload"], "sharegpt");
  const json out = run_ok("load", config.dump());
  const double rate = ui["load"]["rate_rps"].get<double>();
  for (const char* side : {"plain", "speculative"}) {
    EXPECT_LT(rate, out[side]["capacity_rps"].get<double>()) << side;
    EXPECT_EQ(out[side]["at"]["state"], "steady") << side;
  }
}

TEST(Acceptance, DeepSeekSiblingsTakeV3sReportedMtpRateAndSaySo) {
  // DeepSeek-R1, V3.1 and V3.2 ship V3's single MTP module and report no rate of their own: their
  // k = 1 default is V3's report, tau = 1 + (0.85 + 0.90) / 2 = 1.875 (arXiv 2412.19437,
  // section 5.4.3), not the generic alpha 0.7 (tau 1.7); the basis and the note say it is
  // carried over. V3 itself says nothing of the kind. GLM-5 (another MTP model, another
  // architecture) takes V3's and GLM-4.5-Air's measurements pooled instead (MtpAcceptance).
  const auto eval = [](const std::string& target, int k) {
    return run_ok("eval", R"({"target":")" + target +
                              R"(","hardware":"h200-sxm","gpus":8,"dtype":{"weights":"fp8"},)"
                              R"("runtime":"sglang","method":{"family":"mtp","k":)" +
                              std::to_string(k) + "}}");
  };
  for (const std::string t : {"deepseek-r1", "deepseek-v3.1", "deepseek-v3.2"}) {
    const json e = eval(t, 1);
    EXPECT_NEAR(e["tau"].get<double>(), 1.875, 1e-12) << t;
    EXPECT_NE(e["tau_basis"].get<std::string>().find("assumed for this model"), std::string::npos);
    EXPECT_NE(e["tau_source"].get<std::string>().find(t + " publishes none of its own"),
              std::string::npos);
    // k = 3: the same first position as V3's k = 3 default, so the same tau.
    EXPECT_NEAR(eval(t, 3)["tau"].get<double>(), eval("deepseek-v3", 3)["tau"].get<double>(),
                1e-12);
  }
  const json v3 = eval("deepseek-v3", 1);
  EXPECT_EQ(v3["tau_source"].get<std::string>().find("publishes none"), std::string::npos);
  EXPECT_NEAR(eval("glm-5", 1)["tau"].get<double>(), 1 + (0.875 + 0.92) / 2, 1e-12);
}

TEST(UiExamples, ExamplesAreTodaysQuestionsAndEachFits) {
  const json ui = run_ok("list", "ui");
  ASSERT_EQ(ui["examples"].size(), 4u);
  std::set<std::string> targets;
  for (const auto& ex : ui["examples"]) {
    const json e = run_ok("eval", ex["config"].dump());
    EXPECT_TRUE(e["memory"]["fits"].get<bool>()) << ex["label"];
    EXPECT_NE(e["verdict"], "infeasible") << ex["label"];
    targets.insert(e["config"]["target"].get<std::string>());
    if (e["config"]["target"] == "deepseek-v3") {
      EXPECT_EQ(e["config"]["method"]["family"], "mtp");
      EXPECT_EQ(e["config"]["gpus"], 8);
      EXPECT_NEAR(e["tau"].get<double>(), 1.875, 1e-12);  // 1 + (0.85 + 0.90) / 2
    }
    if (e["config"]["target"] == "llama3.1-70b-instruct") {
      EXPECT_EQ(e["config"]["gpus"], 4);
      EXPECT_EQ(e["config"]["batch"], 32);
      EXPECT_EQ(e["engine"]["id"], "vllm");
    }
    if (e["config"]["target"] == "qwen3-8b") {
      // "My computer" (issue 22): a GGUF model and its small sibling under llama.cpp on a Mac.
      EXPECT_EQ(e["engine"]["id"], "llama.cpp-metal");
      EXPECT_EQ(e["config"]["hardware"], "apple-m4-pro");
      EXPECT_EQ(e["config"]["dtype"]["weights"], "q4_k_m");
      EXPECT_EQ(e["config"]["method"]["draft"], "qwen3-0.6b");
      EXPECT_EQ(e["config"]["method"]["k"], 3);
    }
  }
  EXPECT_EQ(targets, (std::set<std::string>{"llama3.1-70b-instruct", "deepseek-v3",
                                            "llama3.1-8b-instruct", "qwen3-8b"}));
}

// Issue 18 item 11: the embedded table equals what a fresh validation computes.
TEST(Fidelity, EmbeddedTableEqualsAFreshValidation) {
  const auto& catalog = speccalc::load_catalog();
  ASSERT_TRUE(catalog.ok());
  auto fresh = speccalc::validation_bands_json(catalog.value(), speccalc::data::published());
  ASSERT_TRUE(fresh.ok()) << fresh.error().describe();
  const json embedded = json::parse(speccalc::data::validation_bands())["bands"];
  ASSERT_EQ(embedded.size(), fresh.value().size());
  for (const auto& [profile, families] : fresh.value().items()) {
    ASSERT_TRUE(embedded.contains(profile)) << profile;
    ASSERT_EQ(embedded[profile].size(), families.size()) << profile;
    for (const auto& [family, b] : families.items()) {
      const json& e = embedded[profile][family];
      EXPECT_EQ(e["rows"], b["rows"]) << profile << " " << family;
      EXPECT_EQ(e["basis"], b["basis"]) << profile << " " << family;
      for (const char* k : {"mape_pct", "mean_error_pct", "max_abs_error_pct"})
        EXPECT_NEAR(e[k].get<double>(), b[k].get<double>(), 1e-9) << profile << family << k;
    }
  }
}

TEST(Fidelity, EmbeddedTimeChecksEqualAFreshValidation) {
  const auto& catalog = speccalc::load_catalog();
  ASSERT_TRUE(catalog.ok());
  auto fresh = speccalc::engine_rows_json(catalog.value(), speccalc::data::published());
  ASSERT_TRUE(fresh.ok()) << fresh.error().describe();
  const json embedded = json::parse(speccalc::data::validation_bands())["time_checks"];
  const json& checks = fresh.value()["time_checks"];
  ASSERT_EQ(embedded.size(), checks.size());
  for (std::size_t i = 0; i < checks.size(); ++i) {
    EXPECT_EQ(embedded[i]["id"], checks[i]["id"]);
    EXPECT_NEAR(embedded[i]["predicted_s"].get<double>(), checks[i]["predicted_s"].get<double>(),
                1e-12);
  }
}

TEST(Fidelity, AFeaturedSetupWhoseEngineStepTimesMissSaysSo) {
  // SGLang's DeepSeek decode steps are in the time checks: PR #2643's DeepSeek-V3 runs (SGLang
  // v0.4.1, 2024-12-29, 77-83 % off) and InferenceX's DeepSeek-R1 runs (v0.5.7, 2026-03-05, a
  // quarter off) on 8 x H200, and a two-node 16 x H100 run of R1 (2025-07-09, -77 %). R1 has
  // V3's architecture, so its checks speak for V3 too; on this machine the newest run decides
  // (today's SGLang, not December 2024's), then the nearest batch: at batch 6, R1's batch 8.
  const json checks = json::parse(speccalc::data::validation_bands())["time_checks"];
  const json* r1_b8 = nullptr;
  const json* two_node = nullptr;
  for (const json& c : checks) {
    if (c["engine"] != "sglang" || c["target"] != "deepseek-r1") continue;
    if (c["hardware"] == "h200-sxm" && c["gpus"] == 8 && c["batch"] == 8) r1_b8 = &c;
    if (c["hardware"] == "h100-sxm" && c["gpus"] == 16 && !two_node) two_node = &c;
  }
  ASSERT_NE(r1_b8, nullptr);
  ASSERT_NE(two_node, nullptr);
  EXPECT_EQ((*r1_b8)["measured_on"], "2026-03-05");
  ASSERT_GT(std::abs((*two_node)["error_pct"].get<double>()), 25);
  const std::string base =
      R"({"target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"batch":6,)"
      R"("dtype":{"weights":"fp8","kv":"fp8"},"method":{"family":"mtp","k":1},"runtime":")";
  const json sg = run_ok("eval", base + R"(sglang"})")["fidelity"];
  if (std::abs((*r1_b8)["error_pct"].get<double>()) >= 25) {
    EXPECT_EQ(sg["time_check"]["id"], (*r1_b8)["id"]);
    const std::string st = sg["statement"];
    EXPECT_NE(st.find("of deepseek-r1 (this model's architecture) measured 12.8 ms a step at "
                      "batch 8 on 8 x h200-sxm (2026-03-05)"),
              std::string::npos)
        << st;
    EXPECT_NE(st.find("step times here are not trusted"), std::string::npos) << st;
  } else {
    EXPECT_FALSE(sg.contains("time_check")) << sg.dump();
  }
  const json vl = run_ok("eval", base + R"(vllm"})")["fidelity"];
  EXPECT_FALSE(vl.contains("time_check"));
  // DeepSeek-V3 on the two-node machine: R1's run there speaks for it and misses by far.
  const std::string two = R"({"target":"deepseek-v3","hardware":"h100-sxm","gpus":16,"batch":1,)"
                          R"("method":{"family":"mtp","k":1},"runtime":)";
  const json f16 = run_ok("eval", two + R"("sglang"})")["fidelity"];
  EXPECT_EQ(f16["time_check"]["id"], (*two_node)["id"]);
  EXPECT_NE(f16["statement"].get<std::string>().find("step times here are not trusted"),
            std::string::npos);
  // Calibrated to the user's own measured step, the warning gives way to what was done (the
  // walk: the page kept saying "not trusted" after the user had calibrated).
  const std::string cal =
      two + R"({"profile":"sglang","measured_decode_step_s":0.0232,"measured_decode_batch":1}})";
  const std::string st = run_ok("eval", cal)["fidelity"]["statement"];
  EXPECT_EQ(st.find("not trusted"), std::string::npos) << st;
  EXPECT_NE(st.find("calibrated to your measured 23.2 ms plain decode step"), std::string::npos)
      << st;
}

// A pays / loses verdict carries verdict_caveat exactly when the output's own numbers allow the
// other answer: the held-out band (fidelity.speedup_low..high) or the acceptance's spread
// (band.speedup_p5..p95) crosses 1x, or the engine's own step-time check of the model misses
// and no measured step calibrates it. A walk found "Speculation pays off" under a card that said
// the step times were off by 84 % (DeepSeek-V3 on SGLang), and a Mac's 1.05x "pays" over a range
// of 0.82-1.19x.
TEST(Fidelity, AVerdictTheNumbersDoNotSettleSaysSo) {
  auto crosses = [](const json& lo, const json& hi) {
    return lo.is_number() && hi.is_number() && lo.get<double>() < 1 && hi.get<double>() > 1;
  };
  int with = 0, without = 0;
  auto check = [&](const json& config) {
    const json e = run_ok("eval", config.dump());
    const json& f = e["fidelity"];
    const bool band =
        e.contains("band") && crosses(e["band"]["speedup_p5"], e["band"]["speedup_p95"]);
    const bool held_out = f.contains("speedup_low") && crosses(f["speedup_low"], f["speedup_high"]);
    const bool calibrated = e["config"]["runtime"].is_object() &&
                            e["config"]["runtime"].contains("measured_decode_step_s");
    const bool untrusted = f.contains("time_check") && !calibrated;
    const bool expect = band || held_out || untrusted;
    EXPECT_EQ(e.contains("verdict_caveat"), expect) << config.dump();
    (expect ? with : without)++;
    const std::string caveat = e.value("verdict_caveat", std::string());
    if (held_out) {
      EXPECT_NE(caveat.find("held-out error"), std::string::npos) << caveat;
    }
    if (untrusted) {
      EXPECT_NE(caveat.find("not trusted"), std::string::npos) << caveat;
    }
  };
  // SpS on HF eager (held-out error ~3 %) at taus around the break-even point.
  for (double tau : {1.3, 1.4, 1.45, 1.5, 1.55, 1.6, 1.8, 2.5})
    check(json{{"target", "vicuna-7b-v1.3"},
               {"hardware", "a100-80gb-sxm"},
               {"runtime", "hf-eager"},
               {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}, {"k", 4}}},
               {"acceptance", {{"tau", tau}}}});
  // The Mac example (acceptance from the draft's size, with its spread) and DeepSeek-V3 on SGLang
  // over two nodes of 8 H100s (its architecture's own decode measured 23.2 ms a step there, the
  // model -69 %), plain and calibrated; on one node of 8 H200s the checks sit within 25 %.
  check(run_ok("list", "ui")["examples"][3]["config"]);
  const json ds =
      json::parse(R"({"target":"deepseek-v3","hardware":"h100-sxm","gpus":16,"runtime":"sglang",)"
                  R"("dtype":{"weights":"fp8"},"method":{"family":"mtp","k":1}})");
  check(ds);
  check(json::parse(R"({"target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"runtime":"sglang",)"
                    R"("dtype":{"weights":"fp8"},"method":{"family":"mtp","k":1}})"));
  json cal = ds;
  cal["runtime"] = json{{"profile", "sglang"}, {"measured_decode_step_s", 0.033}};
  check(cal);
  EXPECT_GE(with, 3);
  EXPECT_GE(without, 3);
}

// The held-out band says which models its rows measured when this one is not among them: the
// 70B example borrows the band of vLLM EAGLE-3's 8B rows (the walk: unsaid).
TEST(Fidelity, ABandBorrowedFromOtherModelsSaysSo) {
  const json bands = json::parse(speccalc::data::validation_bands())["bands"];
  const json& ids = bands["vllm"]["eagle3"]["targets"];
  ASSERT_TRUE(ids.is_array());
  const json ui = run_ok("list", "ui");
  const json example = ui["examples"][0]["config"];
  ASSERT_EQ(example["target"], "llama3.1-70b-instruct");
  ASSERT_NE(std::find(ids.begin(), ids.end(), json("llama3.1-8b-instruct")), ids.end());
  ASSERT_EQ(std::find(ids.begin(), ids.end(), example["target"]), ids.end());
  const json big = run_ok("eval", example.dump())["fidelity"];
  EXPECT_NE(big["statement"].get<std::string>().find("not on this model"), std::string::npos)
      << big["statement"];
  EXPECT_EQ(big["targets"], ids);
  const json own = run_ok("eval", ui["starter"].dump())["fidelity"];
  EXPECT_EQ(own["statement"].get<std::string>().find("not on this model"), std::string::npos);
  EXPECT_FALSE(own.contains("targets"));
}

TEST(Fidelity, ABandMeasuredAtShortContextsSaysSoFarBeyondThem) {
  // Every published hf-eager EAGLE-3 row is priced at 1,024 cached tokens (validate's rows), so
  // the band's longest context is 1,024; at 32,000 (31x beyond, where attention and eager score
  // traffic grow and the weights do not) eval says the band was measured far shorter; at 2,048
  // (2x, the limit) it does not.
  const json bands = json::parse(speccalc::data::validation_bands())["bands"];
  ASSERT_EQ(bands["hf-eager"]["eagle3"]["max_context"].get<int64_t>(), 1024);
  auto fidelity = [](int context) {
    return run_ok("eval", R"({"target":"llama3.1-8b-instruct","hardware":"a100-80gb-sxm",)"
                          R"("runtime":"hf-eager","method":{"family":"eagle3"},"context":)" +
                              std::to_string(context) + "}")["fidelity"];
  };
  const json far = fidelity(32000);
  EXPECT_NE(far["statement"].get<std::string>().find(
                "its rows were priced at contexts up to 1024 tokens, this setup's is 32000"),
            std::string::npos)
      << far["statement"];
  EXPECT_EQ(far["max_context"].get<int64_t>(), 1024);
  const json near = fidelity(2048);
  EXPECT_EQ(near["statement"].get<std::string>().find("priced at contexts"), std::string::npos);
  EXPECT_FALSE(near.contains("max_context"));
}

TEST(Fidelity, ACheckOnThisMachineOutranksAFartherMiss) {
  // DeepSeek-R1 under SGLang has two kinds of decode checks: a two-node 16 x H100 run at batch
  // 1 that misses by far more than 25 % (tenstorrent issue #356), and 8 x H200 runs at batch 8
  // to 64 that miss by less (InferenceX issue #870). An 8 x H200 setup is spoken for by its own
  // machine's nearest check, not warned with the other machine's miss; the 16 x H100 setup is.
  const json checks = json::parse(speccalc::data::validation_bands())["time_checks"];
  const json* two_node = nullptr;
  const json* h200_b8 = nullptr;
  for (const json& c : checks) {
    if (c["engine"] != "sglang" || c["target"] != "deepseek-r1") continue;
    if (c["gpus"] == 16 && c["hardware"] == "h100-sxm" && !two_node) two_node = &c;
    if (c["gpus"] == 8 && c["hardware"] == "h200-sxm" && c["batch"] == 8) h200_b8 = &c;
  }
  ASSERT_NE(two_node, nullptr);
  ASSERT_NE(h200_b8, nullptr);
  ASSERT_GT(std::abs((*two_node)["error_pct"].get<double>()), 25);
  // The H200 runs missed by under 25 % while all-reduces cost a stated 30 us; at the measured
  // 5 us they miss by more (29 % at batch 8): either way this machine's own check decides.
  const bool h200_misses = std::abs((*h200_b8)["error_pct"].get<double>()) > 25;
  const auto fidelity = [](const std::string& hw, int gpus, int batch) {
    return run_ok(
        "eval", R"({"target":"deepseek-r1","runtime":"sglang","hardware":")" + hw + R"(","gpus":)" +
                    std::to_string(gpus) + R"(,"batch":)" + std::to_string(batch) +
                    R"(,"dtype":{"weights":"fp8"},"method":{"family":"mtp","k":1}})")["fidelity"];
  };
  // Batch 1 on 8 x H200: the two-node run is nearer in batch, the H200 runs are this machine.
  const json h200 = fidelity("h200-sxm", 8, 1);
  if (h200_misses)
    EXPECT_EQ(h200["time_check"]["id"], (*h200_b8)["id"]);
  else
    EXPECT_FALSE(h200.contains("time_check"));
  EXPECT_EQ(fidelity("h100-sxm", 16, 2)["time_check"]["id"], (*two_node)["id"]);
  // A machine no check ran on: the newest run decides (InferenceX's 2026-03-05 over the two-node
  // run's 2025-07-09, though that one's batch 1 is nearer), then the nearest batch.
  const json h100 = fidelity("h100-sxm", 8, 1);
  if (h200_misses)
    EXPECT_EQ(h100["time_check"]["id"], (*h200_b8)["id"]);
  else
    EXPECT_FALSE(h100.contains("time_check"));
}

TEST(Fidelity, ChecksSpeakForEveryPresetOfTheirArchitectureOnly) {
  // DeepSeek-R1 and DeepSeek-V3.1 are DeepSeek-V3's shapes (one MTP module, 61 MLA layers of
  // 256 experts); DeepSeek-V3.2 adds the sparse-attention indexer, so R1's steps do not price
  // it; Llama-3.1-8B is another model entirely.
  const Catalog& c = load_catalog().value();
  const ModelArch* v3 = c.find_target("deepseek-v3");
  ASSERT_NE(v3, nullptr);
  EXPECT_TRUE(same_architecture(*c.find_target("deepseek-r1"), *v3));
  EXPECT_TRUE(same_architecture(*c.find_target("deepseek-v3.1"), *v3));
  EXPECT_FALSE(same_architecture(*c.find_target("deepseek-v3.2"), *v3));
  EXPECT_FALSE(same_architecture(*c.find_target("llama3.1-8b-instruct"), *v3));
  ModelArch one_layer_less = *v3;
  one_layer_less.num_layers -= 1;
  EXPECT_FALSE(same_architecture(one_layer_less, *v3));
  // So DeepSeek-V3.2 on 16 x H100 under SGLang hears nothing of R1's two-node run.
  const json f =
      run_ok("eval", R"({"target":"deepseek-v3.2","hardware":"h100-sxm","gpus":16,)"
                     R"("runtime":"sglang","method":{"family":"mtp","k":1}})")["fidelity"];
  EXPECT_FALSE(f.contains("time_check")) << f.dump();
}

TEST(Fidelity, ACheckOnACustomModelWarnsNoOtherCustomModel) {
  // The M5 check of TinyLlama-1.1B (a config.json target, id "custom") misses by more than the
  // warning's 25 %; another custom model on the same engine is not that model.
  const json checks = json::parse(speccalc::data::validation_bands())["time_checks"];
  bool custom_miss = false;
  for (const json& c : checks)
    custom_miss |= c["engine"] == "llama.cpp-metal" && c["target"] == "custom" &&
                   std::abs(c["error_pct"].get<double>()) > 25;
  ASSERT_TRUE(custom_miss);
  const json f =
      run_ok("eval", R"({"target":{"model_type":"llama",)"
                     R"("hidden_size":2048,"intermediate_size":5632,)"
                     R"("num_attention_heads":32,"num_hidden_layers":22,)"
                     R"("num_key_value_heads":4,"vocab_size":32000},)"
                     R"("hardware":"apple-m4-pro","runtime":"llama.cpp-metal","method":"pld",)"
                     R"("dtype":"q4_0","batch":1})")["fidelity"];
  EXPECT_FALSE(f.contains("time_check")) << f.dump();
}

TEST(Fidelity, EvalCarriesTheHeldOutErrorOfItsEngineAndFamilyAsABand) {
  const json bands = json::parse(speccalc::data::validation_bands())["bands"];
  const json e = run_ok("eval", run_ok("list", "ui")["starter"].dump());
  const json& f = e["fidelity"];
  ASSERT_TRUE(bands["vllm"].contains("eagle3"));
  const json& b = bands["vllm"]["eagle3"];
  EXPECT_EQ(f["rows"], b["rows"]);
  EXPECT_EQ(f["mape_pct"].get<double>(), b["mape_pct"].get<double>());
  // measured = predicted / (1 + error / 100); error in bias +- MAPE.
  const double s = e["speedup"].get<double>();
  const double m = b["mape_pct"].get<double>(), bias = b["mean_error_pct"].get<double>();
  EXPECT_NEAR(f["speedup_low"].get<double>(), s / (1 + (bias + m) / 100), 1e-12);
  EXPECT_NEAR(f["speedup_high"].get<double>(), s / std::max(0.05, 1 + (bias - m) / 100), 1e-12);
  // The band is the held-out (leave-one-source-out) error of vLLM's EAGLE-3 rows. Issue 18
  // quoted 38 % over-predicted; with EAGLE-3's own step cost fitted on issue #20780's cycle
  // times (PR #16937's row informs it when #20780 is held out) issue 19's target is <= 10 %.
  EXPECT_LT(m, 10.0);
  EXPECT_GT(m, 0.0);
  const json v = json::parse(speccalc::run("validate", "{}").output);
  const json& eng = v["engines"]["by_family"]["eagle3"];
  EXPECT_EQ(eng["rows"], b["rows"]);
  // In sample (the stored profile, whose fit saw these cycles) the rows are closer still.
  EXPECT_LT(eng["mape_pct"].get<double>(), m);
  EXPECT_NE(f["statement"].get<std::string>().find(bias > 0 ? "over-predicted" : "under-predicted"),
            std::string::npos);
  EXPECT_EQ(f["tau_source"], e["tau_source"]);
  // A family no held-out row measures says so and draws no band.
  const json lay = run_ok(
      "eval",
      R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","method":{"family":"layerskip"}})");
  EXPECT_EQ(lay["fidelity"]["rows"], 0);
  EXPECT_FALSE(lay["fidelity"].contains("speedup_low"));
  // Plain decoding has nothing to trust or distrust.
  EXPECT_FALSE(run_ok("eval", R"({"target":"llama3.1-8b-instruct","method":{"family":"ar"}})")
                   .contains("fidelity"));
}

}  // namespace

// A serving benchmark's mean TPOT (InferenceX's DeepSeek-R1 runs on 8 x H200, 1,024 tokens in
// and out, closed loop) is checked against the load model's plain TPOT at that concurrency, not
// against a bare decode step: the steps carry the prompts of the requests that replace finished
// ones. At concurrency 64 each request's 1,024-token prompt arrives once per 1,024 output steps
// of one slot, so a step carries about 64 prompt tokens: the TPOT exceeds the batch-64 step by
// about 64 x the prompt token's compute, and never by more.
TEST(Fidelity, ServingChecksArePricedAsTheLoadModelsTpotWithItsPrefills) {
  const json bands = json::parse(speccalc::data::validation_bands());
  const json* check = nullptr;
  for (const json& c : bands["time_checks"])
    if (c["id"] == "decode-sglang-deepseek-r1-h200-c64") check = &c;
  ASSERT_NE(check, nullptr);
  EXPECT_EQ((*check)["kind"], "serving_tpot");
  EXPECT_EQ((*check)["concurrency"], 64);
  const std::string setup =
      R"({"target":"deepseek-r1","hardware":"h200-sxm","gpus":8,"runtime":"sglang",)"
      R"("dtype":{"weights":"fp8","kv":"fp16"},)";
  const json load = run_ok(
      "load", setup + R"("load":{"concurrency":64,"input_tokens":1024,"output_tokens":1024}})");
  const double tpot = load["plain"]["at"]["tpot_s"].get<double>();
  EXPECT_NEAR((*check)["predicted_s"].get<double>(), tpot, 1e-12 * tpot);
  const double step =
      run_ok("eval", setup + R"("batch":64,"context":1536})")["baseline_step_s"].get<double>();
  const double prompt_token_s = load["inputs"]["prefill_s_per_token"].get<double>();
  EXPECT_GT(tpot - step, 0.5 * 64 * prompt_token_s) << tpot << " vs " << step;
  EXPECT_LT(tpot - step, 1.05 * 64 * prompt_token_s) << tpot << " vs " << step;
  // When such a check speaks in eval's statement it says what was measured: a time per output
  // token under that load, not a step.
  EXPECT_EQ(speccalc::time_check_what(*check),
            " per output token serving 64 concurrent requests of 1024 / 1024 tokens in / out "
            "(its prefills inside)");
  EXPECT_EQ(speccalc::time_check_what(json{{"kind", "decode_step"}, {"batch", 8}}),
            " a step at batch 8");
}
