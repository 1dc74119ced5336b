// Issue 18, the user's path: the draft's placement is the engine's own and the export says it;
// EAGLE knobs default to what the chosen engine runs and take the engine's own names; sizing
// costs the user's own family and is never worse than the setting it started from; a model
// opens in its released dtype; a neighbour's head is offered and named as such; an edit of the
// setup is carried to a config that runs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json ok(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_TRUE(r.ok) << command << ": " << r.error.describe() << "\ninput: " << input.dump();
  return r.ok ? json::parse(r.output) : json::object();
}

speccalc::Error error_of(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_FALSE(r.ok) << command << " accepted " << input.dump();
  return r.error;
}

// `prev` with its engine switched to `engine`, carried as the form's engine select sends it.
json engine_changed(const json& prev, const char* engine) {
  json edited = prev;
  edited["runtime"] = engine;
  return ok("carry", json{{"config", edited}, {"changed", "runtime"}, {"previous", prev}});
}

// Whether one of a carry's notes starts with `prefix`.
bool noted(const json& out, const std::string& prefix) {
  for (const auto& n : out["notes"])
    if (n.get<std::string>().rfind(prefix, 0) == 0) return true;
  return false;
}

// Llama-3.1-70B on 4 x H100 drafted by Llama-3.2-1B (both 128,256-token Llama-3 vocabulary).
json sps_70b(const std::string& runtime) {
  return json{{"target", "llama3.1-70b-instruct"},
              {"hardware", "h100-sxm"},
              {"gpus", 4},
              {"runtime", runtime},
              {"batch", 32},
              {"method", {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"k", 4}}},
              {"acceptance", {{"alpha", 0.7}}}};
}

json vllm_spec(const json& exported) {
  return json::parse(exported["vllm"]["--speculative-config"].get<std::string>());
}

// ---- item 2: draft tensor parallelism ------------------------------------------------------

TEST(DraftPlacement, EachEngineDefaultIsItsOwn) {
  // vllm/config/speculative.py _verify_and_get_draft_tp: unset -> the target's TP (4 here).
  // SGLang's EAGLEWorker and TensorRT-LLM's drafts run in the target's TP group: 4.
  // Research code (hf-eager) places the draft on one GPU: 1.
  for (const auto& [runtime, expected] : std::vector<std::pair<std::string, int>>{
           {"vllm", 4}, {"sglang", 4}, {"tensorrt-llm", 4}, {"hf-eager", 1}}) {
    const json e = ok("eval", sps_70b(runtime));
    EXPECT_EQ(e["draft_placement"]["tensor_parallel_size"], expected) << runtime;
    EXPECT_EQ(e["draft_placement"]["given"], false) << runtime;
  }
}

TEST(DraftPlacement, ShardingSplitsTheDraftWeightsEvenly) {
  // The same draft on 4 GPUs holds a quarter of the bytes per GPU it holds on 1.
  json one = sps_70b("vllm");
  one["method"]["draft_tensor_parallel_size"] = 1;
  const double w1 = ok("eval", one)["memory"]["draft_weights_gb_per_gpu"].get<double>();
  const double w4 = ok("eval", sps_70b("vllm"))["memory"]["draft_weights_gb_per_gpu"].get<double>();
  // Llama-3.2-1B: 1.24e9 parameters x 2 bytes = 2.47 GB in fp16 (its model card).
  EXPECT_NEAR(w1, 2.47, 0.05);
  EXPECT_NEAR(w1 / w4, 4.0, 1e-9);
}

TEST(DraftPlacement, ExportWritesThePricedPlacement) {
  for (int given : {0, 1, 4}) {
    json c = sps_70b("vllm");
    if (given > 0) c["method"]["draft_tensor_parallel_size"] = given;
    const int priced = ok("eval", c)["draft_placement"]["tensor_parallel_size"].get<int>();
    EXPECT_EQ(priced, given > 0 ? given : 4);
    const json x = ok("export", c);
    EXPECT_EQ(vllm_spec(x)["draft_tensor_parallel_size"], priced) << given;
  }
  // EAGLE-3 too: its head runs at the target's TP under vLLM by default.
  json eagle = sps_70b("vllm");
  eagle["method"] = {{"family", "eagle3"}};
  eagle.erase("acceptance");
  EXPECT_EQ(vllm_spec(ok("export", eagle))["draft_tensor_parallel_size"], 4);
}

