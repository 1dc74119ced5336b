// Cost model v3 (issue 19): the host work a method's reference implementation does per cycle
// (counted from the code Spec-Bench runs), the GPU-side kernel floor, the syncs inside every
// layer of EAGLE's and Medusa's KV cache, and what the fit reports. Expected values are hand
// calculations from the counts written out here (core/src/model/host_ops.cpp names the files).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"
#include "fit/cross_validation.hpp"
#include "fit/fit.hpp"
#include "model/host_ops.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/cost.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::config_of;
using test::eval_ok;

HostOps ops_of(const std::string& method, double tau,
               const std::string& target = "vicuna-7b-v1.3") {
  const Config c =
      config_of(R"({"target":")" + target + R"(","hardware":"rtx-3090","method":)" + method + "}");
  return method_host_ops(c, tau,
                         c.method.choices.empty() ? TreeShape{} : tree_shape(c.method.choices));
}

TEST(HostOps, TreeShapeCountsNodesAndDistinctParentsPerDepth) {
  // [0] [1] | [0,0] [0,1] [1,0] | [0,0,0], listed out of depth order: depth 1 has 2 nodes under
  // 1 parent (the root), depth 2 has 3 nodes under 2 parents ([0], [1]), depth 3 has 1 under 1.
  const TreeShape t = tree_shape({{0, 0}, {0}, {1, 0}, {0, 0, 0}, {1}, {0, 1}});
  EXPECT_EQ(t.nodes, (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(t.parents, (std::vector<int64_t>{1, 2, 1}));
  EXPECT_EQ(t.total_nodes, 6);
}

TEST(HostOps, SpecBenchSettingsCountWhatTheirCodeDoes) {
  // EAGLE-2 at Spec-Bench's settings (eval.sh's --depth 5: its topK_genrate drafts one level
  // with the first forward, then 5 in its loop, so 6 drafted levels, method.depth 6;
  // total_token 60 = 59 nodes + root), more than one token accepted: 76 + 29 x 5 loop steps + 8
  // (causal mask of the catch-up forward) + 16 + 3 x 59 CPU-side tree ops = 422 ops; 15 syncs;
  // 5 syncs in every verify layer (kv_cache.py).
  const HostOps e2 = ops_of(R"({"family":"eagle2","depth":6,"top_k":10,"total_token":60})", 4.0);
  EXPECT_DOUBLE_EQ(e2.ops, 76 + 29 * 5 + 8 + 16 + 3 * 59);
  EXPECT_DOUBLE_EQ(e2.syncs, 15);
  EXPECT_DOUBLE_EQ(e2.verify_syncs_per_layer, 5);
  // EAGLE-3 on Vicuna (32000-token vocabulary, no d2t map): 28 per loop step.
  const HostOps e3 = ops_of(R"({"family":"eagle3","depth":6,"top_k":10,"total_token":60})", 4.0);
  EXPECT_DOUBLE_EQ(e3.ops, 76 + 28 * 5 + 8 + 16 + 3 * 59);
  // On a Llama-3 target the head's 32k draft vocabulary maps back to 128k: + 4 + 4 per step.
  const HostOps e3l = ops_of(R"({"family":"eagle3","depth":6,"top_k":10,"total_token":60})", 4.0,
                             "llama3.1-8b-instruct");
  EXPECT_DOUBLE_EQ(e3l.ops, 76 + 28 * 5 + 8 + 16 + 3 * 59 + 4 + 4 * 5);
  // One drafted level is the first forward alone: no loop step.
  const HostOps one = ops_of(R"({"family":"eagle2","depth":1,"top_k":10,"total_token":11})", 4.0);
  EXPECT_DOUBLE_EQ(one.ops, 76 + 8 + 16 + 3 * 10);
  // Medusa: tree buffers are built once, so 50 ops and 15 syncs whatever the tree.
  const HostOps medusa = ops_of(R"({"family":"medusa"})", 3.0);
  EXPECT_DOUBLE_EQ(medusa.ops, 50);
  EXPECT_DOUBLE_EQ(medusa.syncs, 15);
  // SpS with k = 5: 79 ops + 8 syncs around the draft's generate(), which runs HF's greedy
  // loop (22 ops, 2 syncs) per drafted token: 189 ops, 18 syncs; the stock model, no syncs
  // inside its layers.
  const HostOps sps = ops_of(R"({"family":"sps","draft":"vicuna-68m","k":5})", 3.0);
  EXPECT_DOUBLE_EQ(sps.ops, 79 + 22 * 5);
  EXPECT_DOUBLE_EQ(sps.syncs, 8 + 2 * 5);
  EXPECT_DOUBLE_EQ(sps.verify_syncs_per_layer, 0);
  // Lookahead on a 32-layer target accepting 2 tokens: 62 + 2 + 2 x 32 x (2 - 1) = 128.
  const HostOps la = ops_of(R"({"family":"lookahead"})", 2.0);
  EXPECT_DOUBLE_EQ(la.ops, 62 + 2 + 2 * 32 * 1);
  EXPECT_DOUBLE_EQ(la.syncs, 6);
  // PLD: the mean of its match (46 / 11) and no-match (60 / 14) paths.
  const HostOps pld = ops_of(R"({"family":"pld","k":10})", 2.0);
  EXPECT_DOUBLE_EQ(pld.ops, 53);
  EXPECT_DOUBLE_EQ(pld.syncs, 12.5);
  // No reference implementation counted: nothing charged.
  EXPECT_DOUBLE_EQ(ops_of(R"({"family":"streaming"})", 2.0).ops, 0);
}

TEST(HostOps, EagleTwoHostWorkGrowsWithItsTree) {
  // The tree mask is rebuilt on the CPU every cycle, 3 ops per node: 30 more verified tokens
  // cost 90 more ops; under hf-eager each costs method_op_s.
  const HostOps small = ops_of(R"({"family":"eagle2","depth":5,"top_k":10,"total_token":30})", 4);
  const HostOps large = ops_of(R"({"family":"eagle2","depth":5,"top_k":10,"total_token":60})", 4);
  EXPECT_DOUBLE_EQ(large.ops - small.ops, 90);
  auto cycle_overhead = [](int total_token, const std::string& gpu) {
    return eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":")" + gpu +
                   R"(","runtime":"hf-eager",
      "method":{"family":"eagle2","depth":5,"top_k":10,"total_token":)" +
                   std::to_string(total_token) + R"(},"acceptance":{"tau":4}})")["cycle_overhead_s"]
        .get<double>();
  };
  const auto& catalog = load_catalog();
  ASSERT_TRUE(catalog.ok());
  const double op_s = catalog.value().find_runtime("hf-eager")->params.method_op_s;
  ASSERT_GT(op_s, 0);
  // On an A100 80GB the head's draft passes take less GPU time than their launches: the GPU
  // waits on the host, and every host op adds.
  EXPECT_NEAR(cycle_overhead(60, "a100-80gb-sxm") - cycle_overhead(30, "a100-80gb-sxm"), 90 * op_s,
              1e-12);
  // On an RTX 3090 (936 GB/s) the same passes outlast their launches: the GPU is behind, and
  // host ops issued meanwhile do not add until they outlast that lead (cycle_time.cpp).
  EXPECT_LT(cycle_overhead(60, "rtx-3090") - cycle_overhead(30, "rtx-3090"), 90 * op_s);
  // The result says what it hid, and only where it hid something.
  auto says_hidden = [](const std::string& gpu) {
    const json e =
        eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":")" + gpu +
                R"(","runtime":"hf-eager","method":{"family":"eagle2"},"acceptance":{"tau":4}})");
    for (const json& a : e["assumptions"])
      if (a.get<std::string>().rfind("not in it: ", 0) == 0) return true;
    return false;
  };
  EXPECT_TRUE(says_hidden("rtx-3090"));
  EXPECT_FALSE(says_hidden("a100-80gb-sxm"));
}

