// An SpS draft of your own (issue 20, item 1: "`target` and `draft` accept a Hugging Face
// config.json object"): `method.draft` takes SpecCalc's model keys or a config.json as published,
// prices exactly as the preset with the same architecture, travels in share links, and never
// borrows a preset's published acceptance or repository by its name.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config/config_json.hpp"
#include "hf_fixtures.hpp"
#include "speccalc/api.hpp"

namespace speccalc {
namespace {

using nlohmann::json;
using test::fixture_text;
using test::preset;

Response eval_config(const json& config) { return run("eval", config.dump()); }

json eval_ok(const json& config) {
  const Response r = eval_config(config);
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config.dump().substr(0, 240);
  return r.ok ? json::parse(r.output) : json();
}

json sps(const std::string& target, const json& draft, const std::string& runtime) {
  return json{{"target", target},
              {"hardware", "rtx-4090"},
              {"runtime", runtime},
              {"method", {{"family", "sps"}, {"k", 4}, {"draft", draft}}},
              {"acceptance", {{"alpha", 0.7}}}};
}

// The numbers a draft's architecture moves: the cycle, the memory, the result.
void expect_same_numbers(const json& a, const json& b, const std::string& what) {
  ASSERT_FALSE(a.is_null() || b.is_null()) << what;
  for (const char* key : {"speedup", "cycle_time_s", "tau", "tokens_per_s", "baseline_step_s"})
    EXPECT_EQ(a[key].get<double>(), b[key].get<double>()) << what << " " << key;
  // The draft pass, apart from its name (the preset's id, or the draft's own name).
  json da = a["draft"], db = b["draft"];
  da.erase("name");
  db.erase("name");
  EXPECT_EQ(da.dump(), db.dump()) << what;
  EXPECT_EQ(a["memory"]["total_gb_per_gpu"].get<double>(),
            b["memory"]["total_gb_per_gpu"].get<double>())
      << what;
}

TEST(CustomDraft, ADraftPresetItsModelKeysAndItsConfigJsonPriceTheSame) {
  const struct {
    const char* target;
    const char* draft;
    const char* fixture;
    const char* runtime;
  } cases[] = {{"llama3.1-8b-instruct", "llama3.2-3b", "llama3.2-3b.json", "vllm"},
               {"gemma-3-27b-it", "gemma-3-1b-it", "gemma-3-1b-it.json", "llama.cpp-cuda"}};
  for (const auto& c : cases) {
    const json by_id = eval_ok(sps(c.target, c.draft, c.runtime));
    const json by_keys = eval_ok(sps(c.target, model_to_json(preset(c.draft)), c.runtime));
    const json by_config_json =
        eval_ok(sps(c.target, json::parse(fixture_text(c.fixture)), c.runtime));
    expect_same_numbers(by_id, by_keys, std::string(c.draft) + " as model keys");
    expect_same_numbers(by_id, by_config_json, std::string(c.draft) + " as config.json");
    // The echo: the preset's id, or the draft's own keys (what a link carries).
    EXPECT_EQ(by_id["config"]["method"]["draft"], c.draft);
    EXPECT_TRUE(by_config_json["config"]["method"]["draft"].is_object());
    EXPECT_EQ(by_config_json["config"]["method"]["draft"]["num_layers"],
              preset(c.draft).num_layers);
  }
}

TEST(CustomDraft, ItsShareLinkCarriesTheKeysAndEvaluatesToTheSameBytes) {
  const json config =
      sps("gemma-3-27b-it", json::parse(fixture_text("gemma-3-1b-it.json")), "llama.cpp-cuda");
  const Response link = run("link", config.dump());
  ASSERT_TRUE(link.ok) << link.error.describe();
  EXPECT_NE(link.output.find("method.draft.num_layers=26"), std::string::npos) << link.output;
  const Response a = eval_config(config);
  const Response b = run("eval-link", link.output);
  ASSERT_TRUE(a.ok && b.ok) << b.error.describe();
  EXPECT_EQ(a.output, b.output);
}

TEST(CustomDraft, APresetsNameDoesNotBorrowItsPublishedAcceptanceOrRepository) {
  // Vicuna-7B drafted by the vicuna-68m preset takes Spec-Bench's published tau; the same
  // architecture given as keys (even named "vicuna-68m") has no published row: its default
  // follows its size, and the export asks for its path.
  json by_id = sps("vicuna-7b-v1.3", "vicuna-68m", "hf-eager");
  by_id["hardware"] = "rtx-3090";
  by_id.erase("acceptance");
  json mine = by_id;
  json keys = model_to_json(preset("vicuna-68m"));
  keys["name"] = "vicuna-68m";
  mine["method"]["draft"] = keys;
  const json a = eval_ok(by_id);
  const json b = eval_ok(mine);
  EXPECT_TRUE(a["tau_from_data"].get<bool>());
  EXPECT_FALSE(b["tau_from_data"].get<bool>());
  EXPECT_NE(b["tau_source"].get<std::string>().find("the draft's size"), std::string::npos)
      << b["tau_source"];
  const Response exported = run("export", mine.dump());
  ASSERT_TRUE(exported.ok) << exported.error.describe();
  EXPECT_NE(exported.output.find("PATH/TO/DRAFT-MODEL"), std::string::npos);
}

TEST(CustomDraft, BadDraftsAreRefusedNamingTheField) {
  const struct {
    json draft;
    const char* field;
    const char* says;
  } cases[] = {
      {json::array({1}), "method.draft", "must be a draft preset id or a model object"},
      {json{{"num_layers", 2}}, "method.draft.hidden", "is required"},
      {json{{"model_type", "mamba"}}, "method.draft.model_type", "is not read"},
      // A 32,000-token vocabulary under Qwen3-8B's 151,936: not the target's tokenizer.
      {json{{"num_layers", 2},
            {"hidden", 256},
            {"intermediate", 512},
            {"heads", 4},
            {"vocab", 32000}},
       "method.draft", "must share the target's tokenizer"},
  };
  for (const auto& c : cases) {
    const Response r = eval_config(sps("qwen3-8b", c.draft, "vllm"));
    ASSERT_FALSE(r.ok) << c.draft.dump();
    EXPECT_EQ(r.error.field, c.field) << c.draft.dump();
    EXPECT_NE(r.error.message.find(c.says), std::string::npos) << r.error.message;
  }
}

}  // namespace
}  // namespace speccalc
