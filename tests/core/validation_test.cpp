// Every path in refuses bad input by field and reason, and no accepted input produces a NaN,
// an Inf or a crash. Errors are asserted to the exact field and message: those strings are
// what the CLI prints and the page shows beside the field.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/output_guard.hpp"
#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

::testing::AssertionResult IsError(const std::string& command, const std::string& input,
                                   const std::string& field, const std::string& message) {
  const speccalc::Response r = speccalc::run(command, input);
  if (r.ok) return ::testing::AssertionFailure() << "accepted: " << input.substr(0, 200);
  if (r.error.field != field || r.error.message != message) {
    return ::testing::AssertionFailure()
           << "input " << input.substr(0, 200) << "\n  got      " << r.error.field << ": "
           << r.error.message << "\n  expected " << field << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

json Ok(const std::string& command, const std::string& input) {
  const speccalc::Response r = speccalc::run(command, input);
  EXPECT_TRUE(r.ok) << command << " " << input.substr(0, 200) << " -> " << r.error.describe();
  return r.ok ? json::parse(r.output) : json();
}

// Walks a result: every number finite, no null (nlohmann prints NaN/Inf as null) except
// where the command documents one, and no "nan"/"inf" spelled inside a string (std::to_string
// of a NaN would write that into an assumption).
void ExpectFinite(const json& v, const std::string& path, const std::string& context) {
  static const std::regex kWord("\\b(nan|inf|infinity)\\b", std::regex::icase);
  if (v.is_number_float()) {
    EXPECT_TRUE(std::isfinite(v.get<double>())) << path << " in " << context;
  } else if (v.is_null()) {
    const bool documented = path == "alpha" || path == "break_even_batch" || path == "best";
    EXPECT_TRUE(documented) << "null at " << path << " in " << context;
  } else if (v.is_string()) {
    EXPECT_FALSE(std::regex_search(v.get<std::string>(), kWord))
        << path << " = " << v.get<std::string>() << " in " << context;
  } else if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      ExpectFinite(it.value(), path.empty() ? it.key() : path + "." + it.key(), context);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      ExpectFinite(v[i], path + "[" + std::to_string(i) + "]", context);
  }
}

// Ok with a finite result, or a field-named error that is not the core's internal guard.
void ExpectFiniteOrRefused(const std::string& command, const std::string& input) {
  const speccalc::Response r = speccalc::run(command, input);
  const std::string context = command + " " + input.substr(0, 300);
  if (!r.ok) {
    EXPECT_FALSE(r.error.message.empty()) << context;
    EXPECT_EQ(r.error.message.find("internal error"), std::string::npos)
        << context << " -> " << r.error.message;
    return;
  }
  const json out = json::parse(r.output, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << context;
  ExpectFinite(out, "", context);
}

const char* const kFamilies[] = {"ar",    "sps",    "pld",    "lookahead", "medusa",
                                 "hydra", "eagle1", "eagle2", "eagle3"};

}  // namespace

// ---- acceptance edges --------------------------------------------------------------------

TEST(Validation, AlphaZeroAcceptsNothing) {
  // Chain of k = 4 drafts: tau = sum_{i=0..k} alpha^i = 1 at alpha = 0 (only the bonus token).
  const json r = Ok("eval", R"({"method": {"family": "sps", "k": 4}, "acceptance": {"alpha": 0}})");
  EXPECT_EQ(r["tau"].get<double>(), 1.0);
  // Drafting costs time and yields nothing: strictly slower than plain decoding.
  EXPECT_GT(r["speedup"].get<double>(), 0.0);
  EXPECT_LT(r["speedup"].get<double>(), 1.0);
}

TEST(Validation, AlphaOneAcceptsEveryDraft) {
  // alpha = 1: all k drafts accepted plus the bonus token, tau = k + 1 (5 for sps k = 4,
  // 11 for pld's default k = 10).
  EXPECT_EQ(
      Ok("eval", R"({"method": {"family": "sps", "k": 4}, "acceptance": {"alpha": 1}})")["tau"]
          .get<double>(),
      5.0);
  EXPECT_EQ(Ok("eval", R"({"method": "pld", "acceptance": {"alpha": 1}})")["tau"].get<double>(),
            11.0);
  // Every tree family at alpha = 1 stays finite (the rank model gives rank 0 probability 1).
  for (const char* f : kFamilies) {
    ExpectFiniteOrRefused("eval",
                          std::string(R"({"acceptance": {"alpha": 1}, "method": ")") + f + "\"}");
  }
}

TEST(Validation, TauOneIsOnlyTheBonusToken) {
  const json r = Ok("eval", R"({"method": {"family": "sps", "k": 4}, "acceptance": {"tau": 1}})");
  EXPECT_EQ(r["tau"].get<double>(), 1.0);
  EXPECT_LT(r["speedup"].get<double>(), 1.0);
}

TEST(Validation, KZeroDraftsNothing) {
  // k = 0: the verify pass checks only the bonus position, so tau = 1 at any alpha.
  const json r =
      Ok("eval", R"({"method": {"family": "sps", "k": 0}, "acceptance": {"alpha": 0.9}})");
  EXPECT_EQ(r["tau"].get<double>(), 1.0);
  EXPECT_EQ(r["max_tokens_per_cycle"].get<int>(), 1);
  // A tau above k + 1 = 1 is refused, not clamped.
  EXPECT_TRUE(IsError(
      "eval", R"({"method": {"family": "sps", "k": 0}, "acceptance": {"tau": 1.5}})",
      "acceptance.tau", "is 1.5 but this draft yields at most 1 tokens per cycle (its depth + 1)"));
}

TEST(Validation, AcceptanceOutOfRangeIsRefusedNotClamped) {
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"alpha": 1.5}})", "acceptance.alpha",
                      "must be between 0.0 and 1.0, got 1.5"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"alpha": -0.1}})", "acceptance.alpha",
                      "must be between 0.0 and 1.0, got -0.1"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"tau": 0.5}})", "acceptance.tau",
                      "must be between 1.0 and 1025.0, got 0.5"));
  EXPECT_TRUE(IsError(
      "eval", R"({"method": {"family": "sps", "k": 4}, "acceptance": {"tau": 5.5}})",
      "acceptance.tau", "is 5.5 but this draft yields at most 5 tokens per cycle (its depth + 1)"));
  EXPECT_TRUE(
      IsError("eval", R"({"acceptance": {"p": [[0.6, 0.6]]}})", "acceptance.p[0]",
              "sums to 1.2; sibling acceptances are exclusive, so a row sums to at most 1"));
  // The sum as people write it: 0.6 + 0.5 + 0.3 is 1.4000000000000001 in binary (the walk saw
  // that printed); six significant digits, so a sum just over 1 still shows why.
  EXPECT_TRUE(
      IsError("eval", R"({"acceptance": {"p": [[0.6, 0.5, 0.3]]}})", "acceptance.p[0]",
              "sums to 1.4; sibling acceptances are exclusive, so a row sums to at most 1"));
  EXPECT_TRUE(
      IsError("eval", R"({"acceptance": {"p": [[0.6, 0.4004]]}})", "acceptance.p[0]",
              "sums to 1.0004; sibling acceptances are exclusive, so a row sums to at most 1"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"per_position": []}})", "acceptance.per_position",
                      "must be a list of 1 to 64 probabilities"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"alpha": 0.5, "tau": 2}})", "acceptance",
                      "must be an object with exactly one of: tau, alpha, per_position, p, medusa, "
                      "workload, published"));
}

