#include "config/ui_examples.hpp"

#include "speccalc/workloads.hpp"

namespace speccalc {

nlohmann::json ui_examples_json() {
  // The starter is a setup the validation covers: Llama-3.1-8B-Instruct on one H100 under vLLM
  // (the engine profile validated on SpecDecode-Bench's Llama-3.1-8B/H100 rows) with EAGLE-3
  // drafting a chain of 3 (top_k 1: vLLM verifies chains, num_speculative_tokens = 3) and no
  // acceptance given, so tau is the default from data: the vLLM EAGLE-head traces of this very
  // model and GPU at k = 3 (core/data/workloads.json), cited in the result.
  // The examples are the questions asked today: a 70B model on 4 GPUs at batch 32, an MoE with
  // its own MTP module (DeepSeek-V3 in its released fp8 weights, so it fits on 8×H200), and a
  // consumer GPU with a small draft model of the same tokenizer. "My computer" (issue 22) is the
  // local path: a GGUF Qwen3-8B with its 0.6B sibling as the draft under llama.cpp on a Mac (the
  // Metal engine's default hardware), k 3 as llama-server's --spec-draft-n-max default (--draft-max
  // before April 2026); no published tau, so the result says its acceptance is the default alpha
  // and the engine is not validated.
  static const char* const kText = R"UI({
    "starter": {"target": "llama3.1-8b-instruct", "hardware": "h100-sxm", "runtime": "vllm",
                "method": {"family": "eagle3", "total_token": 4, "depth": 3, "top_k": 1}},
    "examples": [
      {"label": "Llama-3.1-70B, 4×H100, vLLM EAGLE-3 at batch 32",
       "config": {"target": "llama3.1-70b-instruct", "hardware": "h100-sxm", "gpus": 4,
                  "runtime": "vllm", "batch": 32,
                  "method": {"family": "eagle3", "total_token": 4, "depth": 3, "top_k": 1}}},
      {"label": "DeepSeek-V3 MTP on 8×H200 (fp8)",
       "config": {"target": "deepseek-v3", "hardware": "h200-sxm", "gpus": 8, "runtime": "vllm",
                  "dtype": {"weights": "fp8"}, "method": {"family": "mtp", "k": 1}}},
      {"label": "Draft model on an RTX 4090",
       "config": {"target": "llama3.1-8b-instruct", "hardware": "rtx-4090", "runtime": "vllm",
                  "method": {"family": "sps", "draft": "llama3.2-1b", "k": 4}}},
      {"label": "My computer: Qwen3-8B Q4_K_M on a Mac (llama.cpp, M4 Pro)",
       "config": {"target": "qwen3-8b", "hardware": "apple-m4-pro", "runtime": "llama.cpp-metal",
                  "dtype": {"weights": "q4_k_m"},
                  "method": {"family": "sps", "draft": "qwen3-0.6b", "k": 3}}}
    ],
    "batch_axis": [1, 2, 4, 8, 16, 32, 64, 128, 256],
    "sizing": {"budget": 64, "max_depth": 8, "batches": [1, 2, 4, 8, 16, 32, 64, 128, 256]},
    "load": {"workload": "sharegpt", "rate_rps": 2}
})UI";
  // batch_axis: the batches the page's batch chart sweeps (powers of two up to 256, where a
  // serving engine's decode batch ends for one GPU: vLLM's default max_num_seqs is 256).
  // sizing: the defaults of the page's sizing request (`size`): a tree of up to 64 nodes, 8
  // levels (the largest published trees: EAGLE-2's 60 tokens at depth 6; Medusa's 63-node
  // preset at 4), the same batches. load_workloads: the workloads the load block accepts.
  // load: what the page's "Under load" form starts from: ShareGPT's chat lengths (the trace
  // workload closest to a chat service) at 2 requests/s, a light load that the starter (an 8B
  // model on one H100 under vLLM) serves with room to spare (plain decoding keeps up with
  // about 17 requests/s there; a test holds the rate under both capacities).
  nlohmann::json out = nlohmann::json::parse(kText);
  nlohmann::json workloads = nlohmann::json::array();
  if (const auto& table = load_workloads(); table.ok())
    for (const auto& w : table.value().workloads) workloads.push_back(w.id);
  out["load_workloads"] = std::move(workloads);
  return out;
}

}  // namespace speccalc
