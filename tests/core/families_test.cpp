// The families added in issue 11: draft-model trees (explicit, optimal, SpecInfer sequences),
// self-speculation (layerskip), long-context self-speculation (streaming), retrieval drafters
// and offloading. Expected values are hand counts or the issue's stated physics.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json eval_ok(const std::string& config) {
  const speccalc::Response r = speccalc::run("eval", config);
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config;
  return r.ok ? json::parse(r.output) : json();
}

speccalc::Error eval_error(const std::string& config) {
  const speccalc::Response r = speccalc::run("eval", config);
  EXPECT_FALSE(r.ok) << "expected an error for " << config;
  return r.error;
}

const char* kA100_7b =
    R"("target":"llama2-chat-7b","hardware":"a100-80gb-sxm","runtime":"compiled")";

TEST(DraftModelTrees, ATreeOfNNodesAtDepthDCostsDPassesAndOneVerifyOfNPlusOne) {
  // [[0],[1],[0,0],[0,1],[1,0],[0,0,0]]: 6 nodes, depth 3 -> 3 level-batched draft passes
  // (over 1 root, then the 2 nodes at depth 1 that have children, then the 1 at depth 2) and one
  // verify of 6 + 1 = 7 tokens.
  const json r = eval_ok(
      std::string("{") + kA100_7b +
      R"(,"method":{"family":"sps","draft":"vicuna-68m","choices":[[0],[1],[0,0],[0,1],[1,0],[0,0,0]]}})");
  EXPECT_EQ(r["draft"]["passes_per_cycle"], 3);
  EXPECT_EQ(r["verify"]["tokens_per_pass"], 7);
}

TEST(DraftModelTrees, SpecInferSequencesMergeIntoOneTree) {
  // 3 independent chains of 4: 12 draft nodes (distinct first tokens under the rank model),
  // depth 4 -> 4 passes, verify 13 tokens. Tau with alpha = 0.5: chain j contributes
  // a_j (1 + a + a^2 + a^3) with a_0 = 0.5, a_1 = 0.25, a_2 = 0.125 (alpha (1-alpha)^j) and a =
  // 0.5: (0.5 + 0.25 + 0.125) x 1.875 = 1.640625, plus the bonus token: 2.640625.
  const json r = eval_ok(
      std::string("{") + kA100_7b +
      R"(,"method":{"family":"sps","draft":"vicuna-68m","sequences":3,"k":4},"acceptance":{"alpha":0.5}})");
  EXPECT_EQ(r["draft"]["passes_per_cycle"], 4);
  EXPECT_EQ(r["verify"]["tokens_per_pass"], 13);
  EXPECT_NEAR(r["tau"].get<double>(), 2.640625, 1e-12);
}

TEST(DraftModelTrees, OptimalTreeBeatsEveryOtherShapeOfTheSameSize) {
  // tree_size 12, depth <= 4 at alpha 0.5: the optimum's tau is at least the 3 x 4 sequences
  // tree's (same 12 nodes) and the 12-chain's restricted to depth 4 (a 4-chain: 1.9375).
  const json opt = eval_ok(
      std::string("{") + kA100_7b +
      R"(,"method":{"family":"sps","draft":"vicuna-68m","tree_size":12,"depth":4},"acceptance":{"alpha":0.5}})");
  EXPECT_GE(opt["tau"].get<double>(), 2.640625);
  EXPECT_EQ(opt["verify"]["tokens_per_pass"], 13);
  EXPECT_LE(opt["draft"]["passes_per_cycle"].get<int>(), 4);
  // The optimum needs an acceptance model, not a bare tau.
  EXPECT_EQ(
      eval_error(std::string("{") + kA100_7b +
                 R"(,"method":{"family":"sps","tree_size":12,"depth":4},"acceptance":{"tau":2}})")
          .field,
      "method.tree_size");
}