// ---- sizes: batch, context, gpus, k, trees -----------------------------------------------

// Llama-2-7B's shapes as a custom model: no max_position_embeddings, so the largest context is
// accepted (the preset is configured for 4096 positions and refuses it).
constexpr const char* kLlama2Shaped =
    R"("target": {"name": "llama2-7b-shaped", "num_layers": 32, "hidden": 4096,
                  "intermediate": 11008, "heads": 32, "vocab": 32000})";

TEST(Validation, LargestBatchAndContextStayFinite) {
  for (const char* f : kFamilies) {
    ExpectFiniteOrRefused("eval", std::string(R"({"batch": 4096, "context": 1048576, )") +
                                      kLlama2Shaped + R"(, "method": ")" + f + "\"}");
  }
  const json r = Ok("eval", std::string(R"({"batch": 4096, "context": 1048576, )") + kLlama2Shaped +
                                R"(, "method": "eagle2"})");
  // 4096 sequences x 1M tokens of llama2-7b KV (2 x 32 layers x 4096 x 2 bytes = 512 KiB per
  // token) is 2.25 PB: far beyond the GPU, which the result must say instead of hiding.
  EXPECT_FALSE(r["memory"]["fits"].get<bool>());
}

TEST(Validation, SizesJustOutsideTheLimitsAreRefused) {
  EXPECT_TRUE(
      IsError("eval", R"({"batch": 4097})", "batch", "must be between 1 and 4096, got 4097"));
  EXPECT_TRUE(IsError("eval", R"({"batch": 0})", "batch", "must be between 1 and 4096, got 0"));
  EXPECT_TRUE(IsError("eval", R"({"context": 1048577})", "context",
                      "must be between 0 and 1048576, got 1048577"));
  EXPECT_TRUE(
      IsError("eval", R"({"context": -1})", "context", "must be between 0 and 1048576, got -1"));
  EXPECT_TRUE(IsError("eval", R"({"gpus": 1025})", "gpus", "must be between 1 and 1024, got 1025"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "sps", "k": 65}})", "method.k",
                      "must be between 0 and 64, got 65"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "sps", "k": -1}})", "method.k",
                      "must be between 0 and 64, got -1"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "eagle2", "total_token": 1025}})",
                      "method.total_token", "must be between 2 and 1024, got 1025"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "eagle2", "depth": 65}})", "method.depth",
                      "must be between 1 and 64, got 65"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "eagle2", "top_k": 65}})", "method.top_k",
                      "must be between 1 and 64, got 65"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "eagle1", "choices": [[64]]}})",
                      "method.choices[0][0]", "must be between 0 and 63, got 64"));
  EXPECT_TRUE(IsError("tree-optimize", R"({"acceptance": {"alpha": 0.5}, "budget": 4097})",
                      "budget", "must be in [1, 4096], got 4097"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"acceptance": {"alpha": 0.5}, "budget": 8, "max_depth": 65})",
                      "max_depth", "must be in [1, 64], got 65"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"acceptance": {"alpha": 0.5}, "budget": 8, "max_rank": 65})", "max_rank",
                      "must be in [1, 64], got 65"));
  EXPECT_TRUE(IsError(
      "tree-expect",
      R"({"choices": [[0]], "acceptance": {"alpha": 0.5}, "simulate": {"trials": 1000001}})",
      "simulate.trials", "must be in [1, 1000000], got 1000001"));
  EXPECT_TRUE(IsError("convert", R"({"k": 0, "alpha": 0.5})", "k", "must be in [1, 64], got 0"));
}

