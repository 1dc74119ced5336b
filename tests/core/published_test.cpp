// The published-results table and the `tables` command. Expected values are cells of the
// papers as transcribed in ../shared/data/published-results.json (table and cell named at each
// check), counts taken from that file's raw strings, or hand-escaped CSV.
#include "speccalc/published.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

const std::vector<PublishedRow>& all_rows() {
  static const std::vector<PublishedRow> rows = [] {
    auto loaded = load_published();
    EXPECT_TRUE(loaded.ok()) << loaded.error().describe();
    return loaded.ok() ? loaded.value() : std::vector<PublishedRow>{};
  }();
  return rows;
}

// The unique row with these original strings (and temperature); fails the test otherwise.
const PublishedRow* find_row(const std::string& source_id, const std::string& table,
                             const std::string& method, const std::string& model,
                             const std::string& dataset, double temperature) {
  const PublishedRow* found = nullptr;
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id == source_id && r.table == table && r.method == method &&
        r.target_model == model && r.dataset == dataset && r.temperature &&
        *r.temperature == temperature) {
      EXPECT_EQ(found, nullptr) << "duplicate row " << r.id;
      found = &r;
    }
  }
  EXPECT_NE(found, nullptr) << source_id << " " << table << " " << method << " " << model;
  return found;
}

PublishedRow synthetic(const std::string& id, const std::string& method, const std::string& family,
                       const std::string& model, const std::string& target_id) {
  PublishedRow r;
  r.id = id;
  r.source = "Example paper (2024)";
  r.source_id = "example";
  r.method = method;
  r.family = family;
  r.target_model = model;
  r.target_id = target_id;
  r.dataset = "MT-bench";
  r.extra_json = "null";
  r.method_params_json = "{}";
  return r;
}

TEST(PublishedTable, HoldsAll764RowsInOriginalOrder) {
  // ../shared/data/README.md: "764 published measurements, one record per table cell".
  ASSERT_EQ(all_rows().size(), 764u);
  EXPECT_EQ(all_rows().front().id, "eagle2-000");  // first record: EAGLE-2 Table 1
  EXPECT_EQ(all_rows().back().id, "eagle1-readme-763");
  std::set<std::string> ids;
  for (const PublishedRow& r : all_rows()) ids.insert(r.id);
  EXPECT_EQ(ids.size(), 764u) << "ids must be unique";
}

TEST(PublishedTable, EagleTwoTableOneCellsMatchPaper) {
  // EAGLE-2 (arXiv 2406.16858) Table 1, T=0, MT-bench: Vicuna-13B SpS 1.93x, tau 2.27.
  const PublishedRow* sps =
      find_row("eagle2", "Table 1", "SpS", "Vicuna-13B (v1.3)", "MT-bench", 0);
  ASSERT_NE(sps, nullptr);
  EXPECT_EQ(*sps->speedup, 1.93);
  EXPECT_EQ(*sps->tau, 2.27);
  EXPECT_EQ(sps->family, "sps");
  EXPECT_EQ(sps->draft_id, "vicuna-68m");
  EXPECT_EQ(sps->target_id, "vicuna-13b-v1.3");
  // Same table, Vicuna-7B EAGLE-2: 3.62x, tau 4.98 (60 draft tokens, depth 6, top-k 10).
  const PublishedRow* e2 =
      find_row("eagle2", "Table 1", "EAGLE-2", "Vicuna-7B (v1.3)", "MT-bench", 0);
  ASSERT_NE(e2, nullptr);
  EXPECT_EQ(*e2->speedup, 3.62);
  EXPECT_EQ(*e2->tau, 4.98);
  EXPECT_EQ(e2->method_params_json, R"({"depth":6,"top_k":10,"total_token":60})");
}

