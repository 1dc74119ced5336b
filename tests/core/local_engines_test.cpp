// Local engines (issue 22, items 1, 3, 4): llama.cpp's kernel regimes against the llama-bench
// tables they were fitted on, what they imply for speculative decoding, GGUF bytes, the
// llama-bench calibration round trip and the refusals. Expected values are the cited tables'
// numbers or hand calculations written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/llama_bench.hpp"
#include "fit/fit.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

using nlohmann::json;

json eval_ok(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump();
  return r.ok ? json::parse(r.output) : json();
}

std::string eval_error(const json& config) {
  const Response r = run("eval", config.dump());
  EXPECT_FALSE(r.ok) << config.dump();
  return r.error.field + ": " + r.error.message;
}

// llama.cpp PR #15802 (CUDA: fastdiv, launch bounds for mmvq), RTX 3090, llama 8B Q4_0,
// -ub n with pp512, PR column: t/s at forwards of n tokens over a context up to 512.
const double k3090Q40[] = {156.56, 279.89, 390.96, 470.48, 509.70, 541.57, 559.30, 583.77};

json rtx3090_sps(int64_t k) {
  return json{{"target", "llama3-instruct-8b"},
              {"hardware", "rtx-3090"},
              {"runtime", "llama.cpp-cuda"},
              {"context", 256},
              {"dtype", "q4_0"},
              {"method", {{"family", "sps"}, {"draft", "llama3.2-1b"}, {"k", k}}},
              {"acceptance", {{"alpha", 0.7}}}};
}

TEST(LocalEngines, AFiveTokenVerifyOnAnRtx3090CostsWhatTheTableSays) {
  // Table: pp5 at 509.70 t/s is one forward of 5 tokens in 5 / 509.70 = 9.81 ms.
  const json out = eval_ok(rtx3090_sps(4));
  ASSERT_EQ(out["verify"]["tokens_per_pass"], 5);
  const double table_s = 5.0 / k3090Q40[4];
  EXPECT_NEAR(out["verify"]["time_s"].get<double>(), table_s, 0.10 * table_s);
  // And a plain decode step is the table's pp1: 1 / 156.56 = 6.39 ms.
  EXPECT_NEAR(out["baseline_step_s"].get<double>(), 1.0 / k3090Q40[0], 0.10 / k3090Q40[0]);
}

TEST(LocalEngines, AChainSpeedupFollowsFromTheTable) {
  // Speedup = tau x t(1) / (k draft passes + t(k + 1)), with tau = (1 - a^(k+1)) / (1 - a):
  // a = 0.7, k = 4: tau = (1 - 0.7^5) / 0.3 = 2.7731. The table gives t(1) = 6.387 ms and
  // t(5) = 9.810 ms; the draft passes are the model's (a 1B draft, no table).
  const json out = eval_ok(rtx3090_sps(4));
  const double tau = (1 - std::pow(0.7, 5)) / 0.3;
  EXPECT_NEAR(out["tau"].get<double>(), tau, 1e-3);
  const double draft_s = out["draft"]["time_s"].get<double>();
  const double by_table = tau * (1.0 / k3090Q40[0]) / (draft_s + 5.0 / k3090Q40[4]);
  EXPECT_NEAR(out["speedup"].get<double>(), by_table, 0.10 * by_table);
  EXPECT_GT(out["speedup"].get<double>(), 1.0);
}

