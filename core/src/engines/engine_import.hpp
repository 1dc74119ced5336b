// The other way round from engine_export: a pasted vLLM `--speculative-config` (the JSON alone
// or a whole `vllm serve` command line) or SGLang `--speculative-*` flags become the equivalent
// SpecCalc config. Command `import-engine`:
//   {"engine": "vllm" | "sglang", "text": "...", "config"?: base config}
//   -> {"config": normalized config, "notes": [plain sentences on what was mapped how]}
#pragma once

#include <string>

#include "speccalc/api.hpp"

namespace speccalc::commands {
Response import_engine(const std::string& input);
}  // namespace speccalc::commands