TEST(Validation, HugeNegativeAndFractionalIntegersAreRefused) {
  EXPECT_TRUE(IsError("eval", R"({"batch": 2.5})", "batch", "enter a whole number, not 2.5"));
  // A whole number too large for any integer type is out of range, not "not a whole number"
  // (the walk: 99999999999999999999 typed in Batch).
  EXPECT_TRUE(
      IsError("eval", R"({"batch": 1e300})", "batch", "must be between 1 and 4096, got 1e+300"));
  EXPECT_TRUE(IsError("eval", R"({"batch": 9223372036854775808})", "batch",
                      "must be an integer between 1 and 4096"));
  EXPECT_TRUE(IsError("eval", R"({"batch": -9223372036854775808})", "batch",
                      "must be between 1 and 4096, got -9223372036854775808"));
  // 2^64 does not fit any integer type; nlohmann reads it as a double.
  EXPECT_TRUE(IsError("eval", R"({"batch": 18446744073709551616})", "batch",
                      "must be between 1 and 4096, got 1.8446744073709552e+19"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"acceptance": {"alpha": 0.5}, "budget": 18446744073709551615})", "budget",
                      "must be in [1, 4096], got 4097"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"acceptance": {"alpha": 0.5}, "budget": -9223372036854775808})", "budget",
                      "must be in [1, 4096], got -9223372036854775808"));
  EXPECT_TRUE(IsError("tree-optimize", R"({"acceptance": {"alpha": 0.5}, "budget": 10.5})",
                      "budget", "must be an integer"));
  // A whole number written as a float is the integer (JavaScript writes 4 as 4, but hand-made
  // configs and other tools write 4.0).
  EXPECT_EQ(Ok("normalize", R"({"batch": 4.0})")["batch"], 4);
}

TEST(Validation, NonFiniteNumbersCannotBeWritten) {
  // JSON has no NaN or Infinity; 1e400 overflows a double and is refused by the parser.
  EXPECT_TRUE(IsError("eval", R"({"batch": NaN})", "", "the config is not valid JSON"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"alpha": Infinity}})", "",
                      "the config is not valid JSON"));
  EXPECT_TRUE(
      IsError("eval", R"({"acceptance": {"alpha": 1e400}})", "", "the config is not valid JSON"));
  // An underflow to 0 is an ordinary (valid) 0.
  EXPECT_EQ(
      Ok("eval", R"({"method": "sps", "acceptance": {"alpha": 1e-400}})")["tau"].get<double>(),
      1.0);
}

// ---- custom hardware ----------------------------------------------------------------------

TEST(Validation, ZeroOrAbsurdCustomGpuNumbersAreRefused) {
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": 0, "mem_bw_gbps": 1000}})",
                      "hardware.fp16_tflops", "must be between 0.001 and 1000000.0, got 0.0"));
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": 100, "mem_bw_gbps": 0}})",
                      "hardware.mem_bw_gbps", "must be between 0.001 and 10000000.0, got 0.0"));
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": 1e7, "mem_bw_gbps": 1000}})",
                      "hardware.fp16_tflops",
                      "must be between 0.001 and 1000000.0, got 10000000.0"));
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": 100, "mem_bw_gbps": 1e8}})",
                      "hardware.mem_bw_gbps",
                      "must be between 0.001 and 10000000.0, got 100000000.0"));
  EXPECT_TRUE(IsError("eval",
                      R"({"hardware": {"fp16_tflops": 100, "mem_bw_gbps": 1000, "mem_gb": 0}})",
                      "hardware.mem_gb", "must be between 0.001 and 1000000.0, got 0.0"));
  EXPECT_TRUE(IsError(
      "eval", R"({"hardware": {"fp16_tflops": 100, "mem_bw_gbps": 1000, "fp8_tflops": -1}})",
      "hardware.fp8_tflops", "must be between 0.0 and 1000000.0, got -1.0"));
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": "fast", "mem_bw_gbps": 1000}})",
                      "hardware.fp16_tflops", "enter a number, not 'fast'"));
  EXPECT_TRUE(IsError("eval", R"({"hardware": {"fp16_tflops": 100}})", "hardware.mem_bw_gbps",
                      "is required for a custom GPU"));
  EXPECT_TRUE(IsError("eval",
                      R"({"gpus": 2, "hardware": {"fp16_tflops": 100, "mem_bw_gbps": 1000}})",
                      "hardware.interconnect_gbps",
                      "must be positive when gpus > 1 (tensor parallelism needs a link)"));
}

TEST(Validation, ExtremeAllowedCustomGpusStayFinite) {
  // The smallest and largest numbers each field allows, with the smallest and largest
  // models: times become absurd (hours per token, or picoseconds) but stay finite.
  const std::string tiny_gpu =
      R"({"fp16_tflops": 0.001, "mem_bw_gbps": 0.001, "mem_gb": 0.001, "fp8_tflops": 0, "interconnect_gbps": 0.001})";
  const std::string huge_gpu =
      R"({"fp16_tflops": 1e6, "mem_bw_gbps": 1e7, "mem_gb": 1e6, "fp8_tflops": 1e6, "interconnect_gbps": 1e7})";
  const std::string tiny_model =
      R"({"num_layers": 1, "hidden": 1, "intermediate": 1, "heads": 1, "vocab": 1})";
  const std::string huge_model =
      R"({"num_layers": 1024, "hidden": 131072, "intermediate": 1048576, "heads": 1024,
          "vocab": 4194304, "experts": 1024, "experts_per_token": 1024, "head_dim": 4096})";
  for (const std::string& gpu : {tiny_gpu, huge_gpu}) {
    for (const std::string& model : {tiny_model, huge_model}) {
      for (const char* f : {"sps", "eagle2", "medusa"}) {
        for (const char* dtype : {"fp16", "fp8", "int4"}) {
          ExpectFiniteOrRefused("eval", R"({"hardware": )" + gpu + R"(, "target": )" + model +
                                            R"(, "dtype": ")" + dtype +
                                            R"(", "gpus": 2, "method": ")" + f +
                                            R"(", "batch": 4096, "context": 1048576})");
        }
      }
    }
  }
}

// ---- keys and types -----------------------------------------------------------------------