TEST(LocalEngines, AnExpensiveMultiTokenForwardLosesACheapOneGains) {
  // llama.cpp issue #4624 (2023-12, M3 Max, mistral Q4_0): before the small-batch kernels a
  // forward of 2 tokens took 2 / 25.92 = 77.2 ms against 1 / 63.62 = 15.7 ms for one: the
  // build ran matrix-vector kernels for one row only (matvec_max_rows 1) and padded tiles
  // above. There a typical draft (a = 0.7, k = 3) must lose: even a free draft gives
  // tau x 15.7 / 77.2 = 2.53 x 0.20 = 0.52.
  json old = json{{"target", "qwen3-8b"},
                  {"hardware", "apple-m3-max"},
                  {"runtime", {{"profile", "llama.cpp-metal"}, {"matvec_max_rows", 1}}},
                  {"dtype", "q4_0"},
                  {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 3}}},
                  {"acceptance", {{"alpha", 0.7}}}};
  const json slow = eval_ok(old);
  EXPECT_LT(slow["speedup"].get<double>(), 1.0);
  EXPECT_GT(slow["verify"]["time_s"].get<double>(), 3.0 * slow["baseline_step_s"].get<double>());
  // On an RTX 4090 a 4-token forward costs little more than one (MMVQ up to 8 rows): the
  // same draft gains.
  json fast = old;
  fast["hardware"] = "rtx-4090";
  fast["runtime"] = "llama.cpp-cuda";
  const json gain = eval_ok(fast);
  EXPECT_GT(gain["speedup"].get<double>(), 1.2);
  EXPECT_LT(gain["verify"]["time_s"].get<double>(), 2.0 * gain["baseline_step_s"].get<double>());
}

TEST(LocalEngines, GgufBytesAreTheBlockFormats) {
  // ggml-common.h: block_q4_0 = fp16 scale + 16 bytes for 32 weights = 18 / 32 bytes;
  // block_q8_0 = 34 / 32; block_q6_K = 210 / 256.
  EXPECT_DOUBLE_EQ(dtype_bytes(DType::q4_0), 18.0 / 32.0);
  EXPECT_DOUBLE_EQ(dtype_bytes(DType::q8_0), 34.0 / 32.0);
  EXPECT_DOUBLE_EQ(dtype_bytes(DType::q6_k), 210.0 / 256.0);
  EXPECT_DOUBLE_EQ(dtype_bytes(DType::mlx_4bit), 4.5 / 8.0);  // 4 bits + 32 bits per 64
  // Q4_K_M on Llama-3-8B: llama-quantize lists 4.58 GiB for 8.03e9 weights = 4.90 bits.
  EXPECT_NEAR(dtype_bytes(DType::q4_k_m) * 8, 4.58 * 1073741824.0 * 8 / 8.03e9, 0.01);
}

std::string table_3090() {
  std::string t =
      "| model | size | params | backend | ngl | n_ubatch | test | t/s |\n"
      "| --- | ---: | ---: | --- | --: | ---: | --- | ---: |\n";
  for (int n = 1; n <= 8; ++n)
    t += "| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | " + std::to_string(n) + " | pp " +
         std::to_string(n) + " | " + std::to_string(k3090Q40[n - 1]) + " ± 0.10 |\n";
  return t;
}

TEST(LocalEngines, APastedLlamaBenchTableReproducesItself) {
  const json req = {{"config",
                     {{"target", "llama3-instruct-8b"},
                      {"hardware", "rtx-3090"},
                      {"runtime", "llama.cpp-cuda"},
                      {"dtype", "q4_0"}}},
                    {"llama_bench", table_3090()}};
  const Response r = run("calibrate", req.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  ASSERT_EQ(out["fit"].size(), 8u);
  double sum = 0;
  for (const json& row : out["fit"]) {
    const double m = row["measured_s"], p = row["predicted_after_s"];
    EXPECT_NEAR(p, m, 0.10 * m) << row["input"];
    sum += std::fabs(p - m) / m;
  }
  EXPECT_LT(sum / 8, 0.05);
  // The fitted runtime goes into the config (and so the link).
  EXPECT_EQ(out["config"]["runtime"]["profile"], "llama.cpp-cuda");
  EXPECT_TRUE(out["config"]["runtime"].contains("matvec_flops_efficiency"));
}

TEST(LocalEngines, LlamaBenchJsonAndItsErrors) {
  auto rows = parse_llama_bench(
      R"([{"model_type":"llama 8B Q4_0","n_prompt":4,"n_gen":0,"avg_ts":470.48},
          {"model_type":"llama 8B Q4_0","n_prompt":0,"n_gen":128,"avg_ts":150.0}])");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  EXPECT_EQ(rows.value()[0].tokens, 4);
  EXPECT_FALSE(rows.value()[0].generation);
  EXPECT_TRUE(rows.value()[1].generation);
  EXPECT_EQ(rows.value()[0].quant, "Q4_0");
  EXPECT_FALSE(parse_llama_bench("hello").ok());
  EXPECT_FALSE(parse_llama_bench("| model | test | t/s |\n|---|---|---|\n| x | pp | 3 |").ok());
  EXPECT_FALSE(parse_llama_bench("| model | test | t/s |\n|---|---|---|\n| x | pp 2 | -1 |").ok());
  EXPECT_FALSE(parse_llama_bench(R"([{"n_prompt":2,"n_gen":2,"avg_ts":3}])").ok());
  // A table measured on another quantization than the config's weights is refused.
  const json req = {{"config",
                     {{"target", "llama3-instruct-8b"},
                      {"hardware", "rtx-3090"},
                      {"runtime", "llama.cpp-cuda"},
                      {"dtype", "q8_0"}}},
                    {"llama_bench", table_3090()}};
  const Response r = run("calibrate", req.dump());
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "config.dtype.weights");
}