TEST(DraftPlacement, OnlyWhatTheEngineRuns) {
  json vllm2 = sps_70b("vllm");
  vllm2["method"]["draft_tensor_parallel_size"] = 2;  // vLLM: 1 or the target's 4
  EXPECT_EQ(error_of("eval", vllm2).field, "method.draft_tensor_parallel_size");
  json sglang1 = sps_70b("sglang");
  sglang1["method"]["draft_tensor_parallel_size"] = 1;  // SGLang has no separate draft TP
  EXPECT_EQ(error_of("eval", sglang1).field, "method.draft_tensor_parallel_size");
}

TEST(DraftPlacement, NormalizedOnlyWhenGiven) {
  EXPECT_FALSE(ok("normalize", sps_70b("vllm"))["method"].contains("draft_tensor_parallel_size"));
  json given = sps_70b("vllm");
  given["method"]["draft_tensor_parallel_size"] = 1;
  EXPECT_EQ(ok("normalize", given)["method"]["draft_tensor_parallel_size"], 1);
  // Old links wrote the old default explicitly: they keep their meaning (draft on 1 GPU).
  const speccalc::Response decoded =
      speccalc::run("decode-link",
                    "v=1&acceptance.alpha=0.8&batch=1&context=1024&dtype.kv=fp16&dtype.weights="
                    "fp16&gpus=4&hardware=h100-sxm&memory_utilization=0.9&method.draft="
                    "llama3.2-1b&method.draft_tensor_parallel_size=1&method.family=sps&method.k=5&"
                    "runtime=compiled&target=llama3-instruct-70b");
  ASSERT_TRUE(decoded.ok) << decoded.error.describe();
  EXPECT_EQ(json::parse(decoded.output)["method"]["draft_tensor_parallel_size"], 1);
}

TEST(DraftPlacement, ListRuntimesSaysEachDefault) {
  const speccalc::Response r = speccalc::run("list", "runtimes");
  ASSERT_TRUE(r.ok);
  for (const json& e : json::parse(r.output)) {
    const std::string id = e["id"];
    // Research code and the local engines (one process, one device) run the draft whole.
    const bool whole = id == "hf-eager" || id == "hf-graphs" || id == "llama.cpp-metal" ||
                       id == "llama.cpp-cuda" || id == "llama.cpp-cpu" || id == "mlx";
    EXPECT_EQ(e["draft_tensor_parallel_default"], whole ? json(1) : json("target")) << id;
    EXPECT_FALSE(e["draft_tensor_parallel_source"].get<std::string>().empty()) << id;
    if (id == "vllm") {
      EXPECT_EQ(e["description"].get<std::string>().find("1 GPU by default"), std::string::npos);
    }
  }
}

// ---- items 6 and 9: EAGLE knobs by engine ---------------------------------------------------

json eagle(const std::string& runtime, const std::string& target, json method) {
  if (!method.is_object()) method = json::object();  // `{}` arrives as null
  method["family"] = method.value("family", "eagle3");
  return json{
      {"target", target}, {"hardware", "h100-sxm"}, {"runtime", runtime}, {"method", method}};
}

TEST(EngineKnobs, VllmEagleDefaultsToAChainAndEvaluates) {
  for (const char* fam : {"eagle2", "eagle3"}) {
    const json n = ok("normalize", eagle("vllm", "llama3.1-8b-instruct", {{"family", fam}}));
    EXPECT_EQ(n["method"]["depth"], 3) << fam;
    EXPECT_EQ(n["method"]["top_k"], 1) << fam;
    EXPECT_EQ(n["method"]["total_token"], 4) << fam;
    const json e = ok("eval", eagle("vllm", "llama3.1-8b-instruct", {{"family", fam}}));
    EXPECT_GT(e["speedup"].get<double>(), 0);
    EXPECT_LE(e["tau"].get<double>(), 4.0);  // a chain of 3 yields at most 4 tokens
  }
  // EAGLE-1 and Medusa on vLLM: chains as well.
  const json e1 = ok("normalize", eagle("vllm", "llama3.1-8b-instruct", {{"family", "eagle1"}}));
  EXPECT_EQ(e1["method"]["choices"], json::parse("[[0],[0,0],[0,0,0]]"));
}

