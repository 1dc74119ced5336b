// The config's method object: the family from the family table (config/families.hpp), then
// one parser per family for its keys and defaults, each default citing where it comes from.
#include "config/method_parse.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "config/config_json.hpp"
#include "config/families.hpp"
#include "config/json_fields.hpp"
#include "config/tree_input.hpp"
#include "speccalc/tree.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc {

using fields::json;

namespace {

bool parse_choices(const json& v, const std::string& path, MethodConfig* m, Error* err) {
  if (v.is_string()) {
    if (v.get_ref<const std::string&>().size() > 64) {
      *err = make_error(path, "is not a tree preset name (longer than 64 characters)");
      return false;
    }
    m->tree_preset = v.get<std::string>();
    auto tree = tree::preset_tree(m->tree_preset, path);
    if (!tree.ok()) {
      *err = tree.error();
      return false;
    }
    m->choices = tree.value().choices();
    return true;
  }
  if (!v.is_array()) {
    *err = make_error(
        path, "must be a tree preset name (" + tree::preset_names() + ") or a list of paths");
    return false;
  }
  m->tree_preset.clear();
  Expected<ParsedChoices> parsed = parse_choices_list(v, path, ConfigLimits::kMaxTreeNodes);
  if (!parsed.ok()) {
    *err = parsed.error();
    return false;
  }
  m->choices = std::move(parsed.value().paths);
  return true;
}

// The EAGLE knobs `engine` runs by default for this target (depth 0: it states none).
EagleKnobs engine_eagle_knobs(const RuntimeProfile* engine, const ModelArch& target) {
  if (!engine) return EagleKnobs{};
  return target.kv_lora_rank > 0 ? engine->eagle_defaults_mla : engine->eagle_defaults;
}

// Host time of one retrieval lookup per cycle, by drafter. No measurement of these is in the
// reference data: order-of-magnitude assumptions, said in every result (docs/cost-model.md).
double retrieval_lookup_s(const std::string& source) {
  if (source == "rest") return 1e-3;    // datastore (suffix array) search on the CPU
  if (source == "sam") return 5e-5;     // suffix automaton: amortized O(1) per token
  if (source == "suffix") return 1e-4;  // suffix tree over prompt + past outputs
  return 5e-5;                          // token-recycling: adjacency-matrix lookup
}

// sps: a chain of k, or one of three tree forms (exactly one may be given).
bool parse_sps_tree(const json& obj, MethodConfig* m, Error* err) {
  const bool choices = obj.contains("choices");
  const bool optimal = obj.contains("tree_size") || obj.contains("depth");
  const bool sequences = obj.contains("sequences");
  if (static_cast<int>(choices) + static_cast<int>(optimal) + static_cast<int>(sequences) > 1) {
    *err = make_error("method",
                      "give one draft tree form: choices, tree_size + depth, or sequences + k");
    return false;
  }
  m->sps_tree = MethodConfig::SpsTree::chain;
  if (choices) {
    if (!parse_choices(obj["choices"], "method.choices", m, err)) return false;
    m->sps_tree = MethodConfig::SpsTree::choices;
    return true;
  }
  if (optimal) {
    if (!obj.contains("tree_size") || !obj.contains("depth")) {
      *err = make_error(
          obj.contains("tree_size") ? "method.depth" : "method.tree_size",
          "is required with " + std::string(obj.contains("tree_size") ? "tree_size" : "depth"));
      return false;
    }
    if (!fields::read_int(obj, "tree_size", "method", 1, ConfigLimits::kMaxTreeNodes, &m->tree_size,
                          err) ||
        !fields::read_int(obj, "depth", "method", 1, ConfigLimits::kMaxDepth, &m->depth, err))
      return false;
    m->sps_tree = MethodConfig::SpsTree::optimal;
    return true;  // the tree itself depends on the acceptance: resolve_sps_tree()
  }
  if (sequences) {
    if (!fields::read_int(obj, "sequences", "method", 1, 64, &m->sequences, err)) return false;
    if (m->sequences * m->k > ConfigLimits::kMaxTreeNodes) {
      *err =
          make_error("method.sequences",
                     "x k exceeds " + std::to_string(ConfigLimits::kMaxTreeNodes) + " draft nodes");
      return false;
    }
    if (m->k < 1) {
      *err = make_error("method.k", "must be at least 1 with sequences");
      return false;
    }
    // SpecInfer's independent sampled chains merged into one token tree: under the rank model
    // chain j starts at the j-th most likely first token and continues with the most likely one.
    m->choices.clear();
    for (int64_t j = 0; j < m->sequences; ++j)
      for (int64_t d = 1; d <= m->k; ++d) {
        std::vector<int> path(static_cast<std::size_t>(d), 0);
        path[0] = static_cast<int>(j);
        m->choices.push_back(path);
      }
    m->sps_tree = MethodConfig::SpsTree::sequences;
  }
  return true;
}

bool parse_draft_placement(const json& obj, const Catalog& catalog, Config* c, Error* err) {
  MethodConfig& m = c->method;
  m.draft_runtime.clear();
  m.draft_tensor_parallel_size = 1;
  m.draft_tensor_parallel_given = obj.contains("draft_tensor_parallel_size");
  if (!fields::read_string(obj, "draft_runtime", "method", &m.draft_runtime, err, 32)) return false;
  if (!m.draft_runtime.empty() && !catalog.find_runtime(m.draft_runtime)) {
    std::string known;
    for (const auto& r : catalog.runtimes) known += (known.empty() ? "" : ", ") + r.id;
    *err = make_error("method.draft_runtime", "unknown runtime profile; known: " + known);
    return false;
  }
  return fields::read_int(obj, "draft_tensor_parallel_size", "method", 1, ConfigLimits::kMaxGpus,
                          &m.draft_tensor_parallel_size, err);
}

bool parse_ar(const json& /*obj*/, const Catalog& /*catalog*/, Config* /*c*/, Error* /*err*/) {
  return true;
}

// Drafted tokens per cycle when the config gives none, under the local engines' defaults:
// llama.cpp common/common.h common_params_speculative_draft n_max = 3; mlx_lm generate.py
// --num-draft-tokens default 3. Other engines: the family's own default.
int64_t local_default_k(const std::string& engine, int64_t otherwise) {
  if (engine == "llama.cpp-metal" || engine == "llama.cpp-cuda" || engine == "llama.cpp-cpu" ||
      engine == "mlx")
    return 3;
  return otherwise;
}

bool parse_sps(const json& obj, const Catalog& catalog, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.draft = "vicuna-68m";
  m.draft_preset = true;
  m.k = local_default_k(c->engine.id, 4);
  // A draft of your own: SpecCalc's model keys or its Hugging Face config.json, as for the target.
  const auto given = obj.find("draft");
  if (given != obj.end() && given->is_object()) {
    m.draft_preset = false;
    if (!parse_model_object(*given, "method.draft", &m.draft_model, err)) return false;
    // Unnamed (a config.json without _name_or_path, keys without name), it is called what it is
    // rather than by its model_type ("qwen2") or "custom".
    if (!given->contains("name") && !given->contains("_name_or_path")) {
      const auto type = given->find("model_type");
      m.draft_model.name = type != given->end() && type->is_string()
                               ? "your draft (" + type->get<std::string>() + " config.json)"
                               : "your draft";
    }
    m.draft = m.draft_model.name;
  } else if (given != obj.end() && !given->is_string()) {
    *err = make_error("method.draft",
                      "must be a draft preset id or a model object (SpecCalc's model keys or a "
                      "Hugging Face config.json), got " +
                          fields::describe_type(*given));
    return false;
  } else if (!fields::read_string(obj, "draft", p, &m.draft, err, 64)) {
    return false;
  }
  if (!fields::read_int(obj, "k", p, 0, ConfigLimits::kMaxK, &m.k, err) ||
      !fields::read_number(obj, "draft_p_min", p, 0.0, 0.999, &m.draft_p_min, err) ||
      !fields::read_int(obj, "draft_min", p, 0, ConfigLimits::kMaxK, &m.draft_min, err))
    return false;
  if (m.draft_min > m.k) {
    *err = make_error("method.draft_min",
                      "must be at most k (" + std::to_string(m.k) +
                          "): a draft is never longer than k, so every draft would be thrown away");
    return false;
  }
  if (!m.draft_preset) return parse_sps_tree(obj, &m, err);
  // A target preset may also serve as the draft (70B targets drafted by a 7B chat model).
  const ModelArch* draft = catalog.find_draft(m.draft);
  if (!draft) draft = catalog.find_target(m.draft);
  if (!draft) {
    *err = make_error("method.draft", "unknown draft model; known drafts: " + draft_ids(catalog) +
                                          "; or a target preset: " + target_ids(catalog));
    return false;
  }
  m.draft_model = *draft;
  return parse_sps_tree(obj, &m, err);
}

bool parse_mtp(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.k = 1;  // DeepSeek-V3 ships one MTP module (config.json num_nextn_predict_layers = 1)
  return fields::read_int(obj, "k", p, 1, ConfigLimits::kMaxK, &m.k, err);
}

bool parse_layerskip(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.k = 4;
  m.exit_layer = std::max<int64_t>(1, c->target.num_layers / 4);  // LayerSkip: early exit ~E = L/4
  if (!fields::read_int(obj, "k", p, 1, ConfigLimits::kMaxK, &m.k, err) ||
      !fields::read_int(obj, "exit_layer", p, 1, 1024, &m.exit_layer, err))
    return false;
  if (m.exit_layer >= c->target.num_layers) {
    *err = make_error("method.exit_layer", "must be below the target's " +
                                               std::to_string(c->target.num_layers) + " layers");
    return false;
  }
  return true;
}

bool parse_streaming(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.k = 4;
  m.kv_budget = 512;  // MagicDec's StreamingLLM draft budget (KV window of 512 tokens)
  return fields::read_int(obj, "k", p, 1, ConfigLimits::kMaxK, &m.k, err) &&
         fields::read_int(obj, "kv_budget", p, 1, ConfigLimits::kMaxContext, &m.kv_budget, err);
}

bool parse_retrieval(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.k = 10;
  // REST's token tree by default; an engine that verifies chains only runs suffix decoding
  // (vLLM's and SGLang's retrieval drafter, a chain).
  m.source = c->engine.trees ? "rest" : "suffix";
  if (!fields::read_int(obj, "k", p, 1, ConfigLimits::kMaxTreeNodes, &m.k, err) ||
      !fields::read_string(obj, "source", p, &m.source, err, 32))
    return false;
  if (m.source != "rest" && m.source != "sam" && m.source != "suffix" &&
      m.source != "token-recycling") {
    *err = make_error("method.source", "must be one of: rest, sam, suffix, token-recycling");
    return false;
  }
  m.draft_cpu_s = retrieval_lookup_s(m.source);
  return fields::read_number(obj, "draft_cpu_s", p, 0, 1, &m.draft_cpu_s, err);
}

bool parse_pld(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.k = 10;     // PLD README: num_pred_tokens = 10
  m.ngram = 3;  // PLD README: max_ngram_size = 3
  m.draft_cpu_s = 0.0002;
  return fields::read_int(obj, "k", p, 0, ConfigLimits::kMaxK, &m.k, err) &&
         fields::read_int(obj, "ngram", p, 1, 16, &m.ngram, err) &&
         fields::read_number(obj, "draft_cpu_s", p, 0, 1, &m.draft_cpu_s, err);
}

bool parse_lookahead(const json& obj, const Catalog& /*catalog*/, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  m.window = 7;  // Spec-Bench setting W = 7, N = 5, G = 7
  m.ngram = 5;
  m.guess = 7;
  return fields::read_int(obj, "window", p, 1, 64, &m.window, err) &&
         fields::read_int(obj, "ngram", p, 2, 16, &m.ngram, err) &&
         fields::read_int(obj, "guess", p, 0, 64, &m.guess, err);
}

// Medusa, Hydra (heads + a static tree) and EAGLE-1 (a static tree).
bool parse_tree_heads(const json& obj, const Catalog& catalog, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  const bool medusa_like = m.family != Family::eagle1;
  m.heads = m.family == Family::medusa ? 5 : (m.family == Family::hydra ? 4 : 0);
  json def = medusa_like ? "medusa-mc_sim_7b_63" : "eagle1";
  const RuntimeProfile* engine = catalog.find_runtime(c->runtime.profile);
  if (engine && !engine->trees) {
    // An engine that verifies chains runs a chain: EAGLE-1 of the engine's default length,
    // Medusa one token per head (vLLM: num_speculative_tokens = heads).
    if (medusa_like && !fields::read_int(obj, "heads", p, 1, 16, &m.heads, err)) return false;
    const EagleKnobs knobs = engine_eagle_knobs(engine, c->target);
    const int64_t n = medusa_like ? m.heads : std::max<int64_t>(1, knobs.depth);
    def = json::array();
    for (int64_t d = 1; d <= n; ++d)
      def.push_back(std::vector<int>(static_cast<std::size_t>(d), 0));
  }
  if (!parse_choices(obj.contains("choices") ? obj["choices"] : def, "method.choices", &m, err))
    return false;
  if (medusa_like) {
    if (!fields::read_int(obj, "heads", p, 1, 16, &m.heads, err)) return false;
    if (!fields::read_bool(obj, "typical_acceptance", p, &m.typical_acceptance, err)) return false;
    for (std::size_t i = 0; i < m.choices.size(); ++i) {
      if (static_cast<int64_t>(m.choices[i].size()) > m.heads) {
        *err = make_error("method.choices[" + std::to_string(i) + "]",
                          "is deeper than the number of heads (" + std::to_string(m.heads) + ")");
        return false;
      }
    }
  }
  return true;
}

bool parse_eagle23(const json& obj, const Catalog& catalog, Config* c, Error* err) {
  MethodConfig& m = c->method;
  const std::string p = "method";
  const RuntimeProfile* engine = catalog.find_runtime(c->runtime.profile);
  const EagleKnobs knobs = engine_eagle_knobs(engine, c->target);
  if (knobs.depth > 0) {
    // What the chosen engine runs when its knobs are not given (runtimes.json eagle_defaults).
    m.total_token = knobs.total_token;
    m.depth = knobs.depth;
    m.top_k = knobs.top_k;
  } else {
    // The EAGLE-2/3 papers' settings (the research code's defaults).
    m.total_token = default_total_token(c->target);
    m.depth = m.family == Family::eagle2 ? 6 : 8;
    m.top_k = 10;
  }
  if (!fields::read_int(obj, "depth", p, 1, ConfigLimits::kMaxDepth, &m.depth, err) ||
      !fields::read_int(obj, "top_k", p, 1, ConfigLimits::kMaxTopK, &m.top_k, err))
    return false;
  // On an engine that verifies chains, a chain of `depth` verifies depth + 1 tokens.
  if (engine && !engine->trees && m.top_k == 1 && !obj.contains("total_token"))
    m.total_token = m.depth + 1;
  if (!fields::read_int(obj, "total_token", p, 2, ConfigLimits::kMaxTreeNodes, &m.total_token, err))
    return false;
  // The verified tree cannot hold more nodes than the draft ranked.
  const long long candidates =
      tree::eagle2_candidates(static_cast<int>(m.top_k), static_cast<int>(m.depth));
  if (m.total_token - 1 > candidates) {
    *err = make_error("method.total_token", "exceeds the " + std::to_string(candidates) +
                                                " nodes a depth-" + std::to_string(m.depth) +
                                                ", top_k-" + std::to_string(m.top_k) +
                                                " draft offers (plus the root)");
    return false;
  }
  return true;
}

// An engine's own knob, taken as a method input where that engine is chosen and mapped onto
// the family's keys. Names as each engine documents them (see engine_export.cpp).
struct EngineKnobSpec {
  const char* engine;
  const char* key;
  const char* families;  // comma-separated family ids it applies to
  const char* sets;      // what it sets, in words
};
constexpr EngineKnobSpec kEngineKnobs[] = {
    {"vllm", "num_speculative_tokens", "sps,pld,mtp,retrieval,eagle1,eagle2,eagle3,medusa",
     "k: tokens drafted per step, as a chain (EAGLE: depth = k, top_k = 1, total_token = k + 1; "
     "EAGLE-1 and Medusa: a chain of k)"},
    {"sglang", "speculative_num_steps", "eagle2,eagle3,mtp,sps",
     "depth: draft levels (MTP and STANDALONE drafts: k)"},
    {"sglang", "speculative_eagle_topk", "eagle2,eagle3", "top_k: candidates kept per level"},
    {"sglang", "speculative_num_draft_tokens", "eagle2,eagle3",
     "total_token: verified tokens, the last accepted one included"},
    {"llama.cpp-metal", "draft_max", "sps,pld", "k: the most tokens drafted per cycle"},
    {"llama.cpp-cuda", "draft_max", "sps,pld", "k: the most tokens drafted per cycle"},
    {"llama.cpp-cpu", "draft_max", "sps,pld", "k: the most tokens drafted per cycle"},
    {"mlx", "num_draft_tokens", "sps", "k: tokens drafted per cycle"},
};

bool knob_applies(const EngineKnobSpec& k, const std::string& engine, Family f) {
  if (engine != k.engine) return false;
  const std::string fams = std::string(",") + k.families + ",";
  return fams.find(std::string(",") + family_name(f) + ",") != std::string::npos;
}

json chain_choices(int64_t n) {
  json out = json::array();
  for (int64_t d = 1; d <= n; ++d) out.push_back(std::vector<int>(static_cast<std::size_t>(d), 0));
  return out;
}

// Rewrites the engine's own knob names in `obj` as the family's keys. The engine's knob wins
// over a family key it sets (so a sweep of num_speculative_tokens over a normalized config
// varies the chain).
bool translate_engine_knobs(const std::string& engine, Family f, json* obj, Error* err) {
  for (const EngineKnobSpec& k : kEngineKnobs) {
    if (!knob_applies(k, engine, f) || !obj->contains(k.key)) continue;
    const std::string path = std::string("method.") + k.key;
    int64_t v = 0;
    if (!fields::int_value((*obj)[k.key], path, 1, ConfigLimits::kMaxK, &v, err)) return false;
    json set = json::object();
    const std::string key = k.key;
    if (key == "num_speculative_tokens") {
      if (f == Family::eagle2 || f == Family::eagle3)
        set = json{{"depth", v}, {"top_k", 1}, {"total_token", v + 1}};
      else if (f == Family::eagle1)
        set = json{{"choices", chain_choices(v)}};
      else if (f == Family::medusa)
        set = json{{"choices", chain_choices(v)}, {"heads", v}};
      else
        set = json{{"k", v}};
    } else if (key == "draft_max" || key == "num_draft_tokens") {
      set = json{{"k", v}};
    } else if (key == "speculative_num_steps") {
      set = (f == Family::eagle2 || f == Family::eagle3) ? json{{"depth", v}} : json{{"k", v}};
    } else if (key == "speculative_eagle_topk") {
      set = json{{"top_k", v}};
    } else {
      set = json{{"total_token", v}};
    }
    for (auto it = set.begin(); it != set.end(); ++it) (*obj)[it.key()] = it.value();
    obj->erase(k.key);
  }
  return true;
}

using FamilyParser = bool (*)(const json& obj, const Catalog& catalog, Config* c, Error* err);

FamilyParser parser_for(Family f) {
  switch (f) {
    case Family::ar:
      return parse_ar;
    case Family::sps:
      return parse_sps;
    case Family::pld:
      return parse_pld;
    case Family::lookahead:
      return parse_lookahead;
    case Family::medusa:
    case Family::hydra:
    case Family::eagle1:
      return parse_tree_heads;
    case Family::eagle2:
    case Family::eagle3:
      return parse_eagle23;
    case Family::mtp:
      return parse_mtp;
    case Family::layerskip:
      return parse_layerskip;
    case Family::streaming:
      return parse_streaming;
    case Family::retrieval:
      return parse_retrieval;
  }
  return parse_ar;
}

// A method given as a name ("eagle2") is that family with its defaults.
bool method_object(const json& doc, json* obj, Error* err) {
  auto it = doc.find("method");
  *obj = json::object();
  if (it == doc.end()) return true;
  if (it->is_string()) {
    (*obj)["family"] = *it;
    return true;
  }
  if (it->is_object()) {
    *obj = *it;
    return true;
  }
  *err = make_error("method", "must be an object with a family, got " + fields::describe_type(*it));
  return false;
}

}  // namespace