TEST(LayerSkip, TheDraftReadsTheFirstLayersAndTheLmHead) {
  // Llama-2-7B, exit after 8 of 32 layers: per draft pass 8 layers x 202,375,168 GEMM weights
  // + 8 x 8,192 norm weights + the 131,072,000-weight LM head, 2 bytes each:
  // 3,238,002,688 + 131,072 + 262,144,000 = 3,500,277,760 bytes; 4 passes per cycle.
  const json r = eval_ok(std::string("{") + kA100_7b +
                         R"(,"method":{"family":"layerskip","exit_layer":8,"k":4}})");
  EXPECT_EQ(r["draft"]["passes_per_cycle"], 4);
  EXPECT_DOUBLE_EQ(r["draft"]["weights_bytes"].get<double>(), 4 * 3500277760.0);
  // Verify runs the remaining 24 layers only: 24 x 202,375,168 x 2 + 24 x 16,384 + LM head.
  EXPECT_DOUBLE_EQ(r["verify"]["weights_bytes"].get<double>(),
                   24 * 404750336.0 + 24 * 16384.0 + 262144000.0);
  // No extra weights: nothing for the draft in memory.
  EXPECT_DOUBLE_EQ(r["memory"]["draft_weights_gb_per_gpu"].get<double>(), 0.0);
  EXPECT_EQ(eval_error(std::string("{") + kA100_7b +
                       R"(,"method":{"family":"layerskip","exit_layer":32}})")
                .field,
            "method.exit_layer");
}

TEST(Streaming, GainsReturnAtLongContextAndLargeBatch) {
  // MagicDec: with a bounded draft KV, drafting costs the same at any context while verify
  // and the baseline grow with the KV they read: at batch 32 the speedup rises with context.
  auto at = [](int context) {
    return eval_ok(
        R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","gpus":4,"runtime":"compiled","batch":32,"context":)" +
        std::to_string(context) +
        R"(,"method":{"family":"streaming","k":3,"kv_budget":512},"acceptance":{"alpha":0.8}})");
  };
  const json short_ctx = at(1024), long_ctx = at(32768);
  EXPECT_DOUBLE_EQ(short_ctx["draft"]["time_s"].get<double>(),
                   long_ctx["draft"]["time_s"].get<double>());
  EXPECT_GT(long_ctx["speedup"].get<double>(), short_ctx["speedup"].get<double>());
}

TEST(Retrieval, LookupReadsNoWeightsAndVerifiesKPlusOne) {
  const json r = eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":"rtx-3090","runtime":"hf-eager",
                             "method":{"family":"retrieval","source":"suffix","k":8},"acceptance":{"tau":1.9}})");
  EXPECT_DOUBLE_EQ(r["draft"]["weights_bytes"].get<double>(), 0.0);
  EXPECT_EQ(r["verify"]["tokens_per_pass"], 9);
  EXPECT_EQ(eval_error(R"({"method":{"family":"retrieval","source":"google"}})").field,
            "method.source");
}

TEST(Offload, HugeTreesVerifyForAboutTheCostOfOneStep) {
  // Llama-2-70B with its weights in host memory, streamed over PCIe 4.0 x16 (32 GB/s per
  // direction): ~138 GB per pass -> ~4.3 s whatever the tokens, while a 768-node verify adds
  // 768 x 2 x 69e9 FLOPs = 106 TFLOP -> ~0.6 s on an L40's 181 TFLOP/s. Verify / step <= 1.25.
  const json r = eval_ok(R"({"target":"llama2-chat-70b","hardware":"l40","runtime":"compiled",
                             "offload":{"target_weights":"host","host_link_gbps":32},
                             "method":{"family":"sps","draft":"llama2-chat-7b","tree_size":768,"depth":16},
                             "acceptance":{"alpha":0.8}})");
  EXPECT_EQ(r["verify"]["tokens_per_pass"], 769);
  EXPECT_LE(r["verify"]["time_s"].get<double>(), 1.25 * r["baseline"]["time_s"].get<double>());
  EXPECT_TRUE(r["memory"]["fits"].get<bool>());  // only two layers of the 70B are resident
  EXPECT_EQ(r["config"]["offload"]["target_weights"], "host");
}

TEST(Families, NewFamiliesRoundTripThroughShareLinks) {
  for (const char* method : {R"({"family":"sps","draft":"vicuna-68m","tree_size":20,"depth":5})",
                             R"({"family":"sps","draft":"vicuna-68m","sequences":2,"k":3})",
                             R"({"family":"sps","draft":"vicuna-68m","choices":[[0],[1],[0,0]]})",
                             R"({"family":"layerskip","exit_layer":6,"k":3})",
                             R"({"family":"streaming","k":2,"kv_budget":256})",
                             R"({"family":"retrieval","source":"token-recycling","k":30})"}) {
    const std::string config =
        std::string(R"({"target":"llama2-chat-7b","method":)") + method + "}";
    const speccalc::Response link = speccalc::run("link", config);
    ASSERT_TRUE(link.ok) << link.error.describe();
    const speccalc::Response a = speccalc::run("eval", config);
    const speccalc::Response b = speccalc::run("eval-link", link.output);
    ASSERT_TRUE(a.ok && b.ok) << method << " " << b.error.describe();
    EXPECT_EQ(a.output, b.output) << method;
  }
}

}  // namespace