TEST(EngineKnobs, VllmNumSpeculativeTokensIsTheChainLength) {
  const json c =
      eagle("vllm", "llama3.1-8b-instruct", {{"num_speculative_tokens", 5}, {"family", "eagle3"}});
  json with_alpha = c;
  with_alpha["acceptance"] = {{"alpha", 0.8}};
  const json n = ok("normalize", c);
  EXPECT_EQ(n["method"]["depth"], 5);
  EXPECT_EQ(n["method"]["top_k"], 1);
  EXPECT_EQ(n["method"]["total_token"], 6);
  // A chain of 5 at alpha 0.8: tau = (1 - 0.8^6) / (1 - 0.8) = 3.68928.
  EXPECT_NEAR(ok("eval", with_alpha)["tau"].get<double>(), 3.68928, 1e-9);
  json sps = sps_70b("vllm");
  sps["method"] = {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"num_speculative_tokens", 6}};
  EXPECT_EQ(ok("normalize", sps)["method"]["k"], 6);
  // vLLM's name is not an input under SGLang.
  EXPECT_EQ(
      error_of("eval", eagle("sglang", "llama3.1-8b-instruct", {{"num_speculative_tokens", 5}}))
          .field.rfind("method", 0),
      0u);
}

TEST(EngineKnobs, SglangDefaultsAreAutoChooseSpeculativeParams) {
  // server_args.py auto_choose_speculative_params: (steps, topk, draft tokens) = (5, 4, 8) for
  // Llama, (3, 1, 4) for DeepSeek-V2/V3.
  const json llama = ok("normalize", eagle("sglang", "llama3.1-8b-instruct", {}));
  EXPECT_EQ(llama["method"]["depth"], 5);
  EXPECT_EQ(llama["method"]["top_k"], 4);
  EXPECT_EQ(llama["method"]["total_token"], 8);
  const json ds = ok("normalize", json{{"target", "deepseek-v3"},
                                       {"hardware", "h200-sxm"},
                                       {"gpus", 8},
                                       {"runtime", "sglang"},
                                       {"method", "eagle2"}});
  EXPECT_EQ(ds["method"]["depth"], 3);
  EXPECT_EQ(ds["method"]["top_k"], 1);
  EXPECT_EQ(ds["method"]["total_token"], 4);
  const json knobs = ok("normalize", eagle("sglang", "llama3.1-8b-instruct",
                                           {{"speculative_num_steps", 6},
                                            {"speculative_eagle_topk", 2},
                                            {"speculative_num_draft_tokens", 10}}));
  EXPECT_EQ(knobs["method"]["depth"], 6);
  EXPECT_EQ(knobs["method"]["top_k"], 2);
  EXPECT_EQ(knobs["method"]["total_token"], 10);
}

TEST(EngineKnobs, DraftLengthSweepHasValidPointsOnVllm) {
  const json methods = json::parse(speccalc::run("list", "methods").output);
  json spec;
  for (const json& m : methods)
    if (m["id"] == "eagle3") spec = m["sweep_by_engine"]["vllm"];
  ASSERT_EQ(spec["param"], "num_speculative_tokens");
  const json s =
      ok("sweep", json{{"config", ok("normalize", eagle("vllm", "llama3.1-8b-instruct", {}))},
                       {"axis", "method.num_speculative_tokens"},
                       {"values", spec["values"]}});
  ASSERT_EQ(s["points"].size(), spec["values"].size());
  for (const json& p : s["points"]) EXPECT_FALSE(p.contains("error")) << p.dump();
}

TEST(ReleasedDtype, DeepSeekV3OpensInFp8AndFits) {
  const json c = json{{"target", "deepseek-v3"},
                      {"hardware", "h200-sxm"},
                      {"gpus", 8},
                      {"runtime", "vllm"},
                      {"method", "mtp"}};
  const json n = ok("normalize", c);
  EXPECT_EQ(n["dtype"]["weights"], "fp8");
  EXPECT_EQ(n["dtype"]["kv"], "fp16");
  // 671e9 weights x 1 byte = 671 GB < 8 x 141 GB x 0.9 = 1015 GB; in fp16 (1342 GB) it would not.
  EXPECT_TRUE(ok("eval", c)["memory"]["fits"].get<bool>());
  json fp16 = c;
  fp16["dtype"] = "fp16";
  EXPECT_FALSE(ok("eval", fp16)["memory"]["fits"].get<bool>());
}

