// Workload acceptance presets (core/data/workloads.json, from SpecDecode-Bench's vLLM traces
// of Llama-3.1-8B-Instruct on one H100): tau for a chain of k = 1..8 draft tokens, for an EAGLE
// head and for the n-gram proposer, with the per-request spread of tau at each k.
#pragma once

#include <string>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

struct TauSpread {
  double p5 = 0, p50 = 0, p95 = 0;  // percentiles of per-request tau
};

struct WorkloadProposer {
  std::vector<double> tau_by_k;         // [k - 1]: mean tau (bonus token included), k = 1..8
  std::vector<TauSpread> per_request;   // [k - 1]: spread of per-request tau
  std::vector<double> per_position_k8;  // conditional acceptance of positions 1..8 at k = 8
  // Histogram of the per-token acceptance length over every output position t of every
  // request (acc_len[t] = tokens a cycle starting at t would emit if unlimited, bonus
  // included): [j - 1] = fraction of positions with acc_len j for j = 1..15, [15] = 16 or more.
  // Not the distribution of a replay's cycles (docs/cost-model.md, "Bounds").
  std::vector<double> acc_len_hist;
};

struct Workload {
  std::string id, name;
  int64_t requests = 0;
  double prompt_tokens_mean = 0;  // mean prompt length of the traced requests (tokens)
  double output_tokens_mean = 0;  // mean output length of the traced requests (tokens)
  WorkloadProposer eagle, ngram;
};

struct WorkloadTable {
  std::vector<Workload> workloads;
  std::string source;  // the paper and repository the traces come from
  std::string target;  // model preset the traces were measured on
  std::string engine;
  std::string hardware;
  // tau of an EAGLE-3 head over the traced EAGLE head's at chain length k ([k - 1], k = 1..8),
  // measured on the same stack and target (vLLM issue #20780); empty when the table has none.
  std::vector<double> eagle3_ratio_by_k;
  std::string eagle3_ratio_source;
  const Workload* find(const std::string& id) const;
  std::string ids() const;  // comma-separated, for error messages
};

// Parsed once per process (the table is a compiled-in constant).
Expected<WorkloadTable> load_workloads();

}  // namespace speccalc