TEST(LocalEngines, MlxLmTimingsCalibrateTheMlxRuntime) {
  // mlx_lm.generate's summary: a prompt line is one forward of its tokens, a generation line
  // that many one-token steps after it. A made-up pair consistent with an M4 Max streaming a
  // 4.5-bit Qwen3-8B: 60 tokens/s of generation, 700 tokens/s over a 256-token prompt.
  const std::string text =
      "==========\nPrompt: 256 tokens, 700.0 tokens-per-sec\nGeneration: 128 tokens, "
      "60.0 tokens-per-sec\nPeak memory: 5.1 GB\n";
  auto rows = parse_mlx_lm(text);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  EXPECT_FALSE(rows.value()[0].generation);
  EXPECT_EQ(rows.value()[0].tokens, 256);
  EXPECT_EQ(rows.value()[1].depth, 256);
  const json cfg = {{"target", "qwen3-8b"},
                    {"hardware", "apple-m4-max"},
                    {"runtime", "mlx"},
                    {"dtype", "mlx_4bit"}};
  const Response r = run("calibrate", json{{"config", cfg}, {"mlx_lm", text}}.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  // Two rows, two regimes (one-token steps, 256-row tiles): both reproduced.
  for (const json& row : out["fit"])
    EXPECT_NEAR(row["predicted_after_s"].get<double>(), row["measured_s"].get<double>(),
                0.05 * row["measured_s"].get<double>())
        << row["input"];
  // The llama.cpp parser's key on an mlx runtime is refused, naming the right key.
  const Response wrong =
      run("calibrate", json{{"config", cfg}, {"llama_bench", table_3090()}}.dump());
  ASSERT_FALSE(wrong.ok);
  EXPECT_EQ(wrong.error.field, "llama_bench");
  EXPECT_FALSE(parse_mlx_lm("Prompt: 4096 tokens, 900 tokens-per-sec").ok());
  EXPECT_FALSE(parse_mlx_lm("Generation: many tokens, 3 tokens-per-sec").ok());
  EXPECT_EQ(out["at_bound"], json::array());
  EXPECT_EQ(out["warning"], "");
  // A prompt faster than the chip's datasheet allows (Qwen3-8B's 256-token forward: 2 x 8.2e9
  // FLOPs x 256 = 4.2e12 FLOPs; at 50,000 tokens/s that is 0.005 s, 840 TFLOP/s on a chip of
  // 17 at fp16): the tiles' efficiency ends at its bound of 1 (the bandwidth's too: the prompt
  // also streams the weights), the fit cannot meet the rows, and the answer says so.
  const std::string fast =
      "Prompt: 256 tokens, 50000.0 tokens-per-sec\nGeneration: 128 tokens, 60.0 tokens-per-sec\n";
  const json f =
      json::parse(run("calibrate", json{{"config", cfg}, {"mlx_lm", fast}}.dump()).output);
  bool flops = false;
  for (const json& n : f["at_bound"]) flops |= n == "flops_efficiency";
  EXPECT_TRUE(flops) << f.dump();
  EXPECT_GT(f["mean_relative_error_pct"].get<double>(), 100);
  EXPECT_NE(f["warning"].get<std::string>().find("flops_efficiency 1"), std::string::npos)
      << f["warning"];
}

// A calibration was measured on one machine: choosing other hardware puts the runtime back to
// its profile, with a note, instead of pricing the new chip with the old one's timings.
TEST(LocalEngines, ACalibrationDoesNotFollowTheUserToOtherHardware) {
  const json cal = {{"target", "qwen3-8b"},
                    {"hardware", "apple-m4-pro"},
                    {"runtime", {{"profile", "mlx"}, {"bw_efficiency", 0.6}}},
                    {"dtype", "mlx_4bit"}};
  json moved = cal;
  moved["hardware"] = "apple-m4-max";
  const Response r =
      run("carry", json{{"config", moved}, {"changed", "hardware"}, {"previous", cal}}.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  EXPECT_EQ(out["config"]["runtime"], "mlx");
  ASSERT_FALSE(out["notes"].empty());
  EXPECT_NE(out["notes"][0].get<std::string>().find("bw_efficiency"), std::string::npos);
  // Another edit (the batch) keeps it.
  json batch = cal;
  batch["batch"] = 2;
  const json kept = json::parse(
      run("carry", json{{"config", batch}, {"changed", "batch"}, {"previous", cal}}.dump()).output);
  EXPECT_EQ(kept["config"]["runtime"]["bw_efficiency"], 0.6);
}

// A move to an engine that does not run the config's dtypes resets both to its defaults, and
// the note says so for each (the walk: a q8_0 KV cache became fp16 on a move to MLX, unsaid).
TEST(LocalEngines, CarryingTheDtypesSaysWhatTheKvCacheBecomes) {
  const Response r = run("carry", R"({"config": {"target": "qwen3-8b", "hardware": "apple-m4-pro",
      "runtime": "mlx", "dtype": {"weights": "q4_k_m", "kv": "q8_0"}, "method": "ar"},
      "changed": "runtime"})");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  EXPECT_EQ(out["config"]["dtype"], (json{{"kv", "fp16"}, {"weights", "mlx_4bit"}}));
  ASSERT_FALSE(out["notes"].empty());
  EXPECT_EQ(out["notes"][0].get<std::string>().rfind(
                "dtype: mlx_4bit weights, fp16 KV cache (was q8_0) (", 0),
            0u)
      << out["notes"].dump();
}

