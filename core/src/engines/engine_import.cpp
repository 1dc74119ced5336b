#include "engines/engine_import.hpp"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/commands.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"
#include "speccalc/config.hpp"
#include "speccalc/embedded_data.hpp"
#include "speccalc/presets.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxTextBytes = 16384;  // a command line, not a file

// Shell words with '...' and "..." quoting and backslash escapes outside single quotes; line
// continuations ("\" + newline) are blanks. Enough for a pasted command, not a shell.
std::vector<std::string> shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quote) {
      if (ch == quote)
        quote = 0;
      else if (ch == '\\' && quote == '"' && i + 1 < text.size())
        cur += text[++i];
      else
        cur += ch;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
    } else if (ch == '\\' && i + 1 < text.size()) {
      if (text[i + 1] != '\n') {
        cur += text[i + 1];
        in_word = true;
      }
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(ch))) {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += ch;
      in_word = true;
    }
  }
  if (in_word) words.push_back(cur);
  return words;
}

// "--flag value" and "--flag=value" pairs; underscores read as dashes (vLLM takes both).
// Words that are not flags are kept in order under "" (e.g. `vllm serve MODEL`).
std::multimap<std::string, std::string> flags_of(const std::vector<std::string>& words) {
  std::multimap<std::string, std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("-", 0) != 0) {
      out.emplace("", w);
      continue;
    }
    std::string name = w;
    std::string value;
    const auto eq = w.find('=');
    if (eq != std::string::npos) {
      name = w.substr(0, eq);
      value = w.substr(eq + 1);
    } else if (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) {
      value = words[++i];
    }
    for (char& ch : name)
      if (ch == '_') ch = '-';
    out.emplace(name, value);
  }
  return out;
}

// The flags of a paste and the names the import asked for: what it did not ask for is listed
// back to the user ("not read"), so a flag SpecCalc has no setting for is never dropped silently.
class Flags {
 public:
  explicit Flags(std::multimap<std::string, std::string> f) : f_(std::move(f)) {}
  // The first of `names` given (its value; "" for a switch or when none is).
  std::string get(std::initializer_list<const char*> names) {
    for (const char* n : names) asked_.insert(n);
    for (const char* n : names) {
      auto it = f_.find(n);
      if (it != f_.end()) return it->second;
    }
    return "";
  }
  bool has(const char* name) {
    asked_.insert(name);
    return f_.count(name) > 0;
  }
  // Words that are not flags, in order (e.g. `vllm serve MODEL`).
  std::vector<std::string> words() const {
    std::vector<std::string> out;
    auto range = f_.equal_range("");
    for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
    return out;
  }
  // "--flag value" for every flag given that the import never asked for, by name.
  std::vector<std::string> unread() const {
    std::vector<std::string> out;
    for (const auto& [name, value] : f_) {
      if (name.empty() || asked_.count(name)) continue;
      out.push_back(value.empty() ? name : name + " " + value.substr(0, 40));
    }
    return out;
  }

 private:
  std::multimap<std::string, std::string> f_;
  std::set<std::string> asked_;
};

// The note listing what a paste held that SpecCalc has no setting for ("" when nothing).
std::string unread_note(const std::vector<std::string>& unread, const std::string& what) {
  if (unread.empty()) return "";
  constexpr std::size_t kShown = 12;
  std::string list;
  for (std::size_t i = 0; i < unread.size() && i < kShown; ++i) list += (i ? ", " : "") + unread[i];
  if (unread.size() > kShown) list += " and " + std::to_string(unread.size() - kShown) + " more";
  return what + " not read (SpecCalc has no setting for them): " + list;
}

json parse_data(std::string_view text) {
  return json::parse(text.begin(), text.end(), nullptr, false);
}

