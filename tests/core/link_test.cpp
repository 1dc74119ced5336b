// Share links are untrusted input from strangers: every malformed or hostile link is refused
// with the link key at fault, and never crashes or evaluates something else than it says.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "config/link_codec.hpp"
#include "speccalc/api.hpp"

namespace {

using nlohmann::json;

::testing::AssertionResult IsError(const std::string& command, const std::string& input,
                                   const std::string& field, const std::string& message) {
  const speccalc::Response r = speccalc::run(command, input);
  if (r.ok) return ::testing::AssertionFailure() << "accepted: " << input.substr(0, 200);
  if (r.error.field != field || r.error.message != message) {
    return ::testing::AssertionFailure()
           << "input " << input.substr(0, 200) << "\n  got      " << r.error.field << ": "
           << r.error.message << "\n  expected " << field << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

std::string Ok(const std::string& command, const std::string& input) {
  const speccalc::Response r = speccalc::run(command, input);
  EXPECT_TRUE(r.ok) << command << " " << input.substr(0, 200) << " -> " << r.error.describe();
  return r.output;
}

// Link errors are asserted on both commands that read links.
::testing::AssertionResult LinkError(const std::string& link, const std::string& field,
                                     const std::string& message) {
  ::testing::AssertionResult a = IsError("decode-link", link, field, message);
  if (!a) return a;
  return IsError("eval-link", link, field, message);
}

}  // namespace

TEST(Link, EveryFamilyRoundTrips) {
  // link(config) decodes to normalize(config) and evaluates to eval(config), byte for byte.
  for (const char* config :
       {R"({"method": "ar"})",
        R"({"method": {"family": "sps", "k": 0}, "acceptance": {"alpha": 1}})",
        R"({"method": "pld", "acceptance": {"tau": 1}})", R"({"method": "lookahead"})",
        R"({"method": {"family": "medusa", "choices": [[0], [1], [0, 0]], "heads": 2}})",
        R"({"method": "hydra", "acceptance": {"per_position": [0.9, 0.5]}})",
        R"({"method": "eagle1", "acceptance": {"p": [[0.5, 0.25], [0.1]]}})",
        R"({"method": {"family": "eagle2", "total_token": 1024, "depth": 64, "top_k": 64}})",
        R"({"method": "eagle3", "batch": 4096, "context": 4095, "gpus": 8,
            "target": "llama2-chat-70b", "hardware": "h100-sxm"})",
        // The largest context, on a model configured for more (10M positions).
        R"({"method": "pld", "batch": 4096, "context": 1048576, "gpus": 8,
            "target": "llama-4-scout", "hardware": "h100-sxm"})",
        R"({"target": {"name": "my model & co = 100%", "num_layers": 2, "hidden": 64,
                       "intermediate": 128, "heads": 4, "vocab": 100},
            "hardware": {"name": "café GPU #1", "fp16_tflops": 0.001, "mem_bw_gbps": 1e7}})",
        // A custom Mac under llama.cpp: the vendor is a string key, unified memory round trips
        // (the fuzz oracle found the vendor refused on decode).
        R"({"target": "qwen3-8b", "runtime": "llama.cpp-metal", "dtype": "q4_k_m",
            "hardware": {"name": "M", "fp16_tflops": 7, "mem_bw_gbps": 273, "mem_gb": 48,
                         "vendor": "Apple", "unified_memory": true,
                         "usable_memory_fraction": 0.75},
            "method": {"family": "sps", "draft": "qwen3-0.6b"}})"}) {
    const std::string link = Ok("link", config);
    EXPECT_EQ(Ok("decode-link", link), Ok("normalize", config)) << config;
    EXPECT_EQ(Ok("eval-link", "https://example.org/speccalc/#" + link), Ok("eval", config))
        << config;
  }
}

TEST(Link, UnknownOrMissingVersionIsRefused) {
  const std::string why = " (a newer SpecCalc made this link, or it was edited)";
  EXPECT_TRUE(
      LinkError("v=2&batch=1", "v", "unsupported link version '2'; this SpecCalc reads v=1" + why));
  EXPECT_TRUE(
      LinkError("v=1.0", "v", "unsupported link version '1.0'; this SpecCalc reads v=1" + why));
  EXPECT_TRUE(LinkError("v=%3Cscript%3E", "v",
                        "unsupported link version '<script>'; this SpecCalc reads v=1" + why));
  EXPECT_TRUE(LinkError("batch=1", "v", "is missing; share links start with v=1"));
  EXPECT_TRUE(LinkError("#", "link", "is empty; expected v=1&key=value&..."));
  EXPECT_TRUE(LinkError("", "link", "is empty; expected v=1&key=value&..."));
}