TEST(HostOps, PromptLookupAddsUnderHalfAMillisecondInEagerCode) {
  // 53 ops and 12.5 syncs at hf-eager's fitted costs per op and per sync.
  const auto& catalog = load_catalog();
  ASSERT_TRUE(catalog.ok());
  const RuntimeParams& p = catalog.value().find_runtime("hf-eager")->params;
  EXPECT_LT(53 * p.method_op_s + 12.5 * p.host_sync_s, 0.5e-3);
}

TEST(KernelFloor, SmallKernelsAndGemmsTakeAtLeastTheirCountTimesTheFloor) {
  // Vicuna-7B under vLLM's kernel counts with a 1 ms floor (far above any kernel's roofline
  // time): per plain decode pass the GEMMs take 32 layers x 4 x 1 ms = 128 ms, the other
  // kernels (32 x 6 per layer + 6 per pass) x 1 ms = 198 ms; the LM head keeps its roofline.
  const json r = eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm",
    "runtime":{"profile":"vllm","kernel_floor_s":0.001,"kernels_per_layer":6,
               "gemm_kernels_per_layer":4,"kernels_per_pass":6},
    "method":{"family":"pld","k":4},"acceptance":{"tau":2}})");
  double gemm = 0, small = 0;
  for (const auto& k : r["baseline"]["kernels"]) {
    if (k["kind"] == "gemm") gemm = k["time_s"].get<double>();
    if (k["kind"] == "attention" || k["kind"] == "other") small += k["time_s"].get<double>();
  }
  EXPECT_NEAR(gemm, 32 * 4 * 1e-3, 1e-12);
  EXPECT_NEAR(small, (32 * 6 + 6) * 1e-3, 1e-12);
  // Without the floor the same pass is the roofline alone: far below.
  const json none = eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm",
    "runtime":{"profile":"vllm","kernel_floor_s":0},"method":{"family":"pld","k":4},
    "acceptance":{"tau":2}})");
  EXPECT_LT(none["baseline"]["time_s"].get<double>(), 0.02);
}

TEST(KernelFloor, MlaAndMoeLayersPayTheirExtraKernelsOnGraphEngines) {
  // The counts, written out from SGLang's deepseek_v2.py (cost.hpp): MLA's absorbed decode
  // runs fused_qkv_a_proj_with_mqa + q_b_proj (GQA: one qkv_proj) and two bmm_fp8, 3 GEMMs
  // more, and q_a_layernorm, kv_a_layernorm, two per_tensor_quant_mla_fp8 and one copy, 5
  // other kernels more; the MoE adds its router GEMM, the grouped top-k, moe_align_block_size
  // and the top-k sum.
  EXPECT_DOUBLE_EQ(kMlaExtraKernels, 3 + 5);
  EXPECT_DOUBLE_EQ(kMoeExtraKernels, 1 + 3);
  // DeepSeek-V3 (61 MLA layers, the first 3 dense, 58 MoE) on 8 x H200 under SGLang: a plain
  // decode pass launches 61 x 8 + 58 x 4 = 720 kernels more than 61 dense GQA layers, each
  // 2.5 us (runtimes.json _meta.arch_kernels): 1.8 ms more than with arch_kernel_s 0.
  const std::string setup =
      R"("target":"deepseek-v3","hardware":"h200-sxm","gpus":8,"batch":8,"context":1536,)"
      R"("method":{"family":"mtp","k":1})";
  const json with = eval_ok("{" + setup + R"(,"runtime":"sglang"})");
  const json without =
      eval_ok("{" + setup + R"(,"runtime":{"profile":"sglang","arch_kernel_s":0}})");
  EXPECT_DOUBLE_EQ(with["runtime"]["arch_kernel_s"].get<double>(), 2.5e-6);
  EXPECT_NEAR(
      with["baseline"]["time_s"].get<double>() - without["baseline"]["time_s"].get<double>(),
      720 * 2.5e-6, 1e-12);
  // The MTP module is one MLA + MoE layer: 12 kernels more per draft pass.
  EXPECT_NEAR(with["draft"]["time_s"].get<double>() - without["draft"]["time_s"].get<double>(),
              12 * 2.5e-6, 1e-12);
  // A dense GQA model launches none more: Llama-3.1-8B's step is the same either way.
  const std::string dense = R"("target":"llama3.1-8b-instruct","hardware":"h100-sxm",)";
  EXPECT_DOUBLE_EQ(
      eval_ok("{" + dense + R"("runtime":"sglang"})")["baseline_step_s"].get<double>(),
      eval_ok("{" + dense +
              R"("runtime":{"profile":"sglang","arch_kernel_s":0}})")["baseline_step_s"]
          .get<double>());
  // Research code's profile does not charge them (its host launches hide the GPU's gaps).
  EXPECT_EQ(
      eval_ok(
          R"({"target":"mixtral-8x7b","hardware":"a100-80gb-sxm","gpus":2,"runtime":"hf-eager"})")
          ["runtime"]
              .count("arch_kernel_s"),
      0u);
}

