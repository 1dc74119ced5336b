#include "config/acceptance_tau.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "config/acceptance_parse.hpp"
#include "config/json_fields.hpp"
#include "config/paper_tree.hpp"
#include "speccalc/tree_acceptance.hpp"
#include "speccalc/tree_presets.hpp"

namespace speccalc {

namespace {

// Tokens per cycle that the draft structure can yield at most, and the verified tree.
struct Structure {
  tree::Tree tree;
  bool dynamic = false;  // EAGLE-2/3: the tree depends on the acceptance
};

// The draft structure whose tau is computed: a chain of k (sps chains, pld, mtp, layerskip,
// streaming, retrieval), of N - 1 for lookahead (it verifies guessed n-grams of N - 1 tokens),
// the method's tree (sps trees, Medusa, Hydra, EAGLE-1); empty for EAGLE-2/3, whose tree is
// generated from the acceptance.
Expected<tree::Tree> static_draft_tree(const MethodConfig& m) {
  switch (m.family) {
    case Family::ar:
    case Family::eagle2:
    case Family::eagle3:
      return tree::Tree{};
    case Family::sps:
      if (m.sps_tree != MethodConfig::SpsTree::chain)
        return tree::make_tree(m.choices, "method.choices");
      return tree::chain_tree(static_cast<int>(m.k));
    case Family::pld:
    case Family::mtp:
    case Family::layerskip:
    case Family::streaming:
    case Family::retrieval:
      return tree::chain_tree(static_cast<int>(m.k));
    case Family::lookahead:
      return tree::chain_tree(static_cast<int>(m.ngram - 1));
    case Family::medusa:
    case Family::hydra:
    case Family::eagle1:
      return tree::make_tree(m.choices, "method.choices");
  }
  return tree::Tree{};
}

// How a computed tau was obtained, for the result's `tau_source`.
std::string computed_tau_source(Acceptance::Kind kind, const tree::Tree& draft) {
  const bool branching = draft.size() > 0 && draft.nodes_per_depth()[0] > 1;
  switch (kind) {
    case Acceptance::Kind::alpha:
      return branching ? "tau from per-token acceptance alpha over the draft tree, sibling ranks "
                         "accepted with alpha (1 - alpha)^rank (docs/tree-model.md)"
                       : "tau from the chain closed form (1 - alpha^(k+1)) / (1 - alpha)";
    case Acceptance::Kind::per_position:
      return "tau from per-position conditional acceptance rates (bonus token included); "
             "sibling ranks accepted with a_d (1 - a_d)^rank";
    default:
      return "tau from the acceptance matrix p[depth][rank] over the draft tree";
  }
}

}  // namespace

Expected<tree::AcceptanceMatrix> acceptance_matrix(const Acceptance& a) {
  switch (a.kind) {
    case Acceptance::Kind::alpha:
      return tree::acceptance_from_alpha(a.alpha, "acceptance.alpha");
    case Acceptance::Kind::per_position: {
      std::vector<std::vector<double>> rows;
      for (double c : a.per_position) rows.push_back(tree::geometric_rank_row(c));
      return tree::make_acceptance(rows, "acceptance.per_position");
    }
    case Acceptance::Kind::matrix:
      return tree::make_acceptance(a.p, "acceptance.p");
    case Acceptance::Kind::tau:
      break;
  }
  return make_error("acceptance", "a given tau has no acceptance matrix");
}

Expected<TauResult> expected_tau(const Config& c) {
  TauResult out;
  const MethodConfig& m = c.method;
  const Acceptance& a = c.acceptance;
  out.basis = a.basis.empty() ? "as configured" : a.basis;

  if (m.family == Family::ar) {
    out.tau = 1;
    out.max_tokens = 1;
    out.source = "plain decoding yields one token per step";
    out.basis = "plain decoding: one token per step";
    return out;
  }
  Expected<tree::Tree> static_draft = static_draft_tree(m);
  if (!static_draft.ok()) return static_draft.error();
  tree::Tree draft = std::move(static_draft.value());

  const bool dynamic = m.family == Family::eagle2 || m.family == Family::eagle3;
  tree::AcceptanceMatrix matrix;
  // Tau is given (directly, by a workload, or from the published table) or computed from a
  // per-token acceptance model. A published tau the draft cannot reach (the rows used a deeper
  // draft than this config's) falls back to the default alpha, said so in the source.
  Acceptance a_used = a;
  bool tau_given = a.kind == Acceptance::Kind::tau;
  if (!tau_given || dynamic) {
    // A given tau on a dynamic tree still needs a tree for its shape: use EAGLE-2's generator
    // under the default alpha model, then check tau against its depth.
    Acceptance for_tree = a;
    if (a.kind == Acceptance::Kind::tau) {
      for_tree.kind = Acceptance::Kind::alpha;
      for_tree.alpha = kDefaultAlpha;
    }
    auto mat = acceptance_matrix(for_tree);
    if (!mat.ok()) return mat.error();
    matrix = mat.value();
  }
  // EAGLE-2/3's tree grows from the draft's confidence: one generator for the acceptance and for
  // each end of a default's spread.
  auto grow = [&](const tree::AcceptanceMatrix& acceptance) {
    return tree::eagle2_tree(acceptance, static_cast<int>(m.total_token), static_cast<int>(m.depth),
                             static_cast<int>(m.top_k));
  };
  if (dynamic) {
    auto t = grow(matrix);
    if (!t.ok()) {
      Error e = t.error();
      e.field = "method." + e.field;
      return e;
    }
    draft = t.value();
  }
  out.tree = draft;
  out.max_tokens = draft.max_depth() + 1;

  std::string fallback_note;
  if (tau_given && a.published && a.tau > static_cast<double>(out.max_tokens)) {
    fallback_note = a.note + "; but this draft yields at most " + std::to_string(out.max_tokens) +
                    " tokens per cycle, so the default per-token acceptance alpha " +
                    fields::format_number(kDefaultAlpha) + " is used instead (not from data)";
    a_used.kind = Acceptance::Kind::alpha;
    a_used.alpha = kDefaultAlpha;
    tau_given = false;
    out.from_data = false;
    out.basis = assumed_alpha_basis(" (the published tau is beyond this draft's reach)");
    if (!dynamic) {
      auto mat = acceptance_matrix(a_used);
      if (!mat.ok()) return mat.error();
      matrix = mat.value();
    }
  }
  if (tau_given) {
    // 1e-9: a tau computed for this draft (sizing) may exceed its depth + 1 by rounding.
    if (a.tau > static_cast<double>(out.max_tokens) + 1e-9) {
      return make_error(a.workload.empty() ? "acceptance.tau" : "acceptance.workload",
                        "is " + fields::format_number(a.tau) + " but this draft yields at most " +
                            std::to_string(out.max_tokens) + " tokens per cycle (its depth + 1)");
    }
    out.tau = a.tau;
    if (a.guessed) out.from_data = false;  // another model's rows (acceptance_parse.cpp)
    out.source = a.note.empty() ? "tau given directly" : a.note;
    if (!a.workload.empty()) {
      out.has_band = true;
      out.tau_p5 = a.tau_p5;
      out.tau_p50 = a.tau_p50;
      out.tau_p95 = a.tau_p95;
      out.band_label = "over p5–p95 requests";
    } else if (a.tau_p95 > 0) {
      // A default's spread; rows measured with deeper drafts may exceed this draft's reach.
      out.has_band = true;
      out.tau_p5 = std::min(a.tau_p5, static_cast<double>(out.max_tokens));
      out.tau_p95 = std::min(a.tau_p95, static_cast<double>(out.max_tokens));
      out.band_label = a.spread_label;
    }
    return out;
  }
  out.matrix = matrix;
  out.tau = tree::expect_tree(draft, matrix).expected_tau;
  if (a.guessed) out.from_data = false;
  if (!a.band_high.empty()) {
    // A default's spread as two acceptances (a published tau rescaled to this draft,
    // config/paper_tree.hpp; a model card's range per position): the tau of each on this draft
    // (an EAGLE-2/3 tree regrown under each, as the dynamic tree follows the draft's confidence).
    auto tau_at = [&](const std::vector<std::vector<double>>& rows) {
      const tree::AcceptanceMatrix m{rows};
      if (!dynamic) return tree::expect_tree(draft, m).expected_tau;
      auto t = grow(m);
      return t.ok() ? tree::expect_tree(t.value(), m).expected_tau : out.tau;
    };
    out.has_band = true;
    out.tau_p5 = tau_at(a.band_low);
    out.tau_p95 = tau_at(a.band_high);
    out.band_label = a.spread_label;
  }
  if (!fallback_note.empty()) {
    out.source = fallback_note;
    return out;
  }
  if (a.published &&
      (a.kind == Acceptance::Kind::matrix || a.kind == Acceptance::Kind::per_position)) {
    out.source = a.note;
    return out;
  }
  if (a.published && !a.note.empty()) {
    out.source =
        a.note + "; " +
        (draft.size() > 0 && draft.nodes_per_depth()[0] > 1
             ? "tau over the draft tree with sibling ranks accepted with alpha (1 - alpha)^rank"
             : "tau from the chain closed form (1 - alpha^(k+1)) / (1 - alpha)");
    return out;
  }
  out.source = computed_tau_source(a.kind, draft);
  return out;
}

namespace {
// Exact text of a double (its bits), so equal keys mean bit-identical inputs.
void append_bits(std::string* key, double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  *key += std::to_string(bits);
  *key += ',';
}
}  // namespace

Expected<const TauResult*> TauMemo::get(const Config& config) {
  // Everything tau depends on: the method's structure and the acceptance.
  const MethodConfig& m = config.method;
  const Acceptance& a = config.acceptance;
  std::string key = family_name(m.family);
  for (int64_t v : {m.k, m.ngram, m.window, m.guess, m.heads, m.total_token, m.depth, m.top_k,
                    static_cast<int64_t>(m.sps_tree)}) {
    key += ',' + std::to_string(v);
  }
  key += '|';
  for (const auto& path : m.choices) {
    for (int r : path) key += std::to_string(r) + '.';
    key += ';';
  }
  // The provenance changes the source text: a published or workload tau differs from the
  // same number given directly.
  key += '|' + std::to_string(static_cast<int>(a.kind)) + (a.published ? "P" : "") +
         (a.guessed ? "G" : "") + a.note + '|' + a.spread_label + ':';
  append_bits(&key, a.tau);
  append_bits(&key, a.alpha);
  append_bits(&key, a.tau_p5);
  append_bits(&key, a.tau_p95);
  for (const auto* band : {&a.band_low, &a.band_high}) {
    for (const auto& row : *band) {
      for (double v : row) append_bits(&key, v);
      key += ';';
    }
    key += '|';
  }
  for (double v : a.per_position) append_bits(&key, v);
  for (const auto& row : a.p) {
    for (double v : row) append_bits(&key, v);
    key += ';';
  }
  auto it = entries_.find(key);
  if (it != entries_.end()) return &it->second;
  auto tau = expected_tau(config);
  if (!tau.ok()) return tau.error();
  return &entries_.emplace(key, std::move(tau.value())).first->second;
}

}  // namespace speccalc
