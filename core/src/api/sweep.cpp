
#include <algorithm>
#include <map>

#include "api/commands.hpp"
#include "api/json_write.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "model/cost_plan.hpp"
#include "model/evaluation_json.hpp"
#include "model/moe_batch_note.hpp"
#include "speccalc/config.hpp"
#include "speccalc/evaluate.hpp"

namespace speccalc::commands {

using fields::json;

namespace {

constexpr std::size_t kMaxPoints = 100000;
constexpr std::size_t kMaxAxes = 4;

struct Axis {
  std::string path;
  json values;
};

// Sets the dotted `path` in doc to value (creating objects on the way).
bool set_path(json* doc, const std::string& path, const json& value) {
  if (path == "method.family") {
    (*doc)["method"] = json{{"family", value}};
    return true;
  }
  json* node = doc;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = path.find('.', pos);
    const std::string name =
        path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (name.empty()) return false;
    if (dot == std::string::npos) {
      if (path.rfind("acceptance.", 0) == 0) node->clear();  // acceptance holds exactly one key
      (*node)[name] = value;
      return true;
    }
    json& child = (*node)[name];
    if (child.is_string() || child.is_null()) child = json::object();  // preset id -> object
    if (!child.is_object()) return false;
    node = &child;
    pos = dot + 1;
  }
}

// The summary fields and the point's values (their JSON text), written as dump() of the same
// object would write them: keys in sorted order, numbers as nlohmann prints them. The keys are
// plain ASCII, written as literals.
void write_summary(const Evaluation& e, const std::string& values_text, std::string* out) {
  std::string& o = *out;
  namespace jw = json_write;
  o += "{\"baseline_time_s\":";
  jw::number(o, e.baseline_step_s);
  o += ",\"baseline_tokens_per_s\":";
  jw::number(o, e.baseline_tokens_per_s);
  o += ",\"cycle_time_s\":";
  jw::number(o, e.cycle_time_s);
  o += ",\"draft_time_s\":";
  // A variable draft length (llama.cpp): the expectations the cycle time adds up.
  jw::number(o, e.has_draft_length ? e.expected_draft_s : e.draft.time_s);
  o += e.fits_in_memory ? ",\"fits_in_memory\":true" : ",\"fits_in_memory\":false";
  o += ",\"max_batch\":";
  jw::integer(o, e.memory.max_batch);
  o += ",\"speedup\":";
  jw::number(o, e.speedup);
  o += ",\"tau\":";
  jw::number(o, e.tau);
  o += ",\"tokens_per_s\":";
  jw::number(o, e.tokens_per_s);
  o += ",\"values\":";
  o += values_text;
  o += ",\"verdict\":";
  jw::string(o, e.verdict);
  o += ",\"verify_arithmetic_intensity\":";
  jw::number(o, e.verify.arithmetic_intensity);
  o += ",\"verify_bound\":";
  jw::string(o, e.verify.bound);
  o += ",\"verify_time_s\":";
  jw::number(o, e.has_draft_length ? e.expected_verify_s : e.verify.time_s);
  o += '}';
}

// The request: its axes (one-axis shorthand or a list), the detail and the grid's size.
struct Request {
  std::vector<Axis> axes;
  std::string detail = "summary";
  std::size_t total = 1;  // points in the grid
};

Expected<Request> read_request(const json& req) {
  Request r;
  Error err;
  if (!fields::check_keys(req, "", {"config", "axes", "axis", "values", "detail"}, &err))
    return err;
  if (!req.contains("config") || !req["config"].is_object())
    return make_error("config", "is required and must be a config object");
  if (!fields::read_string(req, "detail", "", &r.detail, &err, 16)) return err;
  if (r.detail != "summary" && r.detail != "full")
    return make_error("detail", "must be summary or full");
  const bool shorthand = req.contains("axis");
  if (shorthand) {
    if (req.contains("axes"))
      return make_error("axis", "give either axis/values or axes, not both");
    std::string path;
    if (!fields::read_string(req, "axis", "", &path, &err, 64)) return err;
    if (!req.contains("values")) return make_error("values", "is required with axis");
    r.axes.push_back(Axis{path, req["values"]});
  } else if (req.contains("axes")) {
    const json& a = req["axes"];
    if (!a.is_array() || a.empty() || a.size() > kMaxAxes)
      return make_error("axes", "must be a list of 1 to 4 axes");
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string p = "axes[" + std::to_string(i) + "]";
      if (!a[i].is_object() || !fields::check_keys(a[i], p, {"path", "values"}, &err))
        return err.message.empty() ? make_error(p, "must be {path, values}") : err;
      std::string path;
      if (!fields::read_string(a[i], "path", p, &path, &err, 64)) return err;
      if (!a[i].contains("values")) return make_error(p + ".values", "is required");
      r.axes.push_back(Axis{path, a[i]["values"]});
    }
  } else {
    return make_error("axes", "is required (or axis with values)");
  }
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    const std::string at = "axes[" + std::to_string(i) + "]";
    const std::string p = shorthand ? "values" : at + ".values";
    if (r.axes[i].path.empty())
      return make_error(shorthand ? "axis" : at + ".path", "must name a config field");
    if (!r.axes[i].values.is_array() || r.axes[i].values.empty())
      return make_error(p, "must be a non-empty list");
    r.total *= r.axes[i].values.size();
    if (r.total > kMaxPoints)
      return make_error(p, "the grid has more than " + std::to_string(kMaxPoints) + " points");
  }
  return r;
}

