// `carry`: an edit of the setup (target, engine, family, GPU count...) carried to a config that
// runs. The form sends the config as edited, the field it changed and the config before the
// edit; the core returns a valid normalized config and, in words, every other field it changed:
//   - method knobs that were the old engine's / model's defaults follow the new ones;
//   - a draft model that does not share the new target's tokenizer is replaced by the
//     smallest preset that does (drafts first, then smaller targets);
//   - a family the engine does not run, or that has nothing to draft with for this model (no
//     MTP module, no published EAGLE head, no draft with its tokenizer), becomes the first of
//     EAGLE-3, EAGLE-2, MTP, a draft model, prompt lookup that has;
//   - knobs the engine cannot run (a tree on a chain-only engine, a draft TP it does not
//     accept) go back to the engine's defaults; an acceptance the new draft cannot reach goes
//     back to the published default;
//   - a draft model's shape chosen (changed = "method.shape", the method's `shape`: chain,
//     tree, sequences or choices) becomes that tree form, sized from the one before
//     (api/draft_shape.hpp).
// What cannot be repaired (a GPU count that does not divide the heads) is returned as the
// error, naming its field.
#include <algorithm>
#include <string>
#include <vector>

#include "api/commands.hpp"
#include "api/draft_shape.hpp"
#include "config/config_json.hpp"
#include "config/json_fields.hpp"

