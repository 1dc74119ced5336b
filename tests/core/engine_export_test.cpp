// Engine exports run as pasted: every key is one the engine documents, repository ids are real,
// depths follow each engine's convention, TensorRT-LLM's max_draft_len covers its schedule, and
// importing an export gives back the config it came from. Also eval-tree (the evaluated tree).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json ok(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_TRUE(r.ok) << command << ": " << r.error.describe();
  return r.ok ? json::parse(r.output) : json::object();
}

// The documented flag and key names (URLs in core/src/engines/engine_export.cpp), "note" aside.
const std::set<std::string> kVllmFlags = {"--model", "--tensor-parallel-size",
                                          "--speculative-config"};
const std::set<std::string> kVllmSpecKeys = {"method", "model", "num_speculative_tokens",
                                             "prompt_lookup_max", "prompt_lookup_min"};
const std::set<std::string> kVllmMethods = {"ngram", "eagle", "eagle3", "medusa", "draft_model"};
const std::set<std::string> kSglangFlags = {"--model-path",
                                            "--tp-size",
                                            "--speculative-algorithm",
                                            "--speculative-draft-model-path",
                                            "--speculative-num-steps",
                                            "--speculative-eagle-topk",
                                            "--speculative-num-draft-tokens"};
const std::set<std::string> kTrtKeys = {"decoding_type",           "speculative_model",
                                        "max_draft_len",           "max_total_draft_tokens",
                                        "eagle_choices",           "draft_len_schedule",
                                        "max_matching_ngram_size", "max_window_size",
                                        "max_ngram_size",          "max_verification_set_size",
                                        "medusa_choices",          "num_medusa_heads"};
const std::set<std::string> kEagleKeys = {"base_model_path", "ea_model_path", "total_token",
                                          "depth",           "top_k",         "use_eagle3",
                                          "tree_choices"};
const std::set<std::string> kHfKeys = {"model",
                                       "assistant_model",
                                       "num_assistant_tokens",
                                       "num_assistant_tokens_schedule",
                                       "prompt_lookup_num_tokens",
                                       "max_matching_ngram_size"};

void expect_keys(const json& block, const std::set<std::string>& allowed, const std::string& what) {
  for (auto it = block.begin(); it != block.end(); ++it) {
    if (it.key() == "note") continue;
    EXPECT_TRUE(allowed.count(it.key())) << what << " has undocumented key " << it.key();
  }
}

// A Hugging Face id "owner/name", not a preset id or a placeholder.
void expect_repo(const json& v, const std::string& what) {
  ASSERT_TRUE(v.is_string()) << what;
  const std::string s = v.get<std::string>();
  EXPECT_NE(s.find('/'), std::string::npos) << what << " = " << s;
  EXPECT_EQ(s.find("PATH/TO"), std::string::npos) << what << " = " << s;
}

// Presets whose heads are published (core/data/drafts.json checkpoints).
const json kConfigs[] = {
    {{"target", "llama2-chat-7b"},
     {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}, {"k", 5}}}},
    {{"target", "vicuna-7b-v1.3"}, {"gpus", 2}, {"method", {{"family", "pld"}, {"k", 8}}}},
    {{"target", "vicuna-7b-v1.3"}, {"method", {{"family", "medusa"}}}},
    {{"target", "vicuna-7b-v1.3"}, {"method", {{"family", "eagle1"}}}},
    {{"target", "vicuna-7b-v1.3"},
     {"method", {{"family", "eagle2"}, {"total_token", 60}, {"depth", 6}, {"top_k", 10}}}},
    {{"target", "llama3.1-8b-instruct"},
     {"method", {{"family", "eagle3"}, {"total_token", 32}, {"depth", 5}, {"top_k", 8}}}},
    {{"target", "vicuna-7b-v1.3"}, {"method", {{"family", "lookahead"}}}},
};