TEST(LocalEngines, FormatsVendorsAndKnobsAreChecked) {
  json c = rtx3090_sps(3);
  c["runtime"] = "vllm";
  EXPECT_EQ(eval_error(c).rfind("dtype.weights: q4_0 is a GGUF (llama.cpp) type", 0), 0u);
  c = rtx3090_sps(3);
  c["dtype"] = "int4";
  EXPECT_EQ(eval_error(c).rfind("dtype.weights: int4 is not a weight format", 0), 0u);
  c = rtx3090_sps(3);
  c["runtime"] = "llama.cpp-metal";
  EXPECT_EQ(eval_error(c).rfind("runtime: llama.cpp (Metal) runs on Apple hardware", 0), 0u);
  // A variable draft length is llama.cpp's (draft_length_test.cpp prices it): refused on vLLM.
  c = rtx3090_sps(3);
  c["method"]["draft_p_min"] = 0.8;
  c["runtime"] = "vllm";
  c["dtype"] = "fp16";
  EXPECT_EQ(eval_error(c).rfind("method.draft_p_min:", 0), 0u);
  // llama.cpp's knob draft_max sets k; its default k is common.h's n_max = 3.
  c = rtx3090_sps(3);
  c["method"] = json{{"family", "sps"}, {"draft", "llama3.2-1b"}, {"draft_max", 6}};
  EXPECT_EQ(eval_ok(c)["config"]["method"]["k"], 6);
  c["method"] = json{{"family", "sps"}, {"draft", "llama3.2-1b"}};
  EXPECT_EQ(eval_ok(c)["config"]["method"]["k"], 3);
  // mlx runs on one Apple device, MLX types only.
  json m = {{"target", "qwen3-8b"},
            {"hardware", "apple-m4-max"},
            {"runtime", "mlx"},
            {"dtype", "mlx_4bit"}};
  eval_ok(m);
  m["gpus"] = 2;
  EXPECT_EQ(eval_error(m).rfind("gpus: MLX", 0), 0u);
}

