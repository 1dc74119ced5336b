#include "engines/engine_export.hpp"

#include <algorithm>

#include "api/commands.hpp"
#include "config/acceptance_tau.hpp"
#include "data/engine_repos.hpp"

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

// Flag and key names, as each engine documents them:
//   vLLM    `vllm serve` engine args --model, --tensor-parallel-size, --speculative-config with
//           method / model / num_speculative_tokens / prompt_lookup_max / prompt_lookup_min
//           (docs.vllm.ai features/spec_decode and speculative_decoding/eagle).
//   SGLang  --model-path, --tp-size, --speculative-algorithm (EAGLE, EAGLE3, STANDALONE),
//           --speculative-draft-model-path, --speculative-num-steps ("depth of autoregressive
//           drafting": draft levels), --speculative-eagle-topk, --speculative-num-draft-tokens
//           (docs.sglang.io advanced_features/speculative_decoding).
//   TensorRT-LLM  LLM API speculative_config: decoding_type (DraftTarget, NGram, Lookahead,
//           Medusa, Eagle, Eagle3), speculative_model, max_draft_len (draft levels),
//           max_total_draft_tokens (tree nodes), eagle_choices, draft_len_schedule
//           {batch: draft length}, max_matching_ngram_size, max_window_size, max_ngram_size,
//           max_verification_set_size, medusa_choices, num_medusa_heads
//           (nvidia.github.io/TensorRT-LLM llm-api reference, EagleDecodingConfig et al.).
//   EAGLE   EaModel.from_pretrained(base_model_path, ea_model_path, total_token, depth, top_k,
//           use_eagle3); its `depth` counts expansion steps after the first draft level, so
//           it is the tree's levels - 1 (SafeAILab/EAGLE eagle/model/cnets.py topK_genrate).
//   transformers generate(assistant_model, num_assistant_tokens, num_assistant_tokens_schedule,
//           prompt_lookup_num_tokens, max_matching_ngram_size) (GenerationConfig docs).
// The families of issue 11, each flag set with the page that documents it:
//   MTP     vLLM {"method": "mtp", "num_speculative_tokens": k}
//             https://docs.vllm.ai/en/v0.19.1/features/speculative_decoding/mtp/ (older releases
//             and vllm-ascend name the DeepSeek/GLM variant "deepseek_mtp").
//           SGLang --speculative-algorithm EAGLE --speculative-num-steps k
//             --speculative-eagle-topk 1 --speculative-num-draft-tokens k+1, no draft path for a
//             checkpoint that carries its MTP layers ("Multi Token Prediction",
//             https://docs.sglang.io/docs/advanced_features/speculative_decoding).
//           TensorRT-LLM MTPDecodingConfig: decoding_type "MTP", num_nextn_predict_layers
//             https://nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/MTPDecodingConfig.html
//   retrieval, source suffix
//           vLLM {"method": "suffix", "num_speculative_tokens": k} (k is the maximum; suffix
//             decoding speculates an adaptive number) https://docs.vllm.ai/en/latest/features/
//             speculative_decoding/suffix/ (vllm-project/vllm docs/features/speculative_decoding/
//             suffix.md).
//           SGLang --speculative-algorithm SUFFIX --speculative-num-draft-tokens k ("max
//             speculative tokens per step") sgl-project/sglang docs/advanced_features/
//             suffix_decoding.md.
//   layerskip  transformers generate(assistant_early_exit=exit_layer, num_assistant_tokens=k)
//             ("Self-speculative decoding", https://huggingface.co/blog/layerskip and
//             https://huggingface.co/docs/transformers/generation_strategies); it needs a
//             checkpoint trained with LayerSkip's early-exit recipe (facebook/layerskip-*).
//   Not exported, with the reason in the notes: LayerSkip in vLLM, SGLang and TensorRT-LLM
//   (none documents early-exit self-speculation), streaming self-speculation (MagicDec /
//   TriForce research code only), retrieval from REST, SAM or Token Recycling (their authors'
//   research code; no engine documents them).
json engine_settings(const Config& c, const Choices& choices, const json& schedule) {
  const MethodConfig& m = c.method;
  const EngineRepos repo = engine_repos(c);
  json out = json::object();
  json notes = json::array();
  const json choices_json = choices;
  const int64_t tp = c.gpus;
  // The draft's tensor parallelism as priced (the engine's default or the given value),
  // written explicitly wherever the engine has a setting for it.
  const bool drafts = family_has_draft_passes(m.family);
  const int64_t draft_tp = c.engine.tensor_parallel ? m.draft_tensor_parallel_size : 1;
  auto vllm = [&](json spec) {
    // vLLM: speculative_config.draft_tensor_parallel_size (vllm/config/speculative.py).
    if (drafts) spec["draft_tensor_parallel_size"] = draft_tp;
    return json{{"--model", repo.target},
                {"--tensor-parallel-size", tp},
                {"--speculative-config", spec.dump()}};
  };
  auto sglang = [&](json flags) {
    json f = json{{"--model-path", repo.target}, {"--tp-size", tp}};
    for (auto it = flags.begin(); it != flags.end(); ++it) f[it.key()] = it.value();
    return f;
  };
  switch (m.family) {
    case Family::ar:
      notes.push_back("plain decoding: no speculative settings");
      break;
    case Family::mtp:
      out["vllm"] = vllm(json{{"method", "mtp"}, {"num_speculative_tokens", m.k}});
      out["sglang"] = sglang(json{{"--speculative-algorithm", "EAGLE"},
                                  {"--speculative-num-steps", m.k},
                                  {"--speculative-eagle-topk", 1},
                                  {"--speculative-num-draft-tokens", m.k + 1}});
      out["tensorrt_llm"] = json{{"decoding_type", "MTP"}, {"num_nextn_predict_layers", m.k}};
      notes.push_back(
          "MTP drafts with the checkpoint's own MTP layers: no draft model path. vLLM releases "
          "before the generic \"mtp\" method name the DeepSeek/GLM variant \"deepseek_mtp\"; "
          "SGLang runs MTP through its EAGLE worker (DeepSeek's guide also shows NEXTN)");
      break;
    case Family::layerskip:
      out["hf_transformers"] = json{{"model", repo.target},
                                    {"assistant_early_exit", m.exit_layer},
                                    {"num_assistant_tokens", m.k},
                                    {"num_assistant_tokens_schedule", "constant"}};
      notes.push_back(
          "LayerSkip self-speculation runs in Hugging Face transformers (assistant_early_exit) "
          "and needs a checkpoint trained with LayerSkip's early-exit recipe "
          "(facebook/layerskip-*): an ordinary model's early layers draft poorly. vLLM, SGLang "
          "and TensorRT-LLM document no early-exit self-speculation, so none is exported for "
          "them");
      break;
    case Family::streaming:
      notes.push_back(
          "no engine runs streaming self-speculation (the target drafting over a StreamingLLM "
          "KV window, as MagicDec and TriForce do): vLLM, SGLang and TensorRT-LLM document no "
          "such method, so nothing is exported; it runs in those papers' research code");
      break;
    case Family::retrieval:
      if (m.source == "suffix") {
        out["vllm"] = vllm(json{{"method", "suffix"}, {"num_speculative_tokens", m.k}});
        out["sglang"] = sglang(
            json{{"--speculative-algorithm", "SUFFIX"}, {"--speculative-num-draft-tokens", m.k}});
        notes.push_back(
            "suffix decoding speculates an adaptive number of tokens up to k (vLLM's "
            "num_speculative_tokens, SGLang's --speculative-num-draft-tokens); both use Arctic "
            "Inference (pip install arctic-inference) where they run it on the CPU");
      } else {
        notes.push_back(
            "no serving engine documents " + m.source +
            " retrieval drafting: it runs in its authors' research code, so nothing is "
            "exported. The nearest method engines run is prompt lookup (family pld: vLLM "
            "\"ngram\", TensorRT-LLM NGram), which drafts from the prompt instead of a datastore");
      }
      break;
    case Family::sps:
      out["vllm"] = vllm(
          json{{"method", "draft_model"}, {"model", repo.draft}, {"num_speculative_tokens", m.k}});
      out["sglang"] = sglang(json{{"--speculative-algorithm", "STANDALONE"},
                                  {"--speculative-draft-model-path", repo.draft},
                                  {"--speculative-num-steps", m.k},
                                  {"--speculative-eagle-topk", 1},
                                  {"--speculative-num-draft-tokens", m.k + 1}});
      out["tensorrt_llm"] = json{{"decoding_type", "DraftTarget"},
                                 {"speculative_model", repo.draft},
                                 {"max_draft_len", m.k}};
      // "constant": transformers' default heuristic schedule would change k every step.
      out["hf_transformers"] = json{{"model", repo.target},
                                    {"assistant_model", repo.draft},
                                    {"num_assistant_tokens", m.k},
                                    {"num_assistant_tokens_schedule", "constant"}};
      break;
    case Family::pld:
      out["vllm"] = vllm(json{{"method", "ngram"},
                              {"num_speculative_tokens", m.k},
                              {"prompt_lookup_max", m.ngram},
                              {"prompt_lookup_min", 1}});
      out["hf_transformers"] = json{{"model", repo.target},
                                    {"prompt_lookup_num_tokens", m.k},
                                    {"max_matching_ngram_size", m.ngram}};
      out["tensorrt_llm"] = json{
          {"decoding_type", "NGram"}, {"max_draft_len", m.k}, {"max_matching_ngram_size", m.ngram}};
      break;
    case Family::lookahead:
      out["lookahead_decoding"] = json{{"model", repo.target},
                                       {"LEVEL", m.ngram},
                                       {"WINDOW_SIZE", m.window},
                                       {"GUESS_SET_SIZE", m.guess}};
      out["tensorrt_llm"] = json{{"decoding_type", "Lookahead"},
                                 {"max_window_size", m.window},
                                 {"max_ngram_size", m.ngram},
                                 {"max_verification_set_size", m.guess}};
      break;
    case Family::medusa:
    case Family::hydra: {
      const bool medusa = m.family == Family::medusa;
      out[medusa ? "medusa" : "hydra"] =
          json{{"heads_repo", repo.draft},
               {medusa ? "medusa_choices" : "hydra_choices", choices_json},
               {"num_heads", m.heads}};
      if (medusa) {
        out["tensorrt_llm"] = json{{"decoding_type", "Medusa"},
                                   {"speculative_model", repo.draft},
                                   {"num_medusa_heads", m.heads},
                                   {"medusa_choices", choices_json},
                                   {"max_draft_len", static_cast<int64_t>(choices.size())}};
        json v = vllm(
            json{{"method", "medusa"}, {"model", repo.draft}, {"num_speculative_tokens", m.heads}});
        v["note"] = "vLLM's Medusa drafts a chain (top-1 per head), not this tree";
        out["vllm"] = v;
      }
      break;
    }
    case Family::eagle1:
    case Family::eagle2:
    case Family::eagle3: {
      const bool eagle3 = m.family == Family::eagle3;
      // One depth convention: the config's depth and the tree's are draft levels.
      const int64_t levels = m.family == Family::eagle1 ? tree_depth(choices) : m.depth;
      const int64_t top_k = m.family == Family::eagle1 ? max_rank_plus_one(choices) : m.top_k;
      const int64_t total =
          m.family == Family::eagle1 ? static_cast<int64_t>(choices.size()) + 1 : m.total_token;
      if (m.family == Family::eagle1) {
        out["eagle"] = json{{"base_model_path", repo.target},
                            {"ea_model_path", repo.draft},
                            {"tree_choices", choices_json}};
      } else {
        out["eagle"] = json{{"base_model_path", repo.target},
                            {"ea_model_path", repo.draft},
                            {"total_token", total},
                            {"depth", levels - 1},
                            {"top_k", top_k},
                            {"use_eagle3", eagle3}};
      }
      out["sglang"] = sglang(json{{"--speculative-algorithm", eagle3 ? "EAGLE3" : "EAGLE"},
                                  {"--speculative-draft-model-path", repo.draft},
                                  {"--speculative-num-steps", levels},
                                  {"--speculative-eagle-topk", top_k},
                                  {"--speculative-num-draft-tokens", total}});
      json v = vllm(json{{"method", eagle3 ? "eagle3" : "eagle"},
                         {"model", repo.draft},
                         {"num_speculative_tokens", levels}});
      v["note"] =
          "vLLM's EAGLE drafts a chain of num_speculative_tokens; the tree's width is not used";
      out["vllm"] = v;
      json trt = json{{"decoding_type", eagle3 ? "Eagle3" : "Eagle"},
                      {"speculative_model", repo.draft},
                      {"max_draft_len", levels},
                      {"max_total_draft_tokens", total - 1}};
      if (!choices.empty()) trt["eagle_choices"] = choices_json;
      out["tensorrt_llm"] = trt;
      break;
    }
  }
  if (schedule.is_array() && out.contains("tensorrt_llm")) {
    if (m.family == Family::sps || m.family == Family::pld) {
      // {batch: draft length}; max_draft_len must cover every scheduled length.
      json by_batch = json::object();
      int64_t longest = out["tensorrt_llm"]["max_draft_len"].get<int64_t>();
      for (const json& row : schedule) {
        by_batch[std::to_string(row[0].get<int64_t>())] = row[1];
        longest = std::max(longest, row[1].get<int64_t>());
      }
      out["tensorrt_llm"]["draft_len_schedule"] = by_batch;
      out["tensorrt_llm"]["max_draft_len"] = longest;
    } else {
      notes.push_back(
          "TensorRT-LLM's draft_len_schedule adjusts linear drafting only; this tree's size by "
          "batch is the schedule above");
    }
  }
  if (drafts && (out.contains("sglang") || out.contains("tensorrt_llm"))) {
    // SGLang and TensorRT-LLM have no separate draft TP: their drafts run at the target's.
    notes.push_back(
        "draft placement: priced at draft tensor parallelism " + std::to_string(draft_tp) +
        "; vLLM's draft_tensor_parallel_size above says it. SGLang (--tp-size) and TensorRT-LLM "
        "(tensor_parallel_size) run the draft at the target's " +
        std::to_string(tp) + " with no separate setting" +
        (draft_tp == tp ? ", the same placement"
                        : ": their blocks run a different placement from the one priced"));
  }
  for (const std::string& n : repo.missing) notes.push_back(n);
  // Only where an SGLang or EAGLE block is given; suffix decoding's
  // --speculative-num-draft-tokens is a maximum of drafts, not this count.
  if ((out.contains("sglang") || out.contains("eagle")) && m.family != Family::retrieval)
    notes.push_back(
        "SGLang's --speculative-num-draft-tokens and EAGLE's total_token count the verified "
        "tokens including the last accepted one (draft nodes + 1)");
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