TEST(EngineExport, EveryKeyIsDocumentedAndEveryRepositoryIsReal) {
  for (json config : kConfigs) {
    config["acceptance"] = {{"alpha", 0.7}};
    const json exp = ok("export", config);
    const std::string fam = config["method"]["family"];
    if (exp.contains("vllm")) {
      expect_keys(exp["vllm"], kVllmFlags, fam + " vllm");
      expect_repo(exp["vllm"]["--model"], fam + " vllm --model");
      const json spec = json::parse(exp["vllm"]["--speculative-config"].get<std::string>());
      expect_keys(spec, kVllmSpecKeys, fam + " vllm spec");
      EXPECT_TRUE(kVllmMethods.count(spec["method"].get<std::string>())) << spec.dump();
      if (spec["method"] != "ngram") expect_repo(spec["model"], fam + " vllm spec model");
    }
    if (exp.contains("sglang")) {
      expect_keys(exp["sglang"], kSglangFlags, fam + " sglang");
      expect_repo(exp["sglang"]["--model-path"], fam + " sglang --model-path");
      expect_repo(exp["sglang"]["--speculative-draft-model-path"], fam + " sglang draft");
    }
    if (exp.contains("tensorrt_llm")) {
      expect_keys(exp["tensorrt_llm"], kTrtKeys, fam + " trt");
      if (exp["tensorrt_llm"].contains("speculative_model"))
        expect_repo(exp["tensorrt_llm"]["speculative_model"], fam + " trt model");
    }
    if (exp.contains("eagle")) {
      expect_keys(exp["eagle"], kEagleKeys, fam + " eagle");
      expect_repo(exp["eagle"]["base_model_path"], fam + " eagle base");
      expect_repo(exp["eagle"]["ea_model_path"], fam + " eagle head");
    }
    if (exp.contains("hf_transformers")) expect_keys(exp["hf_transformers"], kHfKeys, fam + " hf");
  }
}

TEST(EngineExport, DepthFollowsEachEnginesConvention) {
  // Config depth 6 = six draft levels. SGLang's --speculative-num-steps is the depth of
  // autoregressive drafting (6); EAGLE's depth counts expansions after the first level (5);
  // TensorRT-LLM's max_draft_len is the longest path (6); vLLM drafts a chain of 6.
  const json config = {
      {"target", "vicuna-7b-v1.3"},
      {"acceptance", {{"alpha", 0.7}}},
      {"method", {{"family", "eagle2"}, {"total_token", 60}, {"depth", 6}, {"top_k", 10}}}};
  const json exp = ok("export", config);
  EXPECT_EQ(exp["sglang"]["--speculative-num-steps"], 6);
  EXPECT_EQ(exp["sglang"]["--speculative-num-draft-tokens"], 60);
  EXPECT_EQ(exp["eagle"]["depth"], 5);
  EXPECT_EQ(exp["tensorrt_llm"]["max_draft_len"], 6);
  EXPECT_EQ(exp["tensorrt_llm"]["max_total_draft_tokens"], 59);
  EXPECT_EQ(
      json::parse(exp["vllm"]["--speculative-config"].get<std::string>())["num_speculative_tokens"],
      6);
  // The evaluated tree has those six levels and 59 draft nodes.
  const json tree = ok("eval-tree", config);
  EXPECT_EQ(tree["depth"], 6);
  EXPECT_EQ(tree["nodes"], 59);
  EXPECT_EQ(tree["eagle_depth"], 5);
}

TEST(EngineExport, TensorRtMaxDraftLenCoversTheSchedule) {
  const json req = {{"config",
                     {{"target", "llama2-chat-7b"},
                      {"acceptance", {{"alpha", 0.8}}},
                      {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}}}}},
                    {"budget", 16},
                    {"max_depth", 16},
                    {"batches", {1, 8, 64}}};
  const json out = ok("size", req);
  const json trt = out["export"]["tensorrt_llm"];
  ASSERT_TRUE(trt.contains("draft_len_schedule")) << trt.dump();
  EXPECT_EQ(trt["draft_len_schedule"].size(), 3u);
  for (auto it = trt["draft_len_schedule"].begin(); it != trt["draft_len_schedule"].end(); ++it)
    EXPECT_LE(it.value().get<int>(), trt["max_draft_len"].get<int>()) << "batch " << it.key();
}

