// Native benchmarks of the core (issue 7). Every case in bench/cases.json runs through
// speccalc::run(command, input) exactly as the CLI and the WASM module call it, JSON in and
// out included, so the WASM/native ratio compares like with like. Two extra "algo/" cases time
// the tree optimizer alone (no JSON), to show how much of the command is the algorithm.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_optimize.hpp"

namespace {

using nlohmann::json;

struct Case {
  std::string name, command, input;
};

std::string run_or_die(const std::string& command, const std::string& input,
                       const std::string& name) {
  const speccalc::Response r = speccalc::run(command, input);
  if (!r.ok) {
    std::fprintf(stderr, "bench: case %s failed: %s: %s\n", name.c_str(), r.error.field.c_str(),
                 r.error.message.c_str());
    std::exit(1);
  }
  return r.output;
}

// The input text of case c: strings go as they are, objects as JSON; "choices_from" is replaced
// by the choices another case's output holds (e.g. the 4096-node optimal tree).
std::string input_text(const json& doc, const json& c) {
  const json& in = c["input"];
  if (in.is_string()) return in.get<std::string>();
  if (!in.contains("choices_from")) return in.dump();
  json resolved = in;
  const std::string from = in["choices_from"].get<std::string>();
  resolved.erase("choices_from");
  for (const json& other : doc["cases"]) {
    if (other["name"] == from) {
      const json out = json::parse(
          run_or_die(other["command"].get<std::string>(), input_text(doc, other), from));
      resolved["choices"] = out["choices"];
      return resolved.dump();
    }
  }
  std::fprintf(stderr, "bench: choices_from names no case: %s\n", from.c_str());
  std::exit(1);
}

std::vector<Case> load_cases() {
  const char* env = std::getenv("SPECCALC_BENCH_CASES");
  const std::string path = env ? env : SPECCALC_BENCH_CASES;
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  const json doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded()) {
    std::fprintf(stderr, "bench: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::vector<Case> cases;
  for (const json& c : doc["cases"]) {
    cases.push_back(
        {c["name"].get<std::string>(), c["command"].get<std::string>(), input_text(doc, c)});
  }
  return cases;
}

void run_case(benchmark::State& state, const Case& c) {
  run_or_die(c.command, c.input, c.name);  // fail loudly rather than time an error path
  for (auto _ : state) {
    speccalc::Response r = speccalc::run(c.command, c.input);
    benchmark::DoNotOptimize(r);
  }
}

// The optimizer alone, on the per_position matrix cases.json uses (0.80 - 0.005 d).
void algo_tree_optimize(benchmark::State& state) {
  std::vector<double> alphas;
  for (int d = 0; d < 64; ++d) alphas.push_back(0.80 - 0.005 * d);
  const auto acc = speccalc::tree::acceptance_from_per_position(alphas);
  const int budget = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto best = speccalc::tree::optimize_tree(acc.value(), budget, 64, 64);
    benchmark::DoNotOptimize(best);
  }
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Case> cases = load_cases();
  for (const Case& c : cases) {
    benchmark::RegisterBenchmark(c.name.c_str(), run_case, c)->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("algo/tree-optimize", algo_tree_optimize)
      ->Arg(64)
      ->Arg(512)
      ->Arg(4096)
      ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