TEST(KernelFloor, LowPrecisionLinearsPayTheirActivationQuantizationOnVllmAndSglang) {
  // Linears whose input vLLM and SGLang quantize in a kernel of its own (cost.hpp, counted in
  // SGLang's fp8_utils.py): GQA attention 2, MLA 3, a Gated DeltaNet layer 2, a dense MLP or a
  // shared expert run as its own MLP 2; a fused-MoE call quantizes inside its measured time.
  const auto quant_linears = [](const std::string& target) {
    const Config c = config_of(R"({"target":")" + target + R"("})");
    const ModelArch& t = c.target;
    return decoder_work(t, t.num_layers, 1, 1, 0, 0, DTypes{}).quant_linears;
  };
  // Llama-3.1-8B: 32 x (2 + 2) = 128.
  EXPECT_DOUBLE_EQ(quant_linears("llama3.1-8b-instruct"), 128);
  // DeepSeek-V3: 61 MLA layers x 3 + the 3 dense MLPs x 2 = 189 (its shared expert is fused
  // into SGLang's routed call).
  EXPECT_DOUBLE_EQ(quant_linears("deepseek-v3"), 189);
  // Qwen3-Next-80B-A3B: 12 softmax layers x 2 + 36 Gated DeltaNet layers x 2 + 48 shared
  // experts x 2 = 192.
  EXPECT_DOUBLE_EQ(quant_linears("qwen3-next-80b-a3b"), 192);
  // Qwen3-30B-A3B: 48 x 2 in attention, no dense MLP, no shared expert.
  EXPECT_DOUBLE_EQ(quant_linears("qwen3-30b-a3b"), 96);

  // Priced only where the GEMMs run in the weights' format: Llama-3.1-8B in fp8 on an H100 under
  // vLLM, batch 1, pays 128 x 2.5 us = 0.32 ms more than with act_quant_kernel_s 0; in bf16,
  // or in fp8 on an A100 (no fp8 tensor cores: the kernels dequantize the weights), nothing.
  const auto step_gap = [](const std::string& hardware, const std::string& weights) {
    const std::string setup = R"({"target":"llama3.1-8b-instruct","hardware":")" + hardware +
                              R"(","dtype":{"weights":")" + weights + R"("},"runtime":)";
    return eval_ok(setup + R"("vllm"})")["baseline_step_s"].get<double>() -
           eval_ok(setup + R"({"profile":"vllm","act_quant_kernel_s":0}})")["baseline_step_s"]
               .get<double>();
  };
  EXPECT_NEAR(step_gap("h100-sxm", "fp8"), 128 * 2.5e-6, 1e-12);
  EXPECT_NEAR(step_gap("h100-sxm", "bf16"), 0.0, 1e-15);
  EXPECT_NEAR(step_gap("a100-80gb-sxm", "fp8"), 0.0, 1e-15);
  // TensorRT-LLM fuses the quantization into the kernel before: no such parameter.
  EXPECT_EQ(eval_ok(R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm",)"
                    R"("dtype":{"weights":"fp8"},"runtime":"tensorrt-llm"})")["runtime"]
                .count("act_quant_kernel_s"),
            0u);
}

TEST(Collectives, AnAllReduceAcrossNodesTakesAtLeastTheMeasuredNetworkLatency) {
  // nccl-tests issue #150: the least all-reduce across two nodes took 18.96 us (cost.hpp). An
  // engine's own latency (SGLang's custom all-reduce, 5 us on NVLink) prices collectives within
  // a node; a group across nodes pays the larger of the two. DeepSeek-R1's plain decode step
  // under SGLang at batch 1, all-reduce latency overridden: on one node of 8 H200s every 10 us
  // added is paid by each of the pass's n collectives (n read off that difference); on two nodes
  // of 8 H100s (16 GPUs, TP 16) 0 and 10 us price alike (both under the network's 18.96), and
  // 30 us adds n x (30 - 18.96) us.
  const auto step = [](const std::string& hw, int gpus, double latency_s) {
    return eval_ok(R"({"target":"deepseek-r1","hardware":")" + hw + R"(","gpus":)" +
                   std::to_string(gpus) +
                   R"(,"runtime":{"profile":"sglang","allreduce_latency_s":)" +
                   std::to_string(latency_s) +
                   R"(},"method":{"family":"mtp","k":1}})")["baseline_step_s"]
        .get<double>();
  };
  const double n = (step("h200-sxm", 8, 10e-6) - step("h200-sxm", 8, 0)) / 10e-6;
  EXPECT_NEAR(n, std::round(n), 1e-6);
  EXPECT_EQ(std::lround(n), 2 * 61);  // after attention and after the MLP of the 61 layers
  EXPECT_NEAR(step("h100-sxm", 16, 10e-6), step("h100-sxm", 16, 0), 1e-12);
  EXPECT_NEAR(step("h100-sxm", 16, 30e-6) - step("h100-sxm", 16, 0), n * (30e-6 - 18.96e-6), 1e-9);
}

TEST(KernelFloor, DeepSeekDecodeStepsOnSglangStayUnderTheirPublishedTimes) {
  // SemiAnalysis InferenceX issue #870 (SGLang v0.5.7, DeepSeek-R1-0528 fp8, TP 8, H200, ISL /
  // OSL 1024): mean TPOT 12.8 ms at concurrency 8 and 17.2 ms at 16 (engine-measurements.json,
  // check rows, never fitted). The TPOT also holds the amortized prefills of the requests that
  // replace finished ones, and the model leaves out what it does not count (MLA's decode
  // kernels' own floor), so the step must come out under it. How far: without the MLA / MoE
  // kernels 21 % and 16 % too fast; with them and a stated 30 us all-reduce within 10 %; with
  // the 5 us SGLang measures for its custom all-reduce (runtimes.json _meta.allreduce) 29 % and
  // 26 %, 25 % and 23 % with the fp8 activation quantization counted: what the 30 us stood in
  // for is a cost the model still lacks, and a change that widens the gap past a third fails
  // here.
  const json j = json::parse(run("validate", "{}").output);
  int seen = 0;
  for (const auto& r : j["engines"]["time_checks"]) {
    const std::string id = r["id"].get<std::string>();
    if (id != "decode-sglang-deepseek-r1-h200-c8" && id != "decode-sglang-deepseek-r1-h200-c16")
      continue;
    ++seen;
    EXPECT_LT(r["predicted_s"].get<double>(), r["measured_s"].get<double>()) << id;
    EXPECT_GT(r["predicted_s"].get<double>(), 0.67 * r["measured_s"].get<double>()) << id;
  }
  EXPECT_EQ(seen, 2);
}

