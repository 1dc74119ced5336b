// The published-results table (core/data/published.json): 764 measurements from papers,
// repositories and the Spec-Bench leaderboard, each with its source, table, URL, hardware,
// confidence and notes, plus the normalized ids the cost model needs. The mapping rules
// (family, target_id, hardware assumptions, ...) are documented in scripts/import_published.py.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

// One table cell. Strings are empty where the source JSON has null.
struct PublishedRow {
  // Original fields, unchanged.
  std::string source, table, method, target_model, draft, dataset, hardware;
  std::optional<double> temperature;  // 0 = greedy; absent = not stated
  std::string batch_size_text;    // as published: "1", "" (not stated), "max: vanilla 8 vs EAGLE 7"
  std::optional<double> speedup;  // wall-clock vs autoregressive (see speedup_kind)
  std::optional<double> tau;      // tokens per draft-verify cycle, bonus token included
  std::string notes, confidence, provenance, source_url;
  std::string extra_json;  // the `extra` object as JSON text ("null" when absent)

  // Normalized fields.
  std::string id;         // "<source_id>-<index>", e.g. "eagle2-000"
  std::string source_id;  // eagle1, eagle2, eagle3, specbench, medusa, hydra, lookahead, ...
  std::string family;     // ar|sps|pld|lookahead|medusa|hydra|eagle1|eagle2|eagle3|other
  std::string target_id;  // model preset id, empty when we have no preset for the model
  bool target_assumed = false;
  std::string target_assumption;
  std::string hardware_id;  // GPU preset id, empty when none applies (TPU, unstated)
  int32_t gpus = 0;         // 0 when hardware_id is empty
  std::string parallelism;  // "single", "pipeline" (layers split, GPUs in turn), "tensor", ""
  bool hardware_assumed = false;
  std::string hardware_assumption;  // what was assumed and why (or what the source states)
  std::string draft_id;             // sps rows: draft (or model) preset id, else empty
  std::string runtime;              // "hf-eager" | "compiled"
  std::string method_params_json;   // family parameters stated by the source, e.g. {"k":4}
  std::string weights_dtype;        // "fp16" or "int4" (gpt-fast int4 rows)
  std::optional<int32_t> batch;     // batch size (1 when not stated); absent for max-batch rows
  std::string speedup_kind;         // "latency" | "throughput"
  bool superseded = false;          // Spec-Bench rows replaced by a later leaderboard version
  std::string duplicate_of;  // the row this one reprints (same numbers, an earlier table), or ""

  std::string json;  // the whole row as compact JSON text (all fields above)
};

// Parses the embedded table (native builds; the WASM build does not embed it and fails here).
Expected<std::vector<PublishedRow>> load_published();

// Parses the table's text as handed to run() (speccalc::Data::published). Empty text means the
// caller did not provide it: an Error saying so, not an empty table.
Expected<std::vector<PublishedRow>> load_published(std::string_view json_text);

// Parses a table given as JSON text (same schema); `load_published` calls this.
Expected<std::vector<PublishedRow>> parse_published(const std::string& json_text);

// A filter; empty members match everything. Each non-empty member matches a row when it is a
// case-insensitive substring of the original string, or equals (ignoring case) the normalized id:
//   method   -> `method` or `family`        model  -> `target_model` or `target_id`
//   dataset  -> `dataset`                   source -> `source` or `source_id`
//   hardware -> `hardware` or `hardware_id`
struct TableQuery {
  std::string method, model, dataset, source, hardware;
};

bool matches(const PublishedRow& row, const TableQuery& query);
std::vector<PublishedRow> filter_rows(const std::vector<PublishedRow>& rows,
                                      const TableQuery& query);

// Output formats of the `tables` command.
std::string rows_to_json(const std::vector<PublishedRow>& rows);  // JSON array, all fields
std::string rows_to_csv(const std::vector<PublishedRow>& rows);   // RFC 4180, header line, CRLF
std::string rows_to_text(const std::vector<PublishedRow>& rows);  // fixed-width, for people

// RFC 4180 field: quoted (inner quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(const std::string& text);

}  // namespace speccalc