// Preset id whose hf_repo is `repo` in models.json's `list` ("targets" or "drafts").
std::string preset_for_repo(const json& models, const char* list, const std::string& repo) {
  for (const json& m : models.value(list, json::array()))
    if (m.value("hf_repo", "") == repo) return m.value("id", "");
  return "";
}

// The target a published EAGLE / Medusa / Hydra head was trained for (models.json `heads`).
std::string target_of_head(const json& models, const std::string& repo) {
  for (const json& h : models.value("heads", json::array()))
    if (h.value("repo_id", "") == repo) return h.value("target", "");
  return "";
}

Expected<int64_t> whole(const std::string& text, const std::string& field) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
    return make_error(field, "enter a whole number, got '" + text.substr(0, 40) + "'");
  return std::stoll(text);
}

Expected<int64_t> whole_json(const json& spec, const char* key, const std::string& field) {
  if (!spec.contains(key)) return make_error(field, "is required");
  if (!spec[key].is_number_integer()) return make_error(field, "enter a whole number");
  // Both keys read here count tokens or GPUs: refused under 1 here, under the name the user
  // gave, not later as the SpecCalc field it becomes (the walk: -3 reported as method.depth).
  const int64_t v = spec[key].get<int64_t>();
  if (v < 1) return make_error(field, "must be at least 1, got " + std::to_string(v));
  return v;
}

json chain(int64_t n) {
  json c = json::array();
  for (int64_t d = 1; d <= n; ++d) c.push_back(std::vector<int>(static_cast<std::size_t>(d), 0));
  return c;
}

struct Imported {
  json config = json::object();  // an object from the start: value() on null aborts
  json notes = json::array();
  std::string kv_dtype;  // the KV cache dtype the flags set ("" = the config's own)
};

// --kv-cache-dtype as vLLM (auto, fp8, fp8_e4m3, fp8_e5m2) and SGLang (auto, fp8_e5m2,
// fp8_e4m3) spell it: an fp8 type is the config's fp8 KV cache; auto keeps the config's.
bool read_kv_cache_dtype(const std::string& value, Imported* out, Error* err) {
  if (value.empty() || value == "auto") return true;
  if (value == "fp8" || value == "fp8_e4m3" || value == "fp8_e5m2") {
    out->kv_dtype = "fp8";
    if (value == "fp8_e5m2")
      out->notes.push_back("--kv-cache-dtype fp8_e5m2: imported as an fp8 KV cache (same bytes)");
    return true;
  }
  *err = make_error("text.--kv-cache-dtype",
                    "'" + value.substr(0, 40) + "' is not one of auto, fp8, fp8_e4m3, fp8_e5m2");
  return false;
}

// --gpu-memory-utilization (vLLM) / --mem-fraction-static (SGLang) as the config's
// memory_utilization: a fraction in [0.05, 1], the range the config takes (config.cpp).
bool read_memory_fraction(const std::string& value, const std::string& field, Imported* out,
                          Error* err) {
  if (value.empty()) return true;
  // Through parse_document, which refuses deep nesting before nlohmann's parser sees it.
  const auto doc = fields::parse_document(value, field, 1);
  const json v = doc.ok() ? doc.value() : json();
  if (!v.is_number() || v.get<double>() < 0.05 || v.get<double>() > 1) {
    *err = make_error(field,
                      "must be a fraction between 0.05 and 1, got '" + value.substr(0, 40) + "'");
    return false;
  }
  out->config["memory_utilization"] = v.get<double>();
  return true;
}

// The served model (a preset when its repository is one; else a note) and the tensor-parallel
// size as the config's gpus: the same in every engine's flags.
bool read_target_and_gpus(const json& models, const std::string& model, const std::string& tp,
                          const std::string& tp_field, Imported* out, Error* err) {
  if (!model.empty()) {
    const std::string id = preset_for_repo(models, "targets", model);
    if (id.empty())
      out->notes.push_back("target " + model + " is not a preset: kept the current target");
    else
      out->config["target"] = id;
  }
  if (tp.empty()) return true;
  auto n = whole(tp, tp_field);
  if (!n.ok()) {
    *err = n.error();
    return false;
  }
  out->config["gpus"] = n.value();
  return true;
}