TEST(LayerSyncs, EagleBaselineAndVerifyPayEverySyncOnTheHost) {
  // hf-eager decodes Vicuna-7B launch-bound (53 kernels per layer at its launch cost); five
  // syncs in every layer at 0.1 ms each add 32 x 5 x 0.1 ms = 16 ms to the host's time.
  auto step = [](int syncs) {
    return eval_ok(
               R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm",
      "runtime":{"profile":"hf-eager","host_sync_s":0.0001,"baseline_layer_syncs":)" +
               std::to_string(syncs) +
               R"(},"method":{"family":"pld","k":4},"acceptance":{"tau":2}})")["baseline_step_s"]
        .get<double>();
  };
  EXPECT_NEAR(step(5) - step(0), 32 * 5 * 1e-4, 1e-9);
  // EAGLE's verify pass runs through the same KV cache: its host time holds the same 16 ms
  // more than a verify of the stock model would (the launch-bound pass's overhead).
  const json e = eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm",
    "runtime":{"profile":"hf-eager","host_sync_s":0.0001},"method":{"family":"eagle2"},
    "acceptance":{"tau":4}})");
  const json e0 = eval_ok(R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm",
    "runtime":{"profile":"hf-eager","host_sync_s":0},"method":{"family":"eagle2"},
    "acceptance":{"tau":4}})");
  EXPECT_NEAR(e["verify"]["overhead_s"].get<double>() - e0["verify"]["overhead_s"].get<double>(),
              32 * 5 * 1e-4, 1e-9);
}

TEST(LayerSyncs, OnlyTheEaglePapersEagleRowsUseEaglesBaseline) {
  // SafeAILab/EAGLE eagle/evaluation/gen_baseline_answer_*.py: the EAGLE rows of the EAGLE
  // papers; the other methods in those papers (PLD there runs at 0.96 of tau) and every other
  // source measure against HF generate.
  EXPECT_DOUBLE_EQ(published_baseline_layer_syncs("eagle2", "eagle2"), 5);
  EXPECT_DOUBLE_EQ(published_baseline_layer_syncs("eagle3", "eagle1"), 5);
  EXPECT_DOUBLE_EQ(published_baseline_layer_syncs("eagle2", "pld"), 0);
  EXPECT_DOUBLE_EQ(published_baseline_layer_syncs("specbench", "eagle2"), 0);
}

// The fit's reduced form (predict_fast: per-kernel-class times precomputed once per row) must be
// the full cost model (predict_full: evaluate) for every row it fits, or the fit would tune
// parameters of a model eval does not run. Checked with each row's own profile parameters.
TEST(Fit, TheFitsReducedFormIsTheFullModelOnEveryRow) {
  const Catalog& cat = load_catalog().value();
  auto loaded = load_observations(cat, data::published());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  int compared = 0;
  for (const Observation& o : loaded.value()) {
    // A serving TPOT is the load model's, which only checks (never fitted; load_observations
    // refuses one that is not check_only).
    if (o.kind == "serving_tpot") continue;
    const RuntimeParams& p = o.config.runtime.resolved;
    const auto full = predict_full(o, p);
    ASSERT_TRUE(full.ok()) << o.source << ": " << full.error().message;
    EXPECT_NEAR(predict_fast(o, p), full.value(), 1e-9 * std::fabs(full.value()))
        << o.source << " (" << o.kind << ", " << o.profile << ")";
    ++compared;
  }
  EXPECT_GT(compared, 400);
}

TEST(Fit, ParametersAtABoundAreNamed) {
  EXPECT_TRUE(param_at_bound("overlap", 1.0));
  EXPECT_TRUE(param_at_bound("overlap", 0.997));
  EXPECT_FALSE(param_at_bound("overlap", 0.9));
  EXPECT_TRUE(param_at_bound("cycle_overhead_s", 0.0));
  EXPECT_FALSE(param_at_bound("cycle_overhead_s", 1e-4));
  EXPECT_TRUE(param_at_bound("host_sync_s", 1e-12));  // "_s" inside the name is not the unit
  EXPECT_FALSE(param_at_bound("host_sync_s", 1e-5));
  // A PyTorch op costs the host at least one kernel launch (2.5 us): the bound is there.
  EXPECT_TRUE(param_at_bound("method_op_s", 2.5e-6));
  EXPECT_FALSE(param_at_bound("method_op_s", 8e-6));
}

// The table is the fit: every parameter a profile fits equals what a fresh `speccalc fit` gives
// (scripts/fit_runtimes.py writes 6 significant digits; 1e-4 leaves room for another compiler's
// last bits). A table left behind when the model or its observations change would otherwise go
// unnoticed (llama.cpp-metal's and -cuda's had: 9.8 and 4.98 % in-sample where a refit gives 7.6
// and 4.87 %).
TEST(Fit, TheStoredProfilesAreAFreshFit) {
  const json fit = json::parse(run("fit", "{}").output);
  const json table = json::parse(std::string(data::runtimes()));
  for (const auto& p : fit["profiles"]) {
    const json* stored = nullptr;
    for (const auto& t : table["profiles"])
      if (t["id"] == p["id"]) stored = &t;
    ASSERT_NE(stored, nullptr) << p["id"];
    for (const auto& name : p["fitted"]) {
      const std::string n = name.get<std::string>();
      const double fresh = p["params"][n].get<double>();
      const double kept = (*stored)["params"][n].get<double>();
      // Seconds at a bound of 0 may differ below a nanosecond.
      EXPECT_NEAR(kept, fresh, std::max(1e-9, 1e-4 * std::fabs(fresh))) << p["id"] << " " << n;
    }
  }
}