TEST(Validation, UnknownKeysAreRefusedEverywhere) {
  EXPECT_TRUE(IsError(
      "eval", R"({"bogus": 1})", "bogus",
      "unknown field; expected one of: version, target, hardware, gpus, parallelism, runtime, "
      "batch, context, memory_utilization, temperature, offload, dtype, method, acceptance, load"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "sps", "kk": 1}})", "method.kk",
                      "unknown field; expected one of: family, draft, k, choices, tree_size, "
                      "depth, sequences, draft_p_min, draft_min"));
  EXPECT_TRUE(IsError("eval", R"({"dtype": {"weights": "fp16", "act": "fp16"}})", "dtype.act",
                      "unknown field; expected one of: weights, kv"));
  EXPECT_TRUE(IsError(
      "eval", R"({"runtime": {"warp_speed": 1}})", "runtime.warp_speed",
      "unknown field; expected one of: profile, measured_decode_step_s, measured_decode_batch, "
      "bw_efficiency, kv_bw_efficiency, flops_efficiency, overlap, pass_overhead_s, "
      "layer_overhead_s, step_overhead_s, seq_overhead_s, request_overhead_s, cycle_overhead_s, "
      "tree_overhead_s, proposer_cycle_s, eagle3_step_overhead_s, draft_model_step_s, "
      "unoverlapped_sched_s, allreduce_latency_s, score_bytes_per_element, "
      "matvec_max_rows, matvec_flops_efficiency, "
      "matmul_tile_rows, matvec_overlap, kernel_floor_s, kernels_per_layer, "
      "gemm_kernels_per_layer, "
      "kernels_per_pass, arch_kernel_s, act_quant_kernel_s, moe_bw_efficiency, moe_call_s, "
      "moe_slice_k_s, "
      "method_op_s, host_sync_s, "
      "baseline_layer_syncs"));
  // Shares of the shorter time hidden under the longer are 0..1 (overlap 5 was accepted and
  // subtracted four times the shorter time from each kernel's).
  EXPECT_TRUE(IsError("eval", R"({"runtime": {"profile": "vllm", "overlap": 5}})",
                      "runtime.overlap", "must be between 0.0 and 1.0, got 5.0"));
  EXPECT_TRUE(IsError("eval", R"({"runtime": {"profile": "mlx", "matvec_overlap": -0.1}})",
                      "runtime.matvec_overlap", "must be between 0.0 and 1.0, got -0.1"));
  EXPECT_TRUE(
      IsError("eval", R"({"acceptance": {"beta": 0.5}})", "acceptance.beta",
              "unknown field; expected one of: tau, alpha, per_position, p, medusa, workload, "
              "published"));
  EXPECT_TRUE(IsError("tree-expect",
                      R"({"choices": [[0]], "acceptance": {"alpha": 0.5}, "bogus": 1})", "bogus",
                      "unknown field; expected one of: choices, acceptance, simulate"));
  EXPECT_TRUE(IsError(
      "tree-expect",
      R"({"choices": [[0]], "acceptance": {"alpha": 0.5}, "simulate": {"trials": 10, "runs": 1}})",
      "simulate.runs", "unknown field; expected one of: trials, seed"));
  EXPECT_TRUE(IsError(
      "tree-optimize", R"({"acceptance": {"alpha": 0.5}, "budget": 4, "depth": 2})", "depth",
      "unknown field; expected one of: acceptance, budget, max_depth, max_rank, contiguous"));
  EXPECT_TRUE(
      IsError("tree-preset", R"({"name": "eagle1", "k": 2})", "k",
              "unknown field; expected one of: name, acceptance, total_token, depth, top_k"));
  EXPECT_TRUE(IsError("tree-calibrate", R"({"eagle2": {"total_token": 60, "topk": 10}, "tau": 3})",
                      "eagle2.topk", "unknown field; expected one of: total_token, depth, top_k"));
  EXPECT_TRUE(IsError("convert", R"({"k": 4, "tau": 2, "beta": 1})", "beta",
                      "unknown field; expected one of: k, choices, preset, alpha, tau, "
                      "tau_without_bonus, mean_acceptance_length, draft_acceptance_rate, "
                      "per_position, per_position_joint"));
  EXPECT_TRUE(IsError(
      "tables", R"({"bogus": 1})", "bogus",
      "unknown field; expected one of: method, model, dataset, source, hardware, temperature, "
      "model_id, comparable, format, offset, limit"));
}

TEST(Validation, WrongTypesNameTheField) {
  EXPECT_TRUE(IsError("eval", R"({"batch": "4"})", "batch", "enter a whole number, not '4'"));
  EXPECT_TRUE(
      IsError("eval", R"({"batch": true})", "batch", "enter a whole number, not a boolean"));
  EXPECT_TRUE(IsError("eval", R"({"batch": null})", "batch", "enter a whole number, not null"));
  EXPECT_TRUE(IsError("eval", R"({"batch": [1]})", "batch", "enter a whole number, not an array"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"per_position": [0.5, "x"]}})",
                      "acceptance.per_position[1]", "enter a number, not 'x'"));
  EXPECT_TRUE(
      IsError("eval", R"({"dtype": 16})", "dtype", "must be a string or an object {weights, kv}"));
  EXPECT_TRUE(IsError("eval", "[]", "", "the config must be a JSON object"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"acceptance": {"alpha": 0.5}, "budget": 8, "contiguous": 1})",
                      "contiguous", "must be true or false"));
  EXPECT_TRUE(IsError("tree-expect", R"({"choices": [[0.5]], "acceptance": {"alpha": 0.5}})",
                      "choices[0][0]", "enter a whole number, not 0.5"));
  EXPECT_TRUE(IsError("tree-expect", "[]", "", "input must be a JSON object"));
  EXPECT_TRUE(IsError("eval",
                      R"({"target": {"num_layers": 2, "hidden": 64, "intermediate": 128,
                          "heads": 4, "vocab": 100, "quantized_experts_only": 1}})",
                      "target.quantized_experts_only", "must be true or false, got an integer"));
  EXPECT_TRUE(IsError("eval",
                      R"({"target": {"num_layers": 2, "hidden": 64, "intermediate": 128,
                          "heads": 4, "vocab": 100, "gated_mlp": "no"}})",
                      "target.gated_mlp", "must be true or false, got a string"));
  EXPECT_TRUE(IsError("eval",
                      R"({"target": {"num_layers": 2, "hidden": 64, "intermediate": 128,
                          "heads": 4, "vocab": 100, "mlp_bias": 1}})",
                      "target.mlp_bias", "must be true or false, got an integer"));
  EXPECT_TRUE(IsError("sweep", R"({"config": 1, "axis": "batch", "values": [1]})", "config",
                      "is required and must be a config object"));
}

