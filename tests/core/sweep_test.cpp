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
  const json contexts = {0, 4096, -1};
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
  ASSERT_EQ(points.size(), 3u * 6u * 3u * 2u);
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
        }
      }
    }
  }
  // 3 families x 2 valid batches x 2 valid contexts x 2 alphas evaluate; the rest are refused.
  EXPECT_EQ(evaluated, 24u);
  EXPECT_EQ(refused, 84u);
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

}  // namespace