// Data-parallel attention and expert parallelism into `parallelism` (config.cpp): `groups`
// attention groups (1: none) and expert parallelism on or off. `tp_per_group`: the engine's
// tensor-parallel size counts one group's GPUs (vLLM), so gpus = tp x groups; otherwise it
// already counts them all (SGLang).
bool read_parallelism(const std::string& groups_text, const std::string& groups_field, bool expert,
                      bool tp_per_group, Imported* out, Error* err) {
  int64_t groups = 1;
  if (!groups_text.empty()) {
    auto n = whole(groups_text, groups_field);
    if (!n.ok()) {
      *err = n.error();
      return false;
    }
    groups = n.value();
  }
  if (groups == 1 && !expert) return true;
  const int64_t gpus = out->config.value("gpus", int64_t{1}) * (tp_per_group ? groups : 1);
  out->config["gpus"] = gpus;
  out->config["parallelism"] = json{{"data_attention", groups}, {"expert", expert ? gpus : 1}};
  return true;
}

// The engine a pasted command line plainly belongs to: "sglang" when it runs
// sglang.launch_server or gives --speculative-algorithm (SGLang's flag) and no
// --speculative-config; "vllm" when it runs `vllm serve` or gives --speculative-config and no
// --speculative-algorithm; "" when it says neither (a bare JSON object) or both.
std::string engine_named_by(const std::string& text) {
  bool sglang = false, vllm = false;
  const auto words = shell_words(text);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.find("sglang.launch_server") != std::string::npos ||
        w.rfind("--speculative-algorithm", 0) == 0 || w.rfind("--speculative-algo=", 0) == 0 ||
        w == "--speculative-algo")
      sglang = true;
    if (w.rfind("--speculative-config", 0) == 0 ||
        (w == "vllm" && i + 1 < words.size() && words[i + 1] == "serve"))
      vllm = true;
  }
  return sglang == vllm ? "" : sglang ? "sglang" : "vllm";
}

Error with_prefix(Error e, const std::string& prefix) {
  e.field = prefix + e.field;
  return e;
}