// llama.cpp Metal decode speeds no fit has seen (engine-measurements.json check_only, 2026
// community benchmarks on chips the fit's sources do not cover), priced by plain decoding on the
// stored profile. Hand numbers from the cites: Mac Mini M4, Llama 3.1 8B Q4_K_M tg128 20.87
// t/s (normiebench #3); M1 Max 46.2 t/s (normiebench #40); M2 Pro Q4_K_M 33.0 and Q8_0 22.0 t/s
// (llmfit PR #1031). Before the May 2024 three-chip table joined the fit (Metal at its bandwidth
// bound with a 2.5 us kernel floor) these read 21 %, 69 %, 25 % and 10 % fast; a profile that
// drifts back past 15 % on any of them fails here.
TEST(LocalEngines, MetalDecodeChecksNoFitHasSeen) {
  const std::vector<std::tuple<const char*, const char*, double, int>> checks = {
      {"apple-m4", "q4_k_m", 20.87, 64},
      {"apple-m1-max", "q4_k_m", 46.2, 64},
      {"apple-m2-pro", "q4_k_m", 33.0, 256},
      {"apple-m2-pro", "q8_0", 22.0, 256}};
  for (const auto& [hw, dtype, tokens_per_s, context] : checks) {
    const json e = eval_ok(json{{"target", "llama3.1-8b-instruct"},
                                {"hardware", hw},
                                {"runtime", "llama.cpp-metal"},
                                {"context", context},
                                {"dtype", {{"weights", dtype}, {"kv", "fp16"}}},
                                {"method", "ar"}});
    const double measured_s = 1 / tokens_per_s;
    const double error = (e["baseline_step_s"].get<double>() - measured_s) / measured_s;
    EXPECT_LT(std::fabs(error), 0.15) << hw << " " << dtype << ": " << 100 * error << " %";
  }
  // validate reports the same rows as time checks, priced the same way, with two more from an
  // M5 on a 2025 build (llama.cpp PR #16634): a 7B Q4_0 at 26.59 t/s and TinyLlama-1.1B Q4_0 at
  // 149.69 t/s. The 1.1B, the only draft-sized model any stored Metal timing has, runs 36 %
  // faster than the fitted 14 us floor per kernel allows (said in docs/cost-model.md): reported,
  // not required.
  const json v = json::parse(run("validate", "{}").output);
  std::map<std::string, double> metal;
  for (const json& r : v["engines"]["time_checks"])
    if (r["engine"] == "llama.cpp-metal") metal[r["id"]] = r["error_pct"].get<double>();
  EXPECT_EQ(metal.size(), 6u);
  ASSERT_TRUE(metal.count("llamacpp-metal-check-pr16634-m5-mistral-7b-q4_0"));
  EXPECT_LT(std::fabs(metal["llamacpp-metal-check-pr16634-m5-mistral-7b-q4_0"]), 15);
  ASSERT_TRUE(metal.count("llamacpp-metal-check-pr16634-m5-tinyllama-1.1b-q4_0"));
  EXPECT_GT(metal["llamacpp-metal-check-pr16634-m5-tinyllama-1.1b-q4_0"], 0) << "priced slow";
}

}  // namespace
}  // namespace speccalc

