// A Hugging Face config.json, as published, read into a ModelArch (issue 20): `target` given as
// an object with a `model_type` key is taken to be one. Keys the cost model has no field for
// but that do not change the weights or the KV cache (rope scaling, dropout, token ids,
// quantization_config: the config's `dtype` decides bytes) are ignored; keys that would change
// them and that the model cannot represent are errors naming the key.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/presets.hpp"
#include "speccalc/status.hpp"

namespace speccalc {

// True when obj looks like a config.json (has "model_type"), not SpecCalc's own model keys.
bool is_hf_config(const nlohmann::json& obj);

// Reads obj (a config.json) into *m; path names the field in errors ("target").
bool model_from_hf_config(const nlohmann::json& obj, const std::string& path, ModelArch* m,
                          Error* err);

// The model_type values read, comma-separated (for errors and docs).
const char* hf_model_types();

}  // namespace speccalc
