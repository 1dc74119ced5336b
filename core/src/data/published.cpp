// Loads core/data/published.json into PublishedRow values and filters them.
#include "speccalc/published.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {
namespace {

using json = nlohmann::json;

// Each reader accepts the value or null (-> empty / absent) and reports any other type.
class RowReader {
 public:
  RowReader(const json& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  std::string text(const char* key) {
    const json* v = find(key);
    if (v == nullptr || v->is_null()) return {};
    if (v->is_string()) return v->get<std::string>();
    // batch_size is a number in most rows and a sentence in the max-throughput ones.
    if (v->is_number()) return v->dump();
    fail(key, "must be a string or null");
    return {};
  }
  std::optional<double> number(const char* key) {
    const json* v = find(key);
    if (v == nullptr || v->is_null()) return std::nullopt;
    if (!v->is_number()) {
      fail(key, "must be a number or null");
      return std::nullopt;
    }
    return v->get<double>();
  }
  std::optional<int32_t> integer(const char* key) {
    const json* v = find(key);
    if (v == nullptr || v->is_null()) return std::nullopt;
    if (!v->is_number_integer() || v->get<int64_t>() < 0 || v->get<int64_t>() > 1000000) {
      fail(key, "must be a non-negative integer or null");
      return std::nullopt;
    }
    return static_cast<int32_t>(v->get<int64_t>());
  }
  bool flag(const char* key) {
    const json* v = find(key);
    if (v == nullptr || v->is_null()) return false;
    if (!v->is_boolean()) {
      fail(key, "must be true or false");
      return false;
    }
    return v->get<bool>();
  }
  std::string raw(const char* key) {
    const json* v = find(key);
    return v == nullptr ? std::string("null") : v->dump();
  }
  bool ok() const { return error_.message.empty(); }
  const Error& error() const { return error_; }

 private:
  const json* find(const char* key) {
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }
  void fail(const char* key, const char* why) {
    if (ok()) error_ = make_error(path_ + "." + key, why);
  }
  const json& obj_;
  std::string path_;
  Error error_;
};

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_ignore_case(const std::string& haystack, const std::string& needle) {
  if (needle.size() > haystack.size()) return false;
  for (std::size_t start = 0; start + needle.size() <= haystack.size(); ++start) {
    std::size_t i = 0;
    while (i < needle.size() && lower(haystack[start + i]) == lower(needle[i])) ++i;
    if (i == needle.size()) return true;
  }
  return false;
}

bool equals_ignore_case(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// An empty filter matches everything; otherwise a substring of the original (any case) or the
// exact id ("eagle1" is the EAGLE-1 paper, not also its README's rows).
bool field_matches(const std::string& filter, const std::string& original, const std::string& id) {
  if (filter.empty()) return true;
  return contains_ignore_case(original, filter) || (!id.empty() && equals_ignore_case(id, filter));
}

// A model also by any part of its preset id (the walk: "llama3.1-8b", the start of a preset id,
// matched nothing, since the published names read "LLaMA-3.1-8B-Instruct").
bool model_matches(const std::string& filter, const std::string& original, const std::string& id) {
  return field_matches(filter, original, id) || contains_ignore_case(id, filter);
}

}  // namespace

Expected<std::vector<PublishedRow>> parse_published(const std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return make_error("published", "is not valid JSON");
  if (!doc.is_array()) return make_error("published", "must be a JSON array of rows");
  std::vector<PublishedRow> rows;
  rows.reserve(doc.size());
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const json& obj = doc[i];
    const std::string path = "published[" + std::to_string(i) + "]";
    if (!obj.is_object()) return make_error(path, "must be an object");
    RowReader r(obj, path);
    PublishedRow row;
    row.source = r.text("source");
    row.table = r.text("table");
    row.method = r.text("method");
    row.target_model = r.text("target_model");
    row.draft = r.text("draft");
    row.dataset = r.text("dataset");
    row.temperature = r.number("temperature");
    row.hardware = r.text("hardware");
    row.batch_size_text = r.text("batch_size");
    row.speedup = r.number("speedup");
    row.tau = r.number("tau");
    row.notes = r.text("notes");
    row.confidence = r.text("confidence");
    row.provenance = r.text("provenance");
    row.source_url = r.text("source_url");
    row.extra_json = r.raw("extra");
    row.id = r.text("id");
    row.source_id = r.text("source_id");
    row.family = r.text("family");
    row.target_id = r.text("target_id");
    row.target_assumed = r.flag("target_assumed");
    row.target_assumption = r.text("target_assumption");
    row.hardware_id = r.text("hardware_id");
    row.gpus = r.integer("gpus").value_or(0);
    row.parallelism = r.text("parallelism");
    row.hardware_assumed = r.flag("hardware_assumed");
    row.hardware_assumption = r.text("hardware_assumption");
    row.draft_id = r.text("draft_id");
    row.runtime = r.text("runtime");
    row.method_params_json = r.raw("method_params");
    row.weights_dtype = r.text("weights_dtype");
    row.batch = r.integer("batch");
    row.speedup_kind = r.text("speedup_kind");
    row.superseded = r.flag("superseded");
    row.duplicate_of = r.text("duplicate_of");
    if (!r.ok()) return r.error();
    if (row.id.empty()) return make_error(path + ".id", "is missing");
    row.json = obj.dump();
    rows.push_back(std::move(row));
  }
  return rows;
}

Expected<std::vector<PublishedRow>> load_published() { return load_published(data::published()); }

Expected<std::vector<PublishedRow>> load_published(std::string_view json_text) {
  if (json_text.empty()) {
    return make_error("",
                      "the published table is not loaded in this build; the caller passes "
                      "core/data/published.json as speccalc::Data::published");
  }
  return parse_published(std::string(json_text));
}

bool matches(const PublishedRow& row, const TableQuery& q) {
  return field_matches(q.method, row.method, row.family) &&
         model_matches(q.model, row.target_model, row.target_id) &&
         field_matches(q.dataset, row.dataset, std::string()) &&
         field_matches(q.source, row.source, row.source_id) &&
         field_matches(q.hardware, row.hardware, row.hardware_id);
}

std::vector<PublishedRow> filter_rows(const std::vector<PublishedRow>& rows, const TableQuery& q) {
  std::vector<PublishedRow> out;
  for (const PublishedRow& row : rows) {
    if (matches(row, q)) out.push_back(row);
  }
  return out;
}

}  // namespace speccalc
