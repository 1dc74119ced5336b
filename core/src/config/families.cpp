#include "config/families.hpp"

namespace speccalc {

namespace {

// Sweep grids: k for chains (SpS, PLD: 1..12 covers every published optimum), total_token for
// EAGLE-2/3 (their papers use 48-60; up to 128 shows where verify cost turns it down), the
// lookahead window (Spec-Bench uses W = 7).
constexpr FamilySpec kFamilies[] = {
    {Family::ar,
     "ar",
     {nullptr},
     "plain autoregressive decoding: one target pass per token",
     false,
     false,
     nullptr,
     {0}},
    {Family::sps,
     "sps",
     {"draft", "k", "choices", "tree_size", "depth", "sequences", "draft_p_min", "draft_min",
      nullptr},
     "speculative sampling with a separate small draft model: a chain of k (draft passes, "
     "verify k + 1) or a draft tree (choices, an optimal tree of tree_size nodes, or SpecInfer "
     "sequences)",
     true,
     false,
     "k",
     {1, 2, 3, 4, 5, 6, 7, 8, 10, 12}},
    {Family::pld,
     "pld",
     {"k", "ngram", "draft_cpu_s", nullptr},
     "prompt lookup decoding: n-gram match on the CPU, verify k + 1",
     false,
     false,
     "k",
     {1, 2, 3, 4, 5, 6, 7, 8, 10, 12}},
    {Family::lookahead,
     "lookahead",
     {"window", "ngram", "guess", nullptr},
     "lookahead decoding: one pass over the window and guessed n-grams",
     false,
     false,
     "window",
     {1, 2, 3, 4, 5, 7, 10, 15, 0}},
    {Family::medusa,
     "medusa",
     {"heads", "choices", "typical_acceptance", nullptr},
     "Medusa heads inside the verify pass, static tree",
     false,
     true,
     nullptr,
     {0}},
    {Family::hydra,
     "hydra",
     {"heads", "choices", "typical_acceptance", nullptr},
     "Hydra++: prefix layer and sequentially dependent heads, static tree",
     true,
     true,
     nullptr,
     {0}},
    {Family::eagle1,
     "eagle1",
     {"choices", nullptr},
     "EAGLE: one-layer feature-level draft head, static tree",
     true,
     true,
     nullptr,
     {0}},
    {Family::eagle2,
     "eagle2",
     {"total_token", "depth", "top_k", nullptr},
     "EAGLE-2: EAGLE head with a dynamic, re-ranked tree",
     true,
     true,
     "total_token",
     {8, 16, 24, 32, 48, 60, 80, 96, 128, 0}},
    {Family::eagle3,
     "eagle3",
     {"total_token", "depth", "top_k", nullptr},
     "EAGLE-3: fused low/mid/high features, own reduced-vocabulary LM head",
     true,
     true,
     "total_token",
     {8, 16, 24, 32, 48, 60, 80, 96, 128, 0}},
    {Family::mtp,
     "mtp",
     {"k", nullptr},
     "multi-token prediction modules shipped with the model (DeepSeek-V3, GLM-4.5, MiMo): k "
     "module passes, verify k + 1",
     true,
     false,
     "k",
     {1, 2, 3, 4, 5, 6, 0}},
    {Family::layerskip,
     "layerskip",
     {"exit_layer", "k", nullptr},
     "self-speculation: the target's first exit_layer layers + LM head draft k tokens, no "
     "extra weights",
     false,
     false,
     "k",
     {1, 2, 3, 4, 5, 6, 7, 8, 10, 12}},
    {Family::streaming,
     "streaming",
     {"k", "kv_budget", nullptr},
     "long-context self-speculation: the target drafts with a KV window of kv_budget tokens "
     "(MagicDec, TriForce), verify reads the full KV",
     false,
     false,
     "k",
     {1, 2, 3, 4, 5, 6, 7, 8, 10, 12}},
    {Family::retrieval,
     "retrieval",
     {"k", "source", "draft_cpu_s", nullptr},
     "retrieval drafters (REST, SAM, suffix decoding, Token Recycling): a CPU lookup proposes "
     "k tokens, verify the candidates",
     false,
     false,
     "k",
     {1, 2, 4, 6, 8, 10, 12, 16, 24, 32}},
};

}  // namespace

FamilyTable family_table() { return {kFamilies, sizeof kFamilies / sizeof kFamilies[0]}; }

const FamilySpec* find_family(const std::string& id) {
  for (const FamilySpec& f : kFamilies)
    if (id == f.id) return &f;
  return nullptr;
}

const FamilySpec& family_spec(Family f) {
  for (const FamilySpec& s : kFamilies)
    if (s.family == f) return s;
  return kFamilies[0];  // unreachable: every Family has a row (families_test checks)
}

namespace {
// Each family's names for people: in full (the form's picker, Compare) and short (a chart axis).
struct FamilyNames {
  Family family;
  const char* label;
  const char* short_label;
};
constexpr FamilyNames kNames[] = {
    {Family::ar, "Plain decoding (no speculation)", "Plain"},
    {Family::sps, "Draft model (SpS)", "SpS"},
    {Family::pld, "Prompt lookup (PLD)", "PLD"},
    {Family::lookahead, "Lookahead decoding", "Lookahead"},
    {Family::medusa, "Medusa heads", "Medusa"},
    {Family::hydra, "Hydra heads", "Hydra"},
    {Family::eagle1, "EAGLE-1", "EAGLE-1"},
    {Family::eagle2, "EAGLE-2", "EAGLE-2"},
    {Family::eagle3, "EAGLE-3", "EAGLE-3"},
    {Family::mtp, "MTP modules", "MTP"},
    {Family::layerskip, "LayerSkip (self-speculation)", "LayerSkip"},
    {Family::streaming, "Long-context self-speculation", "Streaming"},
    {Family::retrieval, "Retrieval drafter", "Retrieval"},
};
const FamilyNames& names_of(Family f) {
  for (const FamilyNames& n : kNames)
    if (n.family == f) return n;
  return kNames[0];  // unreachable: every Family has a row (families_test checks)
}
}  // namespace

const char* family_label(Family f) { return names_of(f).label; }
const char* family_short_label(Family f) { return names_of(f).short_label; }

namespace {
// Labels by key, with a family-specific one first where the same key means something else
// ("ngram" in prompt lookup vs lookahead).
struct ParamLabel {
  const char* key;
  Family family;  // Family::ar: any family
  const char* label;
};
constexpr ParamLabel kParamLabels[] = {
    {"k", Family::ar,
     "k — drafted tokens per cycle (vLLM num_speculative_tokens, llama.cpp --spec-draft-n-max)"},
    {"draft", Family::ar, "Draft model"},
    {"draft_runtime", Family::ar, "Engine the draft runs under"},
    {"draft_tensor_parallel_size", Family::ar, "GPUs the draft runs on (draft tensor parallel)"},
    {"ngram", Family::pld, "n-gram length matched in the prompt"},
    {"draft_cpu_s", Family::ar, "Host time per lookup, s"},
    {"window", Family::lookahead, "W — lookahead window"},
    {"ngram", Family::lookahead, "N — n-gram size"},
    {"guess", Family::lookahead, "G — verification guesses per step"},
    {"heads", Family::ar, "Heads"},
    {"choices", Family::ar, "Tree: a preset name or a JSON list of paths"},
    {"typical_acceptance", Family::ar, "Typical acceptance (Medusa)"},
    {"total_token", Family::ar, "total_token — draft tree nodes verified per cycle"},
    {"depth", Family::ar, "depth — draft tree depth"},
    {"top_k", Family::ar, "top_k — children expanded per node"},
    {"tree_size", Family::ar, "Optimal tree of this many nodes"},
    {"sequences", Family::ar, "SpecInfer sequences"},
    {"draft_p_min", Family::sps,
     "Stop drafting below this draft probability (llama.cpp --draft-p-min; 0: always k)"},
    {"draft_min", Family::sps, "Throw away drafts shorter than (llama.cpp --draft-min)"},
    {"exit_layer", Family::ar, "Exit layer — layers the draft runs"},
    {"kv_budget", Family::ar, "KV window of the draft, tokens"},
    {"source", Family::retrieval, "Retrieval source"},
};
}  // namespace

std::string param_label(Family f, const std::string& key) {
  const char* any = nullptr;
  for (const ParamLabel& p : kParamLabels) {
    if (key != p.key) continue;
    if (p.family == f) return p.label;
    if (p.family == Family::ar && !any) any = p.label;
  }
  return any ? any : key;
}

std::string family_ids(bool draft_network_only) {
  std::string out;
  for (const FamilySpec& f : kFamilies) {
    if (draft_network_only && !f.draft_network) continue;
    out += (out.empty() ? "" : ", ") + std::string(f.id);
  }
  return out;
}

}  // namespace speccalc