TEST(PublishedTable, EagleOneAndThreeAndMedusaCellsMatchPapers) {
  // EAGLE-3 (arXiv 2503.01840) Table 1, T=0, MT-bench, LLaMA-3.1-8B-Instruct: 4.40x, tau 6.13.
  const PublishedRow* e3 =
      find_row("eagle3", "Table 1", "EAGLE-3", "LLaMA-3.1-8B-Instruct", "MT-bench", 0);
  ASSERT_NE(e3, nullptr);
  EXPECT_EQ(*e3->speedup, 4.4);
  EXPECT_EQ(*e3->tau, 6.13);
  EXPECT_EQ(e3->family, "eagle3");
  // EAGLE-1 (arXiv 2401.15077v3) Table 1, T=0, HumanEval, Vicuna-7B: 3.33x, tau 4.29.
  const PublishedRow* e1 = find_row("eagle1", "Table 1 (+ n-alpha from Table 8)", "EAGLE",
                                    "Vicuna-7B (v1.3)", "HumanEval", 0);
  ASSERT_NE(e1, nullptr);
  EXPECT_EQ(*e1->speedup, 3.33);
  EXPECT_EQ(*e1->tau, 4.29);
  EXPECT_EQ(e1->family, "eagle1");
  // EAGLE-1 Table 4: EAGLE + gpt-fast, int4, LLaMA2-Chat-7B on 1x RTX 3090: 160.4 vs 106.9
  // tokens/s, i.e. 160.4 / 106.9 = 1.50x against gpt-fast (a compiled baseline).
  const PublishedRow* fast = nullptr;
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id == "eagle1" && r.table == "Table 4" && r.weights_dtype == "int4") fast = &r;
  }
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(*fast->speedup, 1.5);
  EXPECT_EQ(fast->runtime, "compiled");
  EXPECT_EQ(fast->hardware_id, "rtx-3090");
  EXPECT_FALSE(fast->hardware_assumed);
  // Medusa (arXiv 2401.10774) Table 1, Medusa-2 Vicuna-7B: speedup 2.83, acceleration rate
  // 3.47 (= tau with the base token). Temperature is not stated, so search by id fields.
  const PublishedRow* medusa = nullptr;
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id == "medusa" && r.table == "Table 1" && r.target_model == "Vicuna-7B")
      medusa = &r;
  }
  ASSERT_NE(medusa, nullptr);
  EXPECT_EQ(*medusa->speedup, 2.83);
  EXPECT_EQ(*medusa->tau, 3.47);
  EXPECT_FALSE(medusa->temperature.has_value());
  EXPECT_EQ(medusa->family, "medusa");
  EXPECT_TRUE(medusa->target_assumed);  // unversioned "Vicuna-7B" -> v1.3 preset, said so
}

TEST(PublishedTable, HardwareAssumptionsAreExplicit) {
  // Spec-Bench states its GPU: 1x RTX 3090, nothing assumed.
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id != "specbench") continue;
    EXPECT_EQ(r.hardware_id, "rtx-3090") << r.id;
    EXPECT_EQ(r.gpus, 1) << r.id;
    EXPECT_FALSE(r.hardware_assumed) << r.id;
  }
  // EAGLE-2 states none; its Vicuna-13B rows equal EAGLE-3 Table 1's, whose caption says A100s
  // (its text: RTX 3090 below 70B). The caption is followed (scripts/import_published.py says
  // why, and why the 80GB card): Vicuna-13B's 26 GB of fp16 weights fit one; 70B stays on
  // issue #5's four A100 40GB.
  const PublishedRow* v13 =
      find_row("eagle2", "Table 1", "EAGLE-2", "Vicuna-13B (v1.3)", "GSM8K", 0);
  ASSERT_NE(v13, nullptr);
  EXPECT_EQ(v13->hardware_id, "a100-80gb-sxm");
  EXPECT_EQ(v13->gpus, 1);
  EXPECT_EQ(v13->parallelism, "single");
  EXPECT_TRUE(v13->hardware_assumed);
  EXPECT_NE(v13->hardware_assumption.find("caption"), std::string::npos);
  const PublishedRow* l70 =
      find_row("eagle3", "Table 1", "EAGLE-3", "LLaMA-3.3-70B-Instruct", "GSM8K", 0);
  ASSERT_NE(l70, nullptr);
  EXPECT_EQ(l70->hardware_id, "a100-40gb-sxm");
  EXPECT_EQ(l70->gpus, 4);
  // The same cell of both tables sits on the same hardware.
  const PublishedRow* v13_in_eagle3 =
      find_row("eagle3", "Table 1", "EAGLE-2", "Vicuna-13B (v1.3)", "GSM8K", 0);
  ASSERT_NE(v13_in_eagle3, nullptr);
  EXPECT_EQ(v13_in_eagle3->duplicate_of, v13->id);
  EXPECT_EQ(v13_in_eagle3->hardware_id, v13->hardware_id);
  EXPECT_EQ(v13_in_eagle3->gpus, v13->gpus);
  // A reprint of EAGLE-1's own row sits where EAGLE-1 measured it: Vicuna-13B on two RTX 3090s.
  const PublishedRow* e1 = find_row("eagle2", "Table 1", "EAGLE", "Vicuna-13B (v1.3)", "GSM8K", 0);
  ASSERT_NE(e1, nullptr);
  EXPECT_EQ(e1->duplicate_of.rfind("eagle1-", 0), 0u) << e1->duplicate_of;
  EXPECT_EQ(e1->hardware_id, "rtx-3090");
  EXPECT_EQ(e1->gpus, 2);
  EXPECT_NE(e1->hardware_assumption.find("reprints eagle1-"), std::string::npos);
  // The rest of that EAGLE-1 column (CNN/DM, Natural Questions, the means) is EAGLE-1's setup too:
  // its cells cost what the reprinted ones do (import_published.py, EAGLE1_COLUMN_BASIS).
  const PublishedRow* cnn7 =
      find_row("eagle2", "Table 1", "EAGLE", "Vicuna-7B (v1.3)", "CNN/DM", 0);
  ASSERT_NE(cnn7, nullptr);
  EXPECT_TRUE(cnn7->duplicate_of.empty());
  EXPECT_EQ(cnn7->hardware_id, "rtx-3090");
  EXPECT_EQ(cnn7->gpus, 1);
  EXPECT_NE(cnn7->hardware_assumption.find("EAGLE-1 column"), std::string::npos);
  const PublishedRow* cnn13 =
      find_row("eagle2", "Table 1", "EAGLE", "Vicuna-13B (v1.3)", "CNN/DM", 0);
  ASSERT_NE(cnn13, nullptr);
  EXPECT_EQ(cnn13->hardware_id, "rtx-3090");
  EXPECT_EQ(cnn13->gpus, 2);
  // EAGLE-2's own LLaMA-3 table (Table 2) is not that column: it stays on the A100.
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id == "eagle2" && r.table != "Table 1" && r.family == "eagle1" &&
        r.target_id == "llama3-instruct-8b") {
      EXPECT_EQ(r.hardware_id, "a100-80gb-sxm") << r.id;
    }
  }
  // Every assumed row says why; rows with a GPU name a count.
  for (const PublishedRow& r : all_rows()) {
    if (r.hardware_assumed) {
      EXPECT_FALSE(r.hardware_assumption.empty()) << r.id;
    }
    if (!r.hardware_id.empty()) {
      EXPECT_GE(r.gpus, 1) << r.id;
    }
  }
}