// `size` returns the config to apply, so no front end maps the best size to method keys. For
// a chain the rule is k = the best node count; for EAGLE-2 total_token = nodes + 1 (the root
// is a verified token) and depth = the tree's levels; evaluating the applied chain config must
// give the tau the sizing reported (same acceptance, same chain).
TEST(Sizing, ApplyIsTheConfigOfTheBestSize) {
  const json sps = ok("size", {{"config",
                                {{"target", "llama2-chat-7b"},
                                 {"acceptance", {{"alpha", 0.8}}},
                                 {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}}}}},
                               {"budget", 16},
                               {"max_depth", 16}});
  EXPECT_EQ(sps["apply"]["method"]["k"], sps["best"]["nodes"]);
  const json applied = ok("eval", sps["apply"]);
  EXPECT_NEAR(applied["tau"].get<double>(), sps["best"]["tau"].get<double>(), 1e-9);
  const json eagle = ok("size", {{"config",
                                  {{"target", "llama2-chat-7b"},
                                   {"acceptance", {{"alpha", 0.7}}},
                                   {"method", {{"family", "eagle2"}}}}},
                                 {"budget", 32},
                                 {"max_depth", 8}});
  EXPECT_EQ(eagle["apply"]["method"]["total_token"].get<int>(),
            eagle["best"]["nodes"].get<int>() + 1);
  EXPECT_EQ(eagle["apply"]["method"]["depth"], eagle["best"]["depth"]);
}

// The chain families beyond sps/pld (LayerSkip here) are sized by k: every curve point must be
// the speedup eval gives for that k at the curve's tau (sizing once set a tree that LayerSkip's
// cost never reads, so every point was the default k's cost).
TEST(Sizing, ChainFamiliesAreSizedByK) {
  const json base = {{"target", "llama3.1-8b-instruct"},
                     {"hardware", "h100-sxm"},
                     {"acceptance", {{"alpha", 0.7}}},
                     {"method", {{"family", "layerskip"}, {"exit_layer", 8}}}};
  const json out = ok("size", {{"config", base}, {"budget", 6}});
  ASSERT_EQ(out["curve"].size(), 6u);
  for (const json& point : out["curve"]) {
    json cfg = base;
    cfg["method"]["k"] = point["nodes"];
    cfg["acceptance"] = {{"tau", point["tau"]}};
    EXPECT_NEAR(ok("eval", cfg)["speedup"].get<double>(), point["speedup"].get<double>(), 1e-12)
        << "k = " << point["nodes"];
  }
  EXPECT_EQ(out["apply"]["method"]["k"], out["best"]["nodes"]);
}