namespace {

TEST(AcceptanceBand, WorkloadSpreadGivesASpeedupBandAtTheSameCycle) {
  // GSM8K, EAGLE chain k = 3 on vLLM: tau 2.3908 with per-request p5 2.113 and p95 2.782
  // (vllm-acceptance-llama3.1-8b-h100.json). The cycle's cost does not change with tau, so each
  // end of the band is speedup x tau_end / tau.
  const json r = eval_ok(R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","runtime":"vllm",
                             "method":{"family":"eagle2","top_k":1,"depth":3,"total_token":4},
                             "acceptance":{"workload":"gsm8k"}})");
  EXPECT_DOUBLE_EQ(r["tau"].get<double>(), 2.3908);
  EXPECT_DOUBLE_EQ(r["band"]["tau_p5"].get<double>(), 2.113);
  EXPECT_DOUBLE_EQ(r["band"]["tau_p95"].get<double>(), 2.782);
  EXPECT_NEAR(r["band"]["speedup_p5"].get<double>(), r["speedup"].get<double>() * 2.113 / 2.3908,
              1e-12);
  EXPECT_NEAR(r["band"]["speedup_p95"].get<double>(), r["speedup"].get<double>() * 2.782 / 2.3908,
              1e-12);
}

}  // namespace

namespace {

TEST(Mtp, DeepSeekV3ReadsTheMlaLatentNotFullKvHeads) {
  // DeepSeek-V3 (config.json: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64, 1 MTP module):
  // a token stores 512 + 64 = 576 latent elements per layer, fp8 KV (1 byte), not
  // 128 heads x (192 + 128). Verify of k + 1 = 3 tokens at context 1024, batch 1, reads and
  // writes 61 x 576 x (1024 + 3) = 36,084,672 bytes on each GPU (the latent is replicated).
  const json r = eval_ok(R"({"target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"runtime":"vllm",
                             "dtype":"fp8","method":{"family":"mtp","k":2},"acceptance":{"per_position":[0.9,0.7]}})");
  EXPECT_DOUBLE_EQ(r["verify"]["kv_cache_bytes"].get<double>(), 61.0 * 576 * 1027);
  EXPECT_EQ(r["draft"]["passes_per_cycle"], 2);  // one MTP module, reused for the second step
  // tau with conditional rates 0.9 then 0.7: 1 + 0.9 + 0.9 x 0.7 = 2.53.
  EXPECT_NEAR(r["tau"].get<double>(), 2.53, 1e-12);
  // A model without MTP modules cannot run it.
  EXPECT_EQ(eval_error(R"({"target":"llama2-chat-7b","method":{"family":"mtp"}})").field,
            "method.family");
}

}  // namespace

namespace {

TEST(Calibrate, OneMeasuredStepIsReproducedAndCarriesToEveryBatch) {
  // One decode step of 6.6 ms at batch 1 under SGLang: calibrate fits the per-step overhead so
  // the model's step equals it; evaluating the returned runtime at batch 1 gives 6.6 ms back.
  const speccalc::Response r = speccalc::run(
      "calibrate",
      R"({"config":{"target":"llama3.1-8b-instruct","hardware":"h100-sxm","runtime":"sglang"},
                       "decode_steps":[{"batch":1,"step_s":0.0066}]})");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  EXPECT_NEAR(out["fit"][0]["predicted_after_s"].get<double>(), 0.0066, 0.0066 * 1e-6);
  json config = out["config"];
  config["method"] = json{{"family", "ar"}};
  const json at1 = eval_ok(config.dump());
  EXPECT_NEAR(at1["baseline_step_s"].get<double>(), 0.0066, 0.0066 * 1e-6);
  // The same runtime at batch 32 is slower (more tokens, more KV), never recalibrated.
  config["batch"] = 32;
  EXPECT_GT(eval_ok(config.dump())["baseline_step_s"].get<double>(), 0.0066);
}