TEST(PublishedTable, NormalizedIdsComeFromTheContractLists) {
  const std::set<std::string> families = {"ar",     "sps",       "pld",    "lookahead",
                                          "medusa", "hydra",     "eagle1", "eagle2",
                                          "eagle3", "retrieval", "other"};
  const std::set<std::string> models = {"",
                                        "vicuna-7b-v1.3",
                                        "vicuna-13b-v1.3",
                                        "vicuna-33b-v1.3",
                                        "llama2-chat-7b",
                                        "llama2-chat-13b",
                                        "llama2-chat-70b",
                                        "llama3-instruct-8b",
                                        "llama3-instruct-70b",
                                        "llama3.1-8b-instruct",
                                        "llama3.3-70b-instruct",
                                        "mixtral-8x7b",
                                        "qwen2.5-7b",
                                        "qwen2.5-72b",
                                        "deepseek-r1-distill-llama-8b"};
  const std::set<std::string> gpus = {
      "",         "a100-40gb-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "h100-sxm", "h100-pcie",
      "h200-sxm", "l40",           "l40s",          "rtx-3090",       "rtx-4090", "rtx-a6000",
      "mi300x",   "b200"};
  for (const PublishedRow& r : all_rows()) {
    EXPECT_EQ(families.count(r.family), 1u) << r.id << " " << r.family;
    EXPECT_EQ(models.count(r.target_id), 1u) << r.id << " " << r.target_id;
    EXPECT_EQ(gpus.count(r.hardware_id), 1u) << r.id << " " << r.hardware_id;
    EXPECT_TRUE(r.runtime == "hf-eager" || r.runtime == "compiled") << r.id;
  }
  // EAGLE-3 Table 1's DeepSeek-R1-Distill-LLaMA-8B gets its own id (Llama-3.1-8B shape).
  const PublishedRow* ds =
      find_row("eagle3", "Table 1", "EAGLE-3", "DeepSeek-R1-Distill-LLaMA-8B", "GSM8K", 0);
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(ds->target_id, "deepseek-r1-distill-llama-8b");
}

TEST(PublishedTable, SupersededFlagFollowsSpecBenchStatus) {
  // published-results.json: 187 Spec-Bench rows, extra.status "superseded" in 117, "current" in 70.
  int superseded = 0, spec_bench = 0;
  for (const PublishedRow& r : all_rows()) {
    if (r.source_id == "specbench") ++spec_bench;
    if (r.superseded) {
      ++superseded;
      EXPECT_EQ(r.source_id, "specbench") << r.id;
      EXPECT_NE(r.extra_json.find("\"status\":\"superseded\""), std::string::npos) << r.id;
    }
  }
  EXPECT_EQ(spec_bench, 187);
  EXPECT_EQ(superseded, 117);
}

