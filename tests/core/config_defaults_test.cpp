// An omitted target or hardware takes the default preset through the same lookup as a given id,
// so a catalog without the default (a data edit that drops it) is an error naming the field,
// never a null pointer dereferenced.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config/config_json.hpp"
#include "speccalc/api.hpp"
#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {
namespace {

TEST(ConfigDefaults, MissingDefaultTargetIsAnErrorOnTarget) {
  const Catalog empty;  // no presets at all
  const Expected<Config> c = parse_config(nlohmann::json::object(), empty);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().field, "target");
  EXPECT_EQ(c.error().message, "unknown model preset; known: ");
}

TEST(ConfigDefaults, MissingDefaultHardwareIsAnErrorOnHardware) {
  Catalog catalog = load_catalog().value();
  catalog.gpus.clear();
  const Expected<Config> c = parse_config(nlohmann::json::object(), catalog);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().field, "hardware");
  EXPECT_EQ(c.error().message, "unknown GPU preset; known: ");
}

TEST(ConfigDefaults, DefaultsAreTheDocumentedPresets) {
  // docs/config.md: target llama2-chat-7b, hardware a100-80gb-sxm.
  const Expected<Config> c = parse_config(nlohmann::json::object(), load_catalog().value());
  ASSERT_TRUE(c.ok()) << c.error().describe();
  EXPECT_EQ(c.value().target.id, "llama2-chat-7b");
  EXPECT_EQ(c.value().hardware.id, "a100-80gb-sxm");
}

}  // namespace
// A whole number too large to hold is out of range, said with the range (the walk: typing
// 99999999999999999999 in Batch read "enter a whole number, not 1e+20"); a negative one too.
TEST(ConfigDefaults, HugeAndNegativeWholeNumbersAreOutOfRange) {
  for (const char* typed : {"99999999999999999999", "1e20", "-3"}) {
    const Response r = run("eval", std::string(R"({"batch":)") + typed + "}");
    ASSERT_FALSE(r.ok) << typed;
    EXPECT_EQ(r.error.field, "batch");
    EXPECT_EQ(r.error.message.rfind("must be between 1 and 4096, got ", 0), 0u)
        << typed << ": " << r.error.message;
  }
}

}  // namespace speccalc