TEST(Validation, RepeatedJsonKeysAreRefused) {
  // nlohmann keeps the last of two equal keys; a config that says batch twice is ambiguous.
  EXPECT_TRUE(IsError("eval", R"({"batch": 1, "batch": 2})", "batch",
                      "appears more than once in its object (JSON keys must be unique)"));
  EXPECT_TRUE(IsError("eval", R"({"method": {"family": "sps", "k": 1, "k": 2}})", "method.k",
                      "appears more than once in its object (JSON keys must be unique)"));
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"p": [[0.1], {"a": 1, "a": 2}]}})",
                      "acceptance.p[1].a",
                      "appears more than once in its object (JSON keys must be unique)"));
  // Scalars and containers both count as array elements: [0.5, [1, {..}]] puts the object at
  // [1][1].
  EXPECT_TRUE(IsError("eval", R"({"acceptance": {"p": [0.5, [1, {"a": 1, "a": 2}]]}})",
                      "acceptance.p[1][1].a",
                      "appears more than once in its object (JSON keys must be unique)"));
  EXPECT_TRUE(IsError("tree-optimize",
                      R"({"budget": 1, "budget": 2, "acceptance": {"alpha": 0.5}})", "budget",
                      "appears more than once in its object (JSON keys must be unique)"));
  // Equal keys in different objects are fine.
  Ok("eval", R"({"method": {"family": "sps", "k": 2}, "acceptance": {"alpha": 0.5}, "batch": 2})");
}

// ---- document size and nesting ------------------------------------------------------------

TEST(Validation, InputsOverOneMegabyteAreRefusedBeforeParsing) {
  const std::string big(1048577, ' ');
  for (const char* command :
       {"eval", "eval-link", "link", "decode-link", "normalize", "tree-expect", "tree-optimize",
        "tree-preset", "tree-calibrate", "convert", "sweep", "tables"}) {
    EXPECT_TRUE(IsError(command, big, "", "input is 1048577 bytes; the limit is 1048576 bytes"))
        << command;
  }
  // Just under the limit, a config padded with whitespace is fine.
  const std::string padded = "{\"batch\": 2" + std::string(1048576 - 12, ' ') + "}";
  ASSERT_EQ(padded.size(), 1048576u);
  EXPECT_EQ(Ok("normalize", padded)["batch"], 2);
}

