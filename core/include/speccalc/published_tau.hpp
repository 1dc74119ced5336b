// The published tau of a method family on a target: the mean over the matching rows of the
// published table (core/data/published.json). Used when a config gives no acceptance.
#pragma once

#include <string>
#include <vector>

namespace speccalc {

struct PublishedTau {
  bool found = false;
  double mean_tau = 0;               // arithmetic mean, rows in table order
  double min_tau = 0, max_tau = 0;   // the spread of the rows averaged
  std::vector<std::string> row_ids;  // the rows averaged, e.g. "eagle2-012"
  std::string rule;  // which rows: "greedy", "temperature not stated" or "sampled (temperature 1)"
  bool sampled = false;  // the rows are sampled ones (temperature 1)
  // EAGLE families: the top-1 acceptance at every depth that gives mean_tau (min_tau, max_tau)
  // on the paper's own draft tree (config/paper_tree.hpp), 0 when not stored.
  double top1 = 0, top1_min = 0, top1_max = 0;
  // Medusa: the multiple of the model's Medusa-1 head-accuracy matrix that gives mean_tau
  // (min_tau, max_tau) on Medusa's own tree, 0 when not stored.
  double scale = 0, scale_min = 0, scale_max = 0;
  // published_tau_other_models: the models pooled (row_ids then holds every pooled row).
  std::vector<std::string> models;
};

// Rows match when family and target_id are equal (and draft_id too for sps), tau is present and
// the row is not superseded, and the row is not a "Mean (N datasets)" summary of other rows.
// For greedy decoding: greedy rows (temperature 0) when there are any, else the rows whose
// temperature is not stated. For sampled decoding (`sampled`): the rows at temperature 1 (the
// only sampled temperature the sources report), else none.
PublishedTau published_tau(const std::string& family, const std::string& target_id,
                           const std::string& draft_id, bool sampled = false);

// The family's entries on every model but `target_id`, pooled: what a target with no rows of its
// own (a preset without any, or a custom model) is assumed to accept. Each model weighs the same
// (a model with 15 rows does not outvote one with 1): mean_tau and top1 are means over the
// models' entries, min/max the extremes of every pooled row; no Medusa scale (it multiplies the
// target's own head table). Not for sps or retrieval, whose rows depend on their draft or
// datastore. No `rule` (models' entries differ: greedy rows, or unstated temperatures). found =
// false when no model has rows.
PublishedTau published_tau_other_models(const std::string& family, const std::string& target_id,
                                        bool sampled);

}  // namespace speccalc
