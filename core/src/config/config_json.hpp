// The config's JSON forms, private to the core (public headers carry no JSON types):
// parse_config() validates a parsed document; config_to_json() writes the normalized form with
// every default filled in, which is what share links encode.
#pragma once

#include <nlohmann/json.hpp>

#include "speccalc/config.hpp"

namespace speccalc {

Expected<Config> parse_config(const nlohmann::json& doc, const Catalog& catalog);

// Whether a draft shares the target's tokenizer on this engine: equal vocabulary sizes, or up
// to the engine's margin apart where it compares token texts (runtimes.json
// draft_vocab_max_difference). The one rule behind the draft's refusal, the draft select's
// unavailable drafts and the carry's choice of a draft.
bool shares_tokenizer(const ModelArch& draft, const ModelArch& target,
                      const RuntimeProfile& engine);
// False (and *err) when c.context leaves no room within the target's (or an SpS draft's)
// max_position_embeddings: parse_config's check, for a plan that moves the context itself.
bool check_context(const Config& c, Error* err);
nlohmann::json config_to_json(const Config& c);
// The architecture of a model as the keys a custom "target" object takes.
nlohmann::json model_to_json(const ModelArch& m);
// A model given as an object at `path` (the target, an SpS draft): a Hugging Face config.json as
// published (it has `model_type`) or the keys model_to_json writes.
bool parse_model_object(const nlohmann::json& obj, const std::string& path, ModelArch* m,
                        Error* err);
// A GPU as the keys a custom "hardware" object takes.
nlohmann::json gpu_to_json(const Gpu& g);

}  // namespace speccalc