TEST(NeighbourHead, Llama33HeadIsOfferedForLlama31WithANote) {
  json c = sps_70b("vllm");
  c["method"] = {{"family", "eagle3"}};
  c.erase("acceptance");
  const json x = ok("export", c);
  EXPECT_EQ(vllm_spec(x)["model"], "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B");
  bool said = false;
  for (const json& n : x["notes"])
    said = said || n.get<std::string>().find("neighbour") != std::string::npos;
  EXPECT_TRUE(said) << x["notes"].dump();
}

// ---- item 1: sizing costs the user's own family ----------------------------------------------

void check_sizing(const json& config) {
  const json s = ok("size", json{{"config", config}, {"batches", {1, 32}}});
  ASSERT_TRUE(s.contains("current"));
  const double best = s["best"]["speedup"].get<double>();
  const double current = s["current"]["speedup"].get<double>();
  EXPECT_GE(best, current);
  // The applied setting evaluates to exactly the best's numbers, in the user's family.
  const json applied = ok("eval", s["apply"]);
  EXPECT_EQ(s["apply"]["method"]["family"], config["method"]["family"]);
  EXPECT_NEAR(applied["speedup"].get<double>(), best, 1e-12 * best);
  EXPECT_NEAR(applied["tau"].get<double>(), s["best"]["tau"].get<double>(), 1e-12);
  // The current setting under the sizing's acceptance, evaluated independently.
  json here = ok("normalize", config);
  here["acceptance"] = s["acceptance"];
  EXPECT_NEAR(ok("eval", here)["speedup"].get<double>(), current, 1e-12 * current);
  EXPECT_EQ(s["current_is_best"].get<bool>(),
            current >= best || s["apply"]["method"] == ok("normalize", here)["method"]);
  // The best's draft as drawn and exported: its choices, which tree-expect (another command,
  // the exact tree walk) prices at the best's tau; empty choices gave a bare root and tau 1.
  ASSERT_EQ(s["best"]["choices"].size(), s["best"]["nodes"].get<std::size_t>()) << s["best"].dump();
  const json t =
      ok("tree-expect", json{{"choices", s["best"]["choices"]}, {"acceptance", s["acceptance"]}});
  EXPECT_NEAR(t["expected_tau"].get<double>(), s["best"]["tau"].get<double>(), 1e-9);
}

TEST(Sizing, Eagle3OnVllmIsCostedAsEagle3) {
  json c = sps_70b("vllm");
  c["method"] = {{"family", "eagle3"}, {"num_speculative_tokens", 3}};
  c.erase("acceptance");  // the published tau
  check_sizing(c);
  const json s = ok("size", json{{"config", c}, {"batches", {32}}});
  // A chain of 3 is in the search: the best is at least the k = 3 point of the curve, which is
  // the current setting itself.
  EXPECT_NEAR(s["curve"][2]["speedup"].get<double>(), s["current"]["speedup"].get<double>(), 1e-12);
}

TEST(Sizing, AChainThatIsAlreadyTheBestKeepsItsChain) {
  // DeepSeek-V3's MTP at k = 3 on SGLang (the walk): the current setting wins the sizing, and
  // the best must still be the chain of 3 it is.
  const json c = {{"target", "deepseek-v3"},
                  {"hardware", "h200-sxm"},
                  {"gpus", 8},
                  {"dtype", "fp8"},
                  {"runtime", "sglang"},
                  {"method", {{"family", "mtp"}, {"k", 3}}}};
  check_sizing(c);
  const json s = ok("size", json{{"config", c}, {"batches", {1}}});
  EXPECT_EQ(s["best"]["choices"], json::parse("[[0],[0,0],[0,0,0]]")) << s["best"].dump();
}

