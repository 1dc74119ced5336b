// Engine exports run as pasted: every key is one the engine documents, repository ids are real,
// depths follow each engine's convention, TensorRT-LLM's max_draft_len covers its schedule, and
// importing an export gives back the config it came from. Also eval-tree (the evaluated tree).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

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
// --data-parallel-size and --enable-expert-parallel: docs.vllm.ai DeepSeek-V3 recipe ("DP8+EP")
// and serving/expert_parallel_deployment.
// --kv-cache-dtype: docs.vllm.ai engine args (CacheDType in vllm/config.py: auto, fp8,
// fp8_e4m3, fp8_e5m2).
const std::set<std::string> kVllmFlags = {"--model",
                                          "--tensor-parallel-size",
                                          "--speculative-config",
                                          "--data-parallel-size",
                                          "--enable-expert-parallel",
                                          "--kv-cache-dtype"};
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
// --dp-size, --enable-dp-attention, --ep-size: docs.sglang.io cookbook server_arguments
// ("enable_dp_attention: DP for attention, TP for FFN").
const std::set<std::string> kSglangFlags = {"--model-path",
                                            "--tp-size",
                                            "--dp-size",
                                            "--enable-dp-attention",
                                            "--ep-size",
                                            "--kv-cache-dtype",
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
  EXPECT_TRUE(streaming["order"].empty()) << streaming.dump();  // notes only, no block
  EXPECT_TRUE(says(streaming, "no engine runs streaming self-speculation")) << streaming.dump();
  const json rest = ok("export", {{"target", "llama2-chat-7b"},
                                  {"acceptance", {{"tau", 1.8}}},
                                  {"method", {{"family", "retrieval"}, {"source", "rest"}}}});
  EXPECT_TRUE(rest["order"].empty()) << rest.dump();
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

TEST(EngineExport, TheEnginePricedComesFirstAndIsNamed) {
  // (runtime, family) -> the block that runs what was priced; "" where the profile names no
  // engine (compiled). Every other block follows by name; order lists every block once.
  const std::vector<std::vector<std::string>> cases = {{"vllm", "eagle3", "vllm"},
                                                       {"sglang", "eagle2", "sglang"},
                                                       {"tensorrt-llm", "medusa", "tensorrt_llm"},
                                                       {"hf-eager", "eagle2", "eagle"},
                                                       {"hf-eager", "medusa", "medusa"},
                                                       {"hf-eager", "sps", "hf_transformers"},
                                                       {"llama.cpp-cuda", "sps", "llama_server"},
                                                       {"compiled", "eagle2", ""}};
  for (const auto& c : cases) {
    json config = {{"target", "llama3.1-8b-instruct"},
                   {"hardware", "h100-sxm"},
                   {"runtime", c[0]},
                   {"method", {{"family", c[1]}}},
                   {"acceptance", {{"alpha", 0.7}}}};
    if (c[1] == "sps") config["method"]["draft"] = "llama3.2-1b";
    if (c[1] == "medusa") config["target"] = "vicuna-7b-v1.3";
    const json exp = ok("export", config);
    const std::string where = c[0] + " " + c[1];
    EXPECT_EQ(exp["priced"], c[2]) << where;
    std::vector<std::string> blocks;  // the objects, in key order
    for (auto it = exp.begin(); it != exp.end(); ++it)
      if (it.value().is_object()) blocks.push_back(it.key());
    std::vector<std::string> expected;
    if (!c[2].empty()) expected.push_back(c[2]);
    for (const std::string& b : blocks)
      if (b != c[2]) expected.push_back(b);
    EXPECT_EQ(exp["order"].get<std::vector<std::string>>(), expected) << where;
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
  // Said beside the settings (the walk read depth 5 next to --speculative-num-steps 6 as a
  // mismatch).
  bool said = false;
  for (const json& n : exp["notes"])
    said |= n.get<std::string>().find("5 here is 6 draft levels") != std::string::npos;
  EXPECT_TRUE(said) << exp["notes"];
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
  // The priced cycle runs what EAGLE's topK_genrate runs at --depth 5: the forward over the
  // accepted tokens (the first level) and 5 loop steps, six draft forwards
  // (hemingkx/Spec-Bench model/eagle2/cnets.py).
  const json priced = ok("eval", {{"target", "vicuna-7b-v1.3"},
                                  {"hardware", "rtx-3090"},
                                  {"runtime", "hf-eager"},
                                  {"acceptance", {{"tau", 4.35}}},
                                  {"method", config["method"]}});
  EXPECT_EQ(priced["draft"]["passes_per_cycle"], 6);
}

TEST(EngineExport, TensorRtMaxDraftLenCoversTheSchedule) {
  // Sized as a chain (vLLM verifies chains): the schedule is a draft length per batch.
  const json req = {{"config",
                     {{"target", "llama2-chat-7b"},
                      {"runtime", "vllm"},
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

// A draft model's token tree is exported as what each engine runs of it: SGLang's top-k tree
// sizes, vLLM and TensorRT-LLM chains of its levels (each block says so), no transformers
// block (assisted generation drafts chains); never the config's unused k. The tree below has
// 3 levels, ranks up to 2 and 5 nodes.
TEST(EngineExport, ADraftModelTreeIsExportedAsEachEngineRunsIt) {
  const json out = ok("export", {{"target", "llama2-chat-7b"},
                                 {"runtime", "sglang"},
                                 {"method",
                                  {{"family", "sps"},
                                   {"draft", "vicuna-68m"},
                                   {"k", 7},
                                   {"choices", {{0}, {1}, {2}, {0, 0}, {0, 0, 0}}}}}});
  const json& sg = out["sglang"];
  EXPECT_EQ(sg["--speculative-algorithm"], "STANDALONE");
  EXPECT_EQ(sg["--speculative-num-steps"], 3);
  EXPECT_EQ(sg["--speculative-eagle-topk"], 3);
  EXPECT_EQ(sg["--speculative-num-draft-tokens"], 6);
  EXPECT_EQ(out["priced"], "sglang");
  EXPECT_EQ(out["tensorrt_llm"]["max_draft_len"], 3);
  EXPECT_NE(out["tensorrt_llm"]["note"].get<std::string>().find("not this 5-node tree"),
            std::string::npos);
  const json spec = json::parse(out["vllm"]["--speculative-config"].get<std::string>());
  EXPECT_EQ(spec["num_speculative_tokens"], 3);
  EXPECT_FALSE(out.contains("hf_transformers"));
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
  // The default engine (compiled) verifies trees: a draft model gets the hardware-aware tree
  // Sequoia searches for, applied as its choices.
  EXPECT_EQ(sps["sized_as"], "tree");
  EXPECT_EQ(sps["apply"]["method"]["choices"], sps["best"]["choices"]);
  EXPECT_EQ(sps["apply"]["method"]["choices"].size(), sps["best"]["nodes"].get<std::size_t>());
  EXPECT_GE(sps["best"]["speedup"].get<double>(), sps["current"]["speedup"].get<double>());
  const json applied = ok("eval", sps["apply"]);
  EXPECT_NEAR(applied["tau"].get<double>(), sps["best"]["tau"].get<double>(), 1e-9);
  EXPECT_NEAR(applied["speedup"].get<double>(), sps["best"]["speedup"].get<double>(), 1e-12);
  // vLLM verifies chains only: a draft model is sized by k there.
  const json chain = ok("size", {{"config",
                                  {{"target", "llama2-chat-7b"},
                                   {"runtime", "vllm"},
                                   {"acceptance", {{"alpha", 0.8}}},
                                   {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}}}}},
                                 {"budget", 16},
                                 {"max_depth", 16}});
  EXPECT_EQ(chain["sized_as"], "chain");
  EXPECT_EQ(chain["apply"]["method"]["k"], chain["best"]["nodes"]);
  // TensorRT-LLM verifies EAGLE and Medusa trees but drafts a draft model's tokens as one
  // chain (DraftTarget, max_draft_len): k there, and a tree is refused naming its field.
  json trt_config = {{"target", "llama2-chat-7b"},
                     {"runtime", "tensorrt-llm"},
                     {"acceptance", {{"alpha", 0.8}}},
                     {"method", {{"family", "sps"}, {"draft", "vicuna-68m"}}}};
  const json trt = ok("size", {{"config", trt_config}, {"budget", 16}, {"max_depth", 16}});
  EXPECT_EQ(trt["sized_as"], "chain");
  EXPECT_EQ(trt["apply"]["method"]["k"], trt["best"]["nodes"]);
  trt_config["method"]["tree_size"] = 16;
  trt_config["method"]["depth"] = 4;
  const speccalc::Response refused = speccalc::run("eval", trt_config.dump());
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.error.field, "method.tree_size");
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

// An export's block for one engine as the command line a user would paste back ("note" aside;
// a switch written as a bare flag, every other value quoted).
std::string command_line(const json& exp, const std::string& engine) {
  std::string line = engine == "vllm" ? "vllm serve" : "python -m sglang.launch_server";
  for (auto it = exp[engine].begin(); it != exp[engine].end(); ++it) {
    if (it.key() == "note") continue;
    line += " " + it.key();
    if (it.value() != true)
      line +=
          " '" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump()) + "'";
  }
  return line;
}

TEST(EngineExport, DataParallelAttentionAndExpertParallelismAsEachEngineCountsThem) {
  // 16 GPUs in 16 attention groups with experts spread over all 16: SGLang counts all GPUs in
  // --tp-size and the groups in --dp-size; vLLM counts one rank's GPUs in -tp (16 / 16 = 1).
  const json config = {{"target", "deepseek-v3"},
                       {"hardware", "h200-sxm"},
                       {"runtime", "sglang"},
                       {"dtype", "fp8"},
                       {"parallelism", {{"tensor", 1}, {"data_attention", 16}, {"expert", 16}}},
                       {"acceptance", {{"alpha", 0.85}}},
                       {"method", {{"family", "mtp"}, {"k", 1}}}};
  const json exp = ok("export", config);
  EXPECT_EQ(exp["sglang"]["--tp-size"], 16);
  EXPECT_EQ(exp["sglang"]["--dp-size"], 16);
  EXPECT_EQ(exp["sglang"]["--enable-dp-attention"], true);
  EXPECT_EQ(exp["sglang"]["--ep-size"], 16);
  EXPECT_EQ(exp["vllm"]["--tensor-parallel-size"], 1);
  EXPECT_EQ(exp["vllm"]["--data-parallel-size"], 16);
  EXPECT_EQ(exp["vllm"]["--enable-expert-parallel"], true);
  EXPECT_EQ(
      json::parse(
          exp["vllm"]["--speculative-config"].get<std::string>())["draft_tensor_parallel_size"],
      1);
  // The placement note says how that 1 is the 16 priced (the walk: "vLLM's
  // draft_tensor_parallel_size above says it" beside a 1 read as a contradiction).
  bool said = false;
  for (const json& n : exp["notes"])
    said = said || n.get<std::string>().find(
                       "priced at draft tensor parallelism 16; vLLM's draft_tensor_parallel_size "
                       "above says it per data-parallel rank (1 x 16 ranks)") != std::string::npos;
  EXPECT_TRUE(said) << exp["notes"].dump();
  // Each engine's line imports back to the same parallelism.
  for (const char* engine : {"sglang", "vllm"}) {
    const std::string line = command_line(exp, engine);
    const json got = ok("import-engine", {{"engine", engine}, {"text", line}});
    EXPECT_EQ(got["config"]["gpus"], 16) << engine;
    EXPECT_EQ(got["config"]["parallelism"],
              (json{{"tensor", 1}, {"data_attention", 16}, {"expert", 16}}))
        << engine;
  }
}

// The KV cache's dtype as priced travels to the engine and back (the walk: an fp8 KV cache
// exported without --kv-cache-dtype, and imported as fp16 with "Imported."). vLLM spells it
// fp8 (vllm/config.py CacheDType: auto, fp8, fp8_e4m3, fp8_e5m2), SGLang fp8_e4m3.
TEST(EngineImport, KvCacheDtypeExportsAndImportsBack) {
  const json config = {{"target", "llama3.1-8b-instruct"},
                       {"hardware", "h100-sxm"},
                       {"runtime", "vllm"},
                       {"dtype", {{"weights", "bf16"}, {"kv", "fp8"}}},
                       {"method", {{"family", "eagle3"}}}};
  const json exp = ok("export", config);
  EXPECT_EQ(exp["vllm"]["--kv-cache-dtype"], "fp8");
  EXPECT_EQ(exp["sglang"]["--kv-cache-dtype"], "fp8_e4m3");
  for (const char* engine : {"sglang", "vllm"}) {
    const std::string line = command_line(exp, engine);
    // Imported onto a page holding fp16 throughout: the KV cache becomes fp8, the weights stay.
    json page = config;
    page["dtype"] = "fp16";
    const json got = ok("import-engine", {{"engine", engine}, {"text", line}, {"config", page}});
    EXPECT_EQ(got["config"]["dtype"], (json{{"kv", "fp8"}, {"weights", "fp16"}})) << engine;
  }
  // An fp16 KV cache writes no flag (auto keeps the model's dtype).
  json fp16 = config;
  fp16["dtype"] = "bf16";
  EXPECT_FALSE(ok("export", fp16)["vllm"].contains("--kv-cache-dtype"));
  // int8: neither engine has it; the export says so.
  json int8 = config;
  int8["dtype"] = {{"weights", "bf16"}, {"kv", "int8"}};
  EXPECT_NE(ok("export", int8)["notes"].dump().find("no int8 KV cache"), std::string::npos);
  // A value neither engine takes names the flag.
  const speccalc::Response bad = speccalc::run(
      "import-engine",
      json{{"engine", "vllm"},
           {"text",
            "vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype int4 "
            "--speculative-config '{\"method\":\"ngram\",\"num_speculative_tokens\":3}'"}}
          .dump());
  ASSERT_FALSE(bad.ok);
  EXPECT_EQ(bad.error.field, "text.--kv-cache-dtype");
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

TEST(EngineImport, APasteThatIsPlainlyTheOtherEnginesIsReadAsThatEngines) {
  // The walk: an SGLang launch_server line pasted while vLLM was selected answered "has no
  // --speculative-config". A paste that names its engine (launch_server or
  // --speculative-algorithm; vllm serve or --speculative-config) is read as that engine's,
  // and the first note says so.
  const json a = ok("import-engine",
                    {{"engine", "vllm"},
                     {"text",
                      "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 "
                      "--speculative-algorithm EAGLE --speculative-num-steps 3 "
                      "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4"}});
  EXPECT_EQ(a["config"]["runtime"], "sglang");
  EXPECT_EQ(a["config"]["target"], "deepseek-v3");
  EXPECT_EQ(a["config"]["gpus"], 8);
  EXPECT_EQ(a["config"]["method"]["family"], "mtp");  // EAGLE on DeepSeek-V3 is its MTP module
  ASSERT_FALSE(a["notes"].empty());
  EXPECT_EQ(a["notes"][0].get<std::string>().rfind("read as SGLang settings", 0), 0u)
      << a["notes"].dump();
  const json b = ok("import-engine", {{"engine", "sglang"},
                                      {"text",
                                       "vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 "
                                       "--speculative-config '{\"model\": "
                                       "\"meta-llama/Llama-3.2-1B-Instruct\", "
                                       "\"num_speculative_tokens\": 5}'"}});
  EXPECT_EQ(b["config"]["runtime"], "vllm");
  EXPECT_EQ(b["config"]["method"]["family"], "sps");
  EXPECT_EQ(b["notes"][0].get<std::string>().rfind("read as vLLM settings", 0), 0u)
      << b["notes"].dump();
}

// A flag SpecCalc has no setting for is listed back, never dropped silently (the walk: a
// `vllm serve` line with --gpu-memory-utilization, --max-num-seqs and --enable-prefix-caching
// imported without a word); the memory fraction is the config's memory_utilization.
TEST(EngineImport, FlagsWithoutASettingAreListedAndTheMemoryFractionIsRead) {
  const json a =
      ok("import-engine",
         {{"engine", "vllm"},
          {"text",
           "vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.85 "
           "--max-num-seqs 64 --enable-prefix-caching --speculative-config "
           "'{\"method\": \"ngram\", \"num_speculative_tokens\": 3, \"prompt_lookup_min\": 2}'"}});
  EXPECT_DOUBLE_EQ(a["config"]["memory_utilization"].get<double>(), 0.85);
  EXPECT_EQ(a["notes"], (json{"flags not read (SpecCalc has no setting for them): "
                              "--enable-prefix-caching, --max-num-seqs 64",
                              "--speculative-config keys not read (SpecCalc has no setting for "
                              "them): prompt_lookup_min"}));
  // SGLang: --mem-fraction-static, said to be the nearest setting; python's -m is not a flag.
  const json b =
      ok("import-engine",
         {{"engine", "sglang"},
          {"text",
           "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
           "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 5 "
           "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 "
           "--mem-fraction-static 0.7 --port 30000"}});
  EXPECT_DOUBLE_EQ(b["config"]["memory_utilization"].get<double>(), 0.7);
  ASSERT_EQ(b["notes"].size(), 2u) << b["notes"].dump();
  EXPECT_EQ(b["notes"][0].get<std::string>().rfind("--mem-fraction-static 0.7: imported as", 0),
            0u);
  EXPECT_EQ(b["notes"][1], "flags not read (SpecCalc has no setting for them): --port 30000");
  // Out of the config's range: named as typed.
  const speccalc::Response bad = speccalc::run(
      "import-engine", json{{"engine", "vllm"},
                            {"text",
                             "vllm serve m --gpu-memory-utilization 1.5 --speculative-config "
                             "'{\"method\":\"ngram\",\"num_speculative_tokens\":3}'"}}
                           .dump());
  ASSERT_FALSE(bad.ok);
  EXPECT_EQ(bad.error.field, "text.--gpu-memory-utilization");
  // What SpecCalc exports it reads back whole: a memory fraction the user set goes out as each
  // engine's flag and comes back; no flag or key of any family's export is left unread.
  json config = {
      {"target", "llama3.1-8b-instruct"}, {"hardware", "h100-sxm"}, {"memory_utilization", 0.8}};
  for (const json& method : {json{{"family", "eagle3"}}, json{{"family", "pld"}},
                             json{{"family", "sps"}, {"draft", "llama3.2-1b"}, {"k", 4}},
                             json{{"family", "retrieval"}, {"source", "suffix"}, {"k", 8}}}) {
    config["method"] = method;
    for (const char* runtime : {"vllm", "sglang"}) {
      config["runtime"] = runtime;
      const json exp = ok("export", config);
      if (!exp.contains(runtime)) continue;
      const std::string line = command_line(exp, runtime);
      const json back = ok("import-engine", {{"engine", runtime}, {"text", line}});
      EXPECT_DOUBLE_EQ(back["config"]["memory_utilization"].get<double>(), 0.8) << line;
      EXPECT_EQ(back["notes"].dump().find("not read"), std::string::npos)
          << line << " -> " << back["notes"].dump();
    }
  }
  // SGLang's STANDALONE drafter with a tree (top-k 2, 8 draft tokens, 4 steps): the best tree of
  // 8 nodes, depth <= 4, which is what a draft-model tree of that size exports as.
  config["runtime"] = "sglang";
  config["method"] = {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"tree_size", 8}, {"depth", 4}};
  const json tree = ok("import-engine", {{"engine", "sglang"},
                                         {"text", command_line(ok("export", config), "sglang")}});
  EXPECT_EQ(tree["config"]["method"], config["method"]);
  // The default (vLLM's 0.9) writes no flag.
  config["method"] = {{"family", "eagle3"}};
  config.erase("memory_utilization");
  config["runtime"] = "vllm";
  EXPECT_FALSE(ok("export", config)["vllm"].contains("--gpu-memory-utilization"));
}

// Found by the fuzzer (fuzz/regressions/sweep/import-sglang-ep-size-without-tp-or-preset): an
// SGLang line with --ep-size but neither --tp nor a preset model aborted (the imported config
// was still JSON null when the parallelism was read). It now reads the expert parallelism.
TEST(EngineImport, ExpertParallelismWithoutATensorParallelSizeOrAPresetModelImports) {
  const speccalc::Response r = speccalc::run(
      "import-engine",
      json{{"engine", "sglang"},
           {"text",
            "python -m sglang.launch_server --model-path some-org/unknown-model --ep-size 16 "
            "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 4"},
           {"config", {{"target", "deepseek-v3"}, {"hardware", "h200-sxm"}, {"gpus", 8}}}}
          .dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  EXPECT_EQ(out["config"]["gpus"], 1);  // no --tp: one GPU, whose experts are all its own
  EXPECT_EQ(out["notes"][0],
            "target some-org/unknown-model is not a preset: kept the current target");
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
  // A count under 1 is named as typed, not as the SpecCalc field it would become (the walk:
  // num_speculative_tokens -3 came back as "config.method.depth").
  for (const char* key : {"num_speculative_tokens", "draft_tensor_parallel_size"}) {
    json spec = {{"method", "eagle3"}, {"num_speculative_tokens", 3}};
    spec[key] = -3;
    const speccalc::Response t =
        speccalc::run("import-engine", json{{"engine", "vllm"}, {"text", spec.dump()}}.dump());
    ASSERT_FALSE(t.ok) << key;
    EXPECT_EQ(t.error.field, std::string("text.--speculative-config.") + key);
    EXPECT_EQ(t.error.message, "must be at least 1, got -3");
  }
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
  EXPECT_EQ(given["acceptance"], "tau given directly: no per-node acceptance");
}

// A tau from data is named as the result's tau card names it, and a chain gets no word about a
// tree's shape (the walk: the starter's panel said "tau given directly: the tree's shape is
// EAGLE-2's" under a headline whose tau came from the vLLM traces).
TEST(EvalTree, ATauFromDataIsNamedAsTheResultNamesIt) {
  const speccalc::Response ui = speccalc::run("list", "ui");
  ASSERT_TRUE(ui.ok) << ui.error.describe();
  const json starter = json::parse(ui.output)["starter"];
  const json result = ok("eval", starter);
  const json tree = ok("eval-tree", starter);
  ASSERT_EQ(starter["method"]["top_k"], 1);  // a chain
  EXPECT_EQ(tree["acceptance"],
            result["tau_basis"].get<std::string>() + ": no per-node acceptance");
  EXPECT_DOUBLE_EQ(tree["tau"].get<double>(), result["tau"].get<double>());
}

// ---- Local engines (issue 22, item 5): llama-server, LM Studio, Ollama, mlx_lm ----

// A flag's value as the tool parses it.
enum class Arg { integer, probability, path, cache_type, flash_attn, spec_type, split_mode };

// llama-server flags the exports use, long forms, as current builds parse them: from
// ggml-org/llama.cpp common/arg.cpp (commit 145b6280) --model/-m, --model-draft/-md,
// --n-gpu-layers/-ngl, --n-gpu-layers-draft/-ngld, --flash-attn/-fa [on|off|auto],
// --draft-p-min, --cache-type-k/-ctk, --cache-type-v/-ctv, --cache-type-k-draft/-ctkd,
// --cache-type-v-draft/-ctvd, --split-mode/-sm {none,layer,row}, each still an alias after
// the rename; from the renamed set (PR #22397, docs/speculative.md after PR #22964)
// --spec-type, --spec-draft-n-max, --spec-draft-n-min, --spec-ngram-simple-size-n,
// --spec-ngram-simple-size-m. The removed names (--draft-max, --draft-min,
// --spec-ngram-size-n/-m) are deliberately absent: current builds stop on them.
const std::map<std::string, Arg> kLlamaServerFlags = {
    {"--model", Arg::path},
    {"--model-draft", Arg::path},
    {"--n-gpu-layers", Arg::integer},
    {"--n-gpu-layers-draft", Arg::integer},
    {"--flash-attn", Arg::flash_attn},
    {"--spec-draft-n-max", Arg::integer},
    {"--spec-draft-n-min", Arg::integer},
    {"--draft-p-min", Arg::probability},
    {"--cache-type-k", Arg::cache_type},
    {"--cache-type-v", Arg::cache_type},
    {"--cache-type-k-draft", Arg::cache_type},
    {"--cache-type-v-draft", Arg::cache_type},
    {"--split-mode", Arg::split_mode},
    {"--spec-type", Arg::spec_type},
    {"--spec-ngram-simple-size-n", Arg::integer},
    {"--spec-ngram-simple-size-m", Arg::integer},
};
// "allowed values" of -ctk/-ctv (tools/server/README.md, get_all_kv_cache_types()).
const std::set<std::string> kLlamaCacheTypes = {"f32",  "f16",    "bf16", "q8_0", "q4_0",
                                                "q4_1", "iq4_nl", "q5_0", "q5_1"};
// docs/speculative.md after PR #22964, `--spec-type TYPE`.
const std::set<std::string> kLlamaSpecTypes = {
    "none",        "draft-simple", "draft-eagle3", "draft-dflash",  "draft-mtp",
    "ngram-cache", "ngram-simple", "ngram-map-k",  "ngram-map-k4v", "ngram-mod"};
// mlx_lm.generate / mlx_lm.server argparse (ml-explore/mlx-lm mlx_lm/generate.py and
// mlx_lm/server.py: --model, --draft-model, --num-draft-tokens type=int).
const std::map<std::string, Arg> kMlxLmFlags = {
    {"--model", Arg::path}, {"--draft-model", Arg::path}, {"--num-draft-tokens", Arg::integer}};
// LM Studio REST request fields for speculative decoding (lmstudio-ai/docs
// 0_app/0_root/api-changelog.md, 0.3.10) and the SDK's prediction config fields
// (lmstudio-ai/lmstudio-js packages/lms-shared-types/src/llm/LLMPredictionConfig.ts).
const std::set<std::string> kLmStudioRestKeys = {"model", "draft_model"};
const std::set<std::string> kLmStudioSdkKeys = {
    "draftModel", "speculativeDecodingNumDraftTokensExact",
    "speculativeDecodingMinDraftLengthToConsider",
    "speculativeDecodingMinContinueDraftingProbability"};

// The block as the page prints it ("--flag value" pairs), parsed back as the tool would:
// every flag documented, every value well-formed for its flag. Returns flag -> value text.
std::map<std::string, std::string> parse_flags(const json& block,
                                               const std::map<std::string, Arg>& table,
                                               const std::string& what) {
  std::vector<std::string> argv;
  for (auto it = block.begin(); it != block.end(); ++it) {
    argv.push_back(it.key());
    argv.push_back(it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  }
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < argv.size(); i += 2) {
    const std::string& flag = argv[i];
    const std::string& v = argv[i + 1];
    auto spec = table.find(flag);
    if (spec == table.end()) {
      ADD_FAILURE() << what << ": undocumented flag " << flag;
      continue;
    }
    switch (spec->second) {
      case Arg::integer: {
        std::size_t used = 0;
        const long n = std::stol(v, &used);
        EXPECT_EQ(used, v.size()) << what << " " << flag << " " << v;
        EXPECT_GE(n, 0) << what << " " << flag;
        break;
      }
      case Arg::probability: {
        std::size_t used = 0;
        const double p = std::stod(v, &used);
        EXPECT_EQ(used, v.size()) << what << " " << flag << " " << v;
        EXPECT_TRUE(p >= 0 && p <= 1) << what << " " << flag << " " << v;
        break;
      }
      case Arg::path:
        EXPECT_FALSE(v.empty()) << what << " " << flag;
        EXPECT_EQ(v.find(' '), std::string::npos) << what << " " << flag << " " << v;
        break;
      case Arg::cache_type:
        EXPECT_TRUE(kLlamaCacheTypes.count(v)) << what << " " << flag << " " << v;
        break;
      case Arg::flash_attn:
        EXPECT_TRUE(v == "on" || v == "off" || v == "auto") << what << " " << flag << " " << v;
        break;
      case Arg::spec_type:
        EXPECT_TRUE(kLlamaSpecTypes.count(v)) << what << " " << flag << " " << v;
        break;
      case Arg::split_mode:
        EXPECT_TRUE(v == "none" || v == "layer" || v == "row") << what << " " << v;
        break;
    }
    out[flag] = v;
  }
  return out;
}

bool notes_say(const json& exp, const std::string& words) {
  for (const json& n : exp["notes"])
    if (n.get<std::string>().find(words) != std::string::npos) return true;
  return false;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Only the local tools: a GGUF or MLX configuration pasted into vLLM or SGLang would not run.
void expect_no_datacenter_blocks(const json& exp) {
  for (const char* k : {"vllm", "sglang", "tensorrt_llm", "hf_transformers", "eagle"})
    EXPECT_FALSE(exp.contains(k)) << k << ": " << exp.dump();
}

TEST(EngineExportLocal, LlamaServerSpsParsesAsArgCppFlagsWithTheConfigsNumbers) {
  const json exp =
      ok("export", {{"target", "qwen3-8b"},
                    {"hardware", "rtx-4090"},
                    {"runtime", "llama.cpp-cuda"},
                    {"dtype", {{"weights", "q4_k_m"}, {"kv", "q8_0"}}},
                    {"acceptance", {{"alpha", 0.7}}},
                    {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 6}}}});
  expect_no_datacenter_blocks(exp);
  ASSERT_TRUE(exp.contains("llama_server")) << exp.dump();
  const auto f = parse_flags(exp["llama_server"], kLlamaServerFlags, "llama-server sps");
  EXPECT_EQ(f.at("--spec-type"), "draft-simple");
  EXPECT_EQ(f.at("--spec-draft-n-max"), "6");
  // Priced at the full k every cycle: written at 0, so no build's other defaults apply
  // (a config cannot set draft_min / draft_p_min: not modeled yet).
  EXPECT_EQ(f.at("--spec-draft-n-min"), "0");
  EXPECT_DOUBLE_EQ(std::stod(f.at("--draft-p-min")), 0.0);
  // GGUF files named by the HF repository and the upper-case quant.
  EXPECT_TRUE(ends_with(f.at("--model"), "/Qwen3-8B-Q4_K_M.gguf")) << f.at("--model");
  EXPECT_TRUE(ends_with(f.at("--model-draft"), "/Qwen3-0.6B-Q4_K_M.gguf")) << f.at("--model-draft");
  // Every layer on the GPU (Qwen3-8B: 36 layers + the output layer).
  EXPECT_GE(std::stol(f.at("--n-gpu-layers")), 37);
  EXPECT_GE(std::stol(f.at("--n-gpu-layers-draft")), 29);
  // q8_0 KV for target and draft, with the flash attention a quantized V cache needs.
  for (const char* k :
       {"--cache-type-k", "--cache-type-v", "--cache-type-k-draft", "--cache-type-v-draft"})
    EXPECT_EQ(f.at(k), "q8_0") << k;
  EXPECT_EQ(f.at("--flash-attn"), "on");
  EXPECT_FALSE(f.count("--split-mode"));  // one GPU
  // Users on builds from before the rename are told the old spelling.
  EXPECT_TRUE(notes_say(exp, "as --draft-max and --draft-min")) << exp.dump();
  EXPECT_TRUE(notes_say(exp, "V cache quantization requires flash_attn")) << exp.dump();
  EXPECT_TRUE(notes_say(exp, "--hf-repo <user>/<repo>:Q4_K_M")) << exp.dump();
  // The engine's own knob name sets --spec-draft-n-max; fp16 KV writes no cache type; 2 GPUs split
  // layers (llama.cpp's multi-GPU mode, as priced).
  const json knob =
      ok("export", {{"target", "qwen3-8b"},
                    {"hardware", "rtx-4090"},
                    {"gpus", 2},
                    {"runtime", "llama.cpp-cuda"},
                    {"dtype", "q5_k_m"},
                    {"acceptance", {{"alpha", 0.7}}},
                    {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"draft_max", 9}}}});
  const auto g = parse_flags(knob["llama_server"], kLlamaServerFlags, "llama-server knob");
  EXPECT_EQ(g.at("--spec-draft-n-max"), "9");
  EXPECT_FALSE(g.count("--cache-type-k"));
  EXPECT_EQ(g.at("--split-mode"), "layer");
  EXPECT_TRUE(ends_with(g.at("--model"), "-Q5_K_M.gguf")) << g.at("--model");
}

TEST(EngineExportLocal, LlamaServerPromptLookupUsesTheNgramSpecType) {
  const json exp = ok("export", {{"target", "qwen3-8b"},
                                 {"hardware", "apple-m4-max"},
                                 {"runtime", "llama.cpp-metal"},
                                 {"dtype", "q8_0"},
                                 {"acceptance", {{"alpha", 0.5}}},
                                 {"method", {{"family", "pld"}, {"k", 8}, {"ngram", 3}}}});
  expect_no_datacenter_blocks(exp);
  const auto f = parse_flags(exp["llama_server"], kLlamaServerFlags, "llama-server pld");
  EXPECT_EQ(f.at("--spec-type"), "ngram-simple");
  EXPECT_EQ(f.at("--spec-ngram-simple-size-n"), "3");
  EXPECT_EQ(f.at("--spec-ngram-simple-size-m"), "8");
  EXPECT_TRUE(ends_with(f.at("--model"), "/Qwen3-8B-Q8_0.gguf")) << f.at("--model");
  for (const char* k : {"--model-draft", "--n-gpu-layers-draft", "--draft-p-min",
                        "--spec-draft-n-max", "--spec-draft-n-min"})
    EXPECT_FALSE(f.count(k)) << k;
  // LM Studio drafts with a draft model only: nothing for n-gram drafting.
  EXPECT_FALSE(exp.contains("lm_studio"));
  EXPECT_TRUE(notes_say(exp, "LM Studio documents speculative decoding with a draft model only"));
}

TEST(EngineExportLocal, MlxLmParsesAsGeneratePyFlags) {
  const json exp =
      ok("export", {{"target", "qwen3-8b"},
                    {"hardware", "apple-m4-max"},
                    {"runtime", "mlx"},
                    {"dtype", "mlx_4bit"},
                    {"acceptance", {{"alpha", 0.7}}},
                    {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 5}}}});
  expect_no_datacenter_blocks(exp);
  EXPECT_FALSE(exp.contains("llama_server"));
  const auto f = parse_flags(exp["mlx_lm"], kMlxLmFlags, "mlx_lm");
  EXPECT_EQ(f.at("--num-draft-tokens"), "5");
  EXPECT_TRUE(ends_with(f.at("--model"), "/Qwen3-8B-4bit")) << f.at("--model");
  EXPECT_TRUE(ends_with(f.at("--draft-model"), "/Qwen3-0.6B-4bit")) << f.at("--draft-model");
  EXPECT_TRUE(notes_say(exp, "mlx_lm.convert --hf-path Qwen/Qwen3-8B -q --q-bits 4")) << exp.dump();
  // 16-bit: the released repositories load directly; the engine knob sets the draft count.
  const json f16 =
      ok("export",
         {{"target", "qwen3-8b"},
          {"hardware", "apple-m4-max"},
          {"runtime", "mlx"},
          {"dtype", "bf16"},
          {"batch", 4},
          {"acceptance", {{"alpha", 0.7}}},
          {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"num_draft_tokens", 7}}}});
  const auto g = parse_flags(f16["mlx_lm"], kMlxLmFlags, "mlx_lm bf16");
  EXPECT_EQ(g.at("--model"), "Qwen/Qwen3-8B");
  EXPECT_EQ(g.at("--draft-model"), "Qwen/Qwen3-0.6B");
  EXPECT_EQ(g.at("--num-draft-tokens"), "7");
  EXPECT_TRUE(notes_say(f16, "is_batchable = draft_model is None")) << f16.dump();
}

