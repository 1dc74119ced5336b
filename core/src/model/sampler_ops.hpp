// The host work sampling adds at temperature > 0 in the research code behind the papers'
// sampled rows (hemingkx/Spec-Bench fd2c1cd7; per-count evidence in docs/host-ops.md, section
// "Sampling at T > 0"): what a cycle and a plain decoding step do beyond their greedy paths.
// Greedy (temperature 0) adds nothing. Costed like method_host_ops (method_op_s per op,
// host_sync_s per sync); serving engines fuse their samplers and carry none of it.
#pragma once

#include <vector>

#include "model/host_ops.hpp"
#include "speccalc/config.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

// Extra host work of one speculative cycle of c's method at c.temperature, beyond the greedy
// counts of method_host_ops. `tau` = tokens per cycle (bonus included); `verified_tree` = the
// tree the target verifies (empty: derived from the method, a chain for chains); `acceptance`
// = its acceptance matrix (empty: the EAGLE rank model calibrated to tau on that tree).
// EAGLE-1/2/3 and SpS are counted; other families add nothing (no sampled reference path:
// Medusa's typical acceptance, PLD and lookahead were measured greedy only).
HostOps sampling_host_ops(const Config& c, double tau, const tree::Tree& verified_tree,
                          const tree::AcceptanceMatrix& acceptance);

// The tree c's method verifies when no tau model gave one: method.choices, else a chain of k
// (SpS) or of depth.
tree::Tree method_tree(const Config& c);
// The rank model the published taus imply (config/paper_tree.hpp) with its top-1 acceptance
// set so that `t` yields `tau`: where an acceptance walk goes when tau was given, not computed.
tree::AcceptanceMatrix acceptance_for_tau(const tree::Tree& t, double tau);

// Each node's children in rank order (index i: node i's; index t.size(): the root's).
std::vector<std::vector<int>> children_by_rank(const tree::Tree& t);

// Extra host work of one plain decoding step (HF transformers' sample loop) at `temperature`.
HostOps decode_sampling_host_ops(double temperature);

// EAGLE's rejection-sampling walk over a verified tree (evaluate_posterior's T > 0 branch),
// expected over the acceptance: exposed for its test. `eagle1` selects EAGLE-1's version
// (draft probabilities q; a rejected candidate's q is masked and subtracted); `warp` = 1 when a
// temperature warper runs (temperature != 1), else 0.
HostOps tree_posterior_sampling_ops(const tree::Tree& t, const tree::AcceptanceMatrix& acceptance,
                                    bool eagle1, double warp);

}  // namespace speccalc