// vLLM: the --speculative-config JSON, alone or inside a `vllm serve` command line.
Expected<Imported> from_vllm(const std::string& text, const json& models) {
  Imported out;
  std::string unread;  // the note on flags and keys SpecCalc has no setting for
  std::string spec_text = text;
  const auto words = shell_words(text);
  const bool command = !words.empty() && words[0].rfind("{", 0) != 0;
  if (command) {
    Flags f(flags_of(words));
    spec_text = f.get({"--speculative-config"});
    if (spec_text.empty()) return make_error("text", "has no --speculative-config '{...}'");
    std::string model = f.get({"--model"});
    if (model.empty()) {
      // `vllm serve MODEL`: the word after "serve".
      bool after_serve = false;
      for (const std::string& w : f.words()) {
        if (after_serve) {
          model = w;
          break;
        }
        after_serve = w == "serve";
      }
    }
    Error err;
    if (!read_target_and_gpus(models, model, f.get({"--tensor-parallel-size", "-tp"}),
                              "text.--tensor-parallel-size", &out, &err))
      return err;
    if (!read_parallelism(f.get({"--data-parallel-size", "-dp"}), "text.--data-parallel-size",
                          f.has("--enable-expert-parallel"), true, &out, &err))
      return err;
    if (!read_kv_cache_dtype(f.get({"--kv-cache-dtype"}), &out, &err)) return err;
    if (!read_memory_fraction(f.get({"--gpu-memory-utilization"}), "text.--gpu-memory-utilization",
                              &out, &err))
      return err;
    unread = unread_note(f.unread(), "flags");
  }
  auto doc = fields::parse_document(spec_text, "text.--speculative-config", 4);
  if (!doc.ok()) return doc.error();
  const json& spec = doc.value();
  if (!spec.is_object()) return make_error("text.--speculative-config", "must be a JSON object");
  const std::string p = "text.--speculative-config.";
  auto n = whole_json(spec, "num_speculative_tokens", p + "num_speculative_tokens");
  if (!n.ok()) return n.error();
  const std::string method = spec.value("method", spec.contains("model") ? "draft_model" : "");
  const std::string model =
      spec.contains("model") && spec["model"].is_string() ? spec["model"].get<std::string>() : "";
  json m;
  if (method == "ngram") {
    m = json{{"family", "pld"}, {"k", n.value()}};
    if (spec.contains("prompt_lookup_max")) m["ngram"] = spec["prompt_lookup_max"];
  } else if (method == "eagle" || method == "eagle3") {
    // vLLM's EAGLE drafts a chain: an EAGLE-2/3 tree with one child per level.
    m = json{{"family", method == "eagle" ? "eagle2" : "eagle3"},
             {"total_token", n.value() + 1},
             {"depth", n.value()},
             {"top_k", 1}};
    out.notes.push_back("vLLM's EAGLE drafts a chain of " + std::to_string(n.value()) +
                        " tokens: imported as a tree with top_k 1, depth " +
                        std::to_string(n.value()));
  } else if (method == "medusa") {
    m = json{{"family", "medusa"}, {"heads", n.value()}, {"choices", chain(n.value())}};
    out.notes.push_back("vLLM's Medusa takes the top-1 token of each head: imported as a chain");
  } else if (method == "draft_model") {
    const std::string id = preset_for_repo(models, "drafts", model);
    if (id.empty())
      return make_error(p + "model",
                        "no draft preset is the repository '" + model.substr(0, 80) + "'");
    m = json{{"family", "sps"}, {"draft", id}, {"k", n.value()}};
  } else if (method == "mtp" || method == "deepseek_mtp") {
    // The target's own MTP layers draft (docs.vllm.ai features/speculative_decoding/mtp).
    m = json{{"family", "mtp"}, {"k", n.value()}};
  } else if (method == "suffix") {
    m = json{{"family", "retrieval"}, {"source", "suffix"}, {"k", n.value()}};
    out.notes.push_back("vLLM's suffix decoding speculates up to num_speculative_tokens (" +
                        std::to_string(n.value()) + "), adaptively: imported as k");
  } else {
    return make_error(p + "method", "'" + method.substr(0, 40) +
                                        "' has no SpecCalc equivalent; known: ngram, eagle, "
                                        "eagle3, medusa, draft_model, mtp, deepseek_mtp, suffix");
  }
  if (!model.empty() && method != "draft_model" && !out.config.contains("target")) {
    const std::string target = target_of_head(models, model);
    if (!target.empty()) out.config["target"] = target;
  }
  out.config["runtime"] = "vllm";
  if (spec.contains("draft_tensor_parallel_size") && method != "ngram" && method != "suffix") {
    // vLLM's default is the target's TP (vllm/config/speculative.py): kept only when it
    // differs, so an exported default imports as the default.
    auto dtp = whole_json(spec, "draft_tensor_parallel_size", p + "draft_tensor_parallel_size");
    if (!dtp.ok()) return dtp.error();
    // Under data parallelism it counts one rank's GPUs, like -tp.
    const int64_t groups = out.config.contains("parallelism")
                               ? out.config["parallelism"]["data_attention"].get<int64_t>()
                               : 1;
    if (dtp.value() * groups != out.config.value("gpus", int64_t{1}))
      m["draft_tensor_parallel_size"] = dtp.value() * groups;
  }
  out.config["method"] = m;
  // The --speculative-config keys read above (prompt_lookup_max for n-grams only).
  std::vector<std::string> keys;
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    const std::string& k = it.key();
    // prompt_lookup_min 1 (any match; what SpecCalc exports) is the n-gram search priced.
    const bool read =
        k == "method" || k == "model" || k == "num_speculative_tokens" ||
        (k == "prompt_lookup_max" && method == "ngram") ||
        (k == "prompt_lookup_min" && method == "ngram" && it.value() == 1) ||
        (k == "draft_tensor_parallel_size" && method != "ngram" && method != "suffix");
    if (!read) keys.push_back(k);
  }
  if (!unread.empty()) out.notes.push_back(unread);
  if (const std::string n = unread_note(keys, "--speculative-config keys"); !n.empty())
    out.notes.push_back(n);
  return out;
}

