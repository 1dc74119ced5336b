// Engine exports name real Hugging Face repositories (core/data/models.json hf_repo and heads):
// the repository ids below are copied from SafeAILab/EAGLE README.md's model tables and the
// drafts' model cards.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "speccalc/api.hpp"

namespace speccalc {
namespace {

nlohmann::json export_of(const std::string& config) {
  const Response r = run("export", config);
  EXPECT_TRUE(r.ok) << r.error.describe();
  return r.ok ? nlohmann::json::parse(r.output) : nlohmann::json();
}

TEST(EngineExport, DraftModelIsItsRepository) {
  const auto out = export_of(R"({"target":"vicuna-7b-v1.3","method":{"family":"sps","draft":"vicuna-68m","k":4}})");
  EXPECT_EQ(out["vllm"]["--model"], "lmsys/vicuna-7b-v1.3");
  EXPECT_EQ(out["sglang"]["--model-path"], "lmsys/vicuna-7b-v1.3");
  EXPECT_EQ(out["hf_transformers"]["model"], "lmsys/vicuna-7b-v1.3");
  EXPECT_EQ(out["sglang"]["--speculative-draft-model-path"], "double7/vicuna-68m");
  EXPECT_EQ(out["hf_transformers"]["assistant_model"], "double7/vicuna-68m");
  const auto vllm = nlohmann::json::parse(out["vllm"]["--speculative-config"].get<std::string>());
  EXPECT_EQ(vllm["model"], "double7/vicuna-68m");
}

TEST(EngineExport, EagleHeadsArePublishedCheckpoints) {
  auto out = export_of(R"({"target":"llama3.1-8b-instruct","method":"eagle3","acceptance":{"alpha":0.7}})");
  EXPECT_EQ(out["sglang"]["--speculative-draft-model-path"], "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
  EXPECT_EQ(out["eagle"]["ea_model_path"], "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
  auto vllm = nlohmann::json::parse(out["vllm"]["--speculative-config"].get<std::string>());
  EXPECT_EQ(vllm["model"], "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
  out = export_of(R"({"target":"llama3.1-8b-instruct","method":"eagle2","acceptance":{"alpha":0.7}})");
  EXPECT_EQ(out["sglang"]["--speculative-draft-model-path"], "yuhuili/EAGLE-LLaMA3.1-Instruct-8B");
  out = export_of(R"({"target":"vicuna-7b-v1.3","method":"medusa","acceptance":{"alpha":0.7}})");
  EXPECT_EQ(out["medusa"]["heads_repo"], "FasterDecoding/medusa-vicuna-7b-v1.3");
}

TEST(EngineExport, MissingHeadIsAPlaceholderWithANote) {
  const auto out = export_of(R"({"target":"llama3.1-405b-instruct","gpus":8,"hardware":"h200-sxm","method":"eagle3","acceptance":{"alpha":0.7}})");
  EXPECT_EQ(out["sglang"]["--speculative-draft-model-path"], "DRAFT_REPO");
  EXPECT_NE(out["notes"].dump().find("no published eagle3 head for llama3.1-405b-instruct"), std::string::npos);
}

}  // namespace
}  // namespace speccalc

namespace speccalc {
namespace {

TEST(EngineExport, ListHeadsShowsTheTable) {
  const Response r = run("list", "heads");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const auto heads = nlohmann::json::parse(r.output);
  bool found = false;
  for (const auto& h : heads)
    found = found || (h["repo_id"] == "Tengyunw/qwen3_30b_moe_eagle3" && h["target"] == "qwen3-30b-a3b" &&
                      h["family"] == "eagle3" && h["official"] == false);
  EXPECT_TRUE(found) << r.output.substr(0, 300);
}

}  // namespace
}  // namespace speccalc