namespace speccalc {
namespace {

// Leave-one-source-out on the local profiles' llama-bench and MLX sources
// (engine-measurements.json): each source's rows predicted by a fit on the others. The numbers are
// the headline the README and docs/cost-model.md quote; a source the others cannot predict within
// 35 % would mean a structural term is missing.
TEST(LocalEngines, EachLlamaBenchSourceIsPredictedByTheOthers) {
  const Catalog cat = load_catalog().value();
  auto loaded = load_observations(cat, data::published());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const auto& obs = loaded.value();
  for (const FitSpec& spec : fit_specs()) {
    if (spec.profile.rfind("llama.cpp", 0) != 0 && spec.profile != "mlx") continue;
    std::set<std::string> sources;
    for (const Observation& o : obs)
      if (o.profile == spec.profile) sources.insert(o.source);
    ASSERT_GE(sources.size(), 2u) << spec.profile;
    double all = 0, all_required = 0;
    int rows = 0, rows_required = 0;
    // Some rows are predicted only from another source's rows of the same kind: a
    // prefill-sized forward (256 tokens or more) from other prefill rows (the tiles' efficiency
    // at that size is set by nothing else), a multiply timed alone by rows (kind matmul) from
    // other such rows (the matrix-vector kernels' growth with rows). Where one source holds all
    // of a profile's rows of a kind (Metal: PR #2917's pp512; CUDA: PR #8278's 256 and 512;
    // MLX: issue #1029's 260-token prompt, issue #3852's multiplies), those rows are reported,
    // not required; every other row is.
    auto only_from_its_kind = [](const Observation& o) -> std::string {
      if (o.kind == "forward" && o.forward_tokens >= 256) return "prefill";
      if (o.kind == "matmul") return "matmul";
      return "";
    };
    std::map<std::string, std::set<std::string>> sources_of_kind;
    for (const Observation& o : obs)
      if (o.profile == spec.profile && !only_from_its_kind(o).empty())
        sources_of_kind[only_from_its_kind(o)].insert(o.source);
    for (const std::string& held : sources) {
      const RuntimeParams start = fit_start(spec, cat.find_runtime(spec.profile)->params);
      const FitResult r = fit_profile(spec, obs, start, held);
      double sum = 0, required = 0;
      int n = 0, m = 0;
      for (const Observation& o : obs) {
        if (o.profile != spec.profile || o.source != held) continue;
        const double e = std::fabs(predict_fast(o, r.params) - o.measured) / o.measured;
        sum += e;
        ++n;
        const std::string kind = only_from_its_kind(o);
        if (!kind.empty() && sources_of_kind[kind].size() == 1) {
          std::printf("%s held out %s: %s row %s, error %.1f %% (no other source of its kind)\n",
                      spec.profile.c_str(), held.c_str(), kind.c_str(), o.id.c_str(), 100 * e);
          continue;
        }
        required += e;
        ++m;
      }
      std::printf("%s held out %s: %d rows, MAPE %.1f %%\n", spec.profile.c_str(), held.c_str(), n,
                  100 * sum / n);
      if (m > 0) {
        EXPECT_LT(required / m, 0.35) << spec.profile << " " << held;
      }
      all += sum;
      rows += n;
      all_required += required;
      rows_required += m;
    }
    std::printf(
        "%s leave-one-source-out MAPE %.1f %% over %d rows (%.1f %% over the %d rows "
        "another source can predict)\n",
        spec.profile.c_str(), 100 * all / rows, rows, 100 * all_required / rows_required,
        rows_required);
  }
}

// MLX's matrix-vector kernels (qmv) compute a few rows under the weight stream: ml-explore/mlx
// issue #3852 timed quantized_matmul 5120 -> 17408, 4-bit group 128, on an M4 Pro (273 GB/s,
// 7.53 TFLOPS fp16: the apple-m4-pro preset) at 0.198 ms for one row and 0.99, 1.13, 1.43,
// 1.75, 2.84 times that for 2, 3, 4, 5, 8 rows. By hand with the stored mlx profile:
//   weights  = 5120 x 17408 x 4.25 / 8 = 47.35 MB, stream = weights / (273 GB/s x bw_efficiency)
//   one row  = 2 x 5120 x 17408 = 178.3 MFLOP at 7.53 TFLOPS x matvec_flops_efficiency
//   additive = max(stream, row) + (M - 1) row (llama.cpp's kernels), overlapped = max(stream, M
//   row) time(M)  = additive - matvec_overlap (additive - overlapped)
// The multiples follow within 10 %, the core's kernel time is the same formula, and the
// additive form (every row after the first paid in full) would make the second row cost 30 %+.
TEST(LocalEngines, MlxMatrixVectorRowsRideTheWeightStream) {
  const Catalog cat = load_catalog().value();
  const RuntimeParams& p = cat.find_runtime("mlx")->params;
  const double stream = 5120.0 * 17408 * 4.25 / 8 / (273e9 * p.bw_efficiency);
  const double row = 2.0 * 5120 * 17408 / (7.53e12 * p.matvec_flops_efficiency);
  auto by_hand = [&](double m) {
    const double additive = std::max(stream, row) + (m - 1) * row;
    const double overlapped = std::max(stream, m * row);
    return additive - p.matvec_overlap * (additive - overlapped);
  };
  const std::pair<double, double> measured[] = {
      {2, 0.99}, {3, 1.13}, {4, 1.43}, {5, 1.75}, {8, 2.84}};
  for (const auto& [m, multiple] : measured) {
    EXPECT_NEAR(by_hand(m) / by_hand(1), multiple, 0.10 * multiple) << m << " rows";
    const double core =
        matmul_kernel_time_s(stream, matmul_compute_s(m * 2.0 * 5120 * 17408, 7.53e12, m, p), m, p);
    EXPECT_NEAR(core, by_hand(m), 1e-12) << m << " rows";
  }
  const double additive_two = std::max(stream, row) + row;
  EXPECT_GT(additive_two / by_hand(1), 1.3);
  // A whole model: Qwen3-8B 4-bit on that chip verifies 3 tokens in about one decode step under
  // MLX (its second and third rows ride the stream), where llama.cpp's Metal kernels, which add
  // each row, take about two.
  auto verify_over_step = [](const std::string& runtime, const std::string& dtype) {
    const json out = json::parse(
        run("eval", json{{"target", "qwen3-8b"},
                         {"hardware", "apple-m4-pro"},
                         {"runtime", runtime},
                         {"dtype", dtype},
                         {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 2}}},
                         {"acceptance", {{"alpha", 0.7}}}}
                        .dump())
            .output);
    return out["verify"]["time_s"].get<double>() / out["baseline"]["time_s"].get<double>();
  };
  EXPECT_LT(verify_over_step("mlx", "mlx_4bit"), 1.15);
  EXPECT_GT(verify_over_step("llama.cpp-metal", "q4_0"), 1.5);
}