// The evaluation of each grid point. batch and context have no defaults or checks that involve
// other fields, so a valid integer value is evaluated on the cost plan of a config parsed once
// per combination of the other axes (model/cost_plan.hpp): everything but the passes' work,
// time and memory is computed once per combination. Any other value takes the full path (patch
// the JSON, parse, evaluate), which also produces the exact error for it. Results are
// identical either way (tests/core/sweep_test.cpp).
class PointPlans {
 public:
  PointPlans(const json& base, const std::vector<Axis>& axes, const Catalog& catalog)
      : base_(base), axes_(axes), catalog_(catalog), fast_(axes.size(), 0) {
    for (std::size_t a = 0; a < axes.size(); ++a)
      fast_[a] = axes[a].path == "batch" ? 1 : axes[a].path == "context" ? 2 : 0;
  }

  // The evaluation at grid position `index`, or its error; *path_ok false when an axis path
  // names no field. *config (when evaluated) is the point's config for full detail.
  Expected<Evaluation> at(const std::vector<std::size_t>& index, Detail detail, TauMemo* memo,
                          bool* path_ok, const Config** config) {
    *path_ok = true;
    other_key_.clear();
    Entry* entry = nullptr;
    if (fast_values(index, &other_key_)) {
      auto it = entries_.find(other_key_);
      if (it == entries_.end()) it = entries_.emplace(other_key_, compile(index, memo)).first;
      entry = &it->second;
    }
    // A testbed measurement without its own batch is taken at the config's batch (the parsed
    // config holds that batch), so a batch axis re-parses such a config at each point.
    if (!entry || (entry->batch_per_parse && entry->path_ok && entry->plan.ok())) {
      json doc = base_;
      for (std::size_t a = 0; a < axes_.size(); ++a)
        *path_ok = *path_ok && set_path(&doc, axes_[a].path, axes_[a].values[index[a]]);
      if (!*path_ok) return Error{};
      auto parsed = parse_config(doc, catalog_);
      if (!parsed.ok()) return parsed.error();
      slow_config_ = std::move(parsed.value());
      *config = &slow_config_;
      return evaluate(slow_config_, memo);
    }
    *path_ok = entry->path_ok;
    if (!entry->path_ok) return Error{};
    if (!entry->plan.ok()) return entry->plan.error();
    int64_t batch = entry->batch, context = entry->context;
    for (std::size_t a = 0; a < axes_.size(); ++a) {
      if (fast_[a] == 1) batch = axes_[a].values[index[a]].get<int64_t>();
      if (fast_[a] == 2) context = axes_[a].values[index[a]].get<int64_t>();
    }
    *config = &entry->plan.value().config();
    return entry->plan.value().at(batch, context, detail);
  }

