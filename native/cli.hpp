// The speccalc command line: argument parsing and I/O only; every answer comes from
// speccalc::run() in core, so the CLI and the page agree byte for byte.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace speccalc::cli {

// Exit codes: 0 success, 2 bad input (message on stderr), 1 internal/IO failure.
int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace speccalc::cli