TEST(Fit, ReportsItsBoundsAndTheRowsOnAStatedGpu) {
  const json fit = json::parse(run("fit", "{}").output);
  for (const auto& p : fit["profiles"]) {
    ASSERT_TRUE(p.contains("at_bound"));
    for (const auto& name : p["at_bound"])
      EXPECT_TRUE(param_at_bound(name.get<std::string>(), p["params"][name.get<std::string>()]));
    if (p["id"] == "hf-eager") {
      // Spec-Bench's 10 predicted rows (an RTX 3090 it names), EAGLE-1's one row on the A100
      // its maintainer named, the 6 measured decode steps and EAGLE's 70B cycle on the same
      // named 4 x A100: 18 of 393 (Medusa's three cycle times name no A100 variant). 393 = 480
      // observations less the 87 published rows that reprint an earlier table's (validate.cpp).
      EXPECT_EQ(p["stated_hardware_observations"], 18);
      EXPECT_EQ(p["observations"], 393);
    }
  }
}

// Research code's cycle times, not only its speedups: Medusa's own MT-bench runs (wall time over
// loop iterations of its answer files) and EAGLE's 70B run. Each stored time is the division
// written out here, and the fitted hf-eager profile prices each within 16 % (in-sample; what the
// model still misses is the GPU-bound verify of the 33B: docs/cost-model.md, "Fit").
TEST(Fit, ResearchCodesCycleTimesAreTheirRunFilesAndArePriced) {
  const struct {
    const char* id;
    double seconds;
  } runs[] = {{"medusa-run-7b", 431.9 / 16898},    // Medusa vicuna-7b: 431.9 s, 16,898 steps
              {"medusa-run-13b", 598.5 / 16583},   // vicuna-13b: 598.5 s, 16,583 steps
              {"medusa-run-33b", 1485.1 / 21487},  // vicuna-33b: 1,485.1 s, 21,487 steps
              {"eagle-70b-cycle", 3.66 / 21.79}};  // EAGLE 70B: 3.66 tokens a cycle at 21.79 tok/s
  const json table = json::parse(std::string(data::engine_measurements()));
  int found = 0;
  for (const auto& run_row : runs)
    for (const auto& o : table["observations"]) {
      if (o["id"] != run_row.id) continue;
      ++found;
      EXPECT_EQ(o["profile"], "hf-eager");
      EXPECT_EQ(o["kind"], "spec_cycle");
      EXPECT_NEAR(o["measured"].get<double>(), run_row.seconds, 1e-4) << run_row.id;
      const json e = json::parse(run("eval", o["config"].dump()).output);
      const double predicted = e["cycle_time_s"].get<double>();
      EXPECT_NEAR(predicted / run_row.seconds, 1.0, 0.16) << run_row.id << ": " << predicted;
    }
  EXPECT_EQ(found, 4);
}

TEST(Validate, EachSourceShowsItsHeldOutAndInSampleErrorAndIsFlaggedOverTheLimit) {
  const json v = json::parse(run("validate", "{}").output);
  const json& cv = v["cross_validation"];
  EXPECT_DOUBLE_EQ(cv["source_limit_pct"].get<double>(), 15.0);
  std::vector<std::string> over;
  for (const auto& s : cv["by_source"]) {
    ASSERT_TRUE(s.contains("in_sample"));
    EXPECT_EQ(s["in_sample"]["rows"], s["rows"]);
    const bool flagged = s["mape_pct"].get<double>() > 15.0;
    EXPECT_EQ(s["held_out_over_limit"].get<bool>(), flagged) << s["source"];
    if (flagged) over.push_back(s["source"].get<std::string>());
  }
  EXPECT_EQ(cv["sources_over_limit"].get<std::vector<std::string>>(), over);
  // Issue 19's targets that hold since the EAGLE papers' 7-13B rows sit on the A100s their
  // Table 1 caption names (docs/cost-model.md, "Which GPU the EAGLE papers ran on"; on RTX
  // 3090s Spec-Bench was 28.5 % held out and Hydra 18.7 %): no source held out above 15 %, and
  // Spec-Bench's visible rows within 10 % in sample.
  EXPECT_TRUE(over.empty());
  bool specbench = false;
  for (const auto& s : cv["by_source"])
    if (s["source"] == "specbench") {
      specbench = true;
      EXPECT_LE(s["in_sample"]["mape_pct"].get<double>(), 10.0);
    }
  EXPECT_TRUE(specbench);
}

}  // namespace
}  // namespace speccalc

