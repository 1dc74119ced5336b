// Handlers behind speccalc::run(). Each takes the command's input text and returns a Response.
// Declared here so api.cpp's table can name them; defined in the file that owns the feature.
#pragma once

#include <string>
#include <string_view>

#include "speccalc/api.hpp"

namespace speccalc::commands {

Response eval(const std::string& config_json);                            // evaluate.cpp
Response eval_link(const std::string& link);                              // evaluate.cpp
Response link(const std::string& config_json);                            // link_codec.cpp
Response decode_link(const std::string& link);                            // link_codec.cpp
Response normalize(const std::string& config_json);                       // config.cpp
Response list(const std::string& kind);                                   // presets.cpp
Response fit(const std::string& input, std::string_view published_json);  // fit_commands.cpp
Response calibrate(const std::string& input);                             // fit_commands.cpp

// Shared helpers for handlers.
Response ok_json(std::string json_text);
Response fail(Error error);

}  // namespace speccalc::commands