TEST(PublishedTable, AReprintedRowPointsAtItsOriginalAndIsValidatedOnce) {
  // Brute force over every pair of rows: two rows (neither superseded) on the same model,
  // dataset, temperature and family with the same tau and speedup are one measurement printed
  // twice. Exactly one of each such group is the original, the earliest by publication (EAGLE
  // Jan 2024, EAGLE-2 Jun 2024, EAGLE-3 Mar 2025; within a source, table order), and every
  // other row of the group names it in duplicate_of.
  const auto& rows = all_rows();
  auto order = [](const PublishedRow& r) {
    return r.source_id == "eagle1"   ? 0
           : r.source_id == "eagle2" ? 1
           : r.source_id == "eagle3" ? 2
                                     : -1;
  };
  std::map<std::string, const PublishedRow*> by_id;
  for (const PublishedRow& r : rows) by_id[r.id] = &r;
  int reprints = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PublishedRow& a = rows[i];
    const PublishedRow* original = &a;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const PublishedRow& b = rows[j];
      if (!a.tau || !a.speedup || !b.tau || !b.speedup || a.superseded || b.superseded ||
          a.target_id.empty() || a.target_id != b.target_id || a.dataset != b.dataset ||
          a.temperature != b.temperature || a.family != b.family || *a.tau != *b.tau ||
          *a.speedup != *b.speedup)
        continue;
      const bool earlier =
          order(b) < order(*original) ||
          (order(b) == order(*original) && j < static_cast<std::size_t>(original - rows.data()));
      if (earlier) original = &b;
    }
    if (original == &a) {
      EXPECT_TRUE(a.duplicate_of.empty()) << a.id << " is the original, marked " << a.duplicate_of;
    } else {
      ++reprints;
      EXPECT_EQ(a.duplicate_of, original->id) << a.id;
    }
  }
  // EAGLE-2's and EAGLE-3's EAGLE-1 rows on four datasets are EAGLE-1's own (Table 1/2 of
  // arXiv 2401.15077: Vicuna-7B MT-bench, greedy, 3.94 tokens and 2.90x), EAGLE-3's Vicuna-13B
  // rows are EAGLE-2's, EAGLE-3's Table 2 repeats two Table 1 cells, EAGLE-1's Table 6 one.
  EXPECT_EQ(reprints, 87);
  const PublishedRow* copy =
      find_row("eagle2", "Table 1", "EAGLE", "Vicuna-7B (v1.3)", "MT-bench", 0);
  ASSERT_NE(copy, nullptr);
  ASSERT_TRUE(by_id.count(copy->duplicate_of)) << copy->duplicate_of;
  const PublishedRow& eagle1 = *by_id[copy->duplicate_of];
  EXPECT_EQ(eagle1.source_id, "eagle1");
  EXPECT_EQ(*eagle1.tau, 3.94);
  EXPECT_EQ(*eagle1.speedup, 2.90);
  // validate prices each measurement once: the reprints are listed, never predicted.
  const nlohmann::json v = nlohmann::json::parse(run("validate", "{}").output);
  int excluded = -1;
  for (const auto& reason : v["coverage"]["reasons"])
    if (reason["reason"] == "reprint of an earlier row") excluded = reason["rows"].get<int>();
  EXPECT_EQ(excluded, 87);
  for (const auto& r : v["rows"])
    EXPECT_TRUE(by_id[r["id"].get<std::string>()]->duplicate_of.empty());
}

TEST(PublishedQuery, SubstringOrExactIdIgnoringCase) {
  const std::vector<PublishedRow> rows = {
      synthetic("a", "EAGLE-2", "eagle2", "Vicuna-7B (v1.3)", "vicuna-7b-v1.3"),
      synthetic("b", "EAGLE", "eagle1", "LLaMA2-Chat-7B", "llama2-chat-7b"),
      synthetic("c", "SAM-Decoding (SAMD[EAGLE2])", "other", "Vicuna-7B-v1.3", "vicuna-7b-v1.3")};
  auto ids = [&](const TableQuery& q) {
    std::string out;
    for (const PublishedRow& r : filter_rows(rows, q)) out += r.id;
    return out;
  };
  EXPECT_EQ(ids({}), "abc");
  EXPECT_EQ(ids({"eagle", "", "", "", ""}), "abc");  // substring of all three method strings
  EXPECT_EQ(ids({"EAGLE2", "", "", "", ""}), "ac");  // family id of a; substring of c
  EXPECT_EQ(ids({"eagle1", "", "", "", ""}), "b");   // family id only
  EXPECT_EQ(ids({"", "VICUNA-7B", "", "", ""}), "ac");
  EXPECT_EQ(ids({"", "llama2-chat-7b", "", "", ""}), "b");  // exact target_id
  EXPECT_EQ(ids({"eagle", "vicuna", "", "", ""}), "ac");    // filters combine with AND
  EXPECT_EQ(ids({"", "", "gsm8k", "", ""}), "");
}