TEST(Sizing, TheAcceptanceGivenForTreeExpectIsTheBests) {
  // DeepSeek-V3's MTP set at k = 1 under vLLM, sized (the walk): the best is a longer chain, and
  // the acceptance the sizing gives for drawing it must be that chain's own (the report's 0.875
  // for the first position, then GLM-4.5-Air's conditional decay 0.68 / 0.92 = 0.7391 and
  // 0.38 / 0.68 = 0.5588), so tree-expect's tau of the drawn chain is the sizing's tau.
  const json c = {{"target", "deepseek-v3"},
                  {"hardware", "h200-sxm"},
                  {"gpus", 8},
                  {"dtype", "fp8"},
                  {"runtime", "vllm"},
                  {"method", {{"family", "mtp"}, {"k", 1}}}};
  const json s = ok("size", json{{"config", c}, {"batches", {1}}});
  const json& best = s["best"];
  // A chain of 3 or 4 (they are within 0.2 % of each other on this GPU).
  ASSERT_GE(best["nodes"].get<int>(), 3) << best.dump();
  ASSERT_TRUE(s["acceptance"].contains("per_position")) << s["acceptance"].dump();
  const std::vector<double> p = s["acceptance"]["per_position"].get<std::vector<double>>();
  ASSERT_EQ(p.size(), best["nodes"].get<std::size_t>()) << s["acceptance"].dump();
  EXPECT_DOUBLE_EQ(p[0], 0.875);
  EXPECT_NEAR(p[1], 0.68 / 0.92, 1e-15);
  EXPECT_NEAR(p[2], 0.38 / 0.68, 1e-15);
  for (std::size_t i = 3; i < p.size(); ++i) EXPECT_DOUBLE_EQ(p[i], p[2]);  // the last rate holds
  // tau = 1 + 0.875 + 0.875 x 0.7391 + 0.875 x 0.7391 x 0.5588 (+ x 0.5588 per further position)
  double tau = 1, reach = 1;
  for (double rate : p) tau += (reach *= rate);
  EXPECT_NEAR(best["tau"].get<double>(), tau, 1e-12);
  const json e =
      ok("tree-expect", json{{"choices", best["choices"]}, {"acceptance", s["acceptance"]}});
  EXPECT_NEAR(e["expected_tau"].get<double>(), best["tau"].get<double>(), 1e-12);
}

TEST(Sizing, TheStartersBestChainCanBeDrawn) {
  // The page's starter (Llama-3.1-8B, vLLM, EAGLE-3) takes its tau from the vLLM traces, which
  // give a tau per k, not per-position rates: sized at the page's settings, the acceptance
  // handed to tree-expect must be a form it takes (an alpha fitted to the best chain), and
  // the chain drawn with it has the best's tau. The walk found "per-node probabilities
  // unavailable: acceptance.tau: unknown form" where the chain should be.
  const speccalc::Response ui = speccalc::run("list", "ui");
  ASSERT_TRUE(ui.ok) << ui.error.describe();
  const json u = json::parse(ui.output);
  json request = u["sizing"];
  request["config"] = u["starter"];
  const json s = ok("size", request);
  ASSERT_TRUE(s["acceptance"].contains("alpha")) << s["acceptance"].dump();
  const json e =
      ok("tree-expect", json{{"choices", s["best"]["choices"]}, {"acceptance", s["acceptance"]}});
  // A chain of k drafts at alpha a: tau = 1 + a + a^2 + ... + a^k (rank 0 only), computed here.
  const double a = s["acceptance"]["alpha"].get<double>();
  const int64_t k = s["best"]["nodes"].get<int64_t>();
  double tau = 1, run = 1;
  for (int64_t i = 0; i < k; ++i) tau += (run *= a);
  EXPECT_NEAR(e["expected_tau"].get<double>(), tau, 1e-12);
  EXPECT_NEAR(e["expected_tau"].get<double>(), s["best"]["tau"].get<double>(), 1e-9);
}

TEST(Sizing, Eagle2AndEagle3TreesOnSglang) {
  for (const char* fam : {"eagle2", "eagle3"}) {
    json c = sps_70b("sglang");
    c["method"] = {{"family", fam}};
    check_sizing(c);
  }
}

TEST(Sizing, ChainsAndTreesKeepTheInvariant) {
  check_sizing(sps_70b("vllm"));
  json pld = sps_70b("vllm");
  pld["method"] = {{"family", "pld"}, {"k", 4}};
  check_sizing(pld);
}

// ---- item 5: an edit carried to a config that runs --------------------------------------------

TEST(Carry, TargetChangeReplacesADraftWithTheWrongTokenizer) {
  const json prev = ok("normalize", json{{"target", "llama2-chat-7b"},
                                         {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}}}});
  json edited = prev;
  edited["target"] = "llama3.1-8b-instruct";
  // vicuna-68m has a 32,000-token vocabulary; Llama-3.1's is 128,256: the only preset draft
  // with that vocabulary is Llama-3.2-1B.
  const json out = ok("carry", json{{"config", edited}, {"changed", "target"}, {"previous", prev}});
  EXPECT_EQ(out["config"]["method"]["draft"], "llama3.2-1b");
  ASSERT_FALSE(out["notes"].empty());
  EXPECT_NE(out["notes"][0].get<std::string>().find("method.draft"), std::string::npos);
  ok("eval", out["config"]);
}

