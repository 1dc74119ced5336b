// Shared by the config.json tests (hf_config, hybrid and sparse attention): the published
// config.json fixtures in tests/fixtures/hf-config and the catalog's presets they read into.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc::test {

// The text of tests/fixtures/hf-config/<name>.
inline std::string fixture_text(const std::string& name) {
  std::ifstream in(std::string(SPECCALC_FIXTURES_DIR) + "/hf-config/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A target or draft preset of the embedded catalog (a test failure when there is none).
inline const ModelArch& preset(const std::string& id) {
  static const Catalog c = load_catalog().value();
  const ModelArch* m = c.find_target(id);
  if (!m) m = c.find_draft(id);
  EXPECT_NE(m, nullptr) << id;
  static const ModelArch none;
  return m ? *m : none;
}

}  // namespace speccalc::test