TEST(PublishedQuery, FiltersOnTheRealTable) {
  // Raw counts in published-results.json: source starting "Spec-Bench" 187 rows; method strings
  // containing "hydra": "Hydra" 45 + "Hydra++" 3 + "Medusa (as measured by Hydra authors)" 3.
  EXPECT_EQ(filter_rows(all_rows(), {"", "", "", "Spec-Bench", ""}).size(), 187u);
  EXPECT_EQ(filter_rows(all_rows(), {"hydra", "", "", "", ""}).size(), 51u);
  // EAGLE-2 Table 1 has Hydra only at T=0, for Vicuna 7B and 13B, 7 dataset columns each.
  EXPECT_EQ(filter_rows(all_rows(), {"Hydra", "", "", "eagle2", ""}).size(), 14u);
}

TEST(PublishedCsv, QuotesCommasQuotesAndNewlines) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field(""), "");
  // A method holding a comma and quotes becomes one quoted field with doubled quotes.
  PublishedRow r = synthetic("x-001", "Medusa, \"typical\"", "medusa", "M", "");
  const std::string csv = rows_to_csv({r});
  EXPECT_EQ(csv.rfind("id,source_id,source,table,method,family,", 0), 0u);
  // Hand-escaped: id, source_id, source, table (empty), method, family ...
  EXPECT_NE(
      csv.find("\r\nx-001,example,Example paper (2024),,\"Medusa, \"\"typical\"\"\",medusa,M,,"),
      std::string::npos)
      << csv;
  EXPECT_EQ(csv.substr(csv.size() - 2), "\r\n");
}

TEST(PublishedText, ColumnsHaveFixedWidth) {
  // Widths 13+20+20+22+24+4+20 plus one space after each (7), tau 5, space, speedup 7:
  // 123 + 7 + 5 + 1 + 7 = 143 characters per line.
  const std::string text = rows_to_text(filter_rows(all_rows(), {"", "", "", "hydra", ""}));
  std::size_t start = 0, lines = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;
    const std::string line = text.substr(start, end - start);
    if (line.find("row(s)") == std::string::npos) {
      EXPECT_EQ(line.size(), 143u) << line;
      ++lines;
    }
    start = end + 1;
  }
  EXPECT_EQ(lines, 1u + 9u);                                  // header + the 9 Hydra-repo rows
  EXPECT_NE(text.find("a100-80gb-sxm*"), std::string::npos);  // assumed GPU is starred
}

TEST(TablesCommand, ReturnsRowsAsJsonCsvOrText) {
  Response json = run("tables", R"({"source": "Prompt Lookup"})");
  ASSERT_TRUE(json.ok) << json.error.describe();
  const nlohmann::json doc = nlohmann::json::parse(json.output);
  ASSERT_EQ(doc.size(), 2u);  // PLD README: summarization and context-QA, 2.4x each
  EXPECT_EQ(doc[0]["speedup"], 2.4);
  EXPECT_EQ(doc[0]["hardware"], "1x A100 40GB");
  EXPECT_EQ(doc[0]["hardware_id"], "a100-40gb-sxm");

  Response csv = run("tables", R"({"source": "pld", "format": "csv"})");
  ASSERT_TRUE(csv.ok);
  EXPECT_EQ(csv.output.rfind("id,source_id,", 0), 0u);

  Response text = run("tables", R"({"source": "pld", "format": "table"})");
  ASSERT_TRUE(text.ok);
  EXPECT_NE(text.output.find("2 row(s)"), std::string::npos);

  // Blank input: every row, and the JSON equals the embedded table plus each row's
  // reproducing config (null for rows no model covers), its model name and its `use`.
  Response all = run("tables", "");
  ASSERT_TRUE(all.ok);
  nlohmann::json rows = nlohmann::json::parse(all.output);
  const nlohmann::json table = nlohmann::json::parse(data::published());
  ASSERT_EQ(rows.size(), table.size());
  int with_config = 0;
  for (auto& row : rows) {
    ASSERT_TRUE(row.contains("config"));
    with_config += row["config"].is_null() ? 0 : 1;
    row.erase("config");
    row.erase("model");  // checked in NamesEachModelOnce
    row.erase("use");    // checked in EveryRowSaysWhetherTheCalculatorCanUseItAndWhyNot
  }
  EXPECT_EQ(rows, table);
  // The PLD README row reproduces as: Mistral is not a preset, so its rows have no config;
  // every row with a config names the row's own model and GPU.
  EXPECT_GT(with_config, 400);
  EXPECT_LT(with_config, 764);
}

