// Runtime profiles: the few physical parameters that separate a real software stack from
// the hardware roofline. Values and the data they were fitted on: core/data/runtimes.json.
#pragma once

#include <string>
#include <vector>

#include "speccalc/status.hpp"

namespace speccalc {

struct RuntimeParams {
  double bw_efficiency = 1;      // fraction of peak memory bandwidth a weight-streaming pass reaches
  double flops_efficiency = 1;   // fraction of peak tensor FLOP/s a large-token pass reaches
  double pass_overhead_s = 0;    // fixed host time per forward pass (launch, sampling, sync)
  double layer_overhead_s = 0;   // host time per decoder layer per pass (eager kernel launches)
  double cycle_overhead_s = 0;   // speculative bookkeeping per draft-verify cycle
  double allreduce_latency_s = 0;  // latency of one tensor-parallel all-reduce
};

struct RuntimeProfile {
  std::string id;
  std::string description;
  std::string fitted_on;  // the data the parameters were fitted on
  RuntimeParams params;
};

// Profile choice plus optional overrides, as written in a config.
struct RuntimeSpec {
  std::string profile = "compiled";
  // Overrides in config order; each name is a RuntimeParams field.
  std::vector<std::pair<std::string, double>> overrides;
  double measured_decode_step_s = 0;   // testbed calibration (0 = none)
  RuntimeParams resolved;              // profile params with overrides applied (before calibration)
};

Expected<std::vector<RuntimeProfile>> load_runtime_profiles();
const char* const* runtime_param_names();  // null-terminated list, in RuntimeParams order
double* runtime_param(RuntimeParams& p, const std::string& name);  // nullptr when unknown

}  // namespace speccalc