TEST(EngineExportLocal, LmStudioUsesItsDocumentedFieldsAndOllamaSaysItHasNone) {
  for (const char* runtime : {"llama.cpp-cuda", "mlx"}) {
    const bool llama = std::string(runtime) == "llama.cpp-cuda";
    json config = {{"target", "qwen3-8b"},
                   {"hardware", llama ? "rtx-4090" : "apple-m4-max"},
                   {"runtime", runtime},
                   {"dtype", llama ? "q4_k_m" : "mlx_8bit"},
                   {"acceptance", {{"alpha", 0.7}}},
                   {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 4}}}};
    const json exp = ok("export", config);
    ASSERT_TRUE(exp.contains("lm_studio")) << exp.dump();
    expect_keys(exp["lm_studio"], kLmStudioRestKeys, std::string(runtime) + " lm_studio");
    expect_keys(exp["lm_studio_sdk"], kLmStudioSdkKeys, std::string(runtime) + " lm_studio_sdk");
    EXPECT_TRUE(exp["lm_studio"]["draft_model"].is_string());
    EXPECT_EQ(exp["lm_studio_sdk"]["speculativeDecodingNumDraftTokensExact"], 4);
    if (llama)
      EXPECT_DOUBLE_EQ(
          exp["lm_studio_sdk"]["speculativeDecodingMinContinueDraftingProbability"].get<double>(),
          0.0);
    else  // mlx_lm drafts a fixed count: no llama.cpp draft-length fields
      EXPECT_FALSE(exp["lm_studio_sdk"].contains("speculativeDecodingMinDraftLengthToConsider"));
    // Ollama: no block, a note that says it has no speculative setting.
    EXPECT_FALSE(exp.contains("ollama"));
    EXPECT_TRUE(notes_say(exp, "Ollama documents no speculative decoding")) << exp.dump();
  }
  // Plain decoding exports nothing.
  const json ar = ok("export", {{"target", "qwen3-8b"},
                                {"hardware", "rtx-4090"},
                                {"runtime", "llama.cpp-cuda"},
                                {"dtype", "q4_k_m"},
                                {"acceptance", {{"alpha", 0.7}}},
                                {"method", {{"family", "ar"}}}});
  EXPECT_TRUE(ar["order"].empty()) << ar.dump();  // notes only, no block
}

}  // namespace