TEST(Calibrate, MeasuredStepNamesItsBatchAndHoldsAcrossASweep) {
  // runtime.measured_decode_step_s at measured_decode_batch 8: whatever the config's batch,
  // the modeled step at batch 8 equals the measurement.
  const std::string base =
      R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","method":{"family":"ar"},
      "runtime":{"profile":"vllm","measured_decode_step_s":0.009,"measured_decode_batch":8},"batch":)";
  EXPECT_NEAR(eval_ok(base + "8}")["baseline_step_s"].get<double>(), 0.009, 1e-9);
  EXPECT_GT(eval_ok(base + "64}")["baseline_step_s"].get<double>(), 0.009);
}

TEST(Calibrate, ASlowerStackIsUniformlySlowerSoADraftKeepsItsShare) {
  // One GPU, no offload: every term of a pass scales by the same s (memory and compute time by
  // the efficiencies / s, host overheads and the kernel floor x s), so each pass's time is s x
  // its uncalibrated time and the speedup is unchanged. A 1B draft for an 8B target on
  // llama.cpp (host overheads ~0) was priced at 14 x its pass when the whole gap went to them.
  const std::string base =
      R"({"target":"llama3.1-8b-instruct","hardware":"rtx-4090","dtype":{"weights":"q4_k_m"},
      "method":{"family":"sps","draft":"llama3.2-1b","k":4},"acceptance":{"alpha":0.7},"runtime":)";
  const json plain = eval_ok(base + R"("llama.cpp-cuda"})");
  const double step = plain["baseline_step_s"].get<double>();
  const double s = 0.036 / step;
  ASSERT_GT(s, 2.0);  // the walk's measurement: well above the profile's step
  const json cal =
      eval_ok(base + R"({"profile":"llama.cpp-cuda","measured_decode_step_s":0.036}})");
  EXPECT_NEAR(cal["baseline_step_s"].get<double>(), 0.036, 1e-9);
  EXPECT_NEAR(cal["draft"]["time_per_pass_s"].get<double>(),
              s * plain["draft"]["time_per_pass_s"].get<double>(),
              1e-6 * s * plain["draft"]["time_per_pass_s"].get<double>());
  EXPECT_NEAR(cal["speedup"].get<double>(), plain["speedup"].get<double>(),
              1e-6 * plain["speedup"].get<double>());
  // Milliseconds typed as seconds: refused with the unit, never fitted.
  const speccalc::Response r =
      speccalc::run("eval", base + R"({"profile":"llama.cpp-cuda","measured_decode_step_s":36}})");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "runtime.measured_decode_step_s");
  EXPECT_NE(r.error.message.find("it is in seconds"), std::string::npos) << r.error.message;
}

}  // namespace

// The family table (config/families.hpp) drives parsing and `list methods`: every family the
// issues name is listed once, and a config naming each one parses to that family (written out
// here, not read back from the table).
TEST(FamilyTable, ListsEveryFamilyOnceAndEachParses) {
  const std::vector<std::string> expected = {
      "ar",     "sps",    "pld", "lookahead", "medusa",    "hydra",    "eagle1",
      "eagle2", "eagle3", "mtp", "layerskip", "streaming", "retrieval"};
  const speccalc::Response r = speccalc::run("list", "methods");
  ASSERT_TRUE(r.ok);
  const nlohmann::json listed = nlohmann::json::parse(r.output);
  ASSERT_EQ(listed.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(listed[i]["id"], expected[i]);
    EXPECT_FALSE(listed[i]["summary"].get<std::string>().empty());
  }
  // Draft networks: the families whose draft_runtime applies (sps's draft model, Hydra's and
  // EAGLE's heads, MTP modules); Medusa's heads run inside the verify pass.
  for (const auto& item : listed) {
    const std::string id = item["id"];
    const bool draft = id == "sps" || id == "hydra" || id == "eagle1" || id == "eagle2" ||
                       id == "eagle3" || id == "mtp";
    EXPECT_EQ(item["draft_network"].get<bool>(), draft) << id;
  }
  // A family that runs no draft network refuses draft_runtime, naming the ones that do.
  const speccalc::Response pld =
      speccalc::run("eval", R"({"method": {"family": "pld", "draft_runtime": "vllm"}})");
  ASSERT_FALSE(pld.ok);
  EXPECT_EQ(pld.error.field, "method.draft_runtime");
  EXPECT_EQ(pld.error.message,
            "applies only to methods that run a draft network (sps, hydra, eagle1, eagle2, "
            "eagle3, mtp)");
}