TEST(TablesCommand, ErrorsNameTheField) {
  Response bad_format = run("tables", R"({"format": "xml"})");
  EXPECT_FALSE(bad_format.ok);
  EXPECT_EQ(bad_format.error.field, "format");
  EXPECT_NE(bad_format.error.message.find("xml"), std::string::npos);

  Response bad_key = run("tables", R"({"modle": "vicuna"})");
  EXPECT_FALSE(bad_key.ok);
  EXPECT_EQ(bad_key.error.field, "modle");

  Response bad_type = run("tables", R"({"method": 3})");
  EXPECT_FALSE(bad_type.ok);
  EXPECT_EQ(bad_type.error.field, "method");

  Response not_object = run("tables", "[1]");
  EXPECT_FALSE(not_object.ok);
}

// The table as data handed to run() (speccalc::Data), the way the WASM build gets it.
TEST(PublishedData, TablesAndValidateSayTheyReadThePublishedTable) {
  EXPECT_EQ(data_needed("tables"), "published");
  EXPECT_EQ(data_needed("validate"), "published");
  EXPECT_EQ(data_needed("eval"), "");
  EXPECT_EQ(data_needed("no-such-command"), "");
}

TEST(PublishedData, MissingTableIsAnErrorNotAnEmptyList) {
  const Response r = run("tables", "{}", Data{});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "");
  EXPECT_NE(r.error.message.find("published table is not loaded"), std::string::npos)
      << r.error.message;
  EXPECT_FALSE(run("validate", "{}", Data{}).ok);
}

TEST(PublishedData, TablesReadsTheTextItIsGiven) {
  // A two-row table cut from the embedded one: the output lists exactly those two ids.
  const nlohmann::json all = nlohmann::json::parse(data::published());
  ASSERT_GE(all.size(), 2u);
  const nlohmann::json two = nlohmann::json::array({all[0], all[1]});
  const std::string text = two.dump();
  const Response r = run("tables", "{}", Data{text});
  ASSERT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json rows = nlohmann::json::parse(r.output);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["id"], all[0]["id"]);
  EXPECT_EQ(rows[1]["id"], all[1]["id"]);
  // The embedded table through the two-argument run() gives the same bytes as passing it.
  EXPECT_EQ(run("tables", "{\"source\": \"pld\"}").output,
            run("tables", "{\"source\": \"pld\"}", Data{data::published()}).output);
}

// The rows of the raw table (parsed here, not by the core) that satisfy `keep`.
template <typename Keep>
std::vector<std::string> raw_ids(Keep keep) {
  std::vector<std::string> ids;
  for (const auto& row : nlohmann::json::parse(data::published()))
    if (keep(row)) ids.push_back(row["id"].get<std::string>());
  return ids;
}

std::vector<std::string> ids_of(const nlohmann::json& rows) {
  std::vector<std::string> ids;
  for (const auto& r : rows) ids.push_back(r["id"].get<std::string>());
  return ids;
}