// MLX picks its small-batch kernels by the Apple GPU (mlx quantized.cpp, v0.32.1): for matrices
// wider than 4096 the vector kernel takes up to 12 rows on generation 15+ (M3, M4) chips other
// than an Ultra, 11 on an Ultra, 5 on M1/M2-class ones; qmv_wide (rows sharing each weight
// load, the fitted matvec_overlap) only from generation 15. A config's own override still wins,
// and a device without a generation (a custom one) keeps the profile's values.
TEST(LocalEngines, MlxKernelsFollowTheAppleGpu) {
  const RuntimeParams& profile = load_catalog().value().find_runtime("mlx")->params;
  auto runtime_on = [](const json& hardware, const json& runtime = "mlx") {
    const json e = eval_ok(json{{"target", "qwen3-8b"},
                                {"hardware", hardware},
                                {"runtime", runtime},
                                {"dtype", "mlx_4bit"},
                                {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 2}}},
                                {"acceptance", {{"alpha", 0.7}}}});
    return std::make_pair(e["runtime"], e["assumptions"]);
  };
  struct Chip {
    const char* id;
    double rows;
    bool wide;
  };
  for (const Chip& chip : {Chip{"apple-m1-pro", 5, false}, Chip{"apple-m2-ultra", 11, false},
                           Chip{"apple-m3-ultra", 11, true}, Chip{"apple-m4-pro", 12, true}}) {
    const auto [r, assumptions] = runtime_on(chip.id);
    EXPECT_EQ(r["matvec_max_rows"].get<double>(), chip.rows) << chip.id;
    EXPECT_EQ(r["matvec_overlap"].get<double>(), chip.wide ? profile.matvec_overlap : 0.0)
        << chip.id;
    bool said = false;
    for (const auto& a : assumptions)
      said = said || a.get<std::string>().find(chip.wide ? "runs qmv_wide, whose rows share"
                                                         : "no qmv_wide on this generation") !=
                         std::string::npos;
    EXPECT_TRUE(said) << chip.id;
  }
  // The config's override wins over the chip's rule.
  EXPECT_EQ(runtime_on("apple-m4-pro", json{{"profile", "mlx"}, {"matvec_max_rows", 3}})
                .first["matvec_max_rows"]
                .get<double>(),
            3.0);
  // A custom Apple device carries no generation: the profile's own values.
  const json custom = {{"name", "my Mac"},       {"vendor", "Apple"},
                       {"mem_gb", 64},           {"mem_bw_gbps", 273},
                       {"fp16_tflops", 7.53},    {"interconnect_gbps", 0},
                       {"unified_memory", true}, {"usable_memory_fraction", 0.75}};
  const auto [r, assumptions] = runtime_on(custom);
  EXPECT_EQ(r["matvec_max_rows"].get<double>(), profile.matvec_max_rows);
  EXPECT_EQ(r["matvec_overlap"].get<double>(), profile.matvec_overlap);
  // What it means: a 3-token verify of Qwen3-8B 4-bit costs more decode steps on an M1 Pro (each
  // row added) than on an M4 Pro (rows under the stream).
  auto verify_over_step = [](const char* chip) {
    const json e = eval_ok(json{{"target", "qwen3-8b"},
                                {"hardware", chip},
                                {"runtime", "mlx"},
                                {"dtype", "mlx_4bit"},
                                {"method", {{"family", "sps"}, {"draft", "qwen3-0.6b"}, {"k", 2}}},
                                {"acceptance", {{"alpha", 0.7}}}});
    return e["verify"]["time_s"].get<double>() / e["baseline"]["time_s"].get<double>();
  };
  EXPECT_GT(verify_over_step("apple-m1-pro"), 1.3);
  EXPECT_LT(verify_over_step("apple-m4-pro"), 1.15);
}

