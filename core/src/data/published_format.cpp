// Output formats of the published-results table: JSON, CSV (RFC 4180) and a text table.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/json_fields.hpp"
#include "speccalc/published.hpp"

namespace speccalc {
namespace {

// Whole numbers print without ".0" (the sources write temperature 0, not 0.0); others as
// nlohmann prints them (shortest round trip), identical in native and WASM builds.
std::string number_text(const std::optional<double>& v) {
  if (!v) return std::string();
  if (*v >= -1e15 && *v <= 1e15 && *v == static_cast<double>(static_cast<int64_t>(*v))) {
    return std::to_string(static_cast<int64_t>(*v));
  }
  return fields::format_number(*v);
}
std::string bool_text(bool b) { return b ? "true" : "false"; }

// Fits text into `width` columns: cut (never inside a UTF-8 sequence) and mark with "...".
std::string fit(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text + std::string(width - text.size(), ' ');
  std::size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out = text.substr(0, cut) + "...";
  return out + std::string(width > out.size() ? width - out.size() : 0, ' ');
}

std::string fit_right(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text;
  return std::string(width - text.size(), ' ') + text;
}

// "2x rtx-3090*": count, preset id, and a star when the hardware is our assumption.
std::string hardware_cell(const PublishedRow& row) {
  if (row.hardware_id.empty()) return "-";
  std::string cell =
      row.gpus > 1 ? std::to_string(row.gpus) + "x " + row.hardware_id : row.hardware_id;
  if (row.hardware_assumed) cell += "*";
  return cell;
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string rows_to_json(const std::vector<PublishedRow>& rows) {
  // Each row.json is nlohmann's compact dump, so this equals dump() of the whole array.
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += ',';
    out += rows[i].json;
  }
  out += ']';
  return out;
}

std::string rows_to_csv(const std::vector<PublishedRow>& rows) {
  static const char* const kHeader[] = {"id",
                                        "source_id",
                                        "source",
                                        "table",
                                        "method",
                                        "family",
                                        "target_model",
                                        "target_id",
                                        "target_assumed",
                                        "target_assumption",
                                        "draft",
                                        "draft_id",
                                        "dataset",
                                        "temperature",
                                        "hardware",
                                        "hardware_id",
                                        "gpus",
                                        "parallelism",
                                        "hardware_assumed",
                                        "hardware_assumption",
                                        "runtime",
                                        "weights_dtype",
                                        "batch_size",
                                        "batch",
                                        "speedup",
                                        "speedup_kind",
                                        "tau",
                                        "method_params",
                                        "superseded",
                                        "confidence",
                                        "provenance",
                                        "source_url",
                                        "notes",
                                        "extra"};
  std::string out;
  for (std::size_t i = 0; i < sizeof(kHeader) / sizeof(kHeader[0]); ++i) {
    if (i > 0) out += ',';
    out += kHeader[i];
  }
  out += "\r\n";
  for (const PublishedRow& r : rows) {
    const std::string cells[] = {r.id,
                                 r.source_id,
                                 r.source,
                                 r.table,
                                 r.method,
                                 r.family,
                                 r.target_model,
                                 r.target_id,
                                 bool_text(r.target_assumed),
                                 r.target_assumption,
                                 r.draft,
                                 r.draft_id,
                                 r.dataset,
                                 number_text(r.temperature),
                                 r.hardware,
                                 r.hardware_id,
                                 r.gpus > 0 ? std::to_string(r.gpus) : std::string(),
                                 r.parallelism,
                                 bool_text(r.hardware_assumed),
                                 r.hardware_assumption,
                                 r.runtime,
                                 r.weights_dtype,
                                 r.batch_size_text,
                                 r.batch ? std::to_string(*r.batch) : std::string(),
                                 number_text(r.speedup),
                                 r.speedup_kind,
                                 number_text(r.tau),
                                 r.method_params_json,
                                 bool_text(r.superseded),
                                 r.confidence,
                                 r.provenance,
                                 r.source_url,
                                 r.notes,
                                 r.extra_json == "null" ? "" : r.extra_json};
    for (std::size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); ++i) {
      if (i > 0) out += ',';
      out += csv_field(cells[i]);
    }
    out += "\r\n";
  }
  return out;
}

std::string rows_to_text(const std::vector<PublishedRow>& rows) {
  struct Column {
    const char* title;
    std::size_t width;
  };
  static const Column kCols[] = {{"source", 13},  {"table", 20}, {"method", 20},  {"model", 22},
                                 {"dataset", 24}, {"T", 4},      {"hardware", 20}};
  std::string out;
  for (const Column& c : kCols) out += fit(c.title, c.width) + ' ';
  out += fit_right("tau", 5) + ' ' + fit_right("speedup", 7) + '\n';
  for (const PublishedRow& r : rows) {
    const std::string cells[] = {
        r.source_id,     r.table,
        r.method,        r.target_id.empty() ? r.target_model : r.target_id,
        r.dataset,       r.temperature ? number_text(r.temperature) : "-",
        hardware_cell(r)};
    for (std::size_t i = 0; i < sizeof(kCols) / sizeof(kCols[0]); ++i) {
      out += fit(cells[i], kCols[i].width) + ' ';
    }
    const std::string tau = r.tau ? number_text(r.tau) : "-";
    const std::string speedup = r.speedup ? number_text(r.speedup) + "x" : "-";
    out += fit_right(tau, 5) + ' ' + fit_right(speedup, 7) + '\n';
  }
  out += std::to_string(rows.size()) +
         " row(s). * = hardware assumed (the source does not state it;"
         " see hardware_assumption in --format json).\n";
  return out;
}

}  // namespace speccalc
