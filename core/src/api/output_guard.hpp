// Last line of defence for "never NaN or Inf in output": nlohmann prints a non-finite double
// as null, so an ok JSON output is checked for nulls where the command never writes one.
#pragma once

#include <string>

#include "speccalc/api.hpp"

namespace speccalc {

// Returns r unchanged, or an internal error naming the command and the JSON path of the
// first null that the command does not document (a NaN or Inf reached the output).
Response guard_output(const std::string& command, Response r);

}  // namespace speccalc