// SGLang: `python -m sglang.launch_server ...` flags (or just the --speculative-* ones).
Expected<Imported> from_sglang_flags(Flags& f, const json& models) {
  Imported out;
  const std::string algo = f.get({"--speculative-algorithm", "--speculative-algo"});
  if (algo.empty()) return make_error("text.--speculative-algorithm", "is required");
  const std::string draft = f.get({"--speculative-draft-model-path", "--speculative-draft-model"});
  const std::string model = f.get({"--model-path", "--model"});
  Error err;
  if (!read_target_and_gpus(models, model, f.get({"--tp-size", "--tp", "--tensor-parallel-size"}),
                            "text.--tp-size", &out, &err))
    return err;
  // SGLang's --tp-size counts all the GPUs; --dp-size with --enable-dp-attention is the
  // attention groups inside them (without it, --dp-size is whole replicas: one is evaluated).
  const std::string dp = f.get({"--dp-size", "--dp", "--data-parallel-size"});
  const bool dp_attention = f.has("--enable-dp-attention");
  if (!dp.empty() && !dp_attention)
    out.notes.push_back("--dp-size " + dp +
                        " without --enable-dp-attention runs whole replicas: one replica is "
                        "evaluated (its batch is the requests one replica serves)");
  const bool ep = !f.get({"--ep-size", "--ep", "--expert-parallel-size"}).empty();
  if (!read_parallelism(dp_attention ? dp : "", "text.--dp-size", ep, false, &out, &err))
    return err;
  if (!read_kv_cache_dtype(f.get({"--kv-cache-dtype"}), &out, &err)) return err;
  // SGLang's static fraction holds the weights and the KV pool; the priced fraction holds them
  // and the activations: the nearest setting, said so.
  const std::string fraction = f.get({"--mem-fraction-static"});
  if (!read_memory_fraction(fraction, "text.--mem-fraction-static", &out, &err)) return err;
  if (!fraction.empty())
    out.notes.push_back("--mem-fraction-static " + fraction +
                        ": imported as the usable memory fraction (SGLang's holds the weights and "
                        "the KV pool, SpecCalc's also the activations)");
  json m;
  if (algo == "SUFFIX") {
    // Suffix decoding: --speculative-num-draft-tokens is the most it drafts per step
    // (sgl-project/sglang docs/advanced_features/suffix_decoding.md).
    auto tokens =
        whole(f.get({"--speculative-num-draft-tokens"}), "text.--speculative-num-draft-tokens");
    if (!tokens.ok()) return tokens.error();
    out.config["runtime"] = "sglang";
    out.config["method"] =
        json{{"family", "retrieval"}, {"source", "suffix"}, {"k", tokens.value()}};
    out.notes.push_back(
        "SGLang's suffix decoding drafts up to --speculative-num-draft-tokens, "
        "adaptively: imported as k");
    return out;
  }
  auto steps = whole(f.get({"--speculative-num-steps"}), "text.--speculative-num-steps");
  if (!steps.ok()) return steps.error();
  // MTP: NEXTN, or EAGLE without a draft path on a target whose checkpoint carries MTP layers
  // (the "Multi Token Prediction" section of SGLang's speculative decoding docs).
  const std::string target_id =
      out.config.contains("target") ? out.config["target"].get<std::string>() : "";
  bool target_has_mtp = false;
  for (const json& t : models.value("targets", json::array()))
    if (t.value("id", "") == target_id) target_has_mtp = t.value("mtp_modules", 0) > 0;
  if (algo == "NEXTN" || (algo == "EAGLE" && draft.empty() && target_has_mtp)) {
    const std::string topk = f.get({"--speculative-eagle-topk"});
    f.get({"--speculative-num-draft-tokens"});  // the chain's k + 1, or the tree the note names
    if (!topk.empty() && topk != "1")
      out.notes.push_back("SGLang drafts an MTP tree of top-k " + topk.substr(0, 20) +
                          "; SpecCalc's mtp family verifies a chain: imported as a chain of " +
                          std::to_string(steps.value()));
    out.config["runtime"] = "sglang";
    out.config["method"] = json{{"family", "mtp"}, {"k", steps.value()}};
    return out;
  }
  if (algo == "EAGLE" || algo == "EAGLE3") {
    auto topk = whole(f.get({"--speculative-eagle-topk"}), "text.--speculative-eagle-topk");
    if (!topk.ok()) return topk.error();
    auto tokens =
        whole(f.get({"--speculative-num-draft-tokens"}), "text.--speculative-num-draft-tokens");
    if (!tokens.ok()) return tokens.error();
    // SGLang's num-steps is the draft levels: the config's depth; num-draft-tokens counts the root.
    m = json{{"family", algo == "EAGLE" ? "eagle2" : "eagle3"},
             {"total_token", tokens.value()},
             {"depth", steps.value()},
             {"top_k", topk.value()}};
    if (!draft.empty() && !out.config.contains("target")) {
      const std::string target = target_of_head(models, draft);
      if (!target.empty()) out.config["target"] = target;
    }
  } else if (algo == "STANDALONE") {
    const std::string id = preset_for_repo(models, "drafts", draft);
    if (id.empty())
      return make_error("text.--speculative-draft-model-path",
                        "no draft preset is the repository '" + draft.substr(0, 80) + "'");
    // A chain (top-k 1, steps + 1 tokens, the defaults) is k = steps. Wider, SGLang grows
    // EAGLE's top-k tree from the draft's probabilities: the nearest SpecCalc shape is the best
    // tree of as many draft nodes, no deeper than the steps (draft_shape.hpp), said so.
    const std::string topk_text = f.get({"--speculative-eagle-topk"});
    const std::string tokens_text = f.get({"--speculative-num-draft-tokens"});
    int64_t topk = 1, tokens = steps.value() + 1;
    if (!topk_text.empty()) {
      auto t = whole(topk_text, "text.--speculative-eagle-topk");
      if (!t.ok()) return t.error();
      topk = t.value();
    }
    if (!tokens_text.empty()) {
      auto t = whole(tokens_text, "text.--speculative-num-draft-tokens");
      if (!t.ok()) return t.error();
      tokens = t.value();
    }
    if (topk == 1 && tokens == steps.value() + 1) {
      m = json{{"family", "sps"}, {"draft", id}, {"k", steps.value()}};
    } else {
      if (tokens < 2)
        return make_error(
            "text.--speculative-num-draft-tokens",
            "must be at least 2 (the root and one draft token), got " + std::to_string(tokens));
      m = json{
          {"family", "sps"}, {"draft", id}, {"tree_size", tokens - 1}, {"depth", steps.value()}};
      out.notes.push_back("SGLang's STANDALONE drafter grows a top-" + std::to_string(topk) +
                          " tree of " + std::to_string(tokens - 1) +
                          " draft tokens from the draft's probabilities: imported as the best "
                          "tree of " +
                          std::to_string(tokens - 1) +
                          " nodes, depth <= " + std::to_string(steps.value()));
    }
  } else {
    return make_error("text.--speculative-algorithm",
                      "'" + algo.substr(0, 40) +
                          "' has no SpecCalc equivalent; known: EAGLE, EAGLE3, STANDALONE, "
                          "NEXTN, SUFFIX");
  }
  out.config["runtime"] = "sglang";
  out.config["method"] = m;
  return out;
}

