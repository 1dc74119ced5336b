#include "api/llama_bench.hpp"

#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace speccalc {

namespace {

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  const std::string t = trim(line);
  for (std::size_t i = (t.empty() || t[0] != '|') ? 0 : 1; i < t.size(); ++i) {
    if (t[i] == '|') {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += t[i];
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

// A whole non-negative integer of at most 7 digits, or -1.
int64_t small_int(const std::string& s) {
  if (s.empty() || s.size() > 7) return -1;
  for (char ch : s)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
  return std::strtoll(s.c_str(), nullptr, 10);
}

// "pp 512", "pp512", "tg128", "pp512@d4096" (spaces optional).
bool parse_test(const std::string& raw, BenchRow* row) {
  std::string s;
  for (char ch : raw)
    if (!std::isspace(static_cast<unsigned char>(ch))) s += ch;
  if (s.size() < 3 || (s.compare(0, 2, "pp") != 0 && s.compare(0, 2, "tg") != 0)) return false;
  row->generation = s[0] == 't';
  std::string n = s.substr(2), depth;
  const std::size_t at = n.find("@d");
  if (at != std::string::npos) {
    depth = n.substr(at + 2);
    n = n.substr(0, at);
  }
  row->tokens = small_int(n);
  row->depth = depth.empty() ? 0 : small_int(depth);
  return row->tokens > 0 && row->depth >= 0;
}

// "63.62 ± 0.54" -> 63.62.
bool parse_tps(const std::string& s, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !(v > 0) || v > 1e7) return false;
  *out = v;
  return true;
}

// The quantization name at the end of llama-bench's model column ("llama 7B Q4_0",
// "qwen3 8B Q4_K - Medium" is written by newer builds; both give the first GGUF-like word).
std::string quant_of(const std::string& model) {
  std::string word, last;
  for (std::size_t i = 0; i <= model.size(); ++i) {
    const char ch = i < model.size() ? model[i] : ' ';
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!word.empty() &&
          (word[0] == 'Q' || word.compare(0, 2, "IQ") == 0 || word == "F16" || word == "BF16") &&
          word.size() >= 2 && last.empty())
        last = word;
      word.clear();
    } else {
      word += ch;
    }
  }
  return last;
}

Expected<std::vector<BenchRow>> parse_markdown(const std::string& text) {
  std::vector<BenchRow> rows;
  int test_col = -1, tps_col = -1, model_col = -1;
  std::size_t start = 0, line_no = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const std::vector<std::string> c = cells(line);
    if (c.size() < 2 || line.find('|') == std::string::npos) continue;
    if (test_col < 0) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (c[i] == "test") test_col = static_cast<int>(i);
        if (c[i] == "t/s") tps_col = static_cast<int>(i);
        if (c[i] == "model") model_col = static_cast<int>(i);
      }
      if (test_col >= 0 && tps_col < 0)
        return make_error("llama_bench", "line " + std::to_string(line_no) +
                                             ": the header has a test column but no t/s column");
      continue;
    }
    if (c[0].find("---") != std::string::npos) continue;  // the |---|---| separator
    const std::string where = "line " + std::to_string(line_no);
    if (static_cast<int>(c.size()) <= std::max(test_col, tps_col))
      return make_error("llama_bench", where + ": fewer cells than the header");
    BenchRow row;
    row.label = c[test_col];
    if (!parse_test(c[test_col], &row))
      return make_error("llama_bench", where + ": test '" + c[test_col].substr(0, 24) +
                                           "' is not pp N or tg N (optionally @dN)");
    if (!parse_tps(c[tps_col], &row.tokens_per_s))
      return make_error("llama_bench", where + ": t/s '" + c[tps_col].substr(0, 24) +
                                           "' is not a positive number");
    if (model_col >= 0 && model_col < static_cast<int>(c.size()))
      row.quant = quant_of(c[model_col]);
    if (rows.size() == kMaxBenchRows)
      return make_error("llama_bench", "more than " + std::to_string(kMaxBenchRows) + " rows");
    rows.push_back(row);
  }
  if (test_col < 0)
    return make_error("llama_bench",
                      "no llama-bench table found: paste its markdown output (a header with "
                      "'test' and 't/s' columns) or its -o json output");
  return rows;
}