// EAGLE-2 paper: 60/50/48 total tokens for 7-8B/13B/70B targets.
int64_t default_total_token(const ModelArch& target) {
  const int64_t params = count_params(target).total;
  if (params < 10'000'000'000) return 60;
  if (params < 40'000'000'000) return 50;
  return 48;
}

json engine_knobs_json(const std::string& engine) {
  json out = json::array();
  for (const EngineKnobSpec& k : kEngineKnobs) {
    if (engine != k.engine) continue;
    // Per family: the normalized key whose value the knob shows (`from`) and the keys it
    // stands for (`replaces`); a front end shows the knob instead of those keys. EAGLE-1 and
    // Medusa take the knob too (a chain of k) but keep their tree field.
    json fams = json::object();
    const std::string key = k.key;
    for (const FamilySpec& f : family_table()) {
      if (!knob_applies(k, engine, f.family)) continue;
      const bool eagle = f.family == Family::eagle2 || f.family == Family::eagle3;
      json m;
      if (key == "num_speculative_tokens")
        m = eagle ? json{{"from", "depth"},
                         {"replaces", {"depth", "top_k", "total_token"}},
                         {"when", {{"top_k", 1}}}}
            : f.family == Family::eagle1 || f.family == Family::medusa
                ? json(nullptr)
                : json{{"from", "k"}, {"replaces", {"k"}}};
      else if (key == "speculative_num_steps")
        m = eagle ? json{{"from", "depth"}, {"replaces", {"depth"}}}
                  : json{{"from", "k"}, {"replaces", {"k"}}};
      else if (key == "speculative_eagle_topk")
        m = json{{"from", "top_k"}, {"replaces", {"top_k"}}};
      else
        m = json{{"from", "total_token"}, {"replaces", {"total_token"}}};
      if (!m.is_null()) fams[f.id] = m;
    }
    out.push_back(json{{"key", k.key}, {"families", fams}, {"sets", k.sets}});
  }
  return out;
}

bool parse_method(const json& doc, const Catalog& catalog, Config* c, Error* err) {
  json obj;
  if (!method_object(doc, &obj, err)) return false;
  std::string family = "ar";
  if (!fields::read_string(obj, "family", "method", &family, err, 32)) return false;
  const FamilySpec* spec = find_family(family);
  if (!spec) {
    *err = make_error("method.family", "unknown family; expected one of: " + family_ids());
    return false;
  }
  c->method.family = spec->family;
  if (!translate_engine_knobs(c->runtime.profile, spec->family, &obj, err)) return false;
  // Where the draft runs: keys of every family that runs a draft network.
  json placement = json::object();
  for (const char* k : {"draft_runtime", "draft_tensor_parallel_size"}) {
    if (!obj.contains(k)) continue;
    if (!spec->draft_network) {
      *err = make_error(std::string("method.") + k,
                        "applies only to methods that run a draft network (" +
                            family_ids(/*draft_network_only=*/true) + ")");
      return false;
    }
    placement[k] = obj[k];
    obj.erase(k);
  }
  if (!parse_draft_placement(placement, catalog, c, err)) return false;
  std::vector<const char*> keys{"family"};
  for (const char* const* k = spec->params; *k; ++k) keys.push_back(*k);
  if (!fields::check_keys(obj, "method", keys, err)) return false;
  return parser_for(spec->family)(obj, catalog, c, err);
}

}  // namespace speccalc
