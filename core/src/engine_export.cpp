#include "engine_export.hpp"

#include <algorithm>

#include "acceptance_tau.hpp"
#include "commands.hpp"
#include "speccalc/sizing.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

int64_t tree_depth(const Choices& choices) {
  std::size_t d = 0;
  for (const auto& c : choices) d = std::max(d, c.size());
  return static_cast<int64_t>(d);
}

int64_t max_rank_plus_one(const Choices& choices) {
  int r = 0;
  for (const auto& c : choices)
    for (int x : c) r = std::max(r, x + 1);
  return r;
}

}  // namespace

json engine_settings(const Config& c, const Choices& choices, const json& schedule) {
  const MethodConfig& m = c.method;
  json out = json::object();
  json notes = json::array();
  const json choices_json = choices;
  switch (m.family) {
    case Family::ar:
      notes.push_back("plain decoding: no speculative settings");
      break;
    case Family::mtp:
    case Family::layerskip:
    case Family::streaming:
    case Family::retrieval:
      notes.push_back(std::string(family_name(m.family)) + ": no engine settings are exported yet");
      break;
    case Family::sps:
      out["vllm"] = json{{"--speculative-config",
                          json{{"method", "draft_model"}, {"model", m.draft}, {"num_speculative_tokens", m.k}}.dump()}};
      out["sglang"] = json{{"--speculative-algorithm", "STANDALONE"},
                           {"--speculative-draft-model-path", m.draft},
                           {"--speculative-num-steps", m.k},
                           {"--speculative-eagle-topk", 1},
                           {"--speculative-num-draft-tokens", m.k + 1}};
      out["tensorrt_llm"] = json{{"max_draft_len", m.k}};
      out["hf_transformers"] = json{{"assistant_model", m.draft}, {"num_assistant_tokens", m.k}};
      break;
    case Family::pld:
      out["vllm"] = json{{"--speculative-config", json{{"method", "ngram"},
                                                       {"num_speculative_tokens", m.k},
                                                       {"prompt_lookup_max", m.ngram},
                                                       {"prompt_lookup_min", 1}}.dump()}};
      out["hf_transformers"] = json{{"prompt_lookup_num_tokens", m.k}, {"max_matching_ngram_size", m.ngram}};
      out["tensorrt_llm"] = json{{"max_draft_len", m.k}, {"max_matching_ngram_size", m.ngram}};
      break;
    case Family::lookahead:
      out["lookahead_decoding"] = json{{"LEVEL", m.ngram}, {"WINDOW_SIZE", m.window}, {"GUESS_SET_SIZE", m.guess}};
      out["tensorrt_llm"] = json{{"lookahead_config", json::array({m.window, m.ngram, m.guess})},
                                 {"note", "[W, N, G] as in LookaheadDecodingConfig(max_window_size, max_ngram_size, max_verification_set_size)"}};
      break;
    case Family::medusa:
    case Family::hydra:
      out[m.family == Family::medusa ? "medusa" : "hydra"] =
          json{{m.family == Family::medusa ? "medusa_choices" : "hydra_choices", choices_json},
               {"num_heads", m.heads}};
      if (m.family == Family::medusa) {
        out["tensorrt_llm"] = json{{"medusa_choices", choices_json},
                                   {"max_draft_len", static_cast<int64_t>(choices.size())}};
        out["vllm"] = json{{"--speculative-config",
                            json{{"method", "medusa"}, {"num_speculative_tokens", m.heads}}.dump()},
                           {"note", "vLLM's Medusa drafts a chain (top-1 per head), not this tree"}};
      }
      break;
    case Family::eagle1:
    case Family::eagle2:
    case Family::eagle3: {
      const bool eagle3 = m.family == Family::eagle3;
      const int64_t depth = m.family == Family::eagle1 ? tree_depth(choices) : m.depth;
      const int64_t top_k = m.family == Family::eagle1 ? max_rank_plus_one(choices) : m.top_k;
      const int64_t total = m.family == Family::eagle1 ? static_cast<int64_t>(choices.size()) + 1 : m.total_token;
      if (m.family == Family::eagle1) {
        out["eagle"] = json{{"tree_choices", choices_json}};
      } else {
        // EAGLE's --depth counts expansion steps after the first draft forward: levels - 1.
        out["eagle"] = json{{"total_token", total}, {"depth", depth - 1}, {"top_k", top_k},
                            {"use_eagle3", eagle3}};
      }
      out["sglang"] = json{{"--speculative-algorithm", eagle3 ? "EAGLE3" : "EAGLE"},
                           {"--speculative-num-steps", depth},
                           {"--speculative-eagle-topk", top_k},
                           {"--speculative-num-draft-tokens", total}};
      out["vllm"] = json{{"--speculative-config",
                          json{{"method", eagle3 ? "eagle3" : "eagle"}, {"num_speculative_tokens", depth}}.dump()},
                         {"note", "vLLM's EAGLE drafts a chain of num_speculative_tokens; the tree's width is not used"}};
      json trt = json{{"max_draft_len", total - 1}};
      if (!choices.empty()) trt["eagle_choices"] = choices_json;
      out["tensorrt_llm"] = trt;
      break;
    }
  }
  if (!schedule.is_null()) {
    if (!out.contains("tensorrt_llm")) out["tensorrt_llm"] = json::object();
    out["tensorrt_llm"]["draft_len_schedule"] = schedule;
  }
  notes.push_back("SGLang's --speculative-num-draft-tokens and EAGLE's total_token count the verified tokens including the last accepted one (draft nodes + 1)");
  out["notes"] = notes;
  return out;
}

namespace commands {

Response export_engines(const std::string& input) {
  auto catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  auto config = parse_config_text(input, catalog.value());
  if (!config.ok()) return fail(config.error());
  const Config& c = config.value();
  Choices choices;
  if (family_uses_tree(c.method.family)) {
    auto tau = expected_tau(c);  // EAGLE-2/3 trees are generated from the acceptance
    if (!tau.ok()) return fail(tau.error());
    choices = tau.value().tree.choices();
  }
  return ok_json(engine_settings(c, choices, nullptr).dump());
}

}  // namespace commands
}  // namespace speccalc
