#include "model/fidelity.hpp"

#include <algorithm>
#include <string>

#include "config/families.hpp"
#include "config/json_fields.hpp"
#include "speccalc/embedded_data.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

// The embedded table, parsed once per process (a compiled-in constant).
const json& bands() {
  static const json table = [] {
    json doc = json::parse(data::validation_bands(), nullptr, false);
    return doc.is_object() && doc.contains("bands") ? doc["bands"] : json::object();
  }();
  return table;
}

std::string pct(double x) {
  // One decimal, as the page prints a percentage.
  const double r = static_cast<double>(static_cast<long long>(x * 10 + (x < 0 ? -0.5 : 0.5))) / 10;
  return fields::format_number(r);
}

}  // namespace

json fidelity_json(const Evaluation& e, const Config& config) {
  const std::string engine = config.runtime.profile;
  const std::string family = family_name(config.method.family);
  json out =
      json{{"engine", engine},
           {"family", family},
           {"rows", 0},
           {"tau_source", e.tau_source},
           {"profile_source", config.engine.validated_by.empty() ? config.engine.fitted_on
                                                                 : config.engine.validated_by}};
  const json& t = bands();
  const json* b = nullptr;
  if (t.contains(engine) && t[engine].contains(family)) b = &t[engine][family];
  if (!b || (*b)["rows"].get<int>() == 0) {
    out["statement"] = "no held-out measurement of " +
                       std::string(family_short_label(config.method.family)) + " under " +
                       config.engine.name + ": the model's error here is not measured";
    return out;
  }
  const double mape = (*b)["mape_pct"].get<double>();
  const double bias = (*b)["mean_error_pct"].get<double>();
  const int rows = (*b)["rows"].get<int>();
  // error = (predicted - measured) / measured, so measured = predicted / (1 + error). Over the
  // held-out rows the error averaged `bias` with mean magnitude `mape`: the band is the
  // predicted speedup divided by 1 + (bias +- mape) / 100 (the lower factor kept above 0.05).
  const double hi_factor = std::max(0.05, 1 + (bias - mape) / 100);
  const double lo_factor = std::max(0.05, 1 + (bias + mape) / 100);
  out["rows"] = rows;
  out["mape_pct"] = mape;
  out["mean_error_pct"] = bias;
  out["basis"] = (*b)["basis"];
  out["speedup_low"] = e.speedup / lo_factor;
  out["speedup_high"] = e.speedup / hi_factor;
  const std::string direction = bias > 0 ? "over-predicted" : "under-predicted";
  // The statement reads the family by its label (EAGLE-3), the field keeps the id.
  out["statement"] = config.engine.name + " + " + family_short_label(config.method.family) +
                     ": held-out error " + pct(mape) + " % over " + std::to_string(rows) +
                     " measured row" + (rows == 1 ? "" : "s") + " (" + direction + " by " +
                     pct(bias < 0 ? -bias : bias) + " % on average; speccalc validate)";
  return out;
}

}  // namespace speccalc
