// The config's sampling temperature (issue 19 item 4, acceptance side): a config without an
// acceptance gets the published tau of rows measured at temperature 1 when it samples, the
// greedy rows' otherwise. Expected values are recomputed here from the published table itself
// (the `tables` command's rows), not from core/data/published-tau.json.
#include <gtest/gtest.h>
#include <cctype>

#include <string>

#include <nlohmann/json.hpp>

#include "config_helpers.hpp"
#include "speccalc/api.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::error_field;
using test::eval_ok;

// Mean tau of the published rows of `family` on `target` at `temperature`, by the table's own
// rules: tau given, not superseded, not a reprint, no "Mean (N datasets)" summary, in table
// order.
double published_mean(const std::string& family, const std::string& target, double temperature,
                      int* rows) {
  const Response r = run("tables", json{{"temperature", temperature}, {"limit", 1000}}.dump());
  EXPECT_TRUE(r.ok) << r.error.describe();
  double sum = 0;
  *rows = 0;
  for (const json& row : json::parse(r.output)) {
    if (row.value("family", "") != family || row.value("target_id", json()) != target) continue;
    if (!row["tau"].is_number() || row.value("superseded", false)) continue;
    if (row["duplicate_of"].is_string()) continue;  // a reprint: its original is counted
    if (row.value("dataset", "").rfind("Mean (", 0) == 0) continue;
    // EAGLE's defaults come from the paper's tree: rows drafted as a chain are left out.
    std::string draft =
        row.value("draft", json()).is_string() ? row["draft"].get<std::string>() : "";
    for (char& ch : draft) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (family.rfind("eagle", 0) == 0 && draft.find("chain") != std::string::npos) continue;
    sum += row["tau"].get<double>();
    ++*rows;
  }
  return *rows ? sum / *rows : 0.0;
}

std::string eagle1_vicuna(const std::string& extra) {
  return R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","runtime":"hf-eager",)"
         R"("method":"eagle1")" +
         extra + "}";
}

TEST(Temperature, SampledConfigsTakeTheRowsAtTemperatureOne) {
  int sampled_rows = 0, greedy_rows = 0;
  const double sampled = published_mean("eagle1", "vicuna-7b-v1.3", 1, &sampled_rows);
  const double greedy = published_mean("eagle1", "vicuna-7b-v1.3", 0, &greedy_rows);
  ASSERT_GT(sampled_rows, 1);
  ASSERT_GT(greedy_rows, 1);
  // EAGLE's papers accept fewer tokens sampling at T = 1 than greedily.
  EXPECT_LT(sampled, greedy);
  const json at07 = eval_ok(eagle1_vicuna(R"(,"temperature":0.7)"));
  EXPECT_NEAR(at07["tau"].get<double>(), sampled, 1e-12);
  EXPECT_EQ(at07["config"]["temperature"].get<double>(), 0.7);
  const json at0 = eval_ok(eagle1_vicuna(""));
  EXPECT_NEAR(at0["tau"].get<double>(), greedy, 1e-12);
  EXPECT_FALSE(at0["config"].contains("temperature"));  // greedy, the default, is not written
  EXPECT_NE(at07["tau_source"].get<std::string>().find("temperature 1"), std::string::npos);
}

TEST(Temperature, NoSampledRowsFallsBackToGreedyAndSaysSo) {
  // Medusa's sources report greedy rows only (non-greedy Medusa is not lossless).
  const std::string medusa =
      R"({"target":"vicuna-7b-v1.3","hardware":"a100-80gb-sxm","runtime":"hf-eager",)"
      R"("method":"medusa")";
  const json sampled = eval_ok(medusa + R"(,"temperature":1})");
  const json greedy = eval_ok(medusa + "}");
  EXPECT_EQ(sampled["tau"].get<double>(), greedy["tau"].get<double>());
  EXPECT_NE(sampled["tau_source"].get<std::string>().find("no published rows at temperature > 0"),
            std::string::npos);
}

TEST(Temperature, Refusals) {
  EXPECT_EQ(error_field(eagle1_vicuna(R"(,"temperature":-0.1)")), "temperature");
  EXPECT_EQ(error_field(eagle1_vicuna(R"(,"temperature":2.5)")), "temperature");
  EXPECT_EQ(error_field(eagle1_vicuna(R"(,"temperature":"hot")")), "temperature");
}

}  // namespace
}  // namespace speccalc