TEST(Carry, FamilyWithoutDrafterBecomesOneWithIt) {
  // MTP on a model without MTP modules: Llama-3.1-8B has a published EAGLE-3 head.
  const json prev = ok("normalize", json{{"target", "deepseek-v3"},
                                         {"hardware", "h200-sxm"},
                                         {"gpus", 8},
                                         {"runtime", "vllm"},
                                         {"method", "mtp"}});
  json edited = prev;
  edited["target"] = "llama3.1-8b-instruct";
  const json out = ok("carry", json{{"config", edited}, {"changed", "target"}, {"previous", prev}});
  EXPECT_EQ(out["config"]["method"]["family"], "eagle3");
  EXPECT_EQ(out["config"]["dtype"]["weights"], "fp16");  // deepseek's fp8 was its default
  ok("eval", out["config"]);
}

TEST(Carry, EngineChangeMovesDefaultKnobsToTheNewEngine) {
  const json prev = ok("normalize", eagle("sglang", "llama3.1-8b-instruct", {}));
  json edited = prev;
  edited["runtime"] = "vllm";
  const json out =
      ok("carry", json{{"config", edited}, {"changed", "runtime"}, {"previous", prev}});
  EXPECT_EQ(out["config"]["method"]["depth"], 3);
  EXPECT_EQ(out["config"]["method"]["top_k"], 1);
  // A user's own tree is not a default: on vLLM it cannot run, so it is reset, said in a note.
  json mine = prev;
  mine["method"]["top_k"] = 3;
  json mine_edited = mine;
  mine_edited["runtime"] = "vllm";
  const json out2 =
      ok("carry", json{{"config", mine_edited}, {"changed", "runtime"}, {"previous", mine}});
  EXPECT_EQ(out2["config"]["method"]["top_k"], 1);
  EXPECT_FALSE(out2["notes"].empty());
}

TEST(Carry, AMacSetupMovedToAServingEngineLandsOnAGpuThatRunsIt) {
  // The walk: on a Mac under MLX (4-bit MLX weights), switching the engine to vLLM, SGLang or
  // TensorRT-LLM left the form on "runs on NVIDIA hardware; Apple M4 Pro is Apple" (after the
  // dtype was carried) and every later edit kept that error. The serving engines land on
  // their default GPU (runtimes.json default_hardware) with the engine's default dtype, each
  // move said in a note.
  const json mac = ok("normalize", json{{"target", "qwen3-8b"},
                                        {"hardware", "apple-m4-pro"},
                                        {"runtime", "mlx"},
                                        {"dtype", "mlx_4bit"},
                                        {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}}}});
  ASSERT_EQ(mac["dtype"]["weights"], "mlx_4bit") << mac.dump();
  for (const char* engine : {"vllm", "sglang", "tensorrt-llm"}) {
    const json out = engine_changed(mac, engine);
    EXPECT_EQ(out["config"]["hardware"], "h100-sxm") << engine;
    EXPECT_EQ(out["config"]["dtype"]["weights"], "fp16") << engine;
    EXPECT_TRUE(noted(out, "hardware: h100-sxm")) << engine << ": " << out["notes"].dump();
    ok("eval", out["config"]);
  }
}

TEST(Carry, ACpuSetupMovedToAGpuEngineLandsOnAGpu) {
  // The walk: on a Ryzen under llama.cpp (CPU), choosing HF eager or the generic graph stack
  // left the form on "runs on GPUs; Ryzen 9 7950X (CPU only) is a CPU". They land on the
  // A100 their fitted data ran on (runtimes.json default_hardware).
  const json cpu = ok("normalize", json{{"target", "qwen3-8b"},
                                        {"hardware", "ryzen-9-7950x"},
                                        {"runtime", "llama.cpp-cpu"},
                                        {"method", {{"family", "pld"}}}});
  for (const char* engine : {"hf-eager", "compiled"}) {
    const json out = engine_changed(cpu, engine);
    EXPECT_EQ(out["config"]["hardware"], "a100-80gb-sxm") << engine << out["notes"].dump();
    ok("eval", out["config"]);
  }
}

