#include "config/load_parse.hpp"

#include "config/json_fields.hpp"
#include "speccalc/workloads.hpp"

namespace speccalc {

using fields::json;

namespace {

// vLLM's OpenAI-server defaults (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults): GPUs
// with at least 70 GiB that are not A100s get 1024 sequences and 8192 tokens per step; others
// 256 and 2048.
constexpr double kBigGpuBytes = 70.0 * 1024 * 1024 * 1024;
bool big_gpu(const Gpu& g) {
  return g.mem_gb * 1e9 >= kBigGpuBytes && g.id.find("a100") == std::string::npos;
}

bool parse_slo(const json& load, Config* c, Error* err) {
  auto it = load.find("slo");
  if (it == load.end()) return true;
  if (!it->is_object()) {
    *err = make_error("load.slo", "must be an object {tpot_s, ttft_s, e2e_s}");
    return false;
  }
  LoadSlo& s = c->load.slo;
  return fields::check_keys(*it, "load.slo", {"tpot_s", "ttft_s", "e2e_s"}, err) &&
         fields::read_number(*it, "tpot_s", "load.slo", 1e-6, 3600, &s.tpot_s, err) &&
         fields::read_number(*it, "ttft_s", "load.slo", 1e-6, 3600, &s.ttft_s, err) &&
         fields::read_number(*it, "e2e_s", "load.slo", 1e-6, 86400, &s.e2e_s, err);
}

}  // namespace

bool parse_load(const json& doc, Config* c, Error* err) {
  auto it = doc.find("load");
  if (it == doc.end()) return true;
  if (!it->is_object()) {
    *err = make_error("load", "must be an object {rate_rps | concurrency, input_tokens, ...}");
    return false;
  }
  if (!fields::check_keys(
          *it, "load",
          {"rate_rps", "concurrency", "workload", "input_tokens", "output_tokens", "max_num_seqs",
           "max_num_batched_tokens", "slo", "curve_max_rps", "curve_points"},
          err))
    return false;
  LoadConfig& l = c->load;
  l.present = true;
  const double max_tokens = static_cast<double>(ConfigLimits::kMaxContext);
  if (!fields::read_number(*it, "rate_rps", "load", 1e-9, ConfigLimits::kMaxRateRps, &l.rate_rps,
                           err) ||
      !fields::read_int(*it, "concurrency", "load", 1, ConfigLimits::kMaxBatch, &l.concurrency,
                        err) ||
      !fields::read_string(*it, "workload", "load", &l.workload, err, 64))
    return false;
  if (it->contains("rate_rps") == it->contains("concurrency")) {
    *err = make_error("load.rate_rps",
                      "give exactly one of rate_rps (requests per second) and concurrency "
                      "(requests kept in flight)");
    return false;
  }
  if (!l.workload.empty()) {
    auto table = load_workloads();
    if (!table.ok()) {
      *err = table.error();
      return false;
    }
    const Workload* w = table.value().find(l.workload);
    if (!w) {
      *err = make_error("load.workload", "unknown workload; known: " + table.value().ids());
      return false;
    }
    l.input_tokens = w->prompt_tokens_mean;
    l.output_tokens = w->output_tokens_mean;
  }
  l.lengths_given = it->contains("input_tokens") || it->contains("output_tokens");
  if (!fields::read_number(*it, "input_tokens", "load", 1, max_tokens, &l.input_tokens, err) ||
      !fields::read_number(*it, "output_tokens", "load", 1, max_tokens, &l.output_tokens, err))
    return false;
  if (l.input_tokens <= 0 || l.output_tokens <= 0) {
    *err = make_error(l.input_tokens <= 0 ? "load.input_tokens" : "load.output_tokens",
                      "is required (mean tokens per request), or give load.workload");
    return false;
  }
  if (l.input_tokens + l.output_tokens > max_tokens) {
    *err = make_error("load.output_tokens", "input_tokens + output_tokens exceeds " +
                                                std::to_string(ConfigLimits::kMaxContext));
    return false;
  }
  l.caps_seqs_given = it->contains("max_num_seqs");
  l.caps_tokens_given = it->contains("max_num_batched_tokens");
  const bool big = big_gpu(c->hardware);
  l.max_num_seqs = big ? 1024 : 256;
  l.max_num_batched_tokens = big ? 8192 : 2048;
  if (!fields::read_int(*it, "max_num_seqs", "load", 1, ConfigLimits::kMaxBatch, &l.max_num_seqs,
                        err) ||
      !fields::read_int(*it, "max_num_batched_tokens", "load", 1, ConfigLimits::kMaxBatchedTokens,
                        &l.max_num_batched_tokens, err) ||
      !parse_slo(*it, c, err) ||
      !fields::read_number(*it, "curve_max_rps", "load", 1e-6, ConfigLimits::kMaxRateRps,
                           &l.curve_max_rps, err) ||
      !fields::read_int(*it, "curve_points", "load", 2, ConfigLimits::kMaxCurvePoints,
                        &l.curve_points, err))
    return false;
  return true;
}

json load_to_json(const LoadConfig& l) {
  json out = json::object();
  if (l.concurrency > 0) {
    out["concurrency"] = l.concurrency;
  } else {
    out["rate_rps"] = l.rate_rps;
  }
  if (!l.workload.empty()) out["workload"] = l.workload;
  // Defaults (the workload's lengths, vLLM's caps for this GPU) stay implicit: see LoadConfig.
  if (l.lengths_given || l.workload.empty()) {
    out["input_tokens"] = l.input_tokens;
    out["output_tokens"] = l.output_tokens;
  }
  if (l.caps_seqs_given) out["max_num_seqs"] = l.max_num_seqs;
  if (l.caps_tokens_given) out["max_num_batched_tokens"] = l.max_num_batched_tokens;
  json slo = json::object();
  if (l.slo.tpot_s > 0) slo["tpot_s"] = l.slo.tpot_s;
  if (l.slo.ttft_s > 0) slo["ttft_s"] = l.slo.ttft_s;
  if (l.slo.e2e_s > 0) slo["e2e_s"] = l.slo.e2e_s;
  if (!slo.empty()) out["slo"] = slo;
  if (l.curve_max_rps > 0) out["curve_max_rps"] = l.curve_max_rps;
  out["curve_points"] = l.curve_points;
  return out;
}

}  // namespace speccalc