namespace speccalc {
namespace {

// An engine's method-path costs (issue 19, item 3): EAGLE-3's per-step cost and a GPU
// drafter's per-cycle input preparation, each charged where it belongs and nowhere else.
std::string vllm_with(const std::string& method, double proposer_s, double eagle3_s) {
  return R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","batch":1,"context":512,)"
         R"("runtime":{"profile":"vllm","proposer_cycle_s":)" +
         std::to_string(proposer_s) + R"(,"eagle3_step_overhead_s":)" + std::to_string(eagle3_s) +
         R"(},"method":)" + method + R"(,"acceptance":{"tau":2.5}})";
}

double cycle_s(const std::string& config) { return eval_ok(config)["cycle_time_s"]; }

TEST(EnginePaths, EagleThreeStepCostIsPaidOncePerDraftForward) {
  // A depth-5 chain runs 5 draft forwards: 5 x 1 ms more per cycle; EAGLE-1 pays none of it.
  const std::string e3 = R"({"family":"eagle3","depth":5,"top_k":1,"total_token":6})";
  EXPECT_NEAR(cycle_s(vllm_with(e3, 0, 1e-3)) - cycle_s(vllm_with(e3, 0, 0)), 5e-3, 1e-12);
  const std::string e1 = R"({"family":"eagle1","choices":[[0],[0,0],[0,0,0]]})";
  EXPECT_NEAR(cycle_s(vllm_with(e1, 0, 1e-3)), cycle_s(vllm_with(e1, 0, 0)), 1e-15);
}

TEST(EnginePaths, ProposerCostIsPerCycleForGpuDraftersOnly) {
  // Once per cycle for a drafter on the GPU (EAGLE, draft model, MTP)...
  for (const char* m : {R"({"family":"eagle1","choices":[[0],[0,0],[0,0,0]]})",
                        R"({"family":"sps","draft":"llama3.2-1b","k":4})"})
    EXPECT_NEAR(cycle_s(vllm_with(m, 2e-3, 0)) - cycle_s(vllm_with(m, 0, 0)), 2e-3, 1e-12) << m;
  // ...never for n-gram drafting on the host, nor for plain decoding's step.
  const std::string pld = R"({"family":"pld","k":3})";
  EXPECT_NEAR(cycle_s(vllm_with(pld, 2e-3, 0)), cycle_s(vllm_with(pld, 0, 0)), 1e-15);
  EXPECT_NEAR(eval_ok(vllm_with(pld, 2e-3, 0))["baseline_step_s"].get<double>(),
              eval_ok(vllm_with(pld, 0, 0))["baseline_step_s"].get<double>(), 1e-15);
}

TEST(EnginePaths, DraftModelStepIsPaidOncePerDraftModelForwardOnly) {
  // vLLM's draft-model path: a chain of k = 4 runs 4 draft forwards, 4 x 1 ms more per cycle;
  // EAGLE and n-gram drafting pay none of it, nor does plain decoding's step.
  auto with = [](const std::string& method, double step_s) {
    return R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","batch":1,"context":512,)"
           R"("runtime":{"profile":"vllm","draft_model_step_s":)" +
           std::to_string(step_s) + R"(},"method":)" + method + R"(,"acceptance":{"tau":2.5}})";
  };
  const std::string sps = R"({"family":"sps","draft":"llama3.2-1b","k":4})";
  EXPECT_NEAR(cycle_s(with(sps, 1e-3)) - cycle_s(with(sps, 0)), 4e-3, 1e-12);
  for (const char* m :
       {R"({"family":"eagle1","choices":[[0],[0,0],[0,0,0]]})", R"({"family":"pld","k":3})"})
    EXPECT_NEAR(cycle_s(with(m, 1e-3)), cycle_s(with(m, 0)), 1e-15) << m;
  EXPECT_NEAR(eval_ok(with(sps, 1e-3))["baseline_step_s"].get<double>(),
              eval_ok(with(sps, 0))["baseline_step_s"].get<double>(), 1e-15);
}

TEST(EnginePaths, SglangPaysItsSchedulerInSeriesInEverySpeculativeCycleOnly) {
  // SGLang runs plain decoding under its overlap scheduler (the host schedules step n + 1 while
  // the GPU runs step n) and turns it off for EAGLE, EAGLE3, STANDALONE and NGRAM
  // (python/sglang/srt/server_args.py): each speculative cycle pays the scheduling in series.
  // Stated value: the mean of two published plain steps with it off minus on, 16 / 3053.86 -
  // 16 / 3458.31 = 0.612 ms (PR #5608) and 1 / 364.3 - 1 / 498.5 = 0.739 ms (PR #38131).
  EXPECT_NEAR((16.0 / 3053.86 - 16.0 / 3458.31 + 1.0 / 364.3 - 1.0 / 498.5) / 2, 0.676e-3, 1e-6);
  auto with = [](const std::string& runtime, const std::string& method) {
    return R"({"target":"qwen3-8b","hardware":"h100-sxm","batch":1,"context":512,"runtime":)" +
           runtime + R"(,"method":)" + method + R"(,"acceptance":{"tau":2.25}})";
  };
  const std::string off = R"({"profile":"sglang","unoverlapped_sched_s":0})";
  for (const char* m :
       {R"({"family":"eagle2","depth":3,"top_k":1,"total_token":4})",
        R"({"family":"sps","draft":"qwen3-0.6b","k":3})", R"({"family":"pld","k":3})"}) {
    const json on = eval_ok(with(R"("sglang")", m));
    EXPECT_NEAR(on["runtime"]["unoverlapped_sched_s"].get<double>(), 0.676e-3, 1e-12) << m;
    EXPECT_NEAR(on["cycle_time_s"].get<double>() - cycle_s(with(off, m)), 0.676e-3, 1e-12) << m;
    // Plain decoding keeps it under the GPU: the baseline step is the same either way.
    EXPECT_NEAR(on["baseline_step_s"].get<double>(),
                eval_ok(with(off, m))["baseline_step_s"].get<double>(), 1e-15)
        << m;
  }
  // vLLM V1 schedules plain and speculative steps alike: nothing to add.
  EXPECT_EQ(eval_ok(with(R"("vllm")", R"({"family":"pld","k":3})"))["runtime"].value(
                "unoverlapped_sched_s", 0.0),
            0.0);
}

TEST(Fit, DraftModelStepIsFittedAloneOnSpecDecodeBenchsDraftForwardShare) {
  // SpecDecode-Bench (shared/data production-engines.json): "the draft forward pass takes about
  // 12.5% of the target forward pass on Llama-3-70B and about 37.5% on 8B targets"; its time
  // breakdown for Qwen3-8B + Qwen3-0.6B at batch 1 (drafting ~47 %, verification ~42 %, k = 3)
  // says the same per forward: 47 / 42 / 3 = 0.373.
  EXPECT_NEAR(0.47 / 0.42 / 3, 0.375, 0.005);
  const json table = json::parse(std::string(data::engine_measurements()));
  int rows = 0;
  for (const auto& o : table["observations"]) {
    if (o["kind"] != "draft_pass_ratio") continue;
    ++rows;
    const double want = o["config"]["target"] == "llama3-instruct-70b" ? 0.125 : 0.375;
    EXPECT_DOUBLE_EQ(o["measured"].get<double>(), want) << o["id"];
    // Priced through the whole model: one draft forward with its host step over the verify.
    const json e = eval_ok(o["config"].dump());
    const double k = e["config"]["method"]["k"].get<double>();
    const double ratio =
        e["draft"]["time_s"].get<double>() / k / e["verify"]["time_s"].get<double>();
    EXPECT_NEAR(ratio / want, 1.0, 0.25) << o["id"] << ": " << ratio;
  }
  EXPECT_EQ(rows, 3);
  // Fitted alone after the rest: leaving these rows out moves no other vLLM parameter.
  const auto& catalog = load_catalog();
  ASSERT_TRUE(catalog.ok());
  auto obs = load_observations(catalog.value(), data::published());
  ASSERT_TRUE(obs.ok());
  const FitSpec* spec = nullptr;
  for (const auto& s : fit_specs())
    if (s.profile == "vllm") spec = &s;
  ASSERT_NE(spec, nullptr);
  const RuntimeProfile* vllm = catalog.value().find_runtime("vllm");
  RuntimeParams start = fit_start(*spec, vllm->params);
  keep_structural_constants(vllm->params, &start);
  const FitResult all = fit_profile(*spec, obs.value(), start);
  const FitResult without = fit_profile(*spec, obs.value(), start, "specdecode-bench-draft-model");
  for (const auto& name : spec->params)
    EXPECT_DOUBLE_EQ(runtime_param_value(all.params, name),
                     runtime_param_value(without.params, name))
        << name;
  EXPECT_GT(all.params.draft_model_step_s, 5e-4);
  EXPECT_DOUBLE_EQ(without.params.draft_model_step_s, start.draft_model_step_s);
}

// Cycle time of a vLLM EAGLE chain of k drafts at issue #20780's setting (stored profile).
double vllm_eagle_cycle_s(const char* family, int k) {
  const std::string fam = family;
  const std::string method =
      fam == "eagle1"
          ? [&] {
              std::string c = R"({"family":"eagle1","choices":[)";
              for (int d = 1; d <= k; ++d) {
                c += d > 1 ? ",[" : "[";
                for (int i = 0; i < d; ++i) c += i ? ",0" : "0";
                c += "]";
              }
              return c + "]}";
            }()
          : R"({"family":"eagle3","depth":)" + std::to_string(k) +
                R"(,"top_k":1,"total_token":)" + std::to_string(k + 1) + "}";
  return cycle_s(R"({"target":"llama3.1-8b-instruct","hardware":"h100-sxm","batch":1,)"
                 R"("context":512,"runtime":"vllm","method":)" +
                 method + R"(,"acceptance":{"tau":2.5}})");
}

TEST(EnginePaths, VllmEagleThreeStepCostsMoreThanEagleOnesAsIssue20780Measured) {
  // vLLM issue #20780 (Llama-3.1-8B, batch 1), cycle = TPOT x AL:
  //   EAGLE-1: K=2 4.37 ms x 2.10 = 9.177 ms, K=7 5.20 x 2.47 = 12.844 ms -> 0.733 ms per draft
  //   EAGLE-3: K=2 4.32 ms x 2.36 = 10.195 ms, K=7 4.29 x 3.54 = 15.187 ms -> 0.998 ms per draft
  // although an EAGLE-3 step reads a 4x smaller LM head (32k rows vs 128k). The profile's
  // per-draft slopes must reproduce both within 15 %, EAGLE-3's the steeper.
  const double e1 = (vllm_eagle_cycle_s("eagle1", 7) - vllm_eagle_cycle_s("eagle1", 2)) / 5;
  const double e3 = (vllm_eagle_cycle_s("eagle3", 7) - vllm_eagle_cycle_s("eagle3", 2)) / 5;
  EXPECT_NEAR(e1, 0.733e-3, 0.15 * 0.733e-3);
  EXPECT_NEAR(e3, 0.998e-3, 0.15 * 0.998e-3);
  EXPECT_GT(e3, e1);
}

}  // namespace
}  // namespace speccalc

