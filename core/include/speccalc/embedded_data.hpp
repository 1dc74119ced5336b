// The JSON tables under core/data/, compiled into the library (see cmake/EmbedData.cmake).
#pragma once

#include <string_view>

namespace speccalc::data {
std::string_view models();     // core/data/models.json
std::string_view hardware();   // core/data/hardware.json
std::string_view drafts();     // core/data/drafts.json
std::string_view runtimes();   // core/data/runtimes.json
std::string_view published();  // core/data/published.json
std::string_view empirical();  // core/data/empirical.json
std::string_view medusa_head_accuracy();  // core/data/medusa-head-accuracy.json
std::string_view engine_measurements();   // core/data/engine-measurements.json
}  // namespace speccalc::data
