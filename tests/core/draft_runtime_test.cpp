// Where the draft runs (`method.draft_runtime`): another runtime than the engine only where that
// can happen. The local engines (llama.cpp, MLX) hold target and draft in one process, so they
// neither hand their drafts to another runtime nor run another engine's; a draft runtime runs
// on the setup's hardware (its vendors); a runtime without tensor parallelism runs the draft
// whole on one GPU. Before, an EAGLE-3 head under llama.cpp's Metal engine for a vLLM target on
// an H100 was priced.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace speccalc {
namespace {

using nlohmann::json;

json config(const std::string& target, const std::string& hardware, const std::string& runtime,
            json method, int gpus = 1) {
  return json{{"target", target},
              {"hardware", hardware},
              {"runtime", runtime},
              {"gpus", gpus},
              {"method", std::move(method)}};
}

Error refusal(const json& c) {
  const Response r = run("eval", c.dump());
  EXPECT_FALSE(r.ok) << "priced " << c.dump();
  return r.error;
}

json evaluated(const json& c) {
  const Response r = run("eval", c.dump());
  EXPECT_TRUE(r.ok) << r.error.describe();
  return r.ok ? json::parse(r.output) : json::object();
}

const json kLlamaCppSps = config("llama3.1-8b-instruct", "rtx-4090", "llama.cpp-cuda",
                                 {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"k", 4}});

TEST(DraftRuntime, ALocalEngineRunsItsOwnDrafts) {
  json c = kLlamaCppSps;
  c["dtype"] = "q4_k_m";
  c["method"]["draft_runtime"] = "vllm";
  const Error e = refusal(c);
  EXPECT_EQ(e.field, "method.draft_runtime");
  EXPECT_NE(e.message.find("one process"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("got 'vllm'"), std::string::npos) << e.message;
  c["method"]["draft_runtime"] = "llama.cpp-cuda";  // its own id: the default, said out loud
  EXPECT_TRUE(run("eval", c.dump()).ok);
}

TEST(DraftRuntime, NoEngineRunsALocalEnginesDraft) {
  const Error e = refusal(config("llama3.1-8b-instruct", "h100-sxm", "vllm",
                                 {{"family", "eagle3"}, {"draft_runtime", "llama.cpp-metal"}}));
  EXPECT_EQ(e.field, "method.draft_runtime");
  EXPECT_NE(e.message.find("does not run the drafts of vLLM"), std::string::npos) << e.message;
}

TEST(DraftRuntime, RunsOnTheSetupsHardware) {
  for (const char* runtime : {"vllm", "hf-graphs"}) {
    const Error e = refusal(config("llama3.1-8b-instruct", "apple-m4-max", "hf-eager",
                                   {{"family", "eagle3"}, {"draft_runtime", runtime}}));
    EXPECT_EQ(e.field, "method.draft_runtime") << runtime;
    EXPECT_NE(e.message.find("runs on NVIDIA or AMD hardware"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("is Apple"), std::string::npos) << e.message;
  }
}

TEST(DraftRuntime, ResearchCodeRunsTheDraftWholeOnOneGpu) {
  // vLLM would shard a Llama-3.2-1B draft over the target's 4 GPUs; under HF eager it runs whole.
  const json c =
      config("llama3.1-70b-instruct", "h100-sxm", "vllm",
             {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"draft_runtime", "hf-eager"}}, 4);
  const json r = evaluated(c);
  bool said = false;
  for (const auto& a : r["assumptions"])
    said = said || a.get<std::string>() == "draft passes run under 'hf-eager' on 1 GPU(s)";
  EXPECT_TRUE(said);
  json four = c;
  four["method"]["draft_tensor_parallel_size"] = 4;
  const Error e = refusal(four);
  EXPECT_EQ(e.field, "method.draft_tensor_parallel_size");
  EXPECT_NE(e.message.find("has no tensor parallelism"), std::string::npos) << e.message;
  EXPECT_EQ(e.message.rfind("must be 1 or left out", 0), 0u) << e.message;
}

TEST(DraftRuntime, ACarriedEngineThatCannotTakeItRunsTheDraftsItself) {
  // Sequoia's setup (an eager target, its draft in graphs), then the engine switched to
  // llama.cpp: the draft and k stay, the draft runtime goes, and a note says why.
  const json prev = config(
      "llama2-chat-7b", "a100-80gb-sxm", "hf-eager",
      {{"family", "sps"}, {"draft", "vicuna-68m"}, {"k", 4}, {"draft_runtime", "hf-graphs"}});
  json edited = prev;
  edited["runtime"] = "llama.cpp-cuda";
  const Response r =
      run("carry", json{{"config", edited}, {"changed", "runtime"}, {"previous", prev}}.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  const json& m = out["config"]["method"];
  EXPECT_FALSE(m.contains("draft_runtime"));
  EXPECT_EQ(m["draft"], "vicuna-68m");
  EXPECT_EQ(m["k"], 4);
  ASSERT_EQ(out["notes"].size(), 1u);
  EXPECT_EQ(out["notes"][0].get<std::string>().rfind("method.draft_runtime: the engine's own", 0),
            0u);
}

}  // namespace
}  // namespace speccalc