TEST(Validation, DeeplyNestedJsonIsRefusedBeforeParsing) {
  const std::string open(100000, '['), close(100000, ']');
  EXPECT_TRUE(IsError("eval", open, "", "the config is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("eval", open + close, "", "the config is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("normalize", open + close, "", "the config is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("tree-expect", open + close, "", "input is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("tree-optimize", open, "", "input is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("tree-preset", open + close, "", "input is nested deeper than 16 levels"));
  EXPECT_TRUE(IsError("convert", open + close, "", "input is nested deeper than 16 levels"));
  EXPECT_TRUE(
      IsError("sweep", open + close, "", "the sweep request is nested deeper than 24 levels"));
  EXPECT_TRUE(IsError("tables", open + close, "", "tables query is nested deeper than 16 levels"));
  std::string objects;
  for (int i = 0; i < 50000; ++i) objects += "{\"a\":";
  EXPECT_TRUE(IsError("eval", objects + "1" + std::string(50000, '}'), "",
                      "the config is nested deeper than 16 levels"));
  // Brackets inside strings do not count: this is a (bad) preset id, not a deep document.
  const speccalc::Response r =
      speccalc::run("eval", R"({"target": ")" + open.substr(0, 1000) + R"("})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target");
}

// ---- hostile strings ----------------------------------------------------------------------

TEST(Validation, ScriptTagsComeBackOnlyInsideJsonStrings) {
  const std::string name = "<script>alert(1)</script>\"</b><img src=x onerror=alert(2)>\\";
  json config = {{"target",
                  {{"name", name},
                   {"num_layers", 2},
                   {"hidden", 64},
                   {"intermediate", 128},
                   {"heads", 4},
                   {"vocab", 100}}}};
  const speccalc::Response r = speccalc::run("eval", config.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  // The output is one JSON document; the hostile name is a string value in it, with its
  // quote and backslash escaped, so it cannot end the string and become markup or code.
  const json out = json::parse(r.output);
  EXPECT_EQ(out["config"]["target"]["name"], name);
  EXPECT_NE(r.output.find(R"(\"</b><img src=x onerror=alert(2)>\\)"), std::string::npos);
  // Each occurrence of the tag in the raw text lies inside a string token.
  std::size_t pos = 0;
  int seen = 0;
  while ((pos = r.output.find("<script>", pos)) != std::string::npos) {
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < pos; ++i) {
      const char c = r.output[i];
      if (escaped)
        escaped = false;
      else if (in_string && c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = !in_string;
    }
    EXPECT_TRUE(in_string) << "at byte " << pos;
    ++seen;
    ++pos;
  }
  EXPECT_GE(seen, 2);  // config.target.name and the "target: ..." assumption
  // In errors the text is data too: the page shows the message as text.
  EXPECT_TRUE(IsError(
      "eval", R"({"<script>alert(1)</script>": 1})", "<script>alert(1)</script>",
      "unknown field; expected one of: version, target, hardware, gpus, parallelism, runtime, "
      "batch, context, memory_utilization, temperature, offload, dtype, method, acceptance, load"));
}

TEST(Validation, QuotedUntrustedTextIsShortAndPrintable) {
  // Control characters and long keys are masked and cut (on a character boundary) before
  // they reach a message.
  EXPECT_TRUE(IsError(
      "eval", R"({"a\u0001b\nc": 1})", "a?b?c",
      "unknown field; expected one of: version, target, hardware, gpus, parallelism, runtime, "
      "batch, context, memory_utilization, temperature, offload, dtype, method, acceptance, load"));
  std::string key;
  for (int i = 0; i < 40; ++i) key += "\xC3\xA9";  // 40 x U+00E9 = 80 bytes
  // 64 bytes = 32 whole characters, then "...".
  std::string shown;
  for (int i = 0; i < 32; ++i) shown += "\xC3\xA9";
  EXPECT_TRUE(IsError(
      "eval", "{\"" + key + "\": 1}", shown + "...",
      "unknown field; expected one of: version, target, hardware, gpus, parallelism, runtime, "
      "batch, context, memory_utilization, temperature, offload, dtype, method, acceptance, load"));
  EXPECT_TRUE(IsError("tree-preset", "\xFF\xFE", "name", "is not valid UTF-8 text"));
  EXPECT_TRUE(IsError("tree-preset", std::string(65, 'x'), "name",
                      "is not a tree preset name (longer than 64 characters)"));
}

// ---- cost bounds --------------------------------------------------------------------------

TEST(Validation, ExpensiveRequestsAreRefusedUpFront) {
  // tree-calibrate regenerates an EAGLE-2 tree ~1100 times: 64 + 63 * 64^2 = 258112
  // candidates per tree took 45 s before this limit.
  EXPECT_TRUE(IsError(
      "tree-calibrate",
      R"({"eagle2": {"total_token": 1025, "depth": 64, "top_k": 64}, "tau": 1.5})", "eagle2",
      "calibrating regenerates the tree about 1100 times; 258112 candidates per "
      "tree (top_k + (depth - 1) * top_k^2) is over the limit of 8000 (use a smaller "
      "depth or top_k)"));
  // 7 * 62^2 + 62 = 26970 candidates: 1.1 s native, a fuzzer timeout under sanitizers.
  EXPECT_TRUE(
      IsError("tree-calibrate",
              R"({"tau": 4.81, "eagle2": {"total_token": 60, "depth": 8, "top_k": 62}})", "eagle2",
              "calibrating regenerates the tree about 1100 times; 26970 candidates per "
              "tree (top_k + (depth - 1) * top_k^2) is over the limit of 8000 (use a smaller "
              "depth or top_k)"));
  // A 400 x 400 sweep grid is over 100000 points.
  json axes = json::array();
  for (const char* path : {"batch", "context"}) {
    json values = json::array();
    for (int i = 1; i <= 400; ++i) values.push_back(i);
    axes.push_back({{"path", path}, {"values", values}});
  }
  EXPECT_TRUE(IsError("sweep", json{{"config", json::object()}, {"axes", axes}}.dump(),
                      "axes[1].values", "the grid has more than 100000 points"));
}

TEST(Validation, SizeWithDegenerateAcceptanceDoesNotCrash) {
  // Regression: size read past the optimal tree when it was smaller than the budget.
  // alpha = 0 or tau = 1 (one token per cycle: no draft token is ever accepted): no node has
  // a nonzero acceptance probability, so there is nothing to size.
  for (const char* family : {"eagle1", "eagle2", "medusa"}) {
    for (const char* acceptance : {R"({"alpha": 0})", R"({"tau": 1})"}) {
      EXPECT_TRUE(IsError("size",
                          std::string(R"({"budget": 32, "config": {"method": ")") + family +
                              R"(", "acceptance": )" + acceptance + "}}",
                          "config.acceptance",
                          "no draft node has a nonzero acceptance probability"))
          << family << " " << acceptance;
    }
  }
  // alpha = 1: p[d][0] = 1 and p[d][r > 0] = 0, so only the rank-0 chain adds tokens and the
  // best tree has at most max_depth = 8 nodes although the budget is 32.
  const json r =
      Ok("size", R"({"budget": 32, "config": {"method": "eagle1", "acceptance": {"alpha": 1}}})");
  EXPECT_LE(r["best"]["nodes"].get<int>(), 8);
  EXPECT_GE(r["best"]["nodes"].get<int>(), 1);
}

// ---- no NaN or Inf anywhere ---------------------------------------------------------------

TEST(Validation, NoOutputContainsNonFiniteNumbers) {
  // A broad grid of valid and edge inputs through every computing command.
  const char* const acceptances[] = {
      R"({"alpha": 0})",
      R"({"alpha": 1})",
      R"({"alpha": 1e-300})",
      R"({"alpha": 0.9999999999999999})",
      R"({"tau": 1})",
      R"({"per_position": [0]})",
      R"({"per_position": [1, 1, 1]})",
      R"({"p": [[0, 0], [1]]})",
  };
  const char* const shapes[] = {
      R"("batch": 1, "context": 0)",
      R"("batch": 4096, "context": 1048576)",
      R"("batch": 7, "context": 1, "gpus": 8, "target": "llama2-chat-70b", "hardware": "h100-sxm")",
      R"("hardware": {"fp16_tflops": 0.001, "mem_bw_gbps": 0.001}, "dtype": "fp8")",
      R"("runtime": {"profile": "compiled", "pass_overhead_s": 0, "layer_overhead_s": 0, "cycle_overhead_s": 0, "allreduce_latency_s": 0, "bw_efficiency": 1, "flops_efficiency": 1})",
      R"("runtime": {"profile": "hf-eager", "measured_decode_step_s": 100})",
  };
  int evaluated = 0;
  for (const char* f : kFamilies) {
    for (const char* a : acceptances) {
      for (const char* s : shapes) {
        const std::string config =
            std::string("{\"method\": \"") + f + "\", \"acceptance\": " + a + ", " + s + "}";
        ExpectFiniteOrRefused("eval", config);
        ExpectFiniteOrRefused("normalize", config);
        ++evaluated;
      }
    }
  }
  EXPECT_EQ(evaluated, 9 * 8 * 6);
  for (const char* a : {R"({"alpha": 0})", R"({"alpha": 1})", R"({"p": [[0]]})", R"({"p": [[1]]})",
                        R"({"per_position": [0, 1]})", R"({"medusa": "vicuna-7b"})"}) {
    const std::string acc = std::string("\"acceptance\": ") + a;
    ExpectFiniteOrRefused("tree-expect", "{\"choices\": [[0], [1], [0, 0]], " + acc +
                                             ", \"simulate\": {\"trials\": 1000}}");
    ExpectFiniteOrRefused("tree-expect", "{\"choices\": [], " + acc + "}");
    ExpectFiniteOrRefused("tree-optimize", "{\"budget\": 64, " + acc + "}");
    ExpectFiniteOrRefused("tree-optimize",
                          "{\"budget\": 16, \"max_depth\": 3, \"max_rank\": 2, "
                          "\"contiguous\": true, " +
                              acc + "}");
    ExpectFiniteOrRefused("tree-preset", "{\"name\": \"eagle2\", " + acc + "}");
    ExpectFiniteOrRefused("tree-preset", "{\"name\": \"eagle1\", " + acc + "}");
    ExpectFiniteOrRefused("tree-calibrate",
                          "{\"k\": 4, \"tau\": 3, \"family\": \"scale\", " + acc + "}");
  }
  for (const char* metric :
       {R"("alpha": 0)", R"("alpha": 1)", R"("tau": 1)", R"("tau": 5)",
        R"("draft_acceptance_rate": 0)", R"("draft_acceptance_rate": 1)",
        R"("per_position": [0, 0, 0, 0])", R"("per_position_joint": [1, 1, 1, 1])",
        R"("mean_acceptance_length": 1)", R"("tau_without_bonus": 4)"}) {
    ExpectFiniteOrRefused("convert", std::string("{\"k\": 4, ") + metric + "}");
    ExpectFiniteOrRefused("convert", std::string("{\"preset\": \"eagle1\", ") + metric + "}");
  }
  for (const char* tau : {"1", "1.0000001", "3", "5", "4.9999999"}) {
    ExpectFiniteOrRefused("tree-calibrate", std::string("{\"k\": 4, \"tau\": ") + tau + "}");
    ExpectFiniteOrRefused("tree-calibrate", std::string("{\"eagle2\": {}, \"tau\": ") + tau + "}");
  }
  for (const char* a : {R"({"alpha": 0})", R"({"alpha": 1})", R"({"tau": 1})"}) {
    for (const char* f : {"sps", "eagle2", "medusa", "eagle1"}) {
      const std::string config =
          std::string("{\"method\": \"") + f + "\", \"batch\": 4096, \"acceptance\": " + a + "}";
      ExpectFiniteOrRefused("size", "{\"config\": " + config + ", \"budget\": 32}");
      ExpectFiniteOrRefused("export", config);
    }
  }
  ExpectFiniteOrRefused("sweep", R"({"config": {"method": "sps"}, "axes": [
      {"path": "acceptance.alpha", "values": [0, 0.5, 1]}, {"path": "batch", "values": [1, 4096]},
      {"path": "context", "values": [0, 1048576]}, {"path": "method.k", "values": [0, 64]}]})");
  ExpectFiniteOrRefused("sweep", R"({"config": {"method": "eagle2"}, "axis": "batch",
      "values": [1, 64, 4096], "detail": "full"})");
}

