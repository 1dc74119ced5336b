// The JSON tables under core/data/ that the core reads, compiled into the library (the list is
// SPECCALC_EMBEDDED_DATA in cmake/EmbedData.cmake).
#pragma once

#include <string_view>

namespace speccalc::data {
std::string_view models();     // core/data/models.json
std::string_view hardware();   // core/data/hardware.json
std::string_view runtimes();   // core/data/runtimes.json
std::string_view published();  // core/data/published.json; empty where not embedded (WASM)
std::string_view medusa_head_accuracy();  // core/data/medusa-head-accuracy.json
std::string_view engine_measurements();   // core/data/engine-measurements.json
std::string_view workloads();             // core/data/workloads.json
std::string_view published_tau();         // core/data/published-tau.json
std::string_view validation_bands();      // core/data/validation-bands.json
}  // namespace speccalc::data
