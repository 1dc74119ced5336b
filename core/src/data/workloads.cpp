#include "speccalc/workloads.hpp"

#include <nlohmann/json.hpp>

#include "speccalc/embedded_data.hpp"

namespace speccalc {

namespace {

using nlohmann::json;

// tau_by_k and per_request_tau_by_k are objects keyed "1".."8"; read them in k order.
bool read_proposer(const json& p, WorkloadProposer* out) {
  if (!p.is_object() || !p.contains("tau_by_k") || !p.contains("per_request_tau_by_k"))
    return false;
  const json& tau = p["tau_by_k"];
  const json& spread = p["per_request_tau_by_k"];
  for (int k = 1; k <= 8; ++k) {
    const std::string key = std::to_string(k);
    if (!tau.contains(key) || !tau[key].is_number() || !spread.contains(key)) return false;
    out->tau_by_k.push_back(tau[key].get<double>());
    const json& s = spread[key];
    out->per_request.push_back(
        TauSpread{s.value("p5", 0.0), s.value("p50", 0.0), s.value("p95", 0.0)});
  }
  if (p.contains("per_position_acceptance_k8"))
    for (const auto& v : p["per_position_acceptance_k8"])
      if (v.is_number()) out->per_position_k8.push_back(v.get<double>());
  if (p.contains("acc_len_histogram_1_to_16plus")) {
    for (const auto& v : p["acc_len_histogram_1_to_16plus"])
      if (v.is_number()) out->acc_len_hist.push_back(v.get<double>());
    if (out->acc_len_hist.size() != 16) return false;
  }
  return true;
}

Expected<WorkloadTable> parse_workloads() {
  const json doc = json::parse(data::workloads(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return make_error("", "internal error: embedded workload table is not valid JSON");
  WorkloadTable t;
  if (!doc.contains("_meta") || !doc.contains("workloads"))
    return make_error("", "internal error: embedded workload table lacks _meta or workloads");
  const json& meta = doc["_meta"];
  t.source = meta.value("source", "");
  t.target = meta.value("target", "");
  t.engine = meta.value("engine", "");
  t.hardware = meta.value("hardware", "");
  if (doc.contains("eagle3_vs_eagle_head")) {
    const json& r = doc["eagle3_vs_eagle_head"];
    for (const auto& x : r.value("tau_ratio_by_k", json::array()))
      if (x.is_number()) t.eagle3_ratio_by_k.push_back(x.get<double>());
    if (t.eagle3_ratio_by_k.size() != 8)
      return make_error("", "internal error: eagle3_vs_eagle_head lacks a ratio for k = 1..8");
    t.eagle3_ratio_source = r.value("source", "");
  }
  for (const auto& w : doc["workloads"]) {
    Workload out;
    out.id = w.value("id", "");
    out.name = w.value("name", "");
    out.requests = w.value("requests", int64_t{0});
    out.prompt_tokens_mean = w.value("prompt_tokens_mean", 0.0);
    out.output_tokens_mean = w.value("output_tokens_mean", 0.0);
    const json p = w.value("proposers", json::object());
    if (!p.contains("eagle") || !p.contains("ngram") || !read_proposer(p["eagle"], &out.eagle) ||
        !read_proposer(p["ngram"], &out.ngram))
      return make_error("", "internal error: workload " + out.id + " lacks tau for k = 1..8");
    t.workloads.push_back(out);
  }
  return t;
}

}  // namespace

const Workload* WorkloadTable::find(const std::string& id) const {
  for (const auto& w : workloads)
    if (w.id == id) return &w;
  return nullptr;
}

std::string WorkloadTable::ids() const {
  std::string s;
  for (const auto& w : workloads) s += (s.empty() ? "" : ", ") + w.id;
  return s;
}

Expected<WorkloadTable> load_workloads() {
  static const Expected<WorkloadTable> parsed = parse_workloads();
  return parsed;
}

}  // namespace speccalc
