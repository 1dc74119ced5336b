// Research code replayed as CUDA graphs (runtime "hf-graphs", issue 19 item 2): Sequoia's draft
// engine captures unfused PyTorch model code in a graph. The replay removes the host's launches,
// not the kernels: each of a layer's 36 small kernels and 7 GEMMs still holds the GPU at least
// the 2.5 us floor. Expected values are hand calculations from the counts in docs/host-ops.md
// ("hf-graphs") and the A100-SXM4-80GB preset (2039 GB/s).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::eval_ok;

// The draft's pass time for an eager Llama-2-7B target drafted by `draft` under `draft_runtime`
// on one A100-SXM4-80GB: Sequoia's setup.
double draft_pass_s(const std::string& draft, const std::string& draft_runtime) {
  const json r = eval_ok(
      R"({"target":"llama2-chat-7b","hardware":"a100-80gb-sxm","runtime":"hf-eager",
          "method":{"family":"sps","k":4,"draft":")" +
      draft + R"(","draft_runtime":")" + draft_runtime + R"("}})");
  return r["draft"]["time_per_pass_s"].get<double>();
}

json profile(const std::string& id) {
  const json table = json::parse(std::string(data::runtimes()));
  for (const json& p : table["profiles"])
    if (p["id"] == id) return p["params"];
  ADD_FAILURE() << "no profile " << id;
  return json::object();
}

// hf-eager's fitted values the graph profile takes (the same PyTorch and cuBLAS kernels).
constexpr double kBandwidthBps = 2039e9;
double bw_efficiency() { return profile("hf-eager")["bw_efficiency"].get<double>(); }
double pass_host_s() {
  // hf-eager's Python per forward + Sequoia's graph wrapper: 4 input copies, replay, clone.
  const json eager = profile("hf-eager");
  return eager["pass_overhead_s"].get<double>() + 6 * eager["method_op_s"].get<double>();
}

TEST(ResearchCodeInGraphs, ASixtyEightMDraftPassIsMostlyItsKernelFloor) {
  // vicuna-68m: 2 layers, hidden 768, MLP 3072, vocab 32,000, fp16.
  //   small kernels (2 x 36 + 14) x 2.5 us                                        = 215.0 us
  //   GEMMs: 2 x 7 x 2.5 us = 35 us, above their bytes
  //          (2 x (4 x 768^2 + 3 x 768 x 3072) x 2 B = 37.7 MB / (2039 GB/s x 0.712) = 26 us)
  //   LM head 32,000 x 768 x 2 B = 49.2 MB / (2039 GB/s x 0.712)                   =  33.9 us
  //   host per pass 11.0 + 6 x 5.23 us                                              =  42.4 us
  //   total                                                                        ~ 326 us
  // Issue 19 asks 0.4-0.7 ms: at 2.5 us a kernel Sequoia's 100 kernels reach 0.33 ms; the
  // band's low end needs 3.3 us a kernel, inside the cited 1.5-4 us but not the stated floor.
  const double lm_head_s = 32000.0 * 768 * 2 / (kBandwidthBps * bw_efficiency());
  const double hand_s = (2 * 36 + 14) * 2.5e-6 + 2 * 7 * 2.5e-6 + lm_head_s + pass_host_s();
  const double pass_s = draft_pass_s("vicuna-68m", "hf-graphs");
  EXPECT_NEAR(pass_s, hand_s, 0.03 * hand_s);
  EXPECT_GT(pass_s, 0.3e-3);
  // The fused graph stack (gpt-fast's 14 kernels a layer, no floor) prices it 3x cheaper: the
  // gap is the floor of unfused kernels.
  EXPECT_LT(draft_pass_s("vicuna-68m", "compiled"), 0.5 * pass_s);
}

TEST(ResearchCodeInGraphs, AOnePointThreeBDraftStepTakesOverThreeMilliseconds) {
  // sheared-llama-1.3b: 24 layers, hidden 2048, MLP 5504, vocab 32,000, fp16. Per layer the
  // small kernels' floor 36 x 2.5 us = 90 us and the GEMMs' weight stream
  // (4 x 2048^2 + 3 x 2048 x 5504) x 2 B = 101.2 MB / (2039 GB/s x 0.712) = 69.7 us (above
  // their 17.5 us floor): 159.7 us x 24 = 3.83 ms; + 14 x 2.5 us per pass, the LM head's
  // 131 MB (90 us) and the host's 42 us: ~4.0 ms (issue 19: ~4.5 ms measured, >= 3 ms).
  const double eff_bw = kBandwidthBps * bw_efficiency();
  const double layer_s = 36 * 2.5e-6 + (4.0 * 2048 * 2048 + 3.0 * 2048 * 5504) * 2 / eff_bw;
  const double hand_s = 24 * layer_s + 14 * 2.5e-6 + 32000.0 * 2048 * 2 / eff_bw + pass_host_s();
  const double pass_s = draft_pass_s("sheared-llama-1.3b", "hf-graphs");
  EXPECT_GE(pass_s, 3e-3);
  EXPECT_NEAR(pass_s, hand_s, 0.03 * hand_s);
}

TEST(ResearchCodeInGraphs, AGraphReplayIsNeverSlowerThanTheSameCodeEager) {
  for (const char* draft : {"vicuna-68m", "sheared-llama-1.3b", "tinyllama-1.1b"})
    EXPECT_LT(draft_pass_s(draft, "hf-graphs"), draft_pass_s(draft, "hf-eager")) << draft;
}

TEST(ResearchCodeInGraphs, ItsDeviceTermsAreHfEagersFit) {
  // Not fitted on data of its own: a refit of hf-eager must carry over (scripts/fit_runtimes.py
  // writes hf-eager; this test fails until hf-graphs is updated with it).
  const json eager = profile("hf-eager"), graphs = profile("hf-graphs");
  for (const char* name : {"bw_efficiency", "kv_bw_efficiency", "flops_efficiency", "overlap",
                           "cycle_overhead_s", "method_op_s", "host_sync_s", "kernel_floor_s"})
    EXPECT_DOUBLE_EQ(graphs[name].get<double>(), eager[name].get<double>()) << name;
  EXPECT_NEAR(graphs["pass_overhead_s"].get<double>(), pass_host_s(), 1e-10);
  EXPECT_EQ(graphs["layer_overhead_s"].get<double>(), 0.0);
}

}  // namespace
}  // namespace speccalc
