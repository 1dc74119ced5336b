#include "cli.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "speccalc/api.hpp"

namespace speccalc::cli {

namespace {

// The CLI's own forms; the core commands are listed from the core's table (usage()).
const char kUsageHead[] =
    "speccalc - will speculative decoding pay off for my model, GPU, batch and runtime?\n"
    "\n"
    "Usage:\n"
    "  speccalc eval --config FILE|-          evaluate a config (JSON) and print the result JSON\n"
    "  speccalc eval --link URL|FRAGMENT      evaluate a share link\n"
    "  speccalc link --config FILE|-          print the share link (URL fragment) of a config\n"
    "  speccalc normalize --config FILE|-     print the config with every default filled in\n"
    "  speccalc list models|drafts|heads|hardware|methods|runtimes|acceptance|ui\n"
    "  speccalc tables [--method M] [--model X] [--dataset D] [--source S] [--hardware H]\n"
    "                  [--temperature T|'not stated'] [--offset O] [--limit L]\n"
    "                  [--format json|csv|table|page]   (default table)\n"
    "  speccalc validate [FILE|-]             (no FILE: every row, JSON)\n"
    "  speccalc tree expect|optimize|preset|calibrate FILE|-   tree solver (docs/tree-model.md)\n"
    "  speccalc COMMAND FILE|-                any core command below, input from the file\n"
    "  speccalc run COMMAND FILE|-            the same\n"
    "  speccalc batch                         many calls in one process (framed, for tests):\n"
    "                                         stdin 'COMMAND LENGTH\\n' + LENGTH bytes, repeated;\n"
    "                                         stdout 'ok|error LENGTH\\n' + output or 'field: "
    "message'\n"
    "  speccalc --help\n"
    "\n"
    "Core commands (NAME  input; what it answers), from the core's command table:\n";

const char kUsageTail[] =
    "\n"
    "Results are JSON on stdout. Bad input exits with code 2 and one line on stderr naming\n"
    "the field. FILE may be - for standard input.\n";

std::string usage() {
  std::string text = kUsageHead;
  for (const CommandInfo& c : command_table()) {
    std::string line = std::string("  ") + c.name;
    line.resize(18, ' ');
    text += line + c.input + "\n" + std::string(18, ' ') + c.summary + "\n";
  }
  return text + kUsageTail;
}

bool is_core_command(const std::string& name) {
  for (const CommandInfo& c : command_table())
    if (name == c.name) return true;
  return false;
}

bool read_input(const std::string& path, std::istream& in, std::string* text,
                std::string* problem) {
  std::ostringstream buffer;
  if (path == "-") {
    buffer << in.rdbuf();
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      *problem = "cannot read file '" + path + "'";
      return false;
    }
    buffer << file.rdbuf();
  }
  *text = buffer.str();
  return true;
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "speccalc: error: " << message << " (see speccalc --help)\n";
  return 2;
}

int emit(const Response& r, std::ostream& out, std::ostream& err) {
  if (!r.ok) {
    std::string line = r.error.describe();
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    err << "speccalc: error: " << line << "\n";
    return 2;
  }
  out << r.output << "\n";
  return out ? 0 : 1;
}

// Reads "--name VALUE" pairs into a JSON object text for commands that take options.
std::string json_quote(const std::string& s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      q += "\\u00";
      q += kHex[c >> 4];
      q += kHex[c & 15];
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err) {
  if (args.empty()) return usage_error(err, "no command given");
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    out << usage();
    return 0;
  }

  // Commands that read one config (or link) from --config/--link.
  if (cmd == "eval" || cmd == "link" || cmd == "normalize") {
    if (args.size() != 3)
      return usage_error(err,
                         cmd + " needs --config FILE" + (cmd == "eval" ? " or --link URL" : ""));
    if (args[1] == "--link" && cmd == "eval")
      return emit(speccalc::run("eval-link", args[2]), out, err);
    if (args[1] != "--config") return usage_error(err, "unknown option '" + args[1] + "'");
    std::string text, problem;
    if (!read_input(args[2], in, &text, &problem)) return usage_error(err, problem);
    return emit(speccalc::run(cmd, text), out, err);
  }
  if (cmd == "batch") {
    // Length-framed so inputs and outputs may hold any bytes, newlines included.
    std::string header;
    while (std::getline(in, header)) {
      const std::size_t space = header.rfind(' ');
      if (space == std::string::npos) return usage_error(err, "batch: bad frame header");
      const std::string command = header.substr(0, space);
      const std::string digits = header.substr(space + 1);
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        return usage_error(err, "batch: bad frame length");
      const std::size_t length = std::stoul(digits);
      std::string input(length, '\0');
      if (length > 0 && !in.read(&input[0], static_cast<std::streamsize>(length)))
        return usage_error(err, "batch: input shorter than its frame");
      const Response r = speccalc::run(command, input);
      const std::string body = r.ok ? r.output : r.error.describe();
      out << (r.ok ? "ok " : "error ") << body.size() << "\n" << body;
    }
    out.flush();
    return out ? 0 : 1;
  }
  if (cmd == "list") {
    if (args.size() != 2)
      return usage_error(err,
                         "list needs one of: models, drafts, heads, hardware, methods, runtimes, "
                         "acceptance");
    return emit(speccalc::run("list", args[1]), out, err);
  }
  if (cmd == "tables") {
    std::string query = "{";
    for (std::size_t i = 1; i < args.size(); i += 2) {
      const std::string& opt = args[i];
      if (opt.rfind("--", 0) != 0 || i + 1 >= args.size())
        return usage_error(
            err,
            "tables takes --method, --model, --dataset, --source, --hardware, --temperature, "
            "--offset, --limit, --format, each with a value");
      if (query.size() > 1) query += ",";
      // Numbers stay numbers for the numeric filters; the core checks every value.
      const std::string& value = args[i + 1];
      const bool numeric =
          (opt == "--temperature" || opt == "--offset" || opt == "--limit") && !value.empty() &&
          value.find_first_not_of("0123456789.") == std::string::npos && value.front() != '.' &&
          value.back() != '.' && value.find('.') == value.rfind('.');
      query += json_quote(opt.substr(2)) + ":" + (numeric ? value : json_quote(value));
    }
    query += "}";
    if (query.find("\"format\"") == std::string::npos)
      query.insert(query.size() - 1,
                   std::string(query.size() > 2 ? "," : "") + "\"format\":\"table\"");
    return emit(speccalc::run("tables", query), out, err);
  }
  if (cmd == "tree" || cmd == "run" || is_core_command(cmd)) {
    std::string command = cmd;
    std::size_t file_arg = 1;
    if (cmd == "tree") {
      if (args.size() < 2)
        return usage_error(err, "tree needs expect, optimize, preset or calibrate");
      command = "tree-" + args[1];
      file_arg = 2;
    } else if (cmd == "run") {
      if (args.size() < 2) return usage_error(err, "run needs a command name");
      command = args[1];
      file_arg = 2;
    }
    std::string text;
    if (args.size() > file_arg + 1) return usage_error(err, "too many arguments");
    if (args.size() == file_arg + 1) {
      std::string problem;
      if (!read_input(args[file_arg], in, &text, &problem)) return usage_error(err, problem);
    } else if (cmd == "validate" || cmd == "fit") {  // options optional: all rows, all profiles
      text = "{}";
    } else {
      return usage_error(err, cmd + " needs FILE or -");
    }
    return emit(speccalc::run(command, text), out, err);
  }
  return usage_error(err, "unknown command '" + cmd.substr(0, 40) + "'; known: " + command_names());
}

}  // namespace speccalc::cli
