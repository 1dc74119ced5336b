// Embind layer: the only file that includes Emscripten headers. It forwards text to
// speccalc::run() and hands JS a plain object, so there is no model logic here and
// native/WASM parity reduces to comparing the strings core produced.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <string>

#include "speccalc/api.hpp"

namespace {

emscripten::val make_result(bool ok, const std::string& output, const std::string& field,
                            const std::string& message) {
  emscripten::val result = emscripten::val::object();
  result.set("ok", ok);
  result.set("output", output);
  result.set("field", field);
  result.set("message", message);
  return result;
}

// {ok, output, field, message}. Core returns errors as values and never throws. The catch is a
// backstop for builds with -fexceptions (Embind 3.1.6 would otherwise hand JS a bare number);
// the default build has exceptions off, where em++ drops it and a throw aborts the module.
emscripten::val run(const std::string& command, const std::string& input) {
  try {
    const speccalc::Response r = speccalc::run(command, input);
    return make_result(r.ok, r.output, r.error.field, r.error.message);
  } catch (const std::exception& e) {
    return make_result(false, "", "", std::string("internal error: ") + e.what());
  } catch (...) {
    return make_result(false, "", "", "internal error");
  }
}

std::string command_names() { return speccalc::command_names(); }

}  // namespace

EMSCRIPTEN_BINDINGS(speccalc) {
  emscripten::function("run", &run);
  emscripten::function("commandNames", &command_names);
}