Expected<Imported> from_sglang(const std::string& text, const json& models) {
  Flags f(flags_of(shell_words(text)));
  f.get({"-m"});  // `python -m sglang.launch_server`: the interpreter's switch, not SGLang's
  Expected<Imported> got = from_sglang_flags(f, models);
  if (got.ok())
    if (const std::string n = unread_note(f.unread(), "flags"); !n.empty())
      got.value().notes.push_back(n);
  return got;
}

}  // namespace

namespace commands {

Response import_engine(const std::string& input) {
  auto doc = fields::parse_document(input, "input", 32);
  if (!doc.ok()) return fail(doc.error());
  const json& in = doc.value();
  if (!in.is_object())
    return fail(make_error("", "input must be {\"engine\", \"text\", \"config\"?}"));
  Error err;
  if (!fields::check_keys(in, "", {"engine", "text", "config"}, &err)) return fail(err);
  if (!in.contains("text") || !in["text"].is_string())
    return fail(make_error("text", "paste the engine's flags or --speculative-config JSON"));
  const std::string text = in["text"].get<std::string>();
  if (text.size() > kMaxTextBytes)
    return fail(make_error("text", "is longer than 16384 characters"));
  if (!fields::valid_utf8(text)) return fail(make_error("text", "is not valid UTF-8 text"));
  std::string engine =
      in.contains("engine") && in["engine"].is_string() ? in["engine"].get<std::string>() : "";
  // A paste that is plainly the other engine's command is read as that engine's (the walk: an
  // SGLang launch_server line pasted with vLLM selected answered "has no --speculative-config").
  const std::string named = engine_named_by(text);
  std::string read_as_note;
  if ((engine == "vllm" || engine == "sglang") && !named.empty() && named != engine) {
    read_as_note = "read as " + std::string(named == "sglang" ? "SGLang" : "vLLM") +
                   " settings (the paste is " +
                   (named == "sglang" ? "SGLang's: launch_server or --speculative-algorithm"
                                      : "vLLM's: vllm serve or --speculative-config") +
                   "), not as the " + (engine == "sglang" ? "SGLang" : "vLLM") + " settings chosen";
    engine = named;
  }
  const json models = parse_data(data::models());
  Expected<Imported> got = make_error("engine", "must be vllm or sglang");
  if (engine == "vllm")
    got = from_vllm(text, models);
  else if (engine == "sglang")
    got = from_sglang(text, models);
  if (!got.ok()) return fail(got.error());
  if (!read_as_note.empty()) got.value().notes.insert(got.value().notes.begin(), read_as_note);
  json config = in.contains("config") && in["config"].is_object() ? in["config"] : json::object();
  for (auto it = got.value().config.begin(); it != got.value().config.end(); ++it)
    config[it.key()] = it.value();
  // The KV dtype alone: the weights' dtype stays the config's (a string names both).
  if (!got.value().kv_dtype.empty()) {
    json dtype = config.contains("dtype") ? config["dtype"] : json::object();
    if (dtype.is_string()) dtype = json{{"weights", dtype}, {"kv", dtype}};
    if (!dtype.is_object()) dtype = json::object();
    dtype["kv"] = got.value().kv_dtype;
    config["dtype"] = dtype;
  }
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto parsed = parse_config_text(config.dump(), catalog.value());
  if (!parsed.ok()) return fail(with_prefix(parsed.error(), "config."));
  return ok_json(
      json{{"config", config_to_json(parsed.value())}, {"notes", got.value().notes}}.dump());
}

}  // namespace commands
}  // namespace speccalc
