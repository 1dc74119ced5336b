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
// vLLM: docs.vllm.ai features/spec_decode; MTP: docs.vllm.ai/en/v0.19.1/features/
// speculative_decoding/mtp/ ("method": "mtp"); suffix: vllm-project/vllm
// docs/features/speculative_decoding/suffix.md ("method": "suffix").
const std::set<std::string> kVllmFlags = {"--model", "--tensor-parallel-size",
                                          "--speculative-config"};
// draft_tensor_parallel_size: vllm/config/speculative.py (SpeculativeConfig), the draft's TP.
const std::set<std::string> kVllmSpecKeys = {"method",
                                             "model",
                                             "num_speculative_tokens",
                                             "prompt_lookup_max",
                                             "prompt_lookup_min",
                                             "draft_tensor_parallel_size"};
const std::set<std::string> kVllmMethods = {"ngram",       "eagle", "eagle3", "medusa",
                                            "draft_model", "mtp",   "suffix"};
// SGLang: docs.sglang.io advanced_features/speculative_decoding (EAGLE, EAGLE3, STANDALONE and
// MTP through EAGLE without a draft path); SUFFIX: sgl-project/sglang
// docs/advanced_features/suffix_decoding.md.
const std::set<std::string> kSglangFlags = {"--model-path",
                                            "--tp-size",
                                            "--speculative-algorithm",
                                            "--speculative-draft-model-path",
                                            "--speculative-num-steps",
                                            "--speculative-eagle-topk",
                                            "--speculative-num-draft-tokens"};
const std::set<std::string> kSglangAlgorithms = {"EAGLE", "EAGLE3", "STANDALONE", "SUFFIX"};
// TensorRT-LLM LLM API reference (EagleDecodingConfig et al.); num_nextn_predict_layers:
// nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/MTPDecodingConfig.html.
const std::set<std::string> kTrtKeys = {"decoding_type",           "speculative_model",
                                        "max_draft_len",           "max_total_draft_tokens",
                                        "eagle_choices",           "draft_len_schedule",
                                        "max_matching_ngram_size", "max_window_size",
                                        "max_ngram_size",          "max_verification_set_size",
                                        "medusa_choices",          "num_medusa_heads",
                                        "num_nextn_predict_layers"};
const std::set<std::string> kTrtTypes = {"DraftTarget", "NGram",  "Lookahead", "Medusa",
                                         "Eagle",       "Eagle3", "MTP"};
const std::set<std::string> kEagleKeys = {"base_model_path", "ea_model_path", "total_token",
                                          "depth",           "top_k",         "use_eagle3",
                                          "tree_choices"};