 private:
  struct Entry {
    bool path_ok = true;
    Expected<CostPlan> plan;         // or the config's (or its tau's) error
    int64_t batch = 1, context = 0;  // the config's, for axes that do not set them
    bool batch_per_parse = false;    // a batch axis must re-parse (see at())
  };

  // The plan of the config the non-batch/context axes give at `index`.
  Entry compile(const std::vector<std::size_t>& index, TauMemo* memo) const {
    json doc = base_;
    bool ok = true;
    for (std::size_t a = 0; a < axes_.size(); ++a)
      if (fast_[a] == 0) ok = ok && set_path(&doc, axes_[a].path, axes_[a].values[index[a]]);
    if (!ok) return Entry{false, Expected<CostPlan>(Error{}), 1, 0, false};
    auto config = parse_config(doc, catalog_);
    if (!config.ok()) return Entry{true, Expected<CostPlan>(config.error()), 1, 0, false};
    const Config& c = config.value();
    const bool batch_axis = std::find(fast_.begin(), fast_.end(), 1) != fast_.end();
    return Entry{true, CostPlan::compile(c, memo), c.batch, c.context,
                 batch_axis && c.runtime.measured_decode_step_s > 0};
  }

  // Whether every batch/context value at `index` is a valid integer (the fast path); the
  // indices of the other axes go to *other_key.
  bool fast_values(const std::vector<std::size_t>& index, std::vector<std::size_t>* other_key) {
    bool ok = true;
    for (std::size_t a = 0; a < axes_.size(); ++a) {
      if (fast_[a] == 0) {
        other_key->push_back(index[a]);
        continue;
      }
      const json& v = axes_[a].values[index[a]];
      const int64_t hi = fast_[a] == 1 ? ConfigLimits::kMaxBatch : ConfigLimits::kMaxContext;
      const int64_t lo = fast_[a] == 1 ? 1 : 0;
      if (!v.is_number_integer() ||
          (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi))) {
        ok = false;
        continue;
      }
      const int64_t x = v.get<int64_t>();
      if (x < lo || x > hi) ok = false;
    }
    return ok;
  }

  const json& base_;
  const std::vector<Axis>& axes_;
  const Catalog& catalog_;
  std::vector<int> fast_;  // 1: batch, 2: context, 0: any other path
  std::map<std::vector<std::size_t>, Entry> entries_;
  std::vector<std::size_t> other_key_;
  Config slow_config_;
};

json error_json(const Error& e) { return json{{"field", e.field}, {"message", e.message}}; }

}  // namespace