// ---- the final guard ----------------------------------------------------------------------

TEST(OutputGuard, NullWhereNoneIsDocumentedBecomesAnInternalError) {
  speccalc::Response r;
  r.ok = true;
  // nlohmann prints NaN as null: this is what a NaN speedup would look like.
  r.output = json{{"tau", 1.5}, {"speedup", std::nan("")}}.dump();
  ASSERT_EQ(r.output, R"({"speedup":null,"tau":1.5})");
  const speccalc::Response g = speccalc::guard_output("eval", r);
  EXPECT_FALSE(g.ok);
  EXPECT_EQ(g.output, "");
  EXPECT_EQ(g.error.field, "");
  EXPECT_EQ(g.error.message,
            "internal error: command 'eval' produced a non-finite number at speedup; please "
            "report the input that caused it");
  r.output = R"({"points": [{"values": [1], "tau": null}]})";
  EXPECT_EQ(speccalc::guard_output("sweep", r).error.message,
            "internal error: command 'sweep' produced a non-finite number at points[0].tau; "
            "please report the input that caused it");
}

TEST(OutputGuard, DocumentedNullsAndTextOutputsPass) {
  speccalc::Response r;
  r.ok = true;
  r.output = R"({"alpha": null, "tau": 2.0})";  // convert: no alpha reproduces this tau
  EXPECT_TRUE(speccalc::guard_output("convert", r).ok);
  r.output = R"({"axes": [{"path": "batch", "values": [null]}], "break_even_batch": null,
                 "points": [{"values": [null], "error": {"field": "batch", "message": "x"}}]})";
  EXPECT_TRUE(speccalc::guard_output("sweep", r).ok);
  r.output = "v=1&target=null";  // link prints text, not JSON
  EXPECT_TRUE(speccalc::guard_output("link", r).ok);
  r.output = R"({"name": "null"})";  // the word inside a string is not a null
  EXPECT_TRUE(speccalc::guard_output("eval", r).ok);
  speccalc::Response failed;
  failed.error = {"batch", "must be an integer"};
  EXPECT_EQ(speccalc::guard_output("eval", failed).error.message, "must be an integer");
}

