// `list`: the presets and forms front ends build their pickers and editors from. Each entry is
// checked by what the config parser does with it, not by the text list prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "config/acceptance_parse.hpp"
#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

json list(const std::string& kind) {
  const speccalc::Response r = speccalc::run("list", kind);
  EXPECT_TRUE(r.ok) << r.error.describe();
  return r.ok ? json::parse(r.output) : json::array();
}

json eval(const json& config) {
  const speccalc::Response r = speccalc::run("eval", config.dump());
  EXPECT_TRUE(r.ok) << config.dump() << " -> " << r.error.describe();
  return r.ok ? json::parse(r.output) : json::object();
}

// Prompt lookup with a fixed alpha: no draft model or published tau that depends on the preset
// id, so a custom copy of a preset must cost exactly what the preset costs.
json base() {
  return json{{"target", "llama2-chat-7b"},
              {"hardware", "a100-80gb-sxm"},
              {"method", {{"family", "pld"}}},
              {"acceptance", {{"alpha", 0.7}}}};
}

void ExpectSameCost(const json& a, const json& b, const std::string& what) {
  for (const char* k : {"speedup", "tau", "cycle_time_s", "baseline_tokens_per_s"})
    EXPECT_EQ(a[k], b[k]) << what << " " << k;
  EXPECT_EQ(a["memory"]["weights_gb_per_gpu"], b["memory"]["weights_gb_per_gpu"]) << what;
}

TEST(List, EachModelsCustomTemplateIsThatModel) {
  for (const auto& m : list("models")) {
    json preset = base(), custom = base();
    preset["target"] = m["id"];
    custom["target"] = m["custom"];
    preset["hardware"] = custom["hardware"] = "b200";  // room for the large models
    preset["gpus"] = custom["gpus"] = 4;               // divides every preset's head count
    ExpectSameCost(eval(preset), eval(custom), m["id"].get<std::string>());
  }
}

TEST(List, EachGpusCustomTemplateIsThatGpu) {
  for (const auto& g : list("hardware")) {
    json preset = base(), custom = base();
    preset["hardware"] = g["id"];
    custom["hardware"] = g["custom"];
    if (g["custom"].value("vendor", "") == "CPU") {  // a CPU runs under llama.cpp's CPU engine
      preset["runtime"] = custom["runtime"] = "llama.cpp-cpu";
      preset["dtype"] = custom["dtype"] = "q4_0";
    }
    ExpectSameCost(eval(preset), eval(custom), g["id"].get<std::string>());
  }
}

TEST(List, AcceptanceFormsAreTheConfigsFormsAndEachStartEvaluates) {
  // The parser names its forms when it meets an unknown one.
  const speccalc::Response bad = speccalc::run("eval", json{{"acceptance", {{"bogus", 1}}}}.dump());
  ASSERT_FALSE(bad.ok);
  std::set<std::string> listed;
  for (const auto& f : list("acceptance")) {
    const std::string id = f["id"].get<std::string>();
    listed.insert(id);
    EXPECT_NE(bad.error.message.find(id), std::string::npos) << id << " is a config form";
    EXPECT_FALSE(f["definition"].get<std::string>().empty()) << id;
    if (id == "alpha") {
      EXPECT_EQ(f["start"], speccalc::kDefaultAlpha);
    }
    // Medusa's table is a tree acceptance (Medusa's own tree); the workload traces cover
    // n-gram lookup (pld) up to k = 8; the rest evaluate with any method.
    json config = base();
    config["method"] =
        id == "medusa" ? json{{"family", "medusa"}} : json{{"family", "pld"}, {"k", 4}};
    config["acceptance"] = {{id, f["start"]}};
    EXPECT_GE(eval(config)["tau"].get<double>(), 1.0) << id;
    for (const auto& c : f.value("choices", json::array())) {
      config["acceptance"] = {{id, c["id"]}};
      EXPECT_GE(eval(config)["tau"].get<double>(), 1.0) << id << " " << c["id"];
    }
  }
  EXPECT_EQ(listed, (std::set<std::string>{"tau", "alpha", "per_position", "p", "medusa",
                                           "workload", "published"}));
}

}  // namespace

// The page's starter and examples (`list ui`) are ordinary configs: each evaluates, and each
// example shows a speedup (the page offers no example that cannot run).
TEST(List, UiStarterAndExamplesEvaluate) {
  const speccalc::Response r = speccalc::run("list", "ui");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json ui = nlohmann::json::parse(r.output);
  std::vector<nlohmann::json> configs = {ui["starter"]};
  ASSERT_GE(ui["examples"].size(), 1u);
  for (const auto& e : ui["examples"]) {
    EXPECT_FALSE(e["label"].get<std::string>().empty());
    configs.push_back(e["config"]);
  }
  for (const auto& c : configs) {
    const speccalc::Response e = speccalc::run("eval", c.dump());
    ASSERT_TRUE(e.ok) << c.dump() << ": " << e.error.describe();
    EXPECT_NE(nlohmann::json::parse(e.output)["verdict"], "infeasible") << c.dump();
  }
}