TEST(EngineImport, SglangExportImportsBackToTheSameMethod) {
  const json config = {
      {"target", "llama3.1-8b-instruct"},
      {"gpus", 2},
      {"acceptance", {{"alpha", 0.7}}},
      {"method", {{"family", "eagle3"}, {"total_token", 32}, {"depth", 5}, {"top_k", 8}}}};
  const json exp = ok("export", config);
  std::string line = "python -m sglang.launch_server";
  for (auto it = exp["sglang"].begin(); it != exp["sglang"].end(); ++it) {
    line += " " + it.key() + " " +
            (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  }
  const json got = ok("import-engine", {{"engine", "sglang"}, {"text", line}});
  EXPECT_EQ(got["config"]["target"], "llama3.1-8b-instruct");
  EXPECT_EQ(got["config"]["gpus"], 2);
  EXPECT_EQ(got["config"]["method"]["family"], "eagle3");
  EXPECT_EQ(got["config"]["method"]["total_token"], 32);
  EXPECT_EQ(got["config"]["method"]["depth"], 5);
  EXPECT_EQ(got["config"]["method"]["top_k"], 8);
}

TEST(EngineImport, VllmCommandLineAndBareJson) {
  // A whole `vllm serve` line, quoted as a shell would, with a line continuation.
  const json a = ok("import-engine",
                    {{"engine", "vllm"},
                     {"text",
                      "vllm serve meta-llama/Llama-2-7b-chat-hf -tp 2 \\\n --speculative-config "
                      "'{\"method\": \"draft_model\", \"model\": \"double7/vicuna-68m\", "
                      "\"num_speculative_tokens\": 4}'"}});
  EXPECT_EQ(a["config"]["target"], "llama2-chat-7b");
  EXPECT_EQ(a["config"]["gpus"], 2);
  EXPECT_EQ(a["config"]["method"]["family"], "sps");
  EXPECT_EQ(a["config"]["method"]["draft"], "vicuna-68m");
  EXPECT_EQ(a["config"]["method"]["k"], 4);
  // The JSON alone: an EAGLE head names its target (drafts.json); vLLM's chain of 5 is a
  // top_k-1 tree of depth 5 with 5 draft nodes (total_token 6 counts the root).
  const json b = ok(
      "import-engine",
      {{"engine", "vllm"},
       {"text",
        R"({"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "num_speculative_tokens": 5})"}});
  EXPECT_EQ(b["config"]["target"], "llama3-instruct-8b");
  EXPECT_EQ(b["config"]["method"]["family"], "eagle2");
  EXPECT_EQ(b["config"]["method"]["depth"], 5);
  EXPECT_EQ(b["config"]["method"]["top_k"], 1);
  EXPECT_EQ(b["config"]["method"]["total_token"], 6);
}

TEST(EngineImport, BadInputNamesTheField) {
  const speccalc::Response r = speccalc::run(
      "import-engine",
      R"({"engine": "sglang", "text": "--speculative-algorithm EAGLE --speculative-num-steps five"})");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "text.--speculative-num-steps");
  EXPECT_EQ(r.error.message, "enter a whole number, got 'five'");
  const speccalc::Response s = speccalc::run(
      "import-engine",
      R"({"engine": "vllm", "text": "{\"method\": \"mlp_speculator\", \"num_speculative_tokens\": 3}"})");
  ASSERT_FALSE(s.ok);
  EXPECT_EQ(s.error.field, "text.--speculative-config.method");
}

TEST(EvalTree, TauEqualsTheEvaluationsTau) {
  for (json config : kConfigs) {
    config["acceptance"] = {{"alpha", 0.75}};
    const json tree = ok("eval-tree", config);
    const json result = ok("eval", config);
    EXPECT_EQ(tree["tau"].get<double>(), result["tau"].get<double>()) << config.dump();
    // tau = 1 + the sum of the node probabilities (docs/tree-model.md).
    double sum = 1;
    for (const json& p : tree["node_prob"]) sum += p.get<double>();
    EXPECT_NEAR(sum, tree["tau"].get<double>(), 1e-12) << config.dump();
    EXPECT_EQ(tree["choices"].size(), tree["nodes"].get<std::size_t>());
  }
}

TEST(EvalTree, ChainHandCalculation) {
  // sps k = 2 at alpha 0.5: nodes accepted with 0.5 and 0.25; tau = 1.75;
  // P(tau = 1) = 0.5, P(2) = 0.25, P(3) = 0.25.
  const json tree = ok("eval-tree", {{"target", "llama2-chat-7b"},
                                     {"acceptance", {{"alpha", 0.5}}},
                                     {"method", {{"family", "sps"}, {"k", 2}}}});
  EXPECT_EQ(tree["choices"], json::parse("[[0],[0,0]]"));
  EXPECT_DOUBLE_EQ(tree["node_prob"][0].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(tree["node_prob"][1].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(tree["tau"].get<double>(), 1.75);
  EXPECT_EQ(tree["tau_pmf"], json::parse("[0.5,0.25,0.25]"));
  // A given tau has no per-node acceptance.
  const json given = ok("eval-tree", {{"target", "llama2-chat-7b"},
                                      {"acceptance", {{"tau", 2.5}}},
                                      {"method", {{"family", "sps"}, {"k", 4}}}});
  EXPECT_TRUE(given["node_prob"].is_null());
  EXPECT_EQ(given["tau"], 2.5);
}

}  // namespace