TEST(LocalEngines, LlamaCppTakesADraftWhosePaddedVocabularyDiffersBy128AtMost) {
  // llama.cpp common/speculative.cpp: SPEC_VOCAB_MAX_SIZE_DIFFERENCE 128. Gemma-3-1B's
  // 262,144-token table and Gemma-3-27B's padded 262,208 differ by 64: llama.cpp runs the pair,
  // and the assumptions say the matching token texts are assumed.
  json c = {{"target", "gemma-3-27b-it"},
            {"hardware", "rtx-5090"},
            {"runtime", "llama.cpp-cuda"},
            {"dtype", "q4_k_m"},
            {"method", {{"family", "sps"}, {"draft", "gemma-3-1b-it"}, {"k", 4}}},
            {"acceptance", {{"alpha", 0.7}}}};
  const json r = eval_ok(c);
  bool said = false;
  for (const auto& a : r["assumptions"])
    said = said || a.get<std::string>().find("262144-token vocabulary and the target's 262208") !=
                       std::string::npos;
  EXPECT_TRUE(said) << r["assumptions"].dump();
  // vLLM has no such margin in SpecCalc: the sizes must be equal.
  c["runtime"] = "vllm";
  c["hardware"] = "h100-sxm";
  c["dtype"] = "bf16";
  EXPECT_EQ(eval_error(c).rfind("method.draft: gemma-3-1b-it has a 262144-token vocabulary", 0),
            0u);
  // 129 apart is refused on llama.cpp too, and the message gives its margin.
  json target = json::parse(run("list", "models").output);
  json custom;
  for (const auto& m : target)
    if (m["id"] == "gemma-3-27b-it") custom = m["custom"];
  ASSERT_TRUE(custom.is_object());
  custom["vocab"] = 262144 + 129;
  c = {{"target", custom},
       {"hardware", "rtx-5090"},
       {"runtime", "llama.cpp-cuda"},
       {"dtype", "q4_k_m"},
       {"method", {{"family", "sps"}, {"draft", "gemma-3-1b-it"}, {"k", 4}}},
       {"acceptance", {{"alpha", 0.7}}}};
  const std::string e = eval_error(c);
  EXPECT_NE(e.find("allows sizes up to 128 apart"), std::string::npos) << e;
  // Choosing Gemma-3-27B over a Qwen3 draft on llama.cpp carries the draft to Gemma-3-1B (the
  // only preset within the margin), not away from SpS.
  const Response carried = run("carry", R"({"config": {"target": "gemma-3-27b-it",
      "hardware": "rtx-5090", "runtime": "llama.cpp-cuda", "dtype": "q4_k_m",
      "method": {"family": "sps", "draft": "qwen3-0.6b", "k": 4}}, "changed": "target"})");
  ASSERT_TRUE(carried.ok) << carried.error.describe();
  const json out = json::parse(carried.output);
  EXPECT_EQ(out["config"]["method"]["family"], "sps");
  EXPECT_EQ(out["config"]["method"]["draft"], "gemma-3-1b-it");
}

}  // namespace
}  // namespace speccalc
