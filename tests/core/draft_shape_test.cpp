// The form's "Draft shape" for a draft model (carry with changed = "method.shape"): each shape is
// sized from the one before, and the trees it lands on are checked against values derived
// here, not against the code's output: a chain of k at acceptance alpha has the closed form
// tau = (1 - alpha^(k+1)) / (1 - alpha); a tree that contains that chain cannot do worse.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json run_ok(const std::string& command, const json& input) {
  const speccalc::Response r = speccalc::run(command, input.dump());
  EXPECT_TRUE(r.ok) << command << ": " << r.error.describe() << "\ninput: " << input.dump();
  return r.ok ? json::parse(r.output) : json::object();
}

// Llama-2-7B with llama-68m under research code (a draft model's trees run there), alpha 0.7.
json chain_of_4() {
  return {{"target", "llama2-chat-7b"},
          {"hardware", "a100-80gb-pcie"},
          {"runtime", "hf-eager"},
          {"method", {{"family", "sps"}, {"draft", "llama-68m"}, {"k", 4}}},
          {"acceptance", {{"alpha", 0.7}}}};
}

json reshaped(const json& before, const std::string& shape) {
  json edited = before;
  edited["method"]["shape"] = shape;
  return run_ok("carry", {{"config", edited}, {"changed", "method.shape"}, {"previous", before}});
}

// (1 - 0.7^5) / (1 - 0.7) = (1 - 0.16807) / 0.3 = 2.7731
constexpr double kChainTau = 2.7731;

TEST(DraftShape, ChainToEachShapeKeepsItsNodesAndDepth) {
  const json chain = chain_of_4();
  EXPECT_NEAR(run_ok("eval", chain)["tau"].get<double>(), kChainTau, 1e-9);

  const json tree = reshaped(chain, "tree")["config"];
  EXPECT_EQ(tree["method"]["tree_size"], 4);
  EXPECT_EQ(tree["method"]["depth"], 4);
  EXPECT_FALSE(tree["method"].contains("k"));
  // The chain of 4 is one of the trees of 4 nodes, depth <= 4: the best one is no worse.
  EXPECT_GE(run_ok("eval", tree)["tau"].get<double>(), kChainTau - 1e-12);

  const json paths = reshaped(chain, "choices")["config"];
  EXPECT_EQ(paths["method"]["choices"], json::parse("[[0],[0,0],[0,0,0],[0,0,0,0]]"));
  // The same tree written as paths: the tree code's tau is the chain's closed form.
  EXPECT_NEAR(run_ok("eval", paths)["tau"].get<double>(), kChainTau, 1e-9);

  const json seqs = reshaped(chain, "sequences")["config"];
  EXPECT_EQ(seqs["method"]["sequences"], 2);
  EXPECT_EQ(seqs["method"]["k"], 4);
  EXPECT_GE(run_ok("eval", seqs)["tau"].get<double>(), kChainTau - 1e-12);
}

TEST(DraftShape, TreeBackToAChainTakesItsDepthAndSaysSo) {
  json tree = chain_of_4();
  tree["method"] = {{"family", "sps"}, {"draft", "llama-68m"}, {"tree_size", 8}, {"depth", 3}};
  const json out = reshaped(tree, "chain");
  EXPECT_EQ(out["config"]["method"], json::parse(R"({"draft":"llama-68m","family":"sps","k":3})"));
  ASSERT_EQ(out["notes"].size(), 1u);
  EXPECT_EQ(out["notes"][0], "method: k 3 (the depth before)");
  // As paths: the optimal tree's 8 nodes, none deeper than 3.
  const json paths = reshaped(tree, "choices")["config"]["method"]["choices"];
  ASSERT_EQ(paths.size(), 8u);
  for (const auto& p : paths) EXPECT_LE(p.size(), 3u);
}

TEST(DraftShape, AnEngineWithoutDraftModelTreesKeepsAChain) {
  json chain = chain_of_4();
  chain["runtime"] = "vllm";
  const json out = reshaped(chain, "tree");
  EXPECT_FALSE(out["config"]["method"].contains("tree_size")) << out.dump();
  EXPECT_TRUE(out["config"]["method"].contains("k")) << out.dump();
}

TEST(DraftShape, AnUnknownShapeIsRefusedNamingItsField) {
  json edited = chain_of_4();
  edited["method"]["shape"] = "ring";
  const speccalc::Response r = speccalc::run(
      "carry",
      json{{"config", edited}, {"changed", "method.shape"}, {"previous", chain_of_4()}}.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "method.shape");
  // The shape is never a config key: eval refuses it.
  const speccalc::Response e = speccalc::run("eval", edited.dump());
  ASSERT_FALSE(e.ok);
  EXPECT_EQ(e.error.field, "method.shape");
}

TEST(DraftShape, ListsSayWhichShapesAndWhichEnginesTakeTrees) {
  const speccalc::Response methods = speccalc::run("list", "methods");
  ASSERT_TRUE(methods.ok);
  json shapes;
  for (const auto& m : json::parse(methods.output))
    if (m["id"] == "sps") shapes = m["shapes"];
  ASSERT_EQ(shapes.size(), 4u);
  EXPECT_EQ(shapes[0]["id"], "chain");
  EXPECT_TRUE(shapes[0]["key"].is_null());
  EXPECT_EQ(shapes[1]["key"], "tree_size");
  const speccalc::Response runtimes = speccalc::run("list", "runtimes");
  ASSERT_TRUE(runtimes.ok);
  for (const auto& r : json::parse(runtimes.output)) {
    // runtimes.json: TensorRT-LLM's draft/target drafts one chain; vLLM and llama.cpp chains.
    if (r["id"] == "hf-eager" || r["id"] == "sglang") {
      EXPECT_TRUE(r["draft_model_trees"]) << r["id"];
    }
    if (r["id"] == "tensorrt-llm" || r["id"] == "vllm") {
      EXPECT_FALSE(r["draft_model_trees"]) << r["id"];
    }
  }
}

}  // namespace