namespace speccalc::commands {

using fields::json;

namespace {

// The config `doc` normalizes to, or null when it does not parse.
json normalized(const json& doc, const Catalog& catalog) {
  auto c = parse_config(doc, catalog);
  return c.ok() ? config_to_json(c.value()) : json(nullptr);
}

// The smallest preset that shares the target's vocabulary (within the engine's margin on padded
// sizes, runtimes.json draft_vocab_max_difference) and is smaller than it: a draft preset first,
// a smaller target preset otherwise; "" when none.
std::string compatible_draft(const Catalog& catalog, const Config& c) {
  const ModelArch& target = c.target;
  const auto shares = [&](const ModelArch& m) { return shares_tokenizer(m, target, c.engine); };
  const ModelArch* best = nullptr;
  for (const auto& d : catalog.drafts)
    if (shares(d) && (!best || count_params(d).total < count_params(*best).total)) best = &d;
  if (best) return best->id;
  const int64_t size = count_params(target).total;
  for (const auto& t : catalog.targets) {
    const int64_t p = count_params(t).total;
    if (shares(t) && t.id != target.id && p * 4 <= size && (!best || p < count_params(*best).total))
      best = &t;
  }
  return best ? best->id : "";
}

// Whether `family` has something to draft with for this target (an MTP module, a published
// head, a draft with its tokenizer); custom targets are given the benefit of the doubt.
bool has_drafter(const Catalog& catalog, const Config& c, const std::string& family) {
  if (family == "mtp") return c.target.mtp_modules > 0;
  if (!c.target_preset) return true;
  if (family == "eagle3") return catalog.find_head("eagle3", c.target.id) != nullptr;
  if (family == "eagle1" || family == "eagle2")
    return catalog.find_head("eagle", c.target.id) != nullptr;
  if (family == "medusa" || family == "hydra")
    return catalog.find_head(family, c.target.id) != nullptr;
  if (family == "sps") return !compatible_draft(catalog, c).empty();
  return true;
}

// The method object reduced to its family (and a draft model, which carry keeps when it fits).
json family_only(const json& method) {
  json out = json{{"family", method.value("family", "ar")}};
  if (method.contains("draft")) out["draft"] = method["draft"];
  return out;
}

}  // namespace

// The runtime profile a config names (string or {profile}), or nullptr.
const RuntimeProfile* named_runtime(const Catalog& cat, const json& doc) {
  const json r = doc.value("runtime", json("a100-80gb-sxm"));
  if (r.is_string()) return cat.find_runtime(r.get<std::string>());
  if (r.is_object() && r.contains("profile") && r["profile"].is_string())
    return cat.find_runtime(r["profile"].get<std::string>());
  return nullptr;
}

bool runs_on(const RuntimeProfile& r, const std::string& vendor) {
  return std::find(r.vendors.begin(), r.vendors.end(), vendor) != r.vendors.end();
}

// The setup fields an engine or GPU change can leave incompatible (the engine's vendors, its
// device count, its weight formats) follow the change; each move is said in `notes`.
bool carry_setup(const Catalog& cat, const std::string& changed, const Error& err, json* doc,
                 std::vector<std::string>* notes) {
  const std::string& f = err.field;
  const RuntimeProfile* engine = named_runtime(cat, *doc);
  if (!engine) return false;
  if (f == "runtime" && changed == "runtime" && !engine->default_hardware.empty() &&
      doc->value("hardware", json()) != json(engine->default_hardware)) {
    notes->push_back("hardware: " + engine->default_hardware + " (" + err.message + ")");
    (*doc)["hardware"] = engine->default_hardware;
    return true;
  }
  if (f == "runtime" && changed == "hardware") {
    // The new device's vendor: a preset's, or a custom object's (NVIDIA when it names none, as
    // the parser reads it).
    const json hw = doc->value("hardware", json());
    std::string vendor;
    if (hw.is_string()) {
      const Gpu* g = cat.find_gpu(hw.get<std::string>());
      if (!g) return false;
      vendor = g->vendor;
    } else if (hw.is_object()) {
      const auto v = hw.find("vendor");
      vendor = v != hw.end() && v->is_string() ? v->get<std::string>() : "NVIDIA";
    } else {
      return false;
    }
    const RuntimeProfile* next = nullptr;
    for (int pass = 0; pass < 2 && !next; ++pass)
      for (const RuntimeProfile& r : cat.runtimes)
        if (runs_on(r, vendor) && (pass == 1 || r.weight_formats == engine->weight_formats)) {
          next = &r;
          break;
        }
    if (!next) return false;
    notes->push_back("runtime: " + next->id + " (" + err.message + ")");
    (*doc)["runtime"] = next->id;
    return true;
  }
  if (f.rfind("parallelism", 0) == 0 && doc->contains("parallelism")) {
    // Data-parallel attention or expert parallelism the new setup cannot run (a dense target,
    // an engine without it, a GPU count it does not divide): plain tensor parallelism.
    notes->push_back("parallelism: plain tensor parallelism (" + f + ": " + err.message + ")");
    doc->erase("parallelism");
    return true;
  }
  if (f.rfind("offload.", 0) == 0 && doc->contains("offload") && (*doc)["offload"].is_object() &&
      (*doc)["offload"].contains("gpu_layers")) {
    // Layers on the CPU the new engine does not run (or a target whose layers the count no
    // longer describes): every layer on the GPU.
    notes->push_back("offload: every layer on the GPU (" + f + ": " + err.message + ")");
    doc->erase("offload");
    return true;
  }
  if (f == "hardware.interconnect_gbps" && (changed == "hardware" || changed == "runtime") &&
      doc->value("hardware", json()).is_string() && doc->value("gpus", json(1)) != json(1)) {
    // A device preset with no GPU-to-GPU link (an Apple chip, a CPU) runs on one: checked
    // before the engine's vendor, so a move from 2 x H100 under vLLM to a Mac stopped here.
    notes->push_back("gpus: 1 (" + (*doc)["hardware"].get<std::string>() +
                     " has no GPU-to-GPU link; tensor parallelism needs one)");
    (*doc)["gpus"] = 1;
    return true;
  }
  if (f == "gpus" && engine->single_device && doc->value("gpus", json(1)) != json(1)) {
    notes->push_back("gpus: 1 (" + err.message + ")");
    (*doc)["gpus"] = 1;
    return true;
  }
  if ((f == "dtype.weights" || f == "dtype.kv") && doc->contains("dtype")) {
    const std::string w = dtype_name(engine_default_weights(engine->weight_formats));
    // The KV cache goes back to fp16 too: say so where it was something else (the walk: a
    // q8_0 cache turned fp16 on a move to MLX, unsaid).
    const json& old = (*doc)["dtype"];
    const std::string old_kv = old.is_string() ? old.get<std::string>()
                               : old.is_object() && old.contains("kv") && old["kv"].is_string()
                                   ? old["kv"].get<std::string>()
                                   : std::string("fp16");
    notes->push_back(
        "dtype: " + w + " weights" +
        (old_kv != "fp16" ? ", fp16 KV cache (was " + old_kv.substr(0, 16) + ")" : std::string()) +
        " (" + err.message + ")");
    (*doc)["dtype"] = json{{"weights", w}, {"kv", "fp16"}};
    return true;
  }
  return false;
}

Response carry(const std::string& input) {
  auto parsed = fields::parse_document(input, "the carry request", 24);
  if (!parsed.ok()) return fail(parsed.error());
  const json& req = parsed.value();
  Error err;
  if (!req.is_object()) return fail(make_error("", "the carry request must be a JSON object"));
  if (!fields::check_keys(req, "", {"config", "changed", "previous"}, &err)) return fail(err);
  if (!req.contains("config") || !req["config"].is_object())
    return fail(make_error("config", "is required: the config as edited (a JSON object)"));
  std::string changed;
  if (!fields::read_string(req, "changed", "", &changed, &err, 64)) return fail(err);
  const auto& catalog = load_catalog();
  if (!catalog.ok()) return fail(catalog.error());
  const Catalog& cat = catalog.value();
  json doc = req["config"];
  const json prev =
      req.contains("previous") && req["previous"].is_object() ? req["previous"] : json(nullptr);
  std::vector<std::string> notes;
  // The form's "Draft shape": the tree form the draft model's method takes, sized from the last.
  if (changed == "method.shape" && !reshape_draft(&doc, prev, cat, &notes, &err)) return fail(err);
  const bool setup_edit =
      changed == "target" || changed == "runtime" || changed == "hardware" || changed == "gpus";

  // Fields that held the previous setup's defaults follow the new setup's defaults.
  if (setup_edit && prev.is_object() && doc.contains("method") && doc["method"].is_object()) {
    json prev_defaults_doc = prev;
    prev_defaults_doc.erase("dtype");
    prev_defaults_doc["method"] = family_only(prev.value("method", json::object()));
    const json prev_defaults = normalized(prev_defaults_doc, cat);
    const json prev_norm = normalized(prev, cat);
    if (prev_defaults.is_object() && prev_norm.is_object()) {
      if (prev_norm["dtype"] == prev_defaults["dtype"] && doc.contains("dtype") &&
          doc["dtype"] == prev_norm["dtype"])
        doc.erase("dtype");  // the new target opens in its own released dtype
      // The edited method read under the previous setup (a form may show it under the
      // engine's own knob names): still the previous defaults?
      json probe = prev;
      probe["method"] = doc["method"];
      const json as_before = normalized(probe, cat);
      if (prev_norm["method"] == prev_defaults["method"] && as_before.is_object() &&
          as_before["method"] == prev_norm["method"])
        doc["method"] = family_only(doc["method"]);
    }
  }

  // A calibrated runtime (the profile with fitted efficiencies or a measured decode step) was
  // measured on the previous machine: on another one it would price that machine's timings, so
  // the runtime goes back to its profile, said so (the walk: a Mac's calibration stayed in force
  // after switching to another chip).
  if (changed == "hardware" && doc.contains("runtime") && doc["runtime"].is_object() &&
      doc["runtime"].contains("profile") && doc["runtime"]["profile"].is_string() &&
      doc["runtime"].size() > 1) {
    std::string keys;
    for (const auto& [k, v] : doc["runtime"].items())
      if (k != "profile") keys += (keys.empty() ? "" : ", ") + k;
    const std::string profile = doc["runtime"]["profile"].get<std::string>();
    notes.push_back("runtime: " + profile + "'s own profile (your calibration, " + keys +
                    ", was measured on the previous hardware; calibrate again on this one)");
    doc["runtime"] = profile;
  }

  for (int round = 0; round < 8; ++round) {
    auto c = parse_config(doc, cat);
    if (c.ok()) {
      // Valid, but with nothing to draft with for this model: the family changes too.
      const Config& cfg = c.value();
      const std::string fam = family_name(cfg.method.family);
      if (changed == "target" && !has_drafter(cat, cfg, fam)) {
        err = make_error("method.family", "has no published drafter for " + cfg.target.id);
      } else {
        const json out_config = config_to_json(cfg);
        if (prev.is_object() && doc.contains("dtype") == false && prev.contains("dtype") &&
            out_config["dtype"] != prev["dtype"])
          notes.push_back("dtype: " + out_config["dtype"]["weights"].get<std::string>() +
                          " weights, as " + cfg.target.id + " is released" +
                          (cfg.target.released_dtype_source.empty()
                               ? ""
                               : " (" + cfg.target.released_dtype_source + ")"));
        return ok_json(json{{"config", out_config}, {"notes", notes}}.dump());
      }
    } else {
      err = c.error();
    }
    const std::string& f = err.field;
    json& method = doc["method"];
    if (!method.is_object()) method = json{{"family", method.is_string() ? method : json("ar")}};
    const std::string family = method.value("family", "ar");
    if (f == "method.draft" && family == "sps") {
      // A draft that does not share the target's tokenizer (or is unknown).
      auto probe = doc;
      probe["method"] = json{{"family", "ar"}};
      auto pc = parse_config(probe, cat);
      const std::string draft = pc.ok() ? compatible_draft(cat, pc.value()) : "";
      const bool same = method.contains("draft") && method["draft"] == json(draft);
      if (!draft.empty() && !same) {
        notes.push_back("method.draft: " + draft + " (" + err.message + ")");
        method = json{{"family", "sps"}, {"draft", draft}};
        continue;
      }
    }
    // A draft runtime the new engine or device cannot take (a local engine runs its own drafts;
    // a runtime of another vendor): the drafts run under the engine again, the rest is kept.
    if (f == "method.draft_runtime" && method.contains("draft_runtime")) {
      notes.push_back("method.draft_runtime: the engine's own (" + err.message + ")");
      method.erase("draft_runtime");
      continue;
    }
    if (f == "method.draft_tensor_parallel_size" && method.contains("draft_tensor_parallel_size")) {
      notes.push_back("method.draft_tensor_parallel_size: the engine's default (" + err.message +
                      ")");
      method.erase("draft_tensor_parallel_size");
      continue;
    }
    if ((f == "method" || (f.rfind("method.", 0) == 0 && f != "method.family")) &&
        method != family_only(method)) {
      notes.push_back(f + ": " + err.message + "; the method's settings are now the defaults for " +
                      "this engine and model");
      method = family_only(method);
      continue;
    }
    // The family the user just chose stays: its error is the answer.
    if ((f == "method.family" || f == "method.draft") && changed != "method.family") {
      auto probe = doc;
      probe["method"] = json{{"family", "ar"}};
      auto pc = parse_config(probe, cat);
      if (!pc.ok()) return fail(pc.error());
      // Plain decoding comes last: every engine runs it, so when nothing the engine runs can
      // draft for this model (MLX runs draft models only, and no preset shares MiniMax's
      // tokenizer) the form lands there, said so, rather than stuck on the error (the walk).
      std::string next;
      for (const char* cand : {"eagle3", "eagle2", "mtp", "sps", "pld", "ar"}) {
        if (cand == family || !pc.value().engine.supports(cand) ||
            !has_drafter(cat, pc.value(), cand))
          continue;
        next = cand;
        break;
      }
      if (next.empty()) return fail(err);
      notes.push_back("method.family: " + (next == "ar" ? next + ", plain decoding" : next) + " (" +
                      family + ": " + err.message + ")");
      method = json{{"family", next}};
      if (next == "sps") method["draft"] = compatible_draft(cat, pc.value());
      doc.erase("acceptance");  // the old family's acceptance does not carry over
      continue;
    }
    if (setup_edit && carry_setup(cat, changed, err, &doc, &notes)) continue;
    if (f.rfind("acceptance", 0) == 0 && doc.contains("acceptance")) {
      notes.push_back(f + ": " + err.message + "; the acceptance is now the published default");
      doc.erase("acceptance");
      continue;
    }
    break;
  }
  return fail(err);
}

}  // namespace speccalc::commands
