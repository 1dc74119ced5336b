// Shared by the tests that build configs from JSON text: the parsed config, eval's output and
// the field an error names, each a test failure when the call does not go the expected way.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc::test {

// The config a JSON text parses to (a test failure, naming the field, when it does not).
inline Config config_of(const std::string& text) {
  const auto& catalog = load_catalog();
  EXPECT_TRUE(catalog.ok());
  auto c = parse_config_text(text, catalog.value());
  EXPECT_TRUE(c.ok()) << c.error().field << ": " << c.error().message;
  return c.value();
}

// eval's output, parsed (a test failure when eval refuses the config).
inline nlohmann::json eval_ok(const std::string& config) {
  const Response r = run("eval", config);
  EXPECT_TRUE(r.ok) << r.error.describe() << " for " << config;
  return r.ok ? nlohmann::json::parse(r.output) : nlohmann::json();
}

// The field eval's refusal names (a test failure when eval accepts the config).
inline std::string error_field(const std::string& config) {
  const Response r = run("eval", config);
  EXPECT_FALSE(r.ok) << config;
  return r.error.field;
}

}  // namespace speccalc::test