TEST(Link, RepeatedKeysAreRefused) {
  EXPECT_TRUE(LinkError("v=1&batch=1&batch=2", "batch", "appears more than once in the link"));
  EXPECT_TRUE(
      LinkError("v=1&method.k=1&method.k=2", "method.k", "appears more than once in the link"));
  EXPECT_TRUE(LinkError("v=1&v=1", "v", "appears more than once in the link"));
  // A value and a sub-field of the same key contradict each other, in either order.
  EXPECT_TRUE(LinkError("v=1&target=llama2-chat-7b&target.name=x", "target.name",
                        "conflicts with 'target' given as a value"));
  EXPECT_TRUE(LinkError("v=1&target.name=x&target=llama2-chat-7b", "target",
                        "appears more than once in the link"));
}

TEST(Link, BadPercentEscapesAreRefused) {
  for (const char* bad : {"batch=%", "batch=%4", "batch=%G0", "batch=%zz", "ba%2=1"}) {
    EXPECT_TRUE(
        LinkError(std::string("v=1&") + bad, "link",
                  std::string("parameter '") + bad + "' is not key=value with valid %-escapes"));
  }
  EXPECT_TRUE(
      LinkError("v=1&batch", "link", "parameter 'batch' is not key=value with valid %-escapes"));
  // A NUL byte decodes but is no number; it is shown masked.
  EXPECT_TRUE(
      LinkError("v=1&batch=%00", "batch", "value '?' is not a number, true/false or a list"));
}