Response sweep(const std::string& input) {
  auto parsed = fields::parse_document(input, "the sweep request", 24);
  if (!parsed.ok()) return fail(parsed.error());
  const json& req = parsed.value();
  if (!req.is_object()) return fail(make_error("", "the sweep request must be a JSON object"));
  Expected<Request> request = read_request(req);
  if (!request.ok()) return fail(request.error());
  const std::vector<Axis>& axes = request.value().axes;
  const std::size_t total = request.value().total;
  const bool full = request.value().detail == "full";

  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  // The base config must itself be valid, so errors in it are reported once, by field.
  auto base = parse_config(req["config"], catalog.value());
  if (!base.ok()) {
    Error e = base.error();
    e.field = e.field.empty() ? "config" : "config." + e.field;
    return fail(e);
  }

  // Points are serialized as they are computed and appended to one buffer: a 10,000-point grid
  // never holds 10,000 JSON objects (building, copying and freeing them cost as much as
  // dumping). The object keys are written in nlohmann's (sorted) order, so the text is exactly
  // what dump() of the whole document gives.
  std::string points_text = "[";
  // A summary point is ~350 bytes: reserving once avoids re-copying megabytes as it grows.
  points_text.reserve(std::min<std::size_t>(total * (full ? 4096 : 400), 64u << 20));
  json be = nullptr;  // break-even batch along a single batch axis: first speedup < 1
  // The best point: highest speedup among the points that evaluate and fit in memory (the
  // first on a tie), so front ends mark it without searching.
  json best = nullptr;
  double best_speedup = 0;
  const bool find_break_even = axes.size() == 1 && axes[0].path == "batch";
  std::vector<std::size_t> index(axes.size(), 0);
  // Each axis value's JSON text, dumped once rather than at every point that uses it.
  std::vector<std::vector<std::string>> value_text(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a)
    for (const auto& v : axes[a].values) value_text[a].push_back(v.dump());
  // A speculative MoE target swept over batch: why its speedup is not monotone (the walk saw
  // DeepSeek-V3's MTP dip from 1.59x at batch 1 to 1.29x at 8 and rise to 1.71x at 128).
  bool moe_batch = false;
  TauMemo memo;  // tau depends only on method and acceptance: computed once per pair
  PointPlans plans(req["config"], axes, catalog.value());
  std::string values;
  for (std::size_t n = 0; n < total; ++n) {
    values = "[";
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (a > 0) values += ',';
      values += value_text[a][index[a]];
    }
    values += ']';
    if (n > 0) points_text += ',';
    bool path_ok = true;
    const Config* config = nullptr;
    Expected<Evaluation> e =
        plans.at(index, full ? Detail::full : Detail::numbers, &memo, &path_ok, &config);
    if (!path_ok || !e.ok()) {
      const Error err = path_ok ? e.error() : Error{"axes", "path does not name a config field"};
      json point = {{"error", error_json(err)}, {"values", json::parse(values)}};
      points_text += point.dump();
    } else {
      const Evaluation& ev = e.value();
      if (find_break_even && moe_batch_note_applies(*config)) moe_batch = true;
      if (full) {
        json point = {{"result", evaluation_to_json(ev, *config)}, {"values", json::parse(values)}};
        points_text += point.dump();
      } else {
        write_summary(ev, values, &points_text);
      }
      // Break-even (both details): the first feasible batch where speculation stops paying.
      if (find_break_even && be.is_null() && ev.fits_in_memory && ev.speedup < 1.0)
        be = axes[0].values[index[0]];
      if (ev.fits_in_memory && (best.is_null() || ev.speedup > best_speedup)) {
        best_speedup = ev.speedup;
        best = json{{"index", n}, {"speedup", best_speedup}, {"values", json::parse(values)}};
      }
    }
    // Odometer over the axes, last axis fastest.
    for (std::size_t a = axes.size(); a-- > 0;) {
      if (++index[a] < axes[a].values.size()) break;
      index[a] = 0;
    }
  }
  points_text += ']';
  json axes_out = json::array();
  for (const auto& a : axes) axes_out.push_back(json{{"path", a.path}, {"values", a.values}});
  // {"axes", "best", "break_even_batch"?, "points"}: sorted key order, as dump() writes them.
  std::string head = "{\"axes\":" + axes_out.dump() + ",\"best\":" + best.dump();
  if (find_break_even) head += ",\"break_even_batch\":" + be.dump();
  if (moe_batch) {
    head += ",\"notes\":" + json::array({moe_batch_note()}).dump();
  }
  head += ",\"points\":";
  points_text.insert(0, head);  // into the reserved buffer: no second multi-megabyte copy
  points_text += '}';
  return ok_json(std::move(points_text));
}

}  // namespace speccalc::commands