TEST(Carry, AnEngineThatCannotDraftForTheModelFallsBackToPlainDecoding) {
  // The walk: MiniMax-M2.5 with prompt lookup under llama.cpp (CUDA), engine switched to MLX.
  // MLX runs plain decoding and draft models only, and no preset shares MiniMax's tokenizer:
  // the setup lands on plain decoding on MLX's Mac, each move said, never a stuck error.
  const json prev = ok("normalize", json{{"target", "minimax-m2.5"},
                                         {"hardware", "rtx-4090"},
                                         {"runtime", "llama.cpp-cuda"},
                                         {"method", {{"family", "pld"}}}});
  const json out = engine_changed(prev, "mlx");
  EXPECT_EQ(out["config"]["method"]["family"], "ar") << out.dump();
  EXPECT_EQ(out["config"]["hardware"], "apple-m4-pro") << out.dump();
  EXPECT_TRUE(noted(out, "method.family: ar, plain decoding (pld: ")) << out["notes"].dump();
  // A family the engine runs that can draft is still preferred: Qwen3-8B gets a draft model.
  json qwen = prev;
  qwen["target"] = "qwen3-8b";
  qwen = ok("normalize", qwen);
  EXPECT_EQ(engine_changed(qwen, "mlx")["config"]["method"]["family"], "sps");
}

TEST(Carry, TargetChangeToDeepSeekOpensInItsReleasedDtype) {
  const json base = ok("normalize", json{{"target", "llama3.1-70b-instruct"},
                                         {"hardware", "h200-sxm"},
                                         {"gpus", 8},
                                         {"runtime", "vllm"}});
  json edited = base;
  edited["target"] = "deepseek-v3";
  const json out = ok("carry", json{{"config", edited}, {"changed", "target"}, {"previous", base}});
  EXPECT_EQ(out["config"]["dtype"]["weights"], "fp8");
}

TEST(Carry, ADeviceWithoutALinkTakesOneGpuThenAnEngineThatRunsOnIt) {
  // 2 x H100 under vLLM, then an Apple M1 chosen: the M1 has no GPU-to-GPU link and vLLM does
  // not run on Apple. The carry used to stop at the link's error; it now lands on one device
  // under an engine that runs there, each move noted.
  const json prev = ok("normalize", json{{"target", "llama3.1-8b-instruct"},
                                         {"hardware", "h100-sxm"},
                                         {"gpus", 2},
                                         {"runtime", "vllm"}});
  json edited = prev;
  edited["hardware"] = "apple-m1";
  const json out =
      ok("carry", json{{"config", edited}, {"changed", "hardware"}, {"previous", prev}});
  EXPECT_EQ(out["config"]["gpus"], 1);
  EXPECT_EQ(out["config"]["hardware"], "apple-m1");
  EXPECT_NE(out["config"]["runtime"], "vllm");
  EXPECT_TRUE(noted(out, "gpus: 1 (apple-m1 has no GPU-to-GPU link"));
  EXPECT_TRUE(noted(out, "runtime: "));
  // What the carry lands on evaluates.
  ok("eval", out["config"]);
  // A custom device without a link keeps the error: the user may mean to give one.
  json custom = edited;
  custom["hardware"] =
      json{{"name", "my board"}, {"fp16_tflops", 100}, {"mem_bw_gbps", 1000}, {"mem_gb", 48}};
  EXPECT_EQ(error_of("carry", json{{"config", custom}, {"changed", "hardware"}, {"previous", prev}})
                .field,
            "hardware.interconnect_gbps");
}

TEST(Carry, WhatCannotBeRepairedNamesItsField) {
  json c = ok("normalize", json{{"target", "llama3.1-8b-instruct"}, {"runtime", "vllm"}});
  c["gpus"] = 3;  // 32 heads are not divisible by 3
  EXPECT_EQ(error_of("carry", json{{"config", c}, {"changed", "gpus"}}).field, "gpus");
}

}  // namespace

