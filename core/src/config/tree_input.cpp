#include "config/tree_input.hpp"

#include <utility>

#include "config/json_fields.hpp"
#include "speccalc/tree_acceptance.hpp"

namespace speccalc {

using nlohmann::json;

namespace {

std::string at(const std::string& field, std::size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

constexpr const char* kMatrixForms = "p, rank_vector, alpha, per_position, medusa, topk_accuracy";

}  // namespace

Expected<ParsedChoices> parse_choices_list(const json& v, const std::string& field,
                                           int64_t max_nodes) {
  if (!v.is_array()) return make_error(field, "must be a list of paths (lists of sibling ranks)");
  if (static_cast<int64_t>(v.size()) > max_nodes) {
    return make_error(field, "has " + std::to_string(v.size()) + " nodes; the limit is " +
                                 std::to_string(max_nodes));
  }
  std::vector<std::vector<int>> paths;
  paths.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const json& path = v[i];
    if (!path.is_array() || path.empty() ||
        path.size() > static_cast<std::size_t>(tree::kMaxDepth)) {
      return make_error(at(field, i), "must be a non-empty list of at most 64 sibling ranks");
    }
    std::vector<int> ranks;
    ranks.reserve(path.size());
    for (std::size_t j = 0; j < path.size(); ++j) {
      const json& v = path[j];
      // The common case without building the field's name (a 4,096-node tree has ~10^5 ranks).
      // (nlohmann reads a non-negative integer as unsigned.)
      if (v.is_number_unsigned() && v.get<uint64_t>() < static_cast<uint64_t>(tree::kMaxRank)) {
        ranks.push_back(static_cast<int>(v.get<uint64_t>()));
        continue;
      }
      int64_t r = 0;
      Error err;
      if (!fields::int_value(v, at(at(field, i), j), 0, tree::kMaxRank - 1, &r, &err)) return err;
      ranks.push_back(static_cast<int>(r));
    }
    paths.push_back(std::move(ranks));
  }
  // Prefix closure and duplicates are the tree module's rules.
  Expected<tree::Tree> t = tree::make_tree(paths, field);
  if (!t.ok()) return t.error();
  return ParsedChoices{std::move(paths), std::move(t.value())};
}

Expected<std::vector<double>> parse_probability_list(const json& v, const std::string& field) {
  if (!v.is_array() || v.empty() || v.size() > static_cast<std::size_t>(tree::kMaxRank)) {
    return make_error(field, "must be a list of 1 to 64 probabilities");
  }
  std::vector<double> out(v.size(), 0.0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].is_number() && v[i].get<double>() >= 0 && v[i].get<double>() <= 1) {
      out[i] = v[i].get<double>();  // the common case, without building the field's name
      continue;
    }
    Error err;
    if (!fields::number_value(v[i], at(field, i), 0, 1, &out[i], &err)) return err;
  }
  return out;
}

Expected<std::vector<std::vector<double>>> parse_probability_rows(const json& v,
                                                                  const std::string& field,
                                                                  bool exclusive) {
  if (!v.is_array() || v.empty() || v.size() > static_cast<std::size_t>(tree::kMaxDepth)) {
    return make_error(field, "must be a list of 1 to 64 rows");
  }
  std::vector<std::vector<double>> rows;
  rows.reserve(v.size());
  for (std::size_t d = 0; d < v.size(); ++d) {
    Expected<std::vector<double>> row = parse_probability_list(v[d], at(field, d));
    if (!row.ok()) return row.error();
    if (exclusive) {
      double sum = 0;
      for (double p : row.value()) sum += p;
      if (sum > 1 + 1e-12) {
        return make_error(at(field, d),
                          "sums to " + fields::format_significant(sum, 6) +
                              "; sibling acceptances are exclusive, so a row sums to at most 1");
      }
    }
    rows.push_back(std::move(row.value()));
  }
  return rows;
}

Expected<std::string> parse_medusa_table(const json& v, const std::string& field) {
  if (!v.is_string() || v.get_ref<const std::string&>().size() > 64) {
    return make_error(
        field, "must be a Medusa head-accuracy table name (" + tree::medusa_model_names() + ")");
  }
  return v.get<std::string>();
}

Expected<tree::AcceptanceMatrix> parse_acceptance_matrix(const json& acc,
                                                         const std::string& field) {
  if (acc.is_object()) {
    for (auto it = acc.begin(); it != acc.end(); ++it) {
      const std::string& k = it.key();
      if (k != "p" && k != "rank_vector" && k != "alpha" && k != "per_position" && k != "medusa" &&
          k != "topk_accuracy") {
        return make_error(field + "." + fields::excerpt(k, 64),
                          std::string("unknown form; expected one of: ") + kMatrixForms);
      }
    }
  }
  if (!acc.is_object() || acc.size() != 1) {
    return make_error(field, std::string("must be an object with exactly one of: ") + kMatrixForms);
  }
  const std::string key = acc.begin().key();
  const json& v = acc.begin().value();
  const std::string f = field + "." + fields::excerpt(key, 64);
  if (key == "alpha") {
    double a = 0;
    Error err;
    if (!fields::number_value(v, f, 0, 1, &a, &err)) return err;
    return tree::acceptance_from_alpha(a, f);
  }
  if (key == "medusa") {
    Expected<std::string> name = parse_medusa_table(v, f);
    if (!name.ok()) return name.error();
    return tree::medusa_acceptance(name.value(), f);
  }
  if (key == "rank_vector" || key == "per_position") {
    Expected<std::vector<double>> row = parse_probability_list(v, f);
    if (!row.ok()) return row.error();
    return key == "rank_vector" ? tree::acceptance_from_rank_vector(row.value(), f)
                                : tree::acceptance_from_per_position(row.value(), f);
  }
  if (key == "p" || key == "topk_accuracy") {
    const bool cumulative = key == "topk_accuracy";
    Expected<std::vector<std::vector<double>>> rows = parse_probability_rows(v, f, !cumulative);
    if (!rows.ok()) return rows.error();
    if (cumulative) return tree::acceptance_from_topk_accuracy(rows.value(), f);
    return tree::make_acceptance(std::move(rows.value()), f);
  }
  return make_error(f, "unknown form");  // unreachable: keys were checked above
}

}  // namespace speccalc
