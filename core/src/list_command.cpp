// `list KIND`: the preset ids (and what they are) for front ends' pickers and --help.
#include "acceptance_forms.hpp"
#include "commands.hpp"
#include "speccalc/config.hpp"
#include "speccalc/presets.hpp"

namespace speccalc::commands {

using nlohmann::json;

namespace {
json model_list(const std::vector<ModelArch>& models) {
  json out = json::array();
  for (const auto& m : models) {
    json entry = model_to_json(m);  // the keys a custom target takes
    // The same keys again as one object: the custom target that equals this preset, so a
    // front end's editor starts from it without a key list of its own.
    entry["custom"] = model_to_json(m);
    entry["id"] = m.id;
    entry["params"] = count_params(m).total;
    entry["repo_id"] = m.repo_id;
    entry["source"] = m.citation;
    out.push_back(entry);
  }
  return out;
}
}  // namespace

Response list(const std::string& kind_text) {
  std::string kind = kind_text;
  while (!kind.empty() && (kind.back() == '\n' || kind.back() == ' ' || kind.back() == '\r'))
    kind.pop_back();
  auto catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  const Catalog& c = catalog.value();
  if (kind == "models") return ok_json(model_list(c.targets).dump());
  if (kind == "drafts") return ok_json(model_list(c.drafts).dump());
  if (kind == "acceptance") {
    auto forms = acceptance_forms_json();
    if (!forms.ok()) return fail(forms.error());
    return ok_json(forms.value().dump());
  }
  if (kind == "heads") {
    json out = json::array();
    for (const auto& h : c.heads) {
      out.push_back(json{{"family", h.family},
                         {"target", h.target},
                         {"repo_id", h.repo_id},
                         {"official", h.official},
                         {"source", h.citation}});
    }
    return ok_json(out.dump());
  }
  if (kind == "hardware") {
    json out = json::array();
    for (const auto& g : c.gpus) {
      out.push_back(json{{"id", g.id},
                         {"name", g.name},
                         {"fp16_tflops", g.fp16_tflops},
                         {"fp8_tflops", g.fp8_tflops},
                         {"mem_gb", g.mem_gb},
                         {"mem_bw_gbps", g.mem_bw_gbps},
                         {"interconnect_gbps", g.interconnect_gbps},
                         {"custom", gpu_to_json(g)},  // the custom GPU equal to this preset
                         {"source", g.citation}});
    }
    return ok_json(out.dump());
  }
  if (kind == "runtimes") {
    json out = json::array();
    for (const auto& r : c.runtimes) {
      json params = json::object();
      for (const char* const* n = runtime_param_names(); *n; ++n) {
        RuntimeParams p = r.params;
        params[*n] = *runtime_param(p, *n);
      }
      out.push_back(json{{"id", r.id},
                         {"name", r.name},
                         {"description", r.description},
                         {"validated", r.validated},
                         {"validated_by", r.validated_by},
                         {"families", r.families},
                         {"trees", r.trees},
                         {"tensor_parallel", r.tensor_parallel},
                         {"fitted_on", r.fitted_on},
                         {"params", params}});
    }
    return ok_json(out.dump());
  }
  if (kind == "methods") {
    json out = json::array();
    const struct {
      const char* id;
      const char* params;
      const char* summary;
    } kMethods[] = {
        {"ar", "", "plain autoregressive decoding: one target pass per token"},
        {"sps", "draft, k",
         "speculative sampling with a separate small draft model: k draft passes, verify k + 1"},
        {"pld", "k, ngram, draft_cpu_s",
         "prompt lookup decoding: n-gram match on the CPU, verify k + 1"},
        {"lookahead", "window, ngram, guess",
         "lookahead decoding: one pass over the window and guessed n-grams"},
        {"medusa", "heads, choices, typical_acceptance",
         "Medusa heads inside the verify pass, static tree"},
        {"hydra", "heads, choices",
         "Hydra++: prefix layer and sequentially dependent heads, static tree"},
        {"eagle1", "choices", "EAGLE: one-layer feature-level draft head, static tree"},
        {"eagle2", "total_token, depth, top_k",
         "EAGLE-2: EAGLE head with a dynamic, re-ranked tree"},
        {"eagle3", "total_token, depth, top_k",
         "EAGLE-3: fused low/mid/high features, own reduced-vocabulary LM head"},
    };
    for (const auto& m : kMethods)
      out.push_back(json{{"id", m.id}, {"params", m.params}, {"summary", m.summary}});
    return ok_json(out.dump());
  }
  return fail(make_error(
      "kind",
      "unknown list; expected one of: models, drafts, heads, hardware, methods, runtimes, "
      "acceptance"));
}

}  // namespace speccalc::commands
