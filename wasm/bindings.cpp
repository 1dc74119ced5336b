// The WASM module's C interface: the only file that includes Emscripten headers. It forwards
// text to speccalc::run() and hands back the bytes core produced, so there is no model logic
// here and native/WASM parity reduces to comparing the strings core produced. Plain C exports
// rather than Embind: the JS side (speccalc-api.mjs, bind()) is 40 lines instead of Embind's
// ~25 KB runtime, which the page would download on every first visit (issue 14).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "api/command_registry.hpp"
#include "speccalc/api.hpp"

namespace {

// What speccalc_run returns: nine 32-bit words JS reads at fixed offsets (bind() in
// speccalc-api.mjs), then the response that owns the bytes they point to.
// output_non_ascii_begin/end: the span of the output from its first byte >= 0x80 to just after
// its last (begin = end = output_bytes when it is all ASCII). JS decodes the ASCII on either
// side apart from that span: one "µ" in an 8 KB eval output otherwise sends all of it through
// Node's slow UTF-8 path (8.2 us against 1.2 us in three pieces, Node 20).
struct Result {
  uint32_t ok;
  const char* output;
  uint32_t output_bytes;
  const char* field;
  uint32_t field_bytes;
  const char* message;
  uint32_t message_bytes;
  uint32_t output_non_ascii_begin;
  uint32_t output_non_ascii_end;
  speccalc::Response response;
};
static_assert(sizeof(void*) == 4, "speccalc-api.mjs reads 32-bit pointers");

// The scans below read 8 bytes a step (a byte loop over eval's 7.7 KB output was 5 % of its
// time in Node); any byte with its high bit set is not ASCII.
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

uint64_t word_at(const std::string& s, std::size_t i) {
  uint64_t w;
  std::memcpy(&w, s.data() + i, sizeof w);
  return w;
}

std::size_t first_non_ascii(const std::string& s) {
  std::size_t i = 0;
  while (i + 8 <= s.size() && (word_at(s, i) & kHighBits) == 0) i += 8;
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

// One past the last non-ASCII byte, given that s[begin] is one.
std::size_t after_last_non_ascii(const std::string& s, std::size_t begin) {
  std::size_t end = s.size();
  while (end >= begin + 8 && (word_at(s, end - 8) & kHighBits) == 0) end -= 8;
  while (end > begin && static_cast<unsigned char>(s[end - 1]) < 0x80) --end;
  return end;
}

Result* make_result(speccalc::Response r) {
  Result* out = new Result{};
  out->response = std::move(r);
  const speccalc::Response& k = out->response;
  out->ok = k.ok ? 1 : 0;
  out->output = k.output.data();
  out->output_bytes = static_cast<uint32_t>(k.output.size());
  out->field = k.error.field.data();
  out->field_bytes = static_cast<uint32_t>(k.error.field.size());
  out->message = k.error.message.data();
  out->message_bytes = static_cast<uint32_t>(k.error.message.size());
  const std::string& o = k.output;
  const std::size_t begin = first_non_ascii(o);
  const std::size_t end = begin < o.size() ? after_last_non_ascii(o, begin) : o.size();
  out->output_non_ascii_begin = static_cast<uint32_t>(begin);
  out->output_non_ascii_end = static_cast<uint32_t>(begin < o.size() ? end : o.size());
  return out;
}

std::string text(const char* p, uint32_t n) { return n == 0 ? std::string() : std::string(p, n); }

}  // namespace

extern "C" {

// run(command, input) with the published table's text (empty when not loaded: the WASM build
// embeds none, see cmake/EmbedData.cmake). The caller frees the result.
EMSCRIPTEN_KEEPALIVE Result* speccalc_run(const char* command, uint32_t command_bytes,
                                          const char* input, uint32_t input_bytes,
                                          const char* published, uint32_t published_bytes) {
  return make_result(speccalc::run(text(command, command_bytes), text(input, input_bytes),
                                   speccalc::Data{std::string_view(published, published_bytes)}));
}

// The registered command names, comma separated, as the output of an ok result.
EMSCRIPTEN_KEEPALIVE Result* speccalc_command_names() {
  speccalc::Response r;
  r.ok = true;
  r.output = speccalc::command_names();
  return make_result(std::move(r));
}

// Which table `command` reads ("published" or ""), as the output of an ok result.
// Every command of core/src/api/commands.def, including those only the full module runs: what the
// page may call (speccalc-api.mjs loads the full module for the rest).
EMSCRIPTEN_KEEPALIVE Result* speccalc_all_command_names() {
  speccalc::Response r;
  r.ok = true;
  r.output = speccalc::all_command_names();
  return make_result(std::move(r));
}

EMSCRIPTEN_KEEPALIVE Result* speccalc_data_needed(const char* command, uint32_t command_bytes) {
  speccalc::Response r;
  r.ok = true;
  r.output = speccalc::data_needed(text(command, command_bytes));
  return make_result(std::move(r));
}

EMSCRIPTEN_KEEPALIVE void speccalc_free_result(Result* r) { delete r; }

}  // extern "C"
