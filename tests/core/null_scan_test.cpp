// The output guard's null finder (api/null_scan.cpp) against an independent reference: the
// depth-first walk over nlohmann's parsed document that the guard used before, on random
// documents with nulls, escapes and nesting, and on texts that are not JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "api/null_scan.hpp"

namespace {

using nlohmann::json;

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// The reference: nlohmann's document, objects in key order (dump() writes them so).
bool reference(const json& v, const std::string& path,
               const std::function<bool(const std::string&)>& allowed, std::string* where) {
  if (v.is_null()) {
    if (allowed(path)) return false;
    *where = path;
    return true;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (reference(it.value(), join(path, it.key()), allowed, where)) return true;
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (reference(v[i], path + "[" + std::to_string(i) + "]", allowed, where)) return true;
  }
  return false;
}

json random_value(std::mt19937& rng, int depth) {
  const int kind = static_cast<int>(rng() % (depth > 4 ? 5 : 7));
  switch (kind) {
    case 0:
      return nullptr;
    case 1:
      return std::uniform_real_distribution<double>(-1e6, 1e6)(rng) * 1e-3;
    case 2:
      return static_cast<int>(rng() % 1000) - 500;
    case 3: {
      static const char* const kTexts[] = {
          "null", "a \"quoted\" word", "back\\slash", "tab\tnew\nline", "{[,]}", ""};
      return kTexts[rng() % 6];
    }
    case 4:
      return rng() % 2 == 0;
    case 5: {
      json o = json::object();
      const int n = static_cast<int>(rng() % 5);
      static const char* const kKeys[] = {"tau",  "points", "values", "a.b",
                                          "q\"k", "null",   "z",      ""};
      for (int i = 0; i < n; ++i) o[kKeys[rng() % 8]] = random_value(rng, depth + 1);
      return o;
    }
    default: {
      json a = json::array();
      const int n = static_cast<int>(rng() % 5);
      for (int i = 0; i < n; ++i) a.push_back(random_value(rng, depth + 1));
      return a;
    }
  }
}

TEST(NullScan, FindsTheSameFirstNullAsAWalkOverTheParsedDocument) {
  std::mt19937 rng(20261203);
  // Two rules: every null refused, and nulls under a "values" member allowed (sweep's rule).
  const std::function<bool(const std::string&)> none = [](const std::string&) { return false; };
  const std::function<bool(const std::string&)> values = [](const std::string& p) {
    return p.find("values") != std::string::npos;
  };
  int found = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const json doc = random_value(rng, 0);
    for (const auto* rule : {&none, &values}) {
      for (const int indent : {-1, 1}) {
        const std::string text = doc.dump(indent);
        std::string expected, got;
        const bool has = reference(doc, "", *rule, &expected);
        const speccalc::NullScan r = speccalc::first_refused_null(text, *rule, &got);
        ASSERT_EQ(r, has ? speccalc::NullScan::found : speccalc::NullScan::none) << text;
        if (has) {
          ASSERT_EQ(got, expected) << text;
          ++found;
        }
      }
    }
  }
  EXPECT_GT(found, 1000);  // the documents did exercise the found path
}

TEST(NullScan, TextThatIsNotOneJsonValueIsInvalid) {
  const std::function<bool(const std::string&)> none = [](const std::string&) { return false; };
  std::string where;
  for (const char* text : {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":}", "nul", "1 2", "[1]]",
                           "{\"a\":1,}", "\"open", "[}", "{]"}) {
    EXPECT_EQ(speccalc::first_refused_null(text, none, &where), speccalc::NullScan::invalid)
        << text;
    EXPECT_TRUE(json::parse(text, nullptr, false).is_discarded()) << text;  // nor for nlohmann
  }
  EXPECT_EQ(speccalc::first_refused_null(" null ", none, &where), speccalc::NullScan::found);
  EXPECT_EQ(where, "");
  EXPECT_EQ(speccalc::first_refused_null(" [ ] ", none, &where), speccalc::NullScan::none);
}

}  // namespace
