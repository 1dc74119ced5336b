#include "engines/engine_export.hpp"
#include "model/method_cost.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

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

bool is_llama_cpp(const std::string& engine) {
  return engine == "llama.cpp-metal" || engine == "llama.cpp-cuda" || engine == "llama.cpp-cpu";
}

// The last path component of a repository id ("Qwen/Qwen3-8B" -> "Qwen3-8B").
std::string repo_name(const std::string& repo) {
  const std::size_t slash = repo.rfind('/');
  return slash == std::string::npos ? repo : repo.substr(slash + 1);
}

// GGUF file-type name as llama.cpp's quantize tool and GGUF repositories spell it (Q4_K_M,
// IQ4_XS; 16-bit files are F16 / BF16).
std::string gguf_type_name(DType d) {
  std::string s = dtype_name(d);
  if (d == DType::fp16) s = "f16";
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// llama.cpp --cache-type-k/-v value for a KV dtype ("" = its default f16).
std::string llama_cache_type(DType d) {
  switch (d) {
    case DType::bf16:
      return "bf16";
    case DType::q8_0:
      return "q8_0";
    case DType::q4_0:
      return "q4_0";
    default:
      return "";
  }
}

// mlx_lm.convert --q-bits for an MLX weight type (0: not quantized).
int mlx_bits(DType d) {
  switch (d) {
    case DType::mlx_4bit:
      return 4;
    case DType::mlx_6bit:
      return 6;
    case DType::mlx_8bit:
      return 8;
    default:
      return 0;
  }
}

// The local engines (llama.cpp, LM Studio, Ollama, mlx_lm), each flag checked against:
//   llama-server  ggml-org/llama.cpp common/arg.cpp (commit 145b6280): --model (-m),
//     --model-draft (-md), --n-gpu-layers (-ngl), --n-gpu-layers-draft (-ngld),
//     --flash-attn (-fa) [on|off|auto], --draft-p-min, --cache-type-k (-ctk), --cache-type-v
//     (-ctv), --cache-type-k-draft (-ctkd), --cache-type-v-draft (-ctvd) with allowed values
//     f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (tools/server/README.md),
//     --split-mode {none,layer,row}, --hf-repo (-hf) <user>/<model>[:quant] and
//     --hf-repo-draft (-hfd) named in the notes. Each of these is still accepted, as an
//     alias, by builds after the speculative-parameter rename (docs/speculative.md as of
//     PR #22964: "--spec-draft-model, -md, --model-draft", "--spec-draft-p-min,
//     --draft-p-min", "--spec-draft-ngl, -ngld, ... --n-gpu-layers-draft", "--spec-draft-type-k,
//     -ctkd, --cache-type-k-draft").
//     Renamed, old names removed: ggml-org/llama.cpp PR #22397 (merged 2026-04-27) replaced
//     --draft-max (--draft, --draft-n) by --spec-draft-n-max, --draft-min by
//     --spec-draft-n-min and --spec-ngram-size-n/-m by --spec-ngram-simple-size-n/-m (the
//     ngram-simple type's lookup n-gram and draft m-gram); PR #22964 (2026-05-12) named the
//     draft-model types draft-simple, draft-mtp, draft-eagle3 (--spec-type). Current builds
//     stop on the old names, so the export writes the new ones and a note gives the old.
//     A quantized V cache needs flash attention: llama_init_from_model fails with "V cache
//     quantization requires flash_attn" (src/llama-context.cpp).
//   LM Studio  REST request field "draft_model" (lmstudio-ai/docs 0_app/0_root/
//     api-changelog.md, LM Studio 0.3.10); SDK prediction config draftModel,
//     speculativeDecodingNumDraftTokensExact, speculativeDecodingMinDraftLengthToConsider,
//     speculativeDecodingMinContinueDraftingProbability (lmstudio-ai/lmstudio-js
//     packages/lms-shared-types/src/llm/LLMPredictionConfig.ts; marked experimental, @alpha).
//   Ollama   no speculative setting: docs/modelfile.mdx lists no draft PARAMETER; the request
//     for llama.cpp's --model-draft (ollama/ollama issue #5800) is open, PR #8134 closed.
//   mlx_lm   mlx_lm.generate and mlx_lm.server --model, --draft-model, --num-draft-tokens
//     (ml-explore/mlx-lm mlx_lm/generate.py, mlx_lm/server.py; request fields draft_model,
//     num_draft_tokens in mlx_lm/SERVER.md); mlx_lm.convert --hf-path, -q, --q-bits,
//     --mlx-path (mlx_lm/convert.py).
json local_engine_settings(const Config& c, const EngineRepos& repo) {
  const MethodConfig& m = c.method;
  json out = json::object();
  json notes = json::array();
  const bool llama = is_llama_cpp(c.engine.id);
  const bool sps = m.family == Family::sps;
  const DType w = c.dtype.weights;
  if (m.family == Family::ar) {
    notes.push_back("plain decoding: no speculative settings");
  } else if (llama) {
    const std::string quant = gguf_type_name(w);
    const std::string target_file = "PATH/TO/" + repo_name(repo.target) + "-" + quant + ".gguf";
    // Every layer on the GPU: 99 exceeds the presets' layer counts (+1: the output layer);
    // a partial offload writes the config's --n-gpu-layers as priced; the CPU engine none.
    const bool cpu = c.engine.id == "llama.cpp-cpu";
    const bool partial = layer_split(c).cpu_layers > 0;
    const int64_t ngl = cpu       ? 0
                        : partial ? c.gpu_layers
                                  : std::max<int64_t>(99, c.target.num_layers + 1);
    json f = json{{"--model", target_file}, {"--n-gpu-layers", ngl}, {"--flash-attn", "on"}};
    if (c.gpus > 1) f["--split-mode"] = "layer";
    const std::string cache = llama_cache_type(c.dtype.kv);
    if (!cache.empty()) {
      f["--cache-type-k"] = cache;
      f["--cache-type-v"] = cache;
    }
    std::string files = repo.target;
    if (sps) {
      const std::string draft_file = "PATH/TO/" + repo_name(repo.draft) + "-" + quant + ".gguf";
      f["--spec-type"] = "draft-simple";
      f["--model-draft"] = draft_file;
      f["--spec-draft-n-max"] = m.k;
      f["--spec-draft-n-min"] = m.draft_min;
      f["--n-gpu-layers-draft"] = cpu ? 0 : std::max<int64_t>(99, m.draft_model.num_layers + 1);
      f["--draft-p-min"] = m.draft_p_min;
      if (!cache.empty()) {
        f["--cache-type-k-draft"] = cache;
        f["--cache-type-v-draft"] = cache;
      }
      files += " and " + repo.draft;
    } else {
      // Prompt lookup: llama-server's draftless n-gram drafter, no draft model.
      f["--spec-type"] = "ngram-simple";
      f["--spec-ngram-simple-size-n"] = m.ngram;
      f["--spec-ngram-simple-size-m"] = m.k;
      notes.push_back(
          "n-gram drafting: ngram-simple matches the last --spec-ngram-simple-size-n tokens "
          "exactly (this estimate's ngram is the longest n-gram tried) and drafts the "
          "--spec-ngram-simple-size-m tokens that followed. Builds from before llama.cpp PR "
          "#22397 (April 2026) spell these --spec-ngram-size-n and --spec-ngram-size-m; "
          "builds older still have no --spec-type and run prompt lookup only in the "
          "llama-lookup example: check llama-server --help");
    }
    out["llama_server"] = f;
    const bool f16 = w == DType::fp16 || w == DType::bf16;
    notes.push_back("GGUF files: " + files + " converted at " + quant +
                    (f16 ? std::string(" (convert_hf_to_gguf.py --outtype ") +
                               (w == DType::bf16 ? "bf16" : "f16") + ")"
                         : std::string(" (convert_hf_to_gguf.py, then llama-quantize)")) +
                    ", or a published GGUF conversion "
                    "downloaded with --hf-repo <user>/<repo>:" +
                    quant +
                    (sps ? " and --hf-repo-draft in place of --model and --model-draft"
                         : " in place of --model") +
                    "; SpecCalc names no GGUF repository it has not checked");
    notes.push_back(
        "--n-gpu-layers " + std::to_string(ngl) +
        (cpu       ? " (and --n-gpu-layers-draft 0) keeps every layer on the CPU, as priced (a "
                     "GPU build of llama.cpp would otherwise offload them)"
         : partial ? " leaves the first " + std::to_string(layer_split(c).cpu_layers) +
                         " layers on the CPU, as priced (offload.gpu_layers; the count includes "
                         "the output layer)"
         : c.engine.partial_offload
             ? " keeps every layer on the GPU, as priced; offload.gpu_layers prices a "
               "lower value (layers on the CPU)"
             : " keeps every layer on the GPU, as priced (on a Mac the GPU shares the "
               "CPU's memory: a lower value gains nothing)") +
        ". Short forms: -m, -md, -ngl, -ngld, -fa, -ctk, -ctv");
    notes.push_back(
        sps ? std::string(m.draft_p_min > 0 || m.draft_min > 0
                              ? "--draft-p-min and --spec-draft-n-min as priced (the "
                                "estimate's draft_length: the expected length). "
                              : "--spec-draft-n-min and --draft-p-min are written out at 0: "
                                "every cycle drafts the full --spec-draft-n-max, as priced "
                                "(older builds defaulted to a nonzero draft-p-min; "
                                "method.draft_p_min prices one). ") +
                  "Builds from before llama.cpp PR #22397 (April 2026) spell --spec-draft-n-max "
                  "and --spec-draft-n-min as --draft-max and --draft-min and have no draft-simple "
                  "type (leave out --spec-type: a draft model alone turns drafting on); current "
                  "builds stop on the old names"
            : "no draft length limit is written: ngram-simple drafts "
              "--spec-ngram-simple-size-m tokens whenever its lookup matches, as priced");
    if (!cache.empty())
      notes.push_back("a quantized V cache (--cache-type-v " + cache +
                      ") needs --flash-attn on: without it llama.cpp refuses to create the "
                      "context (\"V cache quantization requires flash_attn\")");
    if (c.offload_target)
      notes.push_back(
          "offloading was priced as weights streamed over the host link each pass; llama.cpp "
          "does not stream weights, it runs the layers --n-gpu-layers leaves out on the CPU");
  } else {
    // mlx_lm: draft model only (the mlx profile runs ar and sps).
    const int bits = mlx_bits(w);
    std::string target = repo.target, draft = repo.draft;
    if (bits) {
      const std::string suffix = "-" + std::to_string(bits) + "bit";
      target = "PATH/TO/" + repo_name(repo.target) + suffix;
      draft = "PATH/TO/" + repo_name(repo.draft) + suffix;
      notes.push_back("MLX weights at " + std::to_string(bits) +
                      " bits: mlx_lm.convert --hf-path " + repo.target + " -q --q-bits " +
                      std::to_string(bits) + " --mlx-path " + target + ", and the same for " +
                      repo.draft + " into " + draft +
                      " (or a published MLX conversion; SpecCalc names none it has not "
                      "checked)");
    } else {
      notes.push_back("mlx_lm loads " + repo.target + " and " + repo.draft +
                      " as released (the checkpoints' own 16-bit dtype)");
    }
    out["mlx_lm"] =
        json{{"--model", target}, {"--draft-model", draft}, {"--num-draft-tokens", m.k}};
    notes.push_back(
        "mlx_lm.generate and mlx_lm.server take the same three flags; a server request may "
        "override them with draft_model and num_draft_tokens. mlx_lm drafts exactly "
        "--num-draft-tokens each cycle (no early stop)");
    if (c.batch > 1)
      notes.push_back("priced at batch " + std::to_string(c.batch) +
                      ", but mlx_lm.server does not batch requests while a draft model is "
                      "loaded (server.py: is_batchable = draft_model is None)");
  }
  if (sps) {
    // LM Studio runs both llama.cpp (GGUF) and MLX models, drafting with a draft model only.
    out["lm_studio"] = json{{"model", "TARGET-MODEL-KEY"}, {"draft_model", "DRAFT-MODEL-KEY"}};
    json sdk =
        json{{"draftModel", "DRAFT-MODEL-KEY"}, {"speculativeDecodingNumDraftTokensExact", m.k}};
    if (llama) {
      sdk["speculativeDecodingMinDraftLengthToConsider"] = m.draft_min;
      sdk["speculativeDecodingMinContinueDraftingProbability"] = m.draft_p_min;
    }
    out["lm_studio_sdk"] = sdk;
    notes.push_back(
        "LM Studio: draft_model in a chat completion request's body (LM Studio 0.3.10 API "
        "changelog) or the chat sidebar's Draft Model turns speculative decoding on; "
        "TARGET-MODEL-KEY and DRAFT-MODEL-KEY are LM Studio's model keys (lms ls) for " +
        repo.target + " and " + repo.draft +
        ". For the draft length LM Studio documents only the SDK's prediction config "
        "(lmstudio-js / lmstudio-python; lm_studio_sdk above), whose speculativeDecoding* "
        "fields it marks experimental");
  } else if (m.family == Family::pld) {
    notes.push_back(
        "LM Studio documents speculative decoding with a draft model only: no n-gram "
        "drafting, so nothing is exported for it");
  }
  if (m.family != Family::ar)
    notes.push_back(
        "Ollama documents no speculative decoding (no draft model or draft length among its "
        "Modelfile parameters; ollama/ollama issue #5800 asking for llama.cpp's draft model is "
        "open), so nothing is exported for it: use llama-server or LM Studio");
  for (const std::string& n : repo.missing) notes.push_back(n);
  out["notes"] = notes;
  return out;
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
namespace {

// Which block runs the engine the config prices, and the order to show the blocks in: that
// block first, the others by name. A new user pricing vLLM read SGLang's and TensorRT-LLM's
// flags before vLLM's (the blocks came in key order). The research-code profile (hf-eager) is
// each family's reference code: EAGLE's, Medusa's, Hydra's, lookahead's, or transformers'
// generate() for drafts, prompt lookup and LayerSkip. The compiled profile (a generic
// graph-captured stack) names no engine.
void add_order(const Config& c, json* out) {
  const std::string& id = c.engine.id;
  std::vector<std::string> candidates;
  if (id == "vllm" || id == "sglang") candidates = {id};
  if (id == "tensorrt-llm") candidates = {"tensorrt_llm"};
  if (is_llama_cpp(id)) candidates = {"llama_server"};
  if (id == "mlx") candidates = {"mlx_lm"};
  if (id == "hf-eager")
    candidates = {"eagle", "medusa", "hydra", "lookahead_decoding", "hf_transformers"};
  std::string priced;
  for (const std::string& k : candidates)
    if (out->contains(k) && (*out)[k].is_object()) {
      priced = k;
      break;
    }
  json order = json::array();
  if (!priced.empty()) order.push_back(priced);
  for (auto it = out->begin(); it != out->end(); ++it)
    if (it.value().is_object() && it.key() != priced) order.push_back(it.key());
  (*out)["order"] = order;
  (*out)["priced"] = priced;
}

}  // namespace

// A draft model's token tree (method.choices, or the tree tree_size + depth and SpecInfer's
// sequences resolve to). SGLang's STANDALONE drafter builds EAGLE's top-k tree from the
// draft's probabilities: its sizes are written (levels, widest rank + 1, nodes + 1), not this
// static tree. vLLM's draft_model and TensorRT-LLM's DraftTarget draft chains and transformers'
// assisted generation a chain too: written as a chain of the tree's levels, each block saying
// so. The tree itself runs in Sequoia's research code (its growmap file holds the tree).
template <typename Vllm, typename Sglang>
void sps_tree_settings(const Config& c, const EngineRepos& repo, const Vllm& vllm,
                       const Sglang& sglang, json* out, json* notes) {
  const Choices& choices = c.method.choices;
  const int64_t levels = tree_depth(choices);
  const int64_t nodes = static_cast<int64_t>(choices.size());
  const std::string chain_note = "drafts a chain of " + std::to_string(levels) +
                                 " (the tree's levels), not this " + std::to_string(nodes) +
                                 "-node tree";
  json v = vllm(
      json{{"method", "draft_model"}, {"model", repo.draft}, {"num_speculative_tokens", levels}});
  v["note"] = "vLLM's draft_model " + chain_note;
  (*out)["vllm"] = v;
  (*out)["sglang"] = sglang(json{{"--speculative-algorithm", "STANDALONE"},
                                 {"--speculative-draft-model-path", repo.draft},
                                 {"--speculative-num-steps", levels},
                                 {"--speculative-eagle-topk", max_rank_plus_one(choices)},
                                 {"--speculative-num-draft-tokens", nodes + 1}});
  (*out)["tensorrt_llm"] = json{{"decoding_type", "DraftTarget"},
                                {"speculative_model", repo.draft},
                                {"max_draft_len", levels},
                                {"note", "TensorRT-LLM's DraftTarget " + chain_note}};
  notes->push_back(
      "this draft-model token tree runs as priced in Sequoia's research code "
      "(Infini-AI-Lab/Sequoia tests/testbed.py, the tree given as a growmap file; SpecCalc "
      "writes none); SGLang's STANDALONE drafter builds a top-k tree of the sizes above from "
      "the draft's probabilities; vLLM and TensorRT-LLM draft chains, and so does transformers' "
      "assisted generation (no block for it)");
}

json engine_settings(const Config& c, const Choices& choices, const json& schedule) {
  const MethodConfig& m = c.method;
  const EngineRepos repo = engine_repos(c);
  if (is_llama_cpp(c.engine.id) || c.engine.id == "mlx") {
    json local = local_engine_settings(c, repo);
    add_order(c, &local);
    return local;
  }
  json out = json::object();
  json notes = json::array();
  const json choices_json = choices;
  const int64_t tp = c.gpus;
  // The draft's tensor parallelism as priced (the engine's default or the given value),
  // written explicitly wherever the engine has a setting for it.
  const bool drafts = family_has_draft_passes(m.family);
  const int64_t draft_tp = c.engine.tensor_parallel ? m.draft_tensor_parallel_size : 1;
  // Data-parallel attention and expert parallelism as each engine spells them (runtimes.json
  // `parallelism.source`): vLLM counts -tp per data-parallel rank (gpus = tp x dp), SGLang's
  // --tp-size counts all the GPUs and --dp-size the attention groups inside them. A switch
  // (store_true flag) is written with the value true.
  const int64_t groups = c.data_attention;
  auto vllm = [&](json spec) {
    // vLLM: speculative_config.draft_tensor_parallel_size (vllm/config/speculative.py).
    // Under data parallelism vLLM's draft runs inside each rank: its TP is per rank.
    if (drafts) spec["draft_tensor_parallel_size"] = draft_tp / groups;
    json f = json{{"--model", repo.target}, {"--tensor-parallel-size", tp / groups}};
    if (groups > 1) f["--data-parallel-size"] = groups;
    if (c.expert_parallel) f["--enable-expert-parallel"] = true;
    // An fp8 KV cache as priced: vLLM's --kv-cache-dtype takes auto, fp8, fp8_e4m3, fp8_e5m2
    // (vllm/config.py CacheDType); "auto" (the default) keeps the model's dtype.
    if (c.dtype.kv == DType::fp8) f["--kv-cache-dtype"] = "fp8";
    // The memory fraction priced, where it is not vLLM's default (0.9, the config's too).
    if (c.memory_utilization != kDefaultMemoryUtilization)
      f["--gpu-memory-utilization"] = c.memory_utilization;
    f["--speculative-config"] = spec.dump();
    return f;
  };
  auto sglang = [&](json flags) {
    json f = json{{"--model-path", repo.target}, {"--tp-size", tp}};
    if (groups > 1) {
      f["--dp-size"] = groups;
      f["--enable-dp-attention"] = true;
    }
    if (c.expert_parallel) f["--ep-size"] = tp;
    // SGLang's --kv-cache-dtype takes auto, fp8_e5m2, fp8_e4m3 (python/sglang/srt/server_args.py).
    if (c.dtype.kv == DType::fp8) f["--kv-cache-dtype"] = "fp8_e4m3";
    // A memory fraction the user set: SGLang's nearest setting (its default depends on the GPU).
    if (c.memory_utilization != kDefaultMemoryUtilization)
      f["--mem-fraction-static"] = c.memory_utilization;
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
      if (m.sps_tree != MethodConfig::SpsTree::chain && !m.choices.empty()) {
        sps_tree_settings(c, repo, vllm, sglang, &out, &notes);
        break;
      }
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
    if ((m.family == Family::sps && !m.sps_token_tree()) || m.family == Family::pld) {
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
  if (c.dtype.kv == DType::int8 && (out.contains("vllm") || out.contains("sglang")))
    notes.push_back(
        "KV cache: vLLM and SGLang have no int8 KV cache (their --kv-cache-dtype takes auto or "
        "an fp8 type); the blocks above run it at the model's dtype, a larger cache than priced");
  if (drafts && (out.contains("sglang") || out.contains("tensorrt_llm"))) {
    // SGLang and TensorRT-LLM have no separate draft TP: their drafts run at the target's.
    notes.push_back(
        "draft placement: priced at draft tensor parallelism " + std::to_string(draft_tp) +
        (groups > 1
             ? "; vLLM's draft_tensor_parallel_size above says it per data-parallel rank (" +
                   std::to_string(draft_tp / groups) + " x " + std::to_string(groups) + " ranks)"
             : std::string("; vLLM's draft_tensor_parallel_size above says it")) +
        ". SGLang (--tp-size) and TensorRT-LLM "
        "(tensor_parallel_size) run the draft at the target's " +
        std::to_string(tp) + " with no separate setting" +
        (draft_tp == tp ? ", the same placement"
                        : ": their blocks run a different placement from the one priced"));
  }
  if ((groups > 1 || c.expert_parallel) && out.contains("tensorrt_llm"))
    notes.push_back(
        "TensorRT-LLM parallelism (LLM API options beside speculative_config): "
        "tensor_parallel_size " +
        std::to_string(tp) +
        (c.expert_parallel ? ", moe_expert_parallel_size " + std::to_string(tp) : std::string()) +
        (groups == tp ? ", enable_attention_dp true"
         : groups > 1 ? "; its enable_attention_dp makes one attention group per GPU, not the " +
                            std::to_string(groups) + " groups priced here"
                      : std::string()));
  for (const std::string& n : repo.missing) notes.push_back(n);
  // Only where an SGLang or EAGLE block is given; suffix decoding's
  // --speculative-num-draft-tokens is a maximum of drafts, not this count.
  if ((out.contains("sglang") || out.contains("eagle")) && m.family != Family::retrieval)
    notes.push_back(
        "SGLang's --speculative-num-draft-tokens and EAGLE's total_token count the verified "
        "tokens including the last accepted one (draft nodes + 1)");
  // The walk read EAGLE's depth 3 beside SGLang's --speculative-num-steps 4 as a mismatch.
  if (out.contains("eagle") && out["eagle"].contains("depth"))
    notes.push_back(
        "EAGLE's depth counts the expansion steps after the first draft level (its "
        "topK_genrate): " +
        std::to_string(out["eagle"]["depth"].get<int64_t>()) + " here is " +
        std::to_string(out["eagle"]["depth"].get<int64_t>() + 1) +
        " draft levels, the same tree as the other engines' settings");
  out["notes"] = notes;
  add_order(c, &out);
  return out;
}

namespace commands {

Response export_engines(const std::string& input) {
  const auto& catalog = load_catalog();
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
