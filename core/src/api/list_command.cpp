// `list KIND`: the preset ids (and what they are) for front ends' pickers and --help.
#include "api/commands.hpp"
#include "api/draft_shape.hpp"
#include "config/acceptance_forms.hpp"
#include "config/config_json.hpp"
#include "config/families.hpp"
#include "config/method_parse.hpp"
#include "config/ui_examples.hpp"
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

// The block-scaled fp4 formats a GPU's tensor cores run ([] when none).
json fp4_formats(const Gpu& g) {
  json out = json::array();
  if (g.fp4_tflops > 0 && g.nvfp4) out.push_back("nvfp4");
  if (g.fp4_tflops > 0 && g.mxfp4) out.push_back("mxfp4");
  return out;
}
}  // namespace

Response list(const std::string& kind_text) {
  std::string kind = kind_text;
  while (!kind.empty() && (kind.back() == '\n' || kind.back() == ' ' || kind.back() == '\r'))
    kind.pop_back();
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  const Catalog& c = catalog.value();
  if (kind == "models") return ok_json(model_list(c.targets).dump());
  if (kind == "drafts") return ok_json(model_list(c.drafts).dump());
  if (kind == "ui") return ok_json(ui_examples_json().dump());
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
      if (!h.neighbour_of.empty()) {
        out.back()["neighbour_of"] = h.neighbour_of;
        out.back()["note"] = h.note;
      }
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
                         {"fp4_tflops", g.fp4_tflops},
                         {"fp4_formats", fp4_formats(g)},
                         {"host_link_gbps", g.host_link_gbps},
                         {"host_link", g.host_link},
                         {"custom", gpu_to_json(g)},  // the custom GPU equal to this preset
                         {"source", g.citation}});
    }
    return ok_json(out.dump());
  }
  if (kind == "runtimes") {
    json out = json::array();
    for (const auto& r : c.runtimes) {
      json params = json::object();
      for (const auto& [name, value] : shown_runtime_params(r.params)) params[name] = value;
      out.push_back(json{
          {"id", r.id},
          {"name", r.name},
          {"description", r.description},
          {"validated", r.validated},
          {"validated_by", r.validated_by},
          {"families", r.families},
          {"trees", r.trees},
          {"tensor_parallel", r.tensor_parallel},
          {"draft_tensor_parallel_default", r.draft_tp_follows_target ? json("target") : json(1)},
          {"draft_tensor_parallel_allowed", r.draft_tp_allowed},
          {"draft_tensor_parallel_source", r.draft_tp_source},
          {"knobs", engine_knobs_json(r.id)},
          {"eagle_defaults", r.eagle_defaults.depth > 0
                                 ? json{{"depth", r.eagle_defaults.depth},
                                        {"top_k", r.eagle_defaults.top_k},
                                        {"total_token", r.eagle_defaults.total_token},
                                        {"source", r.eagle_defaults_source}}
                                 : json(nullptr)},
          {"fitted_on", r.fitted_on},
          {"weight_dtypes", engine_weight_dtypes(r.weight_formats)},
          {"kv_dtypes", engine_kv_dtypes(r.weight_formats)},
          {"vendors", r.vendors},
          {"single_device", r.single_device},
          {"data_expert_parallel", r.data_expert_parallel},
          {"partial_offload", r.partial_offload},
          {"draft_model_trees", r.draft_model_trees},
          {"draft_vocab_max_difference", r.draft_vocab_max_difference},
          {"default_hardware", r.default_hardware},
          {"calibrates_from",
           calibration_paste_key(r) ? json(calibration_paste_key(r)) : json(nullptr)},
          {"params", params}});
    }
    return ok_json(out.dump());
  }
  if (kind == "methods") {
    // The family table (config/families.hpp): what each family is, its keys, whether it runs a
    // draft network, and the size parameter (with its grid) the page's sweep chart varies.
    json out = json::array();
    for (const FamilySpec& f : family_table()) {
      std::string params;
      for (const char* const* k = f.params; *k; ++k)
        params += (params.empty() ? "" : ", ") + std::string(*k);
      // Labels for people: the family's, and each key's a normalized method object may hold
      // (its own keys and, for draft networks, where the draft runs).
      json labels = json::object();
      for (const char* const* k = f.params; *k; ++k) labels[*k] = param_label(f.family, *k);
      if (f.draft_network)
        for (const char* k : {"draft_runtime", "draft_tensor_parallel_size"})
          labels[k] = param_label(f.family, k);
      json item{{"id", f.id},
                {"label", family_label(f.family)},
                {"short_label", family_short_label(f.family)},
                {"param_labels", labels},
                {"params", params},
                {"summary", f.summary},
                {"draft_network", f.draft_network},
                {"static_tree", f.static_tree},
                // Whether an acceptance applies: plain decoding verifies nothing (the page
                // hides its acceptance fields there).
                {"speculates", f.family != Family::ar}};
      if (f.sweep_param) {
        json values = json::array();
        for (int v : f.sweep_values)
          if (v > 0) values.push_back(v);
        item["sweep"] = {{"param", f.sweep_param}, {"values", values}};
      }
      // A draft model's shapes, for the form's "Draft shape" (engines with draft_model_trees).
      if (f.family == Family::sps) {
        item["shapes"] = draft_shapes();
        item["param_labels"]["shape"] = "Draft shape";
      }
      if (f.family == Family::eagle2 || f.family == Family::eagle3) {
        // On an engine that verifies chains the size is the chain's length, in the engine's
        // own knob (vLLM num_speculative_tokens = depth; top_k 1, total_token = k + 1).
        json values = json::array();
        for (int v : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12}) values.push_back(v);
        item["sweep_by_engine"] = {
            {"vllm",
             {{"param", "num_speculative_tokens"}, {"current", "depth"}, {"values", values}}}};
      }
      out.push_back(item);
    }
    return ok_json(out.dump());
  }
  return fail(make_error(
      "kind",
      "unknown list; expected one of: models, drafts, heads, hardware, methods, runtimes, "
      "acceptance, ui"));
}

}  // namespace speccalc::commands