TEST(TablesCommand, FiltersByTemperatureIncludingNotStated) {
  const auto temp_is = [](double t) {
    return [t](const nlohmann::json& r) {
      return r["temperature"].is_number() && r["temperature"].get<double>() == t;
    };
  };
  for (double t : {0.0, 1.0, 0.8}) {
    const Response r = run("tables", nlohmann::json{{"temperature", t}}.dump());
    ASSERT_TRUE(r.ok) << r.error.describe();
    EXPECT_EQ(ids_of(nlohmann::json::parse(r.output)), raw_ids(temp_is(t))) << t;
  }
  const Response unstated = run("tables", R"({"temperature": "not stated"})");
  ASSERT_TRUE(unstated.ok) << unstated.error.describe();
  EXPECT_EQ(ids_of(nlohmann::json::parse(unstated.output)),
            raw_ids([](const nlohmann::json& r) { return r["temperature"].is_null(); }));
  // With the hardware filter (exact GPU preset id): greedy rows measured on an RTX 3090.
  const Response both = run("tables", R"({"temperature": 0, "hardware": "rtx-3090"})");
  ASSERT_TRUE(both.ok);
  const auto want = raw_ids([](const nlohmann::json& r) {
    return r["temperature"] == 0 && r["hardware_id"] == "rtx-3090";
  });
  EXPECT_GT(want.size(), 100u);
  EXPECT_EQ(ids_of(nlohmann::json::parse(both.output)), want);
  const Response bad = run("tables", R"({"temperature": "hot"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error.field, "temperature");
}

TEST(TablesCommand, PageGivesTheSliceTheCountsAndTheFilterChoices) {
  const auto all = raw_ids([](const nlohmann::json&) { return true; });
  ASSERT_EQ(all.size(), 764u);
  Response r = run("tables", R"({"format": "page"})");
  ASSERT_TRUE(r.ok) << r.error.describe();
  nlohmann::json page = nlohmann::json::parse(r.output);
  EXPECT_EQ(page["total"], 764);
  EXPECT_EQ(page["first"], 1);
  EXPECT_EQ(page["last"], 50);  // the default page is 50 rows
  EXPECT_TRUE(page["previous_offset"].is_null());
  EXPECT_EQ(page["next_offset"], 50);
  EXPECT_EQ(ids_of(page["rows"]), std::vector<std::string>(all.begin(), all.begin() + 50));
  // The last page: rows 751-764, no next page; the previous one starts 50 rows earlier.
  r = run("tables", R"({"format": "page", "offset": 750})");
  ASSERT_TRUE(r.ok);
  page = nlohmann::json::parse(r.output);
  EXPECT_EQ(page["first"], 751);
  EXPECT_EQ(page["last"], 764);
  EXPECT_TRUE(page["next_offset"].is_null());
  EXPECT_EQ(page["previous_offset"], 700);
  EXPECT_EQ(ids_of(page["rows"]), std::vector<std::string>(all.begin() + 750, all.end()));
  // The choices count every row: each GPU preset's rows, and every temperature incl. unstated.
  int64_t hardware_rows = 0, temperature_rows = 0;
  for (const auto& c : page["filters"]["hardware"]) {
    const std::string id = c["query"].get<std::string>();
    EXPECT_EQ(c["rows"].get<std::size_t>(),
              raw_ids([&id](const nlohmann::json& x) { return x["hardware_id"] == id; }).size())
        << id;
    hardware_rows += c["rows"].get<int64_t>();
  }
  for (const auto& c : page["filters"]["temperature"]) temperature_rows += c["rows"].get<int64_t>();
  EXPECT_EQ(hardware_rows, static_cast<int64_t>(raw_ids([](const nlohmann::json& x) {
                                                  return x["hardware_id"].is_string();
                                                }).size()));
  EXPECT_EQ(temperature_rows, 764);
  EXPECT_EQ(page["filters"]["temperature"][0]["label"], "0 (greedy)");
  // offset/limit slice the plain JSON too; an offset past the end names the field.
  r = run("tables", R"({"offset": 10, "limit": 5})");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(ids_of(nlohmann::json::parse(r.output)),
            std::vector<std::string>(all.begin() + 10, all.begin() + 15));
  r = run("tables", R"({"format": "page", "offset": 764})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "offset");
  r = run("tables", R"({"format": "page", "limit": 0})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "limit");
}

TEST(TablesCommand, NamesEachModelOnce) {
  // The sources spell Vicuna-7B v1.3 four ways (published.json: "Vicuna-7B-v1.3",
  // "Vicuna-7B (v1.3)", "Vicuna-7B v1.3", "Vicuna-7B"); every one is named by its preset id. A
  // model without a preset keeps its published name.
  const Response r = run("tables", "");
  ASSERT_TRUE(r.ok);
  std::set<std::string> vicuna_spellings;
  for (const auto& row : nlohmann::json::parse(r.output)) {
    const std::string published = row["target_model"].get<std::string>();
    if (row["target_id"] == "vicuna-7b-v1.3") {
      vicuna_spellings.insert(published);
      EXPECT_EQ(row["model"], "vicuna-7b-v1.3") << row["id"];
    }
    if (published == "Zephyr-7B") {
      EXPECT_EQ(row["model"], "Zephyr-7B") << row["id"];
    }
  }
  EXPECT_GE(vicuna_spellings.size(), 4u);
}

// The model filter takes any part of a published name or of a preset id, in any case (the
// walk: "llama3.1-8b" found nothing, "llama3.1-8b-instruct" 45 rows): every row whose preset id
// starts with the typed prefix is found by it, counted from the unfiltered JSON rows.
TEST(TablesCommand, ModelFilterMatchesPartOfAPresetId) {
  const Response all = run("tables", R"({"format": "json"})");
  ASSERT_TRUE(all.ok) << all.error.describe();
  int64_t want = 0;
  for (const auto& r : nlohmann::json::parse(all.output))
    if (r["target_id"].is_string() &&
        r["target_id"].get<std::string>().rfind("llama3.1-8b", 0) == 0)
      ++want;
  ASSERT_GT(want, 0);
  const Response typed = run("tables", R"({"model": "LLAMA3.1-8B", "format": "json"})");
  ASSERT_TRUE(typed.ok) << typed.error.describe();
  int64_t got = 0;
  for (const auto& r : nlohmann::json::parse(typed.output))
    got += r["target_id"].is_string() &&
           r["target_id"].get<std::string>().rfind("llama3.1-8b", 0) == 0;
  EXPECT_EQ(got, want);
}

TEST(TablesCommand, EveryRowSaysWhetherTheCalculatorCanUseItAndWhyNot) {
  // The page's "Use" button draws `use` and decides nothing. The rule, restated from the row's
  // own fields: a row is usable when it has a batch, a modelled family, a model, a GPU and a
  // runtime (so a config reproduces it), a speedup to set the prediction beside, and is not a
  // superseded leaderboard version (its current cell is usable instead).
  const Response r = run("tables", "");
  ASSERT_TRUE(r.ok) << r.error.describe();
  std::map<std::string, int> labels;
  for (const auto& row : nlohmann::json::parse(r.output)) {
    const std::string family = row["family"].get<std::string>();
    const bool modelled = row["batch"].is_number() && family != "other" && family != "ar" &&
                          row["target_id"].is_string() && row["hardware_id"].is_string() &&
                          row["runtime"].is_string();
    const bool usable = modelled && row["speedup"].is_number() && row["superseded"] == false;
    ASSERT_TRUE(row["use"].is_object()) << row["id"];
    EXPECT_EQ(row["use"]["ok"], usable) << row["id"];
    EXPECT_EQ(row["config"].is_null(), !modelled) << row["id"];
    if (usable) {
      EXPECT_EQ(row["use"].size(), 1u) << row["id"];
      continue;
    }
    const std::string label = row["use"]["label"].get<std::string>();
    ++labels[label];
    EXPECT_FALSE(row["use"]["reason"].get<std::string>().empty()) << row["id"];
    if (row["superseded"] == true) {
      EXPECT_EQ(label, "superseded") << row["id"];
    } else if (!row["target_id"].is_string() && row["batch"].is_number() && family != "other") {
      EXPECT_EQ(label, "no model preset") << row["id"];
    }
  }
  // Spec-Bench's superseded cells: extra.status "superseded" in 117 rows of published-results.json.
  EXPECT_EQ(labels["superseded"], 117);
  EXPECT_GT(labels["no model preset"], 0);
  EXPECT_GT(labels["no speedup"], 0);
}

TEST(TablesCommand, ComparableRowsOfOnePresetWithTheBestOfEachFamily) {
  // The rows the charts set beside a result: exactly this preset, a latency speedup, not
  // superseded, not a reprint, a reproducing config. Counted here from the raw table and the plain
  // JSON rows.
  const Response all = run("tables", R"({"model": "vicuna-7b-v1.3"})");
  ASSERT_TRUE(all.ok);
  std::vector<std::string> want;
  std::map<std::string, std::pair<double, std::string>> best;  // family -> fastest (first)
  for (const auto& r : nlohmann::json::parse(all.output)) {
    if (r["target_id"] != "vicuna-7b-v1.3" || !r["speedup"].is_number() ||
        r["speedup_kind"] != "latency" || r["superseded"] == true ||
        r["duplicate_of"].is_string() || r["config"].is_null())
      continue;
    want.push_back(r["id"].get<std::string>());
    const double s = r["speedup"].get<double>();
    auto it = best.find(r["family"].get<std::string>());
    if (it == best.end() || s > it->second.first)
      best[r["family"].get<std::string>()] = {s, r["id"].get<std::string>()};
  }
  const Response r =
      run("tables", R"({"model_id": "vicuna-7b-v1.3", "comparable": true, "format": "json"})");
  ASSERT_TRUE(r.ok) << r.error.describe();
  const nlohmann::json rows = nlohmann::json::parse(r.output);
  EXPECT_EQ(ids_of(rows), want);
  EXPECT_GT(want.size(), 100u);
  std::size_t marked = 0;
  for (const auto& row : rows) {
    const bool is_best = best[row["family"].get<std::string>()].second == row["id"];
    EXPECT_EQ(row["family_best"], is_best) << row["id"];
    marked += is_best;
  }
  EXPECT_EQ(marked, best.size());
  // model_id is exact: "vicuna-7b" names no preset, though it is part of published names.
  EXPECT_EQ(nlohmann::json::parse(run("tables", R"({"model_id": "vicuna-7b"})").output).size(), 0u);
}

}  // namespace
}  // namespace speccalc