TEST(Link, MalformedUtf8IsRefusedNotCrashed) {
  // Before the check, %FF reached nlohmann's dump(), which aborts the process on invalid
  // UTF-8 (exceptions are off): one hostile link crashed the CLI and the page's module.
  EXPECT_TRUE(LinkError("v=1&target=%FF", "target", "value '?' is not valid UTF-8 text"));
  EXPECT_TRUE(LinkError("v=1&hardware=%E2%82", "hardware", "value '?\?' is not valid UTF-8 text"));
  // Overlong '/' and a UTF-16 surrogate are not UTF-8 either.
  EXPECT_TRUE(
      LinkError("v=1&target.name=%C0%AF", "target.name", "value '?\?' is not valid UTF-8 text"));
  EXPECT_TRUE(LinkError("v=1&target.name=%ED%A0%80", "target.name",
                        "value '?\?\?' is not valid UTF-8 text"));
  EXPECT_TRUE(LinkError("v=1&method.family=%F4%90%80%80", "method.family",
                        "value '?\?\?\?' is not valid UTF-8 text"));
  // Well-formed multi-byte text is fine: U+00E9 and U+1F600.
  const json config =
      json::parse(Ok("decode-link",
                     "v=1&target.name=caf%C3%A9%F0%9F%98%80&target.num_layers=1&target.hidden=8&"
                     "target.intermediate=8&target.heads=1&target.vocab=8"));
  EXPECT_EQ(config["target"]["name"], "caf\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(Link, ScriptTagsAndJavascriptUrlsOnlyEverBecomeData) {
  EXPECT_TRUE(LinkError("javascript:alert(1)", "link",
                        "parameter 'javascript:alert(1)' is not key=value with valid %-escapes"));
  EXPECT_TRUE(
      LinkError("v=1&%3Cb%3Ex%3C%2Fb%3E=1", "link", "'<b>x</b>' is not a config field path"));
  const speccalc::Response r =
      speccalc::run("eval-link", "v=1&target=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.field, "target");
  EXPECT_EQ(r.error.message.rfind("unknown model preset; known: ", 0), 0u);
  // A custom name with markup is evaluated, and comes back as a JSON string value.
  const std::string out =
      Ok("eval-link",
         "v=1&target.name=%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E&target.num_layers=1&"
         "target.hidden=8&target.intermediate=8&target.heads=1&target.vocab=8");
  EXPECT_EQ(json::parse(out)["config"]["target"]["name"], "<script>alert(\"x\")</script>");
  EXPECT_NE(out.find(R"("name":"<script>alert(\"x\")</script>")"), std::string::npos);
}

TEST(Link, OversizedLinksAreRefused) {
  EXPECT_TRUE(LinkError("v=1&" + std::string(65536, 'a'), "link",
                        "is 65540 bytes; a share link is at most 65536 bytes"));
  // 1 MB: refused by run() itself before the link decoder sees it.
  EXPECT_TRUE(LinkError("v=1&" + std::string(1 << 20, 'a'), "",
                        "input is 1048580 bytes; the limit is 1048576 bytes"));
  std::string many = "v=1";
  for (int i = 0; i < 257; ++i) many += "&k" + std::to_string(i) + "=1";
  EXPECT_TRUE(LinkError(many, "link", "has more than 256 parameters"));
}

TEST(Link, DeeplyNestedValuesAreRefused) {
  // Lists in a link (choices, per_position, p) nest at most 3 levels; 8 are allowed.
  EXPECT_TRUE(LinkError("v=1&batch=[[[[[[[[[1]]]]]]]]]", "batch",
                        "value '[[[[[[[[[1]]]]]]]]]' is not a number, true/false or a list"));
  const std::string deep(60000, '[');
  EXPECT_TRUE(
      LinkError("v=1&method.choices=" + deep, "method.choices",
                "value '" + std::string(40, '[') + "...' is not a number, true/false or a list"));
  EXPECT_TRUE(LinkError("v=1&batch=%7B%22a%22%3A1%7D", "batch",
                        "value '{\"a\":1}' is not a number, true/false or a list"));
}

TEST(Link, KeysThatAreNotFieldPathsAreRefused) {
  for (const char* key : {"Target", "target..x", ".x", "x.", "a-b"}) {
    EXPECT_TRUE(LinkError(std::string("v=1&") + key + "=1", "link",
                          std::string("'") + key + "' is not a config field path"));
  }
  EXPECT_TRUE(LinkError("v=1&=1", "link", "'' is not a config field path"));
  EXPECT_TRUE(LinkError(
      "v=1&no.such.field=1", "no",
      "unknown field; expected one of: version, target, hardware, gpus, parallelism, runtime, "
      "batch, context, memory_utilization, temperature, offload, dtype, method, acceptance, load"));
}

TEST(Link, NonFiniteNumbersAreRefused) {
  EXPECT_TRUE(
      LinkError("v=1&batch=1e400", "batch", "value '1e400' is not a number, true/false or a list"));
  EXPECT_TRUE(LinkError("v=1&acceptance.alpha=NaN", "acceptance.alpha",
                        "value 'NaN' is not a number, true/false or a list"));
  EXPECT_TRUE(LinkError("v=1&acceptance.alpha=Infinity", "acceptance.alpha",
                        "value 'Infinity' is not a number, true/false or a list"));
}

TEST(Link, ValuesDecodeToWhatTheJsonParserGives) {
  // decode_link reads plain integers and true/false without the document parser; each value
  // must come out as nlohmann's parser types it (an unsigned integer for "1024", a float for
  // 19 digits or a fraction, a signed integer for "-3"), and "01" stays refused.
  for (const char* v : {"0", "7", "1024", "999999999999999999", "1000000000000000000",
                        "18446744073709551616", "true", "false", "-3", "2.5", "1e3", "[1,2]"}) {
    const auto doc = speccalc::decode_link(std::string("v=1&batch=") + v);
    ASSERT_TRUE(doc.ok()) << v;
    const nlohmann::json expected = nlohmann::json::parse(v);
    EXPECT_EQ(doc.value()["batch"], expected) << v;
    EXPECT_EQ(doc.value()["batch"].type(), expected.type()) << v;
  }
  EXPECT_TRUE(
      LinkError("v=1&batch=01", "batch", "value '01' is not a number, true/false or a list"));
  EXPECT_TRUE(LinkError("v=1&batch=", "batch", "value '' is not a number, true/false or a list"));
}

TEST(Link, PlainStringFormsOfDtypeAndMethodWork) {
  // Configs accept "dtype": "int8" and "method": "sps"; hand-written links may say the same.
  const json config = json::parse(Ok("decode-link", "v=1&dtype=int8&method=sps"));
  EXPECT_EQ(config["dtype"], json::parse(R"({"weights": "int8", "kv": "int8"})"));
  EXPECT_EQ(config["method"]["family"], "sps");
}

namespace speccalc {
namespace {

TEST(Link, CompareLinkEvaluatesItsFirstScenario) {
  // The page's Compare link is "<A>&compare&<B>" with two v=1 links: eval-link of it gives the
  // same bytes as eval-link of A alone (the scenario the page shows and edits).
  const Response a = run("link", R"({"method":{"family":"sps","k":3},"acceptance":{"alpha":0.6}})");
  const Response b = run("link", R"({"method":{"family":"pld"},"acceptance":{"tau":1.5}})");
  ASSERT_TRUE(a.ok && b.ok);
  const Response both = run("eval-link", "#" + a.output + "&compare&" + b.output);
  const Response first = run("eval-link", "#" + a.output);
  ASSERT_TRUE(both.ok) << both.error.describe();
  EXPECT_EQ(both.output, first.output);
}

TEST(Link, EveryPresetsCustomObjectRoundTrips) {
  // The page's custom editor starts from a preset's `custom` object (list models); its share
  // link must open again. DeepSeek-V3's carries released_dtype "fp8", a string value.
  const json models = json::parse(run("list", "models").output);
  for (const auto& m : models) {
    const json config = {{"target", m["custom"]}, {"hardware", "h200-sxm"}, {"gpus", 8}};
    const Response e = run("eval", config.dump());
    if (!e.ok) continue;  // a setup the hardware refuses (heads not divisible by 8)
    const Response link = run("link", config.dump());
    ASSERT_TRUE(link.ok) << m["id"] << ": " << link.error.describe();
    const Response back = run("eval-link", link.output);
    ASSERT_TRUE(back.ok) << m["id"] << ": " << back.error.describe();
    EXPECT_EQ(back.output, e.output) << m["id"];
  }
}

}  // namespace
}  // namespace speccalc
