// Fidelity check: predict the speedup of every published row that has a measured tau and
// speedup, from that tau and the row's model, method, hardware and runtime, and report the
// error per row, per source and overall (MAPE = mean of |predicted - measured| / measured).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "speccalc/api.hpp"
#include "speccalc/published.hpp"
#include "speccalc/runtime.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// Why `validate` leaves a row with tau and speedup out; empty when it predicts it.
std::string validate_exclusion(const PublishedRow& row);

struct ValidateOptions {
  std::string source;      // TableQuery-style source filter ("" = all)
  bool calibrated = true;  // also predict with each source's own baseline step time
  int64_t context = 1024;  // tokens in the KV cache during decoding (MT-bench-like prompts)
  // Parameter overrides per runtime profile id, e.g. {"hf-eager", {{"pass_overhead_s", 0.004}}}:
  // the fitting script (scripts/fit_runtimes.py) searches over these.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>> runtimes;
};

struct ValidatedRow {
  const PublishedRow* row = nullptr;
  double measured = 0;
  double predicted = 0;
  double error_pct = 0;             // 100 * (predicted - measured) / measured
  double calibration_step_s = 0;    // 0 when the source gives no baseline step time
  std::string calibration_from;     // where that step time comes from
  double calibrated_predicted = 0;  // with runtime.measured_decode_step_s = calibration_step_s
  double calibrated_error_pct = 0;
};

struct ExcludedRow {
  const PublishedRow* row = nullptr;
  std::string reason;
  std::string kind;  // the reason without the row's details, for counting ("no model preset")
};

struct ErrorSummary {
  int64_t rows = 0;
  double mape_pct = 0;           // mean |error| in percent of measured
  double max_abs_error_pct = 0;  // largest |error|
  double mean_error_pct = 0;     // signed mean: > 0 means the model over-predicts
};

struct SourceSummary {
  std::string source_id, source;
  ErrorSummary stock;
  ErrorSummary calibrated;     // rows with a baseline step time only
  int64_t published_rows = 0;  // rows of this source the query selects
  int64_t not_predicted = 0;   // of those, rows in `excluded` or `unmeasured`
};

struct ValidateReport {
  std::vector<ValidatedRow> rows;
  std::vector<ExcludedRow> excluded;    // rows with tau and speedup that are not predicted
  std::vector<ExcludedRow> unmeasured;  // rows without a measured tau or speedup
  int64_t published_rows = 0;           // rows the query selects: rows + excluded + unmeasured
  // Sources with predicted rows (in the order of their first one), then those with none.
  std::vector<SourceSummary> sources;
  ErrorSummary overall;
  ErrorSummary overall_calibrated;  // calibrated where possible, stock elsewhere
};

// Validates `rows` (normally load_published()); the report points into `rows`.
Expected<ValidateReport> validate_rows(const std::vector<PublishedRow>& rows,
                                       const ValidateOptions& options);

}  // namespace speccalc