namespace speccalc {
namespace {

// TensorRT-LLM decode (issue 20, item 6), checked, never fitted (engine-measurements.json
// check_only): its own performance document's static-batch throughput, input 128 / output
// 2048 (docs/source/performance.md, commit 138f96d4), decode step = batch / output tok/s at
// the run's mean context 128 + 2048 / 2 = 1152.
double trt_step_s(const char* target, const char* hw, int gpus, int batch, const char* dtype) {
  return eval_ok(std::string(R"({"target":")") + target + R"(","hardware":")" + hw +
                 R"(","gpus":)" + std::to_string(gpus) + R"(,"runtime":"tensorrt-llm","batch":)" +
                 std::to_string(batch) + R"(,"context":1152,"dtype":")" + dtype +
                 R"("})")["baseline_step_s"];
}

TEST(TensorRtLlmDecode, LlamaSevenBStepsMatchTheDocumentsThroughput) {
  // H100 FP8, batch 112: 6,818 tok/s -> 112 / 6,818 = 16.43 ms.
  EXPECT_NEAR(trt_step_s("llama2-chat-7b", "h100-sxm", 1, 112, "fp8"), 112.0 / 6818,
              0.12 * 16.43e-3);
  // A100 FP16, batch 60: 1,928 tok/s -> 31.12 ms.
  EXPECT_NEAR(trt_step_s("llama2-chat-7b", "a100-80gb-sxm", 1, 60, "fp16"), 60.0 / 1928,
              0.12 * 31.12e-3);
  // L40S FP8 (v0.5 data), batch 64: 1,622 tok/s -> 39.46 ms.
  EXPECT_NEAR(trt_step_s("llama2-chat-7b", "l40s", 1, 64, "fp8"), 64.0 / 1622, 0.12 * 39.46e-3);
}

// TensorRT-LLM's first-token rows cannot tell a decode step's all-reduce latency (a prompt's
// all-reduce moves megabytes): fitted on them it was 84 us, 13.4 ms of a 70B TP8 decode step,
// and TP8 decoded slower than one GPU. The latency and the step's host time are the compiled
// engines' (fitted on their decode steps, TP2-TP8 among them).
TEST(TensorRtLlmDecode, ADecodeStepsAllReducesCostTheirLatencyAndMoreGpusDecodeFaster) {
  auto run = [](int gpus) {
    return eval_ok(R"({"target":"llama3.3-70b-instruct","hardware":"h200-sxm","gpus":)" +
                   std::to_string(gpus) +
                   R"(,"dtype":"fp8","runtime":"tensorrt-llm","method":{"family":"ar"}})");
  };
  const json compiled = eval_ok(R"({"target":"llama3.3-70b-instruct","runtime":"compiled"})");
  const json tp8 = run(8);
  const double latency_s = tp8["runtime"]["allreduce_latency_s"].get<double>();
  EXPECT_EQ(latency_s, compiled["runtime"]["allreduce_latency_s"].get<double>());
  EXPECT_EQ(tp8["runtime"]["step_overhead_s"], compiled["runtime"]["step_overhead_s"]);
  // 80 layers x 2 all-reduces of one token's 8192 bf16 activations (16,384 bytes), a ring
  // moving 2 x 7/8 of them over H200's 450 GB/s NVLink: latency + 0.0637 us each.
  const double per_allreduce_s = latency_s + 2.0 * 7 / 8 * 16384 / 450e9;
  EXPECT_NEAR(tp8["baseline"]["comm_time_s"].get<double>(), 160 * per_allreduce_s, 1e-12);
  EXPECT_LT(tp8["baseline"]["comm_time_s"].get<double>(), 5e-3);
  double previous = 0;
  for (int gpus : {1, 2, 4, 8}) {
    const double tokens_per_s = run(gpus)["baseline_tokens_per_s"].get<double>();
    EXPECT_GT(tokens_per_s, previous) << gpus << " GPUs";
    previous = tokens_per_s;
  }
}