// The page's axes and defaults are core data too (issue 23: the page decides nothing): the batch
// chart's axis is a sweep the core runs point for point, the sizing defaults are a `size`
// request it accepts, and every load workload it offers is one a config's load block accepts.
TEST(List, UiAxesAndDefaultsAreRequestsTheCoreRuns) {
  const json ui = list("ui");
  const json& axis = ui["batch_axis"];
  ASSERT_GE(axis.size(), 2u);
  for (std::size_t i = 1; i < axis.size(); ++i)
    EXPECT_LT(axis[i - 1].get<int>(), axis[i].get<int>()) << "ascending";
  const json base = {{"target", "llama2-chat-7b"}, {"hardware", "a100-80gb-sxm"}};
  const speccalc::Response sweep =
      speccalc::run("sweep", json{{"config", base}, {"axis", "batch"}, {"values", axis}}.dump());
  ASSERT_TRUE(sweep.ok) << sweep.error.describe();
  const json swept = json::parse(sweep.output);  // kept: the loop reads into it
  for (const auto& p : swept["points"]) EXPECT_FALSE(p.contains("error")) << p.dump();

  json size = ui["sizing"];
  size["config"] = {{"target", "llama2-chat-7b"},
                    {"hardware", "a100-80gb-sxm"},
                    {"method", {{"family", "eagle1"}}}};
  const speccalc::Response sized = speccalc::run("size", size.dump());
  EXPECT_TRUE(sized.ok) << sized.error.describe();

  ASSERT_GE(ui["load_workloads"].size(), 1u);
  for (const auto& w : ui["load_workloads"]) {
    json c = base;
    c["load"] = {{"workload", w}, {"rate_rps", 1}};
    const speccalc::Response e = speccalc::run("eval", c.dump());
    EXPECT_TRUE(e.ok) << w << ": " << e.error.describe();
  }
}

namespace {

// Issue 18 (polish): every family and every key its normalized method holds has a label for
// people, distinct from the id, so no front end shows `sps` or `draft_tensor_parallel_size`.
TEST(ListMethods, EveryFamilyAndEveryKeyOfItsDefaultsHasALabel) {
  std::set<std::string> labels;
  for (const json& m : list("methods")) {
    const std::string id = m["id"];
    ASSERT_TRUE(m.contains("label")) << id;
    EXPECT_NE(m["label"], id);
    EXPECT_TRUE(labels.insert(m["label"].get<std::string>()).second) << "label repeated: " << id;
    EXPECT_FALSE(m["short_label"].get<std::string>().empty()) << id;
    if (id == "ar") continue;
    json config = base();
    config["target"] = "llama3.1-8b-instruct";
    config["method"] = {{"family", id}};
    if (id == "mtp") config["target"] = "deepseek-v3";
    const speccalc::Response r = speccalc::run("normalize", config.dump());
    if (!r.ok) continue;  // a family this model has no weights for (checked elsewhere)
    const json method = json::parse(r.output)["method"];  // named: items() of a temporary dangles
    for (const auto& [key, value] : method.items()) {
      if (key == "family") continue;
      ASSERT_TRUE(m["param_labels"].contains(key)) << id << "." << key;
      EXPECT_NE(m["param_labels"][key], key) << id << "." << key;
    }
  }
}

TEST(ListMethods, OnlyPlainDecodingHasNoAcceptance) {
  // Plain decoding's tau is 1 whatever the acceptance says (eval of ar at two acceptances is
  // the same speedup); every other family's tau reads it.
  for (const json& m : list("methods"))
    EXPECT_EQ(m["speculates"].get<bool>(), m["id"] != "ar") << m["id"];
  json ar = base();
  ar["method"] = {{"family", "ar"}};
  ar["acceptance"] = {{"alpha", 0.2}};
  json ar2 = ar;
  ar2["acceptance"] = {{"alpha", 0.9}};
  const speccalc::Response a = speccalc::run("eval", ar.dump()),
                           b = speccalc::run("eval", ar2.dump());
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(json::parse(a.output)["speedup"], json::parse(b.output)["speedup"]);
}

TEST(ListMethods, ASharedKeyReadsInTheFamilysOwnVocabulary) {
  json pld, lookahead;
  for (const json& m : list("methods")) {
    if (m["id"] == "pld") pld = m;
    if (m["id"] == "lookahead") lookahead = m;
  }
  EXPECT_EQ(pld["param_labels"]["ngram"], "n-gram length matched in the prompt");
  EXPECT_EQ(lookahead["param_labels"]["ngram"], "N — n-gram size");
}

// The NVL cards' GPU-to-GPU link is their NVLink bridge (nvidia.com/en-us/data-center/h100 and
// /h200, NVL columns): 600 and 900 GB/s bidirectional, 300 and 450 GB/s per direction, not
// PCIe Gen5 x16's 64 GB/s.
TEST(ListHardware, NvlCardsUseTheirNvlinkBridge) {
  for (const json& g : list("hardware")) {
    if (g["id"] == "h100-nvl") {
      EXPECT_EQ(g["interconnect_gbps"].get<double>(), 600.0 / 2);
    }
    if (g["id"] == "h200-nvl") {
      EXPECT_EQ(g["interconnect_gbps"].get<double>(), 900.0 / 2);
    }
  }
}

}  // namespace
