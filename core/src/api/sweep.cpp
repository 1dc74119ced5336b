
#include <algorithm>
#include <map>

#include "api/commands.hpp"
#include "config/acceptance_tau.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "model/evaluation_json.hpp"
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

// The summary fields, written straight into the point (no intermediate object to copy).
void add_summary(const Evaluation& e, json* point) {
  json& p = *point;
  p["speedup"] = e.speedup;
  p["tau"] = e.tau;
  p["tokens_per_s"] = e.tokens_per_s;
  p["baseline_tokens_per_s"] = e.baseline_tokens_per_s;
  p["cycle_time_s"] = e.cycle_time_s;
  p["draft_time_s"] = e.draft.time_s;
  p["verify_time_s"] = e.verify.time_s;
  p["baseline_time_s"] = e.baseline_step_s;
  p["verify_arithmetic_intensity"] = e.verify.arithmetic_intensity;
  p["verify_bound"] = e.verify.bound;
  p["fits_in_memory"] = e.fits_in_memory;
  p["verdict"] = e.verdict;
  p["max_batch"] = e.memory.max_batch;
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

// The config of each grid point. batch and context have no defaults or checks that involve
// other fields, so a valid integer value is set on an already parsed config; the config is
// parsed once per combination of the other axes. Any other value takes the full path (patch the
// JSON, parse), which also produces the exact error for it. Results are identical either way
// (tests/core/sweep_test.cpp).
class PointConfigs {
 public:
  PointConfigs(const json& base, const std::vector<Axis>& axes, const Catalog& catalog)
      : base_(base), axes_(axes), catalog_(catalog), fast_(axes.size(), 0) {
    for (std::size_t a = 0; a < axes.size(); ++a)
      fast_[a] = axes[a].path == "batch" ? 1 : axes[a].path == "context" ? 2 : 0;
  }

  // The config at grid position `index`; *path_ok false when an axis path names no field.
  Expected<Config> at(const std::vector<std::size_t>& index, bool* path_ok) {
    *path_ok = true;
    std::vector<std::size_t> other_key;
    if (!fast_values(index, &other_key)) {
      json doc = base_;
      for (std::size_t a = 0; a < axes_.size(); ++a)
        *path_ok = *path_ok && set_path(&doc, axes_[a].path, axes_[a].values[index[a]]);
      return *path_ok ? parse_config(doc, catalog_) : Expected<Config>(Error{});
    }
    auto it = parsed_.find(other_key);
    if (it == parsed_.end()) {
      json doc = base_;
      bool ok = true;
      for (std::size_t a = 0; a < axes_.size(); ++a)
        if (fast_[a] == 0) ok = ok && set_path(&doc, axes_[a].path, axes_[a].values[index[a]]);
      Parsed parsed{ok, ok ? parse_config(doc, catalog_) : Expected<Config>(Error{})};
      it = parsed_.emplace(other_key, std::move(parsed)).first;
    }
    *path_ok = it->second.path_ok;
    Expected<Config> config = it->second.config;
    if (config.ok()) {
      for (std::size_t a = 0; a < axes_.size(); ++a) {
        if (fast_[a] == 1) config.value().batch = axes_[a].values[index[a]].get<int64_t>();
        if (fast_[a] == 2) config.value().context = axes_[a].values[index[a]].get<int64_t>();
      }
    }
    return config;
  }

 private:
  struct Parsed {
    bool path_ok;
    Expected<Config> config;
  };

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
  std::map<std::vector<std::size_t>, Parsed> parsed_;
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

  auto catalog = load_catalog();
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
  TauMemo memo;  // tau depends only on method and acceptance: computed once per pair
  PointConfigs configs(req["config"], axes, catalog.value());
  for (std::size_t n = 0; n < total; ++n) {
    json values = json::array();
    for (std::size_t a = 0; a < axes.size(); ++a) values.push_back(axes[a].values[index[a]]);
    json point = json::object();
    bool path_ok = true;
    Expected<Config> config = configs.at(index, &path_ok);
    if (!path_ok) {
      point["error"] = json{{"field", "axes"}, {"message", "path does not name a config field"}};
    } else if (!config.ok()) {
      point["error"] = error_json(config.error());
    } else if (auto e = evaluate(config.value(), &memo); !e.ok()) {
      point["error"] = error_json(e.error());
    } else {
      if (full)
        point["result"] = evaluation_to_json(e.value(), config.value());
      else
        add_summary(e.value(), &point);
      // Break-even (both details): the first feasible batch where speculation stops paying.
      if (find_break_even && be.is_null() && e.value().fits_in_memory && e.value().speedup < 1.0)
        be = values[0];
      if (e.value().fits_in_memory && (best.is_null() || e.value().speedup > best_speedup)) {
        best_speedup = e.value().speedup;
        best = json{{"index", n}, {"speedup", best_speedup}, {"values", values}};
      }
    }
    point["values"] = std::move(values);
    if (n > 0) points_text += ',';
    points_text += point.dump();
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
  head += ",\"points\":";
  points_text.insert(0, head);  // into the reserved buffer: no second multi-megabyte copy
  points_text += '}';
  return ok_json(std::move(points_text));
}

}  // namespace speccalc::commands