// transformers GenerationConfig; assistant_early_exit: huggingface.co/blog/layerskip and the
// generation strategies guide ("Self-speculative decoding").
const std::set<std::string> kHfKeys = {"model",
                                       "assistant_model",
                                       "num_assistant_tokens",
                                       "num_assistant_tokens_schedule",
                                       "prompt_lookup_num_tokens",
                                       "max_matching_ngram_size",
                                       "assistant_early_exit"};

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
    {{"target", "deepseek-v3"}, {"gpus", 8}, {"method", {{"family", "mtp"}, {"k", 2}}}},
    {{"target", "llama3.1-8b-instruct"},
     {"method", {{"family", "retrieval"}, {"source", "suffix"}, {"k", 16}}}},
    {{"target", "llama2-chat-7b"},
     {"method", {{"family", "layerskip"}, {"exit_layer", 8}, {"k", 4}}}},
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
      const std::string method = spec["method"];
      if (method != "ngram" && method != "mtp" && method != "suffix")
        expect_repo(spec["model"], fam + " vllm spec model");
    }
    if (exp.contains("sglang")) {
      expect_keys(exp["sglang"], kSglangFlags, fam + " sglang");
      expect_repo(exp["sglang"]["--model-path"], fam + " sglang --model-path");
      EXPECT_TRUE(kSglangAlgorithms.count(exp["sglang"]["--speculative-algorithm"]))
          << exp["sglang"].dump();
      // MTP and suffix decoding draft without a separate model.
      if (fam != "mtp" && fam != "retrieval")
        expect_repo(exp["sglang"]["--speculative-draft-model-path"], fam + " sglang draft");
    }
    if (exp.contains("tensorrt_llm")) {
      expect_keys(exp["tensorrt_llm"], kTrtKeys, fam + " trt");
      EXPECT_TRUE(kTrtTypes.count(exp["tensorrt_llm"]["decoding_type"]))
          << exp["tensorrt_llm"].dump();
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

TEST(EngineExport, NewFamiliesExportWhatEnginesRunAndSayWhyNotElsewhere) {
  // MTP k = 3: vLLM drafts num_speculative_tokens = 3; SGLang 3 steps, a chain (top-k 1) of
  // 3 + 1 verified tokens; TensorRT-LLM 3 next-n predict steps.
  const json mtp = ok("export", {{"target", "glm-4.5-air"},
                                 {"gpus", 4},
                                 {"acceptance", {{"per_position", {0.92, 0.74, 0.56}}}},
                                 {"method", {{"family", "mtp"}, {"k", 3}}}});
  const json spec = json::parse(mtp["vllm"]["--speculative-config"].get<std::string>());
  // draft_tensor_parallel_size: the priced placement, vLLM's default (the target's TP, 4).
  EXPECT_EQ(spec, json::parse(R"({"method": "mtp", "num_speculative_tokens": 3,
                                  "draft_tensor_parallel_size": 4})"));
  EXPECT_EQ(mtp["vllm"]["--model"], "zai-org/GLM-4.5-Air");
  EXPECT_EQ(mtp["vllm"]["--tensor-parallel-size"], 4);
  EXPECT_EQ(mtp["sglang"]["--speculative-num-steps"], 3);
  EXPECT_EQ(mtp["sglang"]["--speculative-eagle-topk"], 1);
  EXPECT_EQ(mtp["sglang"]["--speculative-num-draft-tokens"], 4);
  EXPECT_FALSE(mtp["sglang"].contains("--speculative-draft-model-path"));
  EXPECT_EQ(mtp["tensorrt_llm"],
            json::parse(R"({"decoding_type": "MTP", "num_nextn_predict_layers": 3})"));
  // Suffix decoding: k is the most it drafts.
  const json suffix =
      ok("export", {{"target", "llama3.1-8b-instruct"},
                    {"acceptance", {{"tau", 2.0}}},
                    {"method", {{"family", "retrieval"}, {"source", "suffix"}, {"k", 24}}}});
  EXPECT_EQ(json::parse(suffix["vllm"]["--speculative-config"].get<std::string>()),
            json::parse(R"({"method": "suffix", "num_speculative_tokens": 24})"));
  EXPECT_EQ(suffix["sglang"]["--speculative-algorithm"], "SUFFIX");
  EXPECT_EQ(suffix["sglang"]["--speculative-num-draft-tokens"], 24);
  // LayerSkip: transformers only, exit layer and k as given.
  const json skip =
      ok("export", {{"target", "llama2-chat-7b"},
                    {"acceptance", {{"alpha", 0.6}}},
                    {"method", {{"family", "layerskip"}, {"exit_layer", 8}, {"k", 4}}}});
  EXPECT_EQ(skip["hf_transformers"]["assistant_early_exit"], 8);
  EXPECT_EQ(skip["hf_transformers"]["num_assistant_tokens"], 4);
  EXPECT_FALSE(skip.contains("vllm"));
  EXPECT_FALSE(skip.contains("sglang"));
  EXPECT_FALSE(skip.contains("tensorrt_llm"));
  // Streaming and REST: no engine block, and a note that says why.
  auto says = [](const json& exp, const std::string& words) {
    for (const json& n : exp["notes"])
      if (n.get<std::string>().find(words) != std::string::npos) return true;
    return false;
  };
  const json streaming = ok("export", {{"target", "llama2-chat-7b"},
                                       {"acceptance", {{"alpha", 0.8}}},
                                       {"method", {{"family", "streaming"}}}});
  EXPECT_EQ(streaming.size(), 1u) << streaming.dump();  // notes only
  EXPECT_TRUE(says(streaming, "no engine runs streaming self-speculation")) << streaming.dump();
  const json rest = ok("export", {{"target", "llama2-chat-7b"},
                                  {"acceptance", {{"tau", 1.8}}},
                                  {"method", {{"family", "retrieval"}, {"source", "rest"}}}});
  EXPECT_EQ(rest.size(), 1u) << rest.dump();
  EXPECT_TRUE(says(rest, "no serving engine documents rest")) << rest.dump();
  EXPECT_TRUE(says(skip, "need")) << skip.dump();
}

TEST(EngineImport, MtpAndSuffixImportBack) {
  const json v = ok("import-engine", {{"engine", "vllm"},
                                      {"text",
                                       "vllm serve zai-org/GLM-4.5-Air -tp 4 --speculative-config "
                                       "'{\"method\": \"mtp\", \"num_speculative_tokens\": 3}'"}});
  EXPECT_EQ(v["config"]["target"], "glm-4.5-air");
  EXPECT_EQ(v["config"]["method"]["family"], "mtp");
  EXPECT_EQ(v["config"]["method"]["k"], 3);
  // The older DeepSeek name; the bare JSON names no model, so the current config's target
  // stays (and must ship MTP layers: an MTP import onto Llama-2 is refused, naming the field).
  const json d =
      ok("import-engine", {{"engine", "vllm"},
                           {"config", {{"target", "deepseek-v3"}}},
                           {"text", R"({"method": "deepseek_mtp", "num_speculative_tokens": 1})"}});
  EXPECT_EQ(d["config"]["method"]["family"], "mtp");
  const speccalc::Response no_mtp = speccalc::run(
      "import-engine",
      R"({"engine": "vllm", "text": "{\"method\": \"mtp\", \"num_speculative_tokens\": 1}"})");
  ASSERT_FALSE(no_mtp.ok);
  EXPECT_EQ(no_mtp.error.field, "config.method.family");
  const json s =
      ok("import-engine",
         {{"engine", "vllm"}, {"text", R"({"method": "suffix", "num_speculative_tokens": 32})"}});
  EXPECT_EQ(s["config"]["method"]["family"], "retrieval");
  EXPECT_EQ(s["config"]["method"]["source"], "suffix");
  EXPECT_EQ(s["config"]["method"]["k"], 32);
  // SGLang: the export of an MTP config imports back (EAGLE without a draft path on a target
  // whose checkpoint has MTP layers), and so does NEXTN.
  const json config = {{"target", "deepseek-v3"},
                       {"gpus", 8},
                       {"acceptance", {{"per_position", {0.9}}}},
                       {"method", {{"family", "mtp"}, {"k", 2}}}};
  const json exp = ok("export", config);
  std::string line = "python -m sglang.launch_server";
  for (auto it = exp["sglang"].begin(); it != exp["sglang"].end(); ++it)
    line += " " + it.key() + " " +
            (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  const json back = ok("import-engine", {{"engine", "sglang"}, {"text", line}});
  EXPECT_EQ(back["config"]["target"], "deepseek-v3");
  EXPECT_EQ(back["config"]["gpus"], 8);
  EXPECT_EQ(back["config"]["method"]["family"], "mtp");
  EXPECT_EQ(back["config"]["method"]["k"], 2);
  const json nextn =
      ok("import-engine", {{"engine", "sglang"},
                           {"text",
                            "--model deepseek-ai/DeepSeek-V3 --speculative-algo NEXTN "
                            "--speculative-num-steps 2 --speculative-eagle-topk 4 "
                            "--speculative-num-draft-tokens 4 --tp 8"}});
  EXPECT_EQ(nextn["config"]["method"]["family"], "mtp");
  EXPECT_EQ(nextn["config"]["method"]["k"], 2);
  EXPECT_EQ(nextn["notes"].size(), 1u) << nextn.dump();  // the tree imported as a chain
  const json sfx =
      ok("import-engine",
         {{"engine", "sglang"},
          {"text", "--speculative-algorithm SUFFIX --speculative-num-draft-tokens 16"}});
  EXPECT_EQ(sfx["config"]["method"]["source"], "suffix");
  EXPECT_EQ(sfx["config"]["method"]["k"], 16);
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
  // A tree family whose config names a preset tree gets the sized tree itself.
  const json medusa = ok("size", {{"config",
                                   {{"target", "vicuna-7b-v1.3"},
                                    {"acceptance", {{"alpha", 0.6}}},
                                    {"method", {{"family", "medusa"}}}}},
                                  {"budget", 16},
                                  {"max_depth", 4}});
  EXPECT_EQ(medusa["apply"]["method"]["choices"], medusa["best"]["choices"]);
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