Expected<std::vector<BenchRow>> parse_json(const std::string& text) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array())
    return make_error("llama_bench", "is not valid llama-bench JSON (-o json gives an array)");
  std::vector<BenchRow> rows;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const std::string where = "entry " + std::to_string(i);
    const nlohmann::json& e = doc[i];
    if (!e.is_object()) return make_error("llama_bench", where + ": must be an object");
    auto count = [&](const char* key) -> int64_t {
      if (!e.contains(key)) return 0;
      return e[key].is_number_integer() ? e[key].get<int64_t>() : -1;
    };
    const int64_t prompt = count("n_prompt"), gen = count("n_gen"), depth = count("n_depth");
    if (prompt < 0 || gen < 0 || depth < 0 || prompt > 1000000 || gen > 1000000 ||
        depth > 10000000 || (prompt > 0) == (gen > 0))
      return make_error("llama_bench",
                        where + ": needs exactly one of n_prompt, n_gen above 0 (whole numbers)");
    BenchRow row;
    row.generation = gen > 0;
    row.tokens = gen > 0 ? gen : prompt;
    row.depth = depth;
    row.label = (gen > 0 ? "tg" : "pp") + std::to_string(row.tokens);
    if (!e.contains("avg_ts") || !e["avg_ts"].is_number() ||
        !parse_tps(e["avg_ts"].dump(), &row.tokens_per_s))
      return make_error("llama_bench", where + ": avg_ts must be a positive number");
    if (e.contains("model_type") && e["model_type"].is_string())
      row.quant = quant_of(e["model_type"].get<std::string>());
    if (rows.size() == kMaxBenchRows)
      return make_error("llama_bench", "more than " + std::to_string(kMaxBenchRows) + " entries");
    rows.push_back(row);
  }
  return rows;
}

// "Prompt: 512 tokens, 1234.5 tokens-per-sec" -> (512, 1234.5); false when the line is not one.
bool mlx_line(const std::string& line, const char* head, int64_t* tokens, double* tps) {
  const std::string t = trim(line);
  const std::string h = std::string(head) + ":";
  if (t.compare(0, h.size(), h) != 0) return false;
  const std::string rest = t.substr(h.size());
  const std::size_t comma = rest.find(',');
  const std::size_t tok = rest.find("tokens");
  if (comma == std::string::npos || tok == std::string::npos || tok > comma) return false;
  *tokens = small_int(trim(rest.substr(0, tok)));
  const std::string v = trim(rest.substr(comma + 1));
  return *tokens > 0 && parse_tps(v, tps) && v.find("tokens-per-sec") != std::string::npos;
}

}  // namespace

Expected<std::vector<BenchRow>> parse_mlx_lm(const std::string& text) {
  if (text.size() > 200000) return make_error("mlx_lm", "is longer than 200,000 characters");
  std::vector<BenchRow> rows;
  int64_t prompt = 0;  // the last prompt's tokens: the depth of the generation after it
  std::size_t start = 0, line_no = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const std::string where = "line " + std::to_string(line_no);
    BenchRow row;
    int64_t n = 0;
    const bool is_prompt = trim(line).rfind("Prompt:", 0) == 0;
    const bool is_gen = trim(line).rfind("Generation:", 0) == 0;
    if (!is_prompt && !is_gen) continue;
    if (!mlx_line(line, is_prompt ? "Prompt" : "Generation", &n, &row.tokens_per_s))
      return make_error("mlx_lm",
                        where + ": expected '" +
                            (is_prompt ? std::string("Prompt") : std::string("Generation")) +
                            ": N tokens, X tokens-per-sec'");
    if (is_prompt && n > 2048)
      return make_error("mlx_lm", where + ": a prompt of " + std::to_string(n) +
                                      " tokens is prefilled in several steps of 2048; paste a "
                                      "run with at most 2048 prompt tokens");
    row.generation = is_gen;
    row.tokens = n;
    row.depth = is_gen ? prompt : 0;
    row.label = (is_gen ? "generation " : "prompt ") + std::to_string(n);
    if (is_prompt) prompt = n;
    if (rows.size() == kMaxBenchRows)
      return make_error("mlx_lm", "more than " + std::to_string(kMaxBenchRows) + " lines");
    rows.push_back(row);
  }
  if (rows.empty())
    return make_error("mlx_lm",
                      "no 'Prompt:' or 'Generation:' line found (mlx_lm.generate's summary)");
  return rows;
}

Expected<std::vector<BenchRow>> parse_llama_bench(const std::string& text) {
  if (text.size() > 200000) return make_error("llama_bench", "is longer than 200,000 characters");
  const std::string t = trim(text);
  auto rows = (!t.empty() && t[0] == '[') ? parse_json(t) : parse_markdown(t);
  if (!rows.ok()) return rows;
  if (rows.value().empty()) return make_error("llama_bench", "has no pp or tg rows");
  return rows;
}

}  // namespace speccalc
