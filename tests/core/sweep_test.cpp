// The sweep must give, point for point, what a separate `eval` of that point's config gives:
// its fast path (batch and context set on a config parsed once) and its memo of tau are
// optimizations, never a different answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

TEST(Sweep, EveryPointEqualsASeparateEvaluation) {
  const json base = {{"target", "llama2-chat-7b"}, {"hardware", "a100-80gb-sxm"}};
  const json families = {"sps", "medusa", "eagle2"};
  // Invalid batch/context values take the slow path and must carry eval's exact error.
  const json batches = {1, 16, 0, 5000, 2.5, "x"};
  // 4096 is in range but not below Llama-2's 4096 positions: refused on the fast path too.
  const json contexts = {0, 4000, 4096, -1};
  const json alphas = {0.6, 0.9};
  const json request = {{"config", base},
                        {"axes",
                         {{{"path", "method.family"}, {"values", families}},
                          {{"path", "batch"}, {"values", batches}},
                          {{"path", "context"}, {"values", contexts}},
                          {{"path", "acceptance.alpha"}, {"values", alphas}}}}};
  const speccalc::Response r = speccalc::run("sweep", request.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json points = json::parse(r.output)["points"];
  ASSERT_EQ(points.size(), 3u * 6u * 4u * 2u);
  std::size_t n = 0, evaluated = 0, refused = 0;
  for (const auto& family : families) {
    for (const auto& batch : batches) {
      for (const auto& context : contexts) {
        for (const auto& alpha : alphas) {
          json config = base;
          config["method"] = {{"family", family}};
          config["batch"] = batch;
          config["context"] = context;
          config["acceptance"] = {{"alpha", alpha}};
          const speccalc::Response single = speccalc::run("eval", config.dump());
          const json& p = points[n++];
          const std::string where = config.dump();
          ASSERT_EQ(p["values"], json::array({family, batch, context, alpha})) << where;
          if (!single.ok) {
            ++refused;
            ASSERT_TRUE(p.contains("error")) << where;
            EXPECT_EQ(p["error"]["field"], single.error.field) << where;
            EXPECT_EQ(p["error"]["message"], single.error.message) << where;
            continue;
          }
          ++evaluated;
          const json e = json::parse(single.output);
          ASSERT_FALSE(p.contains("error")) << where << " " << p.dump();
          // Bit-identical, not merely close: the same arithmetic on the same inputs.
          EXPECT_EQ(p["speedup"], e["speedup"]) << where;
          EXPECT_EQ(p["tau"], e["tau"]) << where;
          EXPECT_EQ(p["tokens_per_s"], e["tokens_per_s"]) << where;
          EXPECT_EQ(p["cycle_time_s"], e["cycle_time_s"]) << where;
          EXPECT_EQ(p["verify_time_s"], e["verify"]["time_s"]) << where;
          EXPECT_EQ(p["draft_time_s"], e["draft"]["time_s"]) << where;
          EXPECT_EQ(p["baseline_time_s"], e["baseline_step_s"]) << where;
          EXPECT_EQ(p["baseline_tokens_per_s"], e["baseline_tokens_per_s"]) << where;
          EXPECT_EQ(p["verify_arithmetic_intensity"], e["verify"]["arithmetic_intensity"]) << where;
          EXPECT_EQ(p["verify_bound"], e["verify"]["bound"]) << where;
          EXPECT_EQ(p["fits_in_memory"], e["memory"]["fits"]) << where;
          EXPECT_EQ(p["max_batch"], e["memory"]["max_batch"]) << where;
          EXPECT_EQ(p["verdict"], e["verdict"]) << where;
          // The summary is exactly these fields and the values: nothing more, nothing less.
          EXPECT_EQ(p.size(), 14u) << where;
        }
      }
    }
  }
  // 3 families x 2 valid batches x 2 valid contexts x 2 alphas evaluate; the rest are refused.
  EXPECT_EQ(evaluated, 24u);
  EXPECT_EQ(refused, 120u);
}

TEST(Sweep, FullDetailEqualsEvalOutput) {
  const json request = {{"config", {{"method", {{"family", "eagle1"}}}}},
                        {"axis", "batch"},
                        {"values", {1, 8}},
                        {"detail", "full"}};
  const speccalc::Response r = speccalc::run("sweep", request.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json points = json::parse(r.output)["points"];
  for (int i = 0; i < 2; ++i) {
    const json config = {{"method", {{"family", "eagle1"}}}, {"batch", i == 0 ? 1 : 8}};
    EXPECT_EQ(points[i]["result"], json::parse(speccalc::run("eval", config.dump()).output));
  }
}

// A grid over batch and context evaluates each point on one cost plan per combination of the
// other axes (model/cost_plan.hpp). A testbed-calibrated runtime is fitted at the config's own
// context (and batch, when the measurement names none), so the plan redoes it per point: every
// point's full result must still be byte for byte eval's, for every family, with and without it.
TEST(Sweep, CostPlanPointsAreEvalByteForByte) {
  const json families = {"ar",    "sps",    "pld",    "lookahead", "medusa",
                         "hydra", "eagle1", "eagle2", "eagle3"};
  const json batches = {1, 7, 64};
  const json contexts = {0, 1000, 4000};
  for (const bool calibrated : {false, true}) {
    std::size_t refused = 0;
    json base = {{"target", "llama2-chat-7b"}, {"hardware", "a100-80gb-sxm"}};
    if (calibrated) base["runtime"] = {{"measured_decode_step_s", 0.05}};
    const json request = {{"config", base},
                          {"axes",
                           {{{"path", "method.family"}, {"values", families}},
                            {{"path", "batch"}, {"values", batches}},
                            {{"path", "context"}, {"values", contexts}}}},
                          {"detail", "full"}};
    const speccalc::Response r = speccalc::run("sweep", request.dump());
    ASSERT_TRUE(r.ok) << r.error.describe();
    const json points = json::parse(r.output)["points"];
    ASSERT_EQ(points.size(), families.size() * batches.size() * contexts.size());
    std::size_t n = 0;
    for (const auto& family : families) {
      for (const auto& batch : batches) {
        for (const auto& context : contexts) {
          json config = base;
          config["method"] = {{"family", family}};
          config["batch"] = batch;
          config["context"] = context;
          const speccalc::Response single = speccalc::run("eval", config.dump());
          const json& p = points[n++];
          if (!single.ok) {
            // A calibration faster than the GPU's bandwidth allows at this batch and context.
            ++refused;
            ASSERT_TRUE(p.contains("error")) << config.dump() << p.dump();
            EXPECT_EQ(p["error"]["message"], single.error.message) << config.dump();
            continue;
          }
          ASSERT_TRUE(p.contains("result")) << config.dump() << p.dump();
          EXPECT_EQ(p["result"].dump(), single.output) << config.dump();
        }
      }
    }
    // Without calibration every point evaluates; with it, only batch 64 at 8192 tokens of context
    // (64 x 8192 x 0.5 MB of KV = 268 GB to read, ~0.13 s on 2 TB/s) cannot take 50 ms.
    EXPECT_EQ(refused, calibrated ? families.size() : 0u);
  }
}

TEST(Sweep, DataParallelAttentionPointsAreEvalByteForByte) {
  // The cost plan keeps the parallelism of the setup: every point of a DP/EP sweep over batch
  // (uneven splits over 8 groups included) and family is the eval of that point's config.
  const json base = {{"target", "deepseek-v3"},
                     {"hardware", "h200-sxm"},
                     {"runtime", "sglang"},
                     {"dtype", "fp8"},
                     {"parallelism", {{"tensor", 2}, {"data_attention", 8}, {"expert", 16}}},
                     {"acceptance", {{"alpha", 0.8}}}};
  const json families = {"ar", "mtp", "eagle3"};
  const json batches = {1, 9, 512};
  const json request = {{"config", base},
                        {"axes",
                         {{{"path", "method.family"}, {"values", families}},
                          {{"path", "batch"}, {"values", batches}}}},
                        {"detail", "full"}};
  const speccalc::Response r = speccalc::run("sweep", request.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json points = json::parse(r.output)["points"];
  std::size_t n = 0;
  for (const auto& family : families) {
    for (const auto& batch : batches) {
      json config = base;
      config["method"] = {{"family", family}};
      config["batch"] = batch;
      const speccalc::Response single = speccalc::run("eval", config.dump());
      const json& p = points[n++];
      if (!single.ok) {
        ASSERT_TRUE(p.contains("error")) << config.dump();
        continue;
      }
      ASSERT_TRUE(p.contains("result")) << config.dump() << p.dump();
      EXPECT_EQ(p["result"].dump(), single.output) << config.dump();
    }
  }
}

TEST(Sweep, BestIsTheFastestPointThatFitsInMemory) {
  // Llama-3 70B with EAGLE-2: on one L40S (48 GB) the weights alone do not fit, yet the roofline
  // gives it the highest speedup of the grid (the least bandwidth: a verify is nearly free next
  // to its decode step); the MI300X (192 GB) fits. An unknown GPU errors.
  // The best point is found here by a plain scan of the points, independently of the core's.
  const json request = {{"config",
                         {{"target", "llama3-instruct-70b"},
                          {"method", {{"family", "eagle2"}}},
                          {"acceptance", {{"alpha", 0.8}}}}},
                        {"axis", "hardware"},
                        {"values", {"h100-sxm", "bogus", "a100-80gb-sxm", "mi300x", "l40s"}}};
  const speccalc::Response r = speccalc::run("sweep", request.dump());
  ASSERT_TRUE(r.ok) << r.error.describe();
  const json out = json::parse(r.output);
  const json& points = out["points"];
  int best = -1, fastest = -1;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    if (points[i].contains("error")) continue;
    const double s = points[i]["speedup"].get<double>();
    if (fastest < 0 || s > points[fastest]["speedup"].get<double>()) fastest = i;
    if (points[i]["fits_in_memory"] && (best < 0 || s > points[best]["speedup"].get<double>()))
      best = i;
  }
  ASSERT_GE(best, 0);
  EXPECT_FALSE(points[fastest]["fits_in_memory"].get<bool>()) << "the grid tests the rule";
  EXPECT_EQ(out["best"]["index"], best);
  EXPECT_EQ(out["best"]["values"], points[best]["values"]);
  EXPECT_EQ(out["best"]["speedup"], points[best]["speedup"]);

  // Nothing fits (a 70B model on 24 GB GPUs): best is null, not a point that does not fit.
  json none = request;
  none["values"] = {"rtx-3090", "rtx-4090"};
  const speccalc::Response n = speccalc::run("sweep", none.dump());
  ASSERT_TRUE(n.ok) << n.error.describe();
  EXPECT_TRUE(json::parse(n.output)["best"].is_null());
}

TEST(Sweep, AnMoeBatchSweepSaysWhyItsSpeedupDipsAndADenseOneDoesNot) {
  const json moe = {{"target", "deepseek-v3"},
                    {"hardware", "h200-sxm"},
                    {"gpus", 8},
                    {"dtype", "fp8"},
                    {"runtime", "sglang"},
                    {"method", {{"family", "mtp"}, {"k", 1}}}};
  auto sweep = [](const json& config) {
    const speccalc::Response r = speccalc::run(
        "sweep", json{{"config", config}, {"axis", "batch"}, {"values", {1, 8, 64}}}.dump());
    EXPECT_TRUE(r.ok) << r.error.describe();
    return json::parse(r.output);
  };
  const json s = sweep(moe);
  ASSERT_EQ(s["notes"].size(), 1u) << s.dump();
  // What the note says, on the model's own passes: the verify pass costs the most relative to
  // a decode step at the middle batch (8 of 256 experts per token, m = 248/256; a sequence's
  // second token repeats the first's experts at r = 0.12, so it skips a given expert with
  // probability m (0.12 + 0.88 m) = 0.94211: a decode step at batch 8 reads
  // 256 (1 - m^8) = 57.4 experts a layer and the 16-token verify 256 (1 - 0.94211^8) = 97.1
  // (x 1.69), against 8 -> 14.8 (x 1.85 of a smaller share) at batch 1 and 222.4 -> 250.4
  // (x 1.13) at batch 64).
  auto ratio = [&](int batch) {
    json c = moe;
    c["batch"] = batch;
    const speccalc::Response r = speccalc::run("eval", c.dump());
    EXPECT_TRUE(r.ok) << r.error.describe();
    const json e = json::parse(r.output);
    return e["verify"]["time_s"].get<double>() / e["baseline"]["time_s"].get<double>();
  };
  EXPECT_GT(ratio(8), ratio(1));
  EXPECT_GT(ratio(8), ratio(64));
  // A dense target, a one-value axis other than batch, and plain decoding: no note.
  json dense = moe;
  dense["target"] = "llama3.1-70b-instruct";
  dense["method"] = {{"family", "eagle3"}};
  dense.erase("dtype");
  EXPECT_FALSE(sweep(dense).contains("notes"));
  json plain = moe;
  plain["method"] = "ar";
  EXPECT_FALSE(sweep(plain).contains("notes"));
  // Sizing's schedule by batch says the same beside it (the walk: a schedule rising from 1.45x
  // at batch 8 to 2.27x at 128 with nothing said); a dense target's schedule, nothing.
  auto size_notes = [](const json& config) {
    const speccalc::Response r = speccalc::run("size", json{{"config", config}}.dump());
    EXPECT_TRUE(r.ok) << r.error.describe();
    return json::parse(r.output)["schedule_notes"];
  };
  EXPECT_EQ(size_notes(moe), s["notes"]);
  EXPECT_EQ(size_notes(dense), json::array());
}

}  // namespace
