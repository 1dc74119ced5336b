// The draft tree the EAGLE papers measured their acceptance on, and the acceptance a published
// tau implies on another draft. A published tau counts tokens per cycle on the paper's tree; a
// config drafting a chain of 3 (vLLM) or an 8-token tree (SGLang) cannot take that number as
// it is: its tau follows from the per-depth acceptance that tree's tau implies.
#pragma once

#include <string>
#include <vector>

#include "speccalc/config.hpp"

namespace speccalc {

// Share of the geometric rank model's sibling mass a draft's lower-ranked candidates actually
// take: rank r accepted with top1 * ((1 - top1) * kSiblingShare)^r. Fitted on EAGLE's own
// chain-vs-tree pairs (Li et al., arXiv 2401.15077, Table 5: tau of a chain of 5 and of the
// default tree for the same head on 6 targets): each pair's chain tau fixes top1 and its tree
// tau fixes the share; the six shares are 0.555-0.670, mean 0.627
// (tests/core/paper_tree_test.cpp refits them). At 1 it is the rank model of `alpha`.
constexpr double kSiblingShare = 0.627;

// True when the config drafts exactly the tree the papers ran: EAGLE-1's default tree,
// EAGLE-2/3's dynamic tree of 60/50/48 tokens (by target size), depth 6 / 8, top-k 10, or
// Medusa's mc_sim_7b_63. Other families: false.
bool on_paper_tree(const Config& c);

// The paper's tree in words, for the notes ("EAGLE-2's dynamic tree of 60 tokens, depth 6,
// top-k 10").
std::string paper_tree_words(const Config& c);

// One acceptance row p[rank] (every depth): rank r accepted with top1 ((1 - top1) s)^r, s =
// kSiblingShare.
std::vector<double> paper_rank_row(double top1);

// The acceptance a published tau implies on the paper's tree, as matrix rows: EAGLE, one row
// paper_rank_row(x); Medusa, the target's Medusa-1 head-accuracy matrix scaled by x
// (tree::scale_acceptance). Empty when the target has no head table.
std::vector<std::vector<double>> paper_acceptance(const Config& c, double x);

}  // namespace speccalc