TEST(EagerAttention, ResearchCodeMovesItsScoresThroughMemoryAndFusedEnginesDoNot) {
  // The EAGLE/Medusa research code (SafeAILab/EAGLE eagle/model/modeling_llama_kv.py) computes
  // attention as separate PyTorch ops: q k^T writes fp16 scores (2 bytes each), the scale reads
  // and writes them (4), the mask add (4), softmax to fp32 (2 + 4), the cast back (4 + 2), the
  // value product reads them (2): 24 bytes per score element.
  EXPECT_EQ(2 + (2 + 2) + (2 + 2) + (2 + 4) + (4 + 2) + 2, 24);
  auto attention = [](const std::string& runtime) {
    const json r = eval_ok(
        R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","context":1024,"runtime":)" +
        runtime + R"(,"method":{"family":"eagle2"},"acceptance":{"tau":4.5}})");
    EXPECT_EQ(r["verify"]["tokens_per_pass"].get<int>(), 60);  // EAGLE-2's 60 verified tokens
    for (const json& k : r["verify"]["kernels"]) {
      if (k["kind"] == "attention") return k;
    }
    ADD_FAILURE() << "no attention kernel";
    return json();
  };
  // Vicuna-7B: 32 layers, 32 heads of 128; 60 queries over 1024 cached + 60 new keys.
  const double scores = 32.0 * 32 * 60 * (1024 + 60);
  EXPECT_EQ(scores, 66600960.0);
  const double kv_bytes = 32.0 * 2 * 4096 * 2 * (1024 + 60);  // K and V, fp16, every layer
  const json eager = attention(R"("hf-eager")");
  EXPECT_DOUBLE_EQ(eager["bytes"].get<double>(), kv_bytes + 24 * scores);  // 2.17 GB
  // All of it at the profile's bandwidth: 2,039 GB/s x its fitted efficiency.
  const json params = eval_ok(R"({"target":"vicuna-7b-v1.3","runtime":"hf-eager"})")["runtime"];
  EXPECT_NEAR(params["score_bytes_per_element"].get<double>(), 24.0, 0);
  EXPECT_NEAR(eager["memory_time_s"].get<double>(),
              (kv_bytes + 24 * scores) / (2039e9 * params["bw_efficiency"].get<double>()), 1e-12);
  // The same code with SDPA (a fused kernel) moves only the cache.
  const json fused = attention(R"({"profile":"hf-eager","score_bytes_per_element":0})");
  EXPECT_DOUBLE_EQ(fused["bytes"].get<double>(), kv_bytes);
  // Plain decoding (HF generate's LlamaSdpaAttention) and SpS (HF assisted generation) keep
  // their scores on chip under the same profile: the cache alone, 1 and 5 new tokens.
  const json sps = eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","context":1024,"runtime":"hf-eager",)"
      R"("method":{"family":"sps","draft":"vicuna-68m","k":4},"acceptance":{"alpha":0.7}})");
  for (const char* pass : {"baseline", "verify"}) {
    const double tokens = std::string(pass) == "baseline" ? 1 : 5;
    for (const json& k : sps[pass]["kernels"]) {
      if (k["kind"] == "attention") {
        EXPECT_DOUBLE_EQ(k["bytes"].get<double>(), 32.0 * 2 * 4096 * 2 * (1024 + tokens)) << pass;
      }
    }
  }
  // Engines' fused kernels keep scores on chip: no such parameter, no such bytes.
  const json sglang = eval_ok(
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","context":1024,"runtime":"sglang",)"
      R"("method":{"family":"eagle2","depth":5,"top_k":8,"total_token":60},"acceptance":{"tau":4.5}})");
  EXPECT_EQ(sglang["runtime"].value("score_bytes_per_element", 0.0), 0.0);
  for (const json& k : sglang["verify"]["kernels"]) {
    if (k["kind"] == "attention") {
      EXPECT_DOUBLE_EQ(k["bytes"].get<double>(), kv_bytes);
    }
  }
}

TEST(EagerAttention, ScoreTrafficGrowsWithContextAndDecidesLongContextEagerVerifies) {
  // Llama-3.1-8B EAGLE-3 in research code on an A100: at 1k context the verify pass is bound by
  // its kernel launches and the score traffic hides under them; at 32k, 32 heads x 60 queries x
  // 32,060 keys x 32 layers x 24 bytes = 47.3 GB of scores, about 33 ms at the profile's
  // bandwidth, which a fused kernel never moves.
  EXPECT_NEAR(32.0 * 60 * 32060 * 32 * 24, 47.27e9, 0.01e9);
  auto speedup = [](int context, double score_bytes) {
    return eval_ok(R"({"target":"llama3.1-8b-instruct","hardware":"a100-80gb-sxm","context":)" +
                   std::to_string(context) +
                   R"(,"runtime":{"profile":"hf-eager","score_bytes_per_element":)" +
                   std::to_string(score_bytes) +
                   R"(},"method":{"family":"eagle3"},"acceptance":{"tau":5}})")["speedup"]
        .get<double>();
  };
  EXPECT_DOUBLE_EQ(speedup(1000, 24), speedup(1000, 0));  // hidden under the launches
  EXPECT_LT(speedup(32000, 24), 0.7 * speedup(32000, 0));
}

}  // namespace
}  // namespace speccalc
