#include "config/ui_examples.hpp"

namespace speccalc {

nlohmann::json ui_examples_json() {
  // The starter is the seed card's first example (a 68M draft for a 7B chat model on one A100);
  // each example shows one regime: a tree method on a large model, a draft model on a consumer
  // GPU, a CPU drafter at a large batch, heads inside the verify pass.
  static const char* const kText = R"({
    "starter": {"target": "llama2-chat-7b", "hardware": "a100-80gb-sxm",
                "method": {"family": "sps"}, "acceptance": {"alpha": 0.7}},
    "examples": [
      {"label": "EAGLE-2, Llama-3 70B on 4×H100",
       "config": {"target": "llama3-instruct-70b", "hardware": "h100-sxm", "gpus": 4,
                  "method": {"family": "eagle2"}, "acceptance": {"alpha": 0.8}}},
      {"label": "Draft model on an RTX 3090",
       "config": {"target": "llama2-chat-7b", "hardware": "rtx-3090", "runtime": "hf-eager",
                  "method": {"family": "sps"}, "acceptance": {"alpha": 0.7}}},
      {"label": "Prompt lookup at batch 64",
       "config": {"target": "vicuna-7b-v1.3", "hardware": "a100-80gb-sxm", "batch": 64,
                  "method": {"family": "pld"}, "acceptance": {"tau": 1.6}}},
      {"label": "Medusa on Vicuna 7B",
       "config": {"target": "vicuna-7b-v1.3", "hardware": "a100-80gb-sxm",
                  "method": {"family": "medusa"}, "acceptance": {"tau": 2.5}}}
    ]})";
  return nlohmann::json::parse(kText);
}

}  // namespace speccalc