// One reader for trees and acceptances (config/tree_input.cpp): the config and the tree
// commands refuse the same bad input with the same words. Each expected message is written
// out from the rule: probabilities lie in [0, 1]; sibling acceptances exclude each other, so
// a row of p sums to at most 1 (0.75 + 0.5 = 1.25); ranks are whole numbers.
TEST(Validation, ConfigAndTreeCommandsShareOneAcceptanceAndChoicesReader) {
  const std::string eval_prefix = R"({"method": {"family": "medusa", "choices": [[0], [1]]}, )";
  struct Case {
    std::string acceptance, field, message;
  };
  const Case cases[] = {
      {R"({"per_position": [0.5, 1.5]})", "acceptance.per_position[1]",
       "must be between 0.0 and 1.0, got 1.5"},
      {R"({"per_position": []})", "acceptance.per_position",
       "must be a list of 1 to 64 probabilities"},
      {R"({"p": [[0.75, 0.5]]})", "acceptance.p[0]",
       "sums to 1.25; sibling acceptances are exclusive, so a row sums to at most 1"},
      {R"({"medusa": 7})", "acceptance.medusa", ""},
  };
  for (const Case& c : cases) {
    const speccalc::Response e =
        speccalc::run("eval", eval_prefix + R"("acceptance": )" + c.acceptance + "}");
    const speccalc::Response t = speccalc::run(
        "tree-expect", R"({"choices": [[0], [1]], "acceptance": )" + c.acceptance + "}");
    ASSERT_FALSE(e.ok) << c.acceptance;
    ASSERT_FALSE(t.ok) << c.acceptance;
    EXPECT_EQ(e.error.field, c.field) << c.acceptance;
    EXPECT_EQ(t.error.field, c.field) << c.acceptance;
    EXPECT_EQ(e.error.message, t.error.message) << c.acceptance;
    if (!c.message.empty()) {
      EXPECT_EQ(e.error.message, c.message) << c.acceptance;
    }
  }
  // Choices: the same path rules (only the node limit differs: 1,024 in a config's tree,
  // 4,096 in the tree solver).
  const speccalc::Response e =
      speccalc::run("eval", R"({"method": {"family": "medusa", "choices": [[0], [0.5]]}})");
  const speccalc::Response t =
      speccalc::run("tree-expect", R"({"choices": [[0], [0.5]], "acceptance": {"alpha": 0.5}})");
  ASSERT_FALSE(e.ok);
  ASSERT_FALSE(t.ok);
  EXPECT_EQ(e.error.field, "method.choices[1][0]");
  EXPECT_EQ(t.error.field, "choices[1][0]");
  EXPECT_EQ(e.error.message, "enter a whole number, not 0.5");
  EXPECT_EQ(t.error.message, e.error.message);
}

namespace {

std::string context_error(const std::string& who, int64_t max, int64_t context) {
  return who + " is configured for at most " + std::to_string(max) +
         " tokens (max_position_embeddings in its config.json): a context of " +
         std::to_string(context) +
         " must stay below that, with room for the new tokens. A config.json whose rope scaling "
         "(YaRN) allows more lifts it";
}

TEST(Validation, AContextBeyondTheModelsPositionsIsRefused) {
  // Llama-3.1-8B-Instruct's config.json: "max_position_embeddings": 131072
  // (core/data/model-context.json). The last context with room for a new token is 131071.
  const json ok = Ok(
      "eval", R"({"target": "llama3.1-8b-instruct", "hardware": "h100-sxm", "context": 131071})");
  EXPECT_EQ(ok["memory"]["max_context"], 131071);  // memory alone would allow more (72 GB)
  EXPECT_TRUE(IsError("eval",
                      R"({"target": "llama3.1-8b-instruct", "hardware": "h100-sxm",
                          "context": 400000})",
                      "context",
                      context_error("the target Llama-3.1-8B-Instruct", 131072, 400000)));
  // Vicuna-7B v1.3: 2048 positions.
  EXPECT_TRUE(IsError("eval", R"({"target": "vicuna-7b-v1.3", "context": 2048})", "context",
                      context_error("the target vicuna-7b-v1.3", 2048, 2048)));
  // The draft reads the same context: TinyLlama-1.1B (2048) under Llama-2-7B (4096).
  EXPECT_TRUE(IsError("eval",
                      R"({"target": "llama2-chat-7b", "context": 3000,
                          "method": {"family": "sps", "draft": "tinyllama-1.1b"}})",
                      "method.draft",
                      context_error("the draft TinyLlama-1.1B-Chat-v1.0", 2048, 3000)));
  // A custom model carries its own limit; a config.json its max_position_embeddings.
  const std::string custom =
      R"({"target": {"name": "m", "num_layers": 2, "hidden": 64, "intermediate": 128, "heads": 4,
                     "vocab": 100, "max_position_embeddings": 1000}, "context": )";
  Ok("eval", custom + "999}");
  EXPECT_TRUE(
      IsError("eval", custom + "1000}", "context", context_error("the target m", 1000, 1000)));
  EXPECT_TRUE(IsError("eval", R"({"target": {"name": "m", "num_layers": 2, "hidden": 64,
                          "intermediate": 128, "heads": 4, "vocab": 100,
                          "max_position_embeddings": -1}})",
                      "target.max_position_embeddings", "must be between 0 and 134217728, got -1"));
  const std::string hf =
      R"({"target": {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
                     "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100,
                     "max_position_embeddings": 512}, "context": 600})";
  EXPECT_TRUE(IsError("eval", hf, "context", context_error("the target llama", 512, 600)));
}

}  // namespace