// The draft select greys out the presets this target cannot take: eval lists them with the
// reason (engine.supports.unavailable_drafts), and each listed one is exactly a draft `eval`
// itself refuses at method.draft. Llama-2's 32000-token tokenizer, by hand from models.json:
// the Llama-3.2 drafts (128256), Qwen3's (151936), Gemma-3's (262144) and OPT's (50272) differ.
TEST(UserPath, DraftsWithAnotherTokenizerAreListedWithTheReason) {
  const json base = {{"target", "llama2-chat-7b"},
                     {"hardware", "a100-80gb-sxm"},
                     {"method", {{"family", "sps"}, {"draft", "llama-68m"}}}};
  const json out = ok("eval", base);
  const json& listed = out["engine"]["supports"]["unavailable_drafts"];
  const json want = {"gemma-3-1b-it", "llama3.2-1b", "llama3.2-3b",
                     "opt-125m",      "qwen3-0.6b",  "qwen3-1.7b"};
  json keys = json::array();
  for (const auto& [id, why] : listed.items()) keys.push_back(id);
  EXPECT_EQ(keys, want);
  EXPECT_EQ(listed["opt-125m"], "another tokenizer: 50272 tokens, the target's 32000");
  const speccalc::Response list = speccalc::run("list", "drafts");
  ASSERT_TRUE(list.ok);
  const json drafts = json::parse(list.output);
  ASSERT_EQ(drafts.size(), 11u);
  for (const auto& d : drafts) {
    json c = base;
    c["method"]["draft"] = d["id"];
    const speccalc::Response r = speccalc::run("eval", c.dump());
    EXPECT_EQ(!r.ok, listed.contains(d["id"].get<std::string>())) << d["id"];
    if (!r.ok) {
      EXPECT_EQ(r.error.field, "method.draft") << d["id"];
    }
  }
  // Other families list no drafts (nothing to grey out).
  json eagle = base;
  eagle["method"] = {{"family", "eagle2"}};
  EXPECT_FALSE(ok("eval", eagle)["engine"]["supports"].contains("unavailable_drafts"));
}

// The draft runtime select greys out the runtimes the draft cannot run under: eval lists them
// (engine.supports.unavailable_draft_runtimes), and over every runtime of `list runtimes` the
// listed ones are exactly those `eval` itself refuses at method.draft_runtime, for a GPU
// setup (the local engines run their own drafts), a Mac under llama.cpp (which runs its drafts
// itself: every other runtime is out) and an AMD GPU (TensorRT-LLM is NVIDIA's).
TEST(UserPath, DraftRuntimesTheDraftCannotRunUnderAreListedWithTheReason) {
  const json setups[] = {{{"target", "llama2-chat-7b"},
                          {"hardware", "a100-80gb-pcie"},
                          {"runtime", "hf-eager"},
                          {"method", {{"family", "sps"}, {"draft", "llama-68m"}}}},
                         {{"target", "qwen3-8b"},
                          {"hardware", "apple-m4-pro"},
                          {"runtime", "llama.cpp-metal"},
                          {"dtype", "q4_k_m"},
                          {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}}}},
                         {{"target", "llama3.1-8b-instruct"},
                          {"hardware", "mi300x"},
                          {"runtime", "vllm"},
                          {"method", {{"family", "eagle3"}}}}};
  const speccalc::Response list = speccalc::run("list", "runtimes");
  ASSERT_TRUE(list.ok);
  const json runtimes = json::parse(list.output);
  for (const json& base : setups) {
    const json listed = ok("eval", base)["engine"]["supports"]["unavailable_draft_runtimes"];
    ASSERT_TRUE(listed.is_object()) << base.dump();
    int refused = 0;
    for (const auto& r : runtimes) {
      json c = base;
      c["method"]["draft_runtime"] = r["id"];
      const speccalc::Response e = speccalc::run("eval", c.dump());
      const bool is_listed = listed.contains(r["id"].get<std::string>());
      EXPECT_EQ(!e.ok && e.error.field == "method.draft_runtime", is_listed)
          << base["runtime"] << " / " << r["id"] << ": " << e.error.describe();
      refused += is_listed ? 1 : 0;
    }
    EXPECT_GE(refused, 1) << base.dump();
  }
  // By hand: under llama.cpp every runtime but itself is out, said in the engine's words.
  const json mac = ok("eval", setups[1])["engine"]["supports"]["unavailable_draft_runtimes"];
  EXPECT_EQ(mac.size(), runtimes.size() - 1);
  EXPECT_EQ(mac["vllm"], "llama.cpp (Metal) runs its drafts itself");
  const json amd = ok("eval", setups[2])["engine"]["supports"]["unavailable_draft_runtimes"];
  EXPECT_EQ(amd["tensorrt-llm"], "TensorRT-LLM runs on NVIDIA hardware; MI300X is AMD");
}
