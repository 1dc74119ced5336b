// Finds the bare nulls of a JSON text without building a document or converting a number.
// The output guard (api/output_guard.cpp) runs on every ok output that contains "null"; parsing
// it with nlohmann converted every number with strtod, which musl computes in 128-bit long
// double, emulated in software under WebAssembly: half of a 200-point load curve's time there.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace speccalc {

enum class NullScan { none, found, invalid };

// Walks `text` in document order and stops at the first bare null whose path `allowed` refuses,
// writing that path to *where ("a.b[2].c"; "" for a null document). Paths are written as
// fields::join and the old nlohmann walk wrote them. invalid: the text is not one JSON value.
NullScan first_refused_null(std::string_view text,
                            const std::function<bool(const std::string&)>& allowed,
                            std::string* where);

}  // namespace speccalc
