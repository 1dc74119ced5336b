// libFuzzer target: config JSON -> eval, normalize, link, families; and the share-link contract
// eval(config) == eval-link(link(config)) == eval(normalize(config)).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using speccalc_fuzz::checked_run;
  using speccalc_fuzz::fail;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const speccalc::Response eval = checked_run("eval", input);
  const speccalc::Response norm = checked_run("normalize", input);
  const speccalc::Response link = checked_run("link", input);
  // `families` evaluates the same config first: it fails exactly when eval does.
  const speccalc::Response fams = checked_run("families", input);
  if (fams.ok != eval.ok) fail("families", "families and eval disagree on validity", input);
  if (norm.ok != link.ok) fail("link", "normalize and link disagree on validity", input);
  if (!norm.ok) return 0;
  // A normalized config is a fixed point and evaluates to the same bytes as the original.
  const speccalc::Response norm2 = checked_run("normalize", norm.output);
  if (!norm2.ok || norm2.output != norm.output) fail("normalize", "not idempotent", input);
  const speccalc::Response decoded = checked_run("decode-link", link.output);
  if (!decoded.ok || decoded.output != norm.output)
    fail("decode-link", "decode(link(config)) != normalize(config)", input + "\n" + link.output);
  const speccalc::Response eval_link = checked_run("eval-link", link.output);
  if (eval.ok != eval_link.ok || eval.output != eval_link.output)
    fail("eval-link", "eval-link(link(config)) != eval(config)", input);
  return 0;
}
