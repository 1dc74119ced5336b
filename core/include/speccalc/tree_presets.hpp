// Engine default trees and EAGLE-2's dynamic tree as a generator.
#pragma once

#include <string>
#include <vector>

#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc::tree {

// EAGLE-1's default static tree, `mc_sim_7b_63` in SafeAILab/EAGLE eagle/model/choices.py
// (25 draft nodes despite the name; per depth 4, 8, 8, 3, 2).
Tree eagle1_default_tree();

// Medusa's `mc_sim_7b_63` in FasterDecoding/Medusa medusa/model/medusa_choices.py
// (63 draft nodes; per depth 10, 28, 23, 2). Hydra's default tree is the same list.
Tree medusa_mc_sim_7b_63();

// Preset ids accepted by preset_tree(), comma separated.
std::string preset_names();
// "eagle1" (alias "eagle1-mc_sim_7b_63"), "medusa-mc_sim_7b_63" (alias "medusa", "hydra").
Expected<Tree> preset_tree(const std::string& name, const std::string& field = "name");

// EAGLE-2's dynamic tree (SafeAILab/EAGLE cnets.py topK_genrate), with the acceptance matrix
// standing in for the draft model's confidence: level 1 = the root's top_k children; then
// depth - 1 times (`depth` is the tree's draft levels, the config's convention; EAGLE's own
// --depth counts these expansions, so it is depth - 1): expand each of the top_k beam nodes by its
// top_k children, score each candidate by its path product, keep the top_k candidates as the next
// beam. Finally keep the total_token - 1 best-scoring candidates of all levels (ties: earlier
// candidate first, so parents precede children and the result is prefix-closed). Tree depth <=
// depth. Children are expanded in p order (ties by rank); node ranks are the matrix's ranks, which
// equal the draft's top-k positions when each row is non-increasing in rank.
// Limits: total_token in [2, 4097], depth in [1, 64], top_k in [1, 64], and total_token - 1
// must not exceed the number of candidates top_k + (depth - 1) * top_k^2.
Expected<Tree> eagle2_tree(const AcceptanceMatrix& acceptance, int total_token, int depth,
                           int top_k);

// The candidates an EAGLE-2 draft of `depth` levels ranks: top_k at the first level, then
// top_k x top_k at each further one; a verified tree holds at most this many nodes.
inline long long eagle2_candidates(int top_k, int depth) {
  return top_k + static_cast<long long>(depth - 1) * top_k * top_k;
}

}  // namespace speccalc::tree
