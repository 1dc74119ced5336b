// libFuzzer target: untrusted share links -> decode-link and eval-link. A link that decodes
// must re-encode to a link that decodes to the same config.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using speccalc_fuzz::checked_run;
  using speccalc_fuzz::fail;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const speccalc::Response decoded = checked_run("decode-link", input);
  const speccalc::Response eval = checked_run("eval-link", input);
  if (!decoded.ok) {
    if (eval.ok) fail("eval-link", "evaluates a link that decode-link refuses", input);
    return 0;
  }
  const speccalc::Response link = checked_run("link", decoded.output);
  if (!link.ok) fail("link", "refuses a config that decode-link produced", decoded.output);
  const speccalc::Response again = checked_run("decode-link", link.output);
  if (!again.ok || again.output != decoded.output)
    fail("decode-link", "decode(link(decode(x))) != decode(x)", input);
  return 0;
}
