// Engine settings for a method configuration (EAGLE reference code, SGLang, vLLM, TensorRT-LLM;
// with a local runtime: llama-server, mlx_lm, LM Studio, and a note on Ollama).
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"

namespace speccalc {

// `choices` is the verified draft tree (for tree families) or empty; `schedule` optionally maps
// batch sizes to draft lengths for TensorRT-LLM's draft_len_schedule (JSON array or null).
nlohmann::json engine_settings(const Config& config, const Choices& choices,
                               const nlohmann::json& schedule);

}  // namespace speccalc
