// Sources of the acceptance matrix p[d][r], and calibration to a measured tau.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "speccalc/status.hpp"
#include "speccalc/tree.hpp"

namespace speccalc::tree {

// Scalar alpha with a geometric rank model, depth-independent (one row of 64 ranks):
//   p[d][r] = alpha * (1 - alpha)^r.
// Rank 0 is accepted with probability alpha (so a chain sees per-token acceptance alpha), and
// each further rank takes the fraction alpha of the mass the better ranks left over; the row
// sums to 1 - (1 - alpha)^64 <= 1. Powers by repeated multiplication. alpha in [0, 1].
// The alpha model's rank row: the draft's rank-r token is accepted with alpha (1 - alpha)^r,
// r = 0..63 (ranks tried in order, each accepted with alpha).
std::vector<double> geometric_rank_row(double alpha);

Expected<AcceptanceMatrix> acceptance_from_alpha(double alpha,
                                                 const std::string& field = "acceptance.alpha");

// Per-depth alphas (e.g. a chain's measured per-position conditional acceptance rates) with the
// same geometric rank model at each depth: p[d][r] = alpha_d * (1 - alpha_d)^r. On a chain this
// reproduces the rates exactly (rank 0 at depth d + 1 is accepted with probability alpha_d).
// 1..64 entries, each in [0, 1]; depths past the list repeat its last entry.
Expected<AcceptanceMatrix> acceptance_from_per_position(
    const std::vector<double>& alphas, const std::string& field = "acceptance.per_position");

// Sequoia-style rank-only vector: one row, repeated at every depth.
Expected<AcceptanceMatrix> acceptance_from_rank_vector(
    const std::vector<double>& p, const std::string& field = "acceptance.rank_vector");

// Per-depth cumulative top-k accuracies acc[d][k-1] (fraction of positions whose true token is
// in the head's top k) -> per-rank probabilities p[d][r] = acc[d][r] - acc[d][r-1]
// (acc[d][-1] = 0). Each row must be non-decreasing and within [0, 1].
// Assumption (as in Medusa's own tree builder): the accuracies, measured unconditionally, are
// used as conditional probabilities given that the parent was accepted (independence).
Expected<AcceptanceMatrix> acceptance_from_topk_accuracy(
    const std::vector<std::vector<double>>& cumulative,
    const std::string& field = "acceptance.topk_accuracy");

// Medusa-1 head accuracies (core/data/medusa-head-accuracy.json, from FasterDecoding/Medusa
// assets/medusa_acc.csv) through acceptance_from_topk_accuracy: head h -> depth h + 1.
// Names: "vicuna-7b", "vicuna-13b", "vicuna-33b" (or with the "-v1.3" suffix).
Expected<AcceptanceMatrix> medusa_acceptance(const std::string& model,
                                             const std::string& field = "acceptance.medusa");
std::string medusa_model_names();

// Calibration: the smallest alpha for which `tree` under acceptance_from_alpha(alpha) has
// expected tau equal to `tau` (bonus token included). tau(alpha) is continuous, equals 1 at
// alpha = 0, but need not be monotone for trees whose deep branches hang off rank >= 1, so we
// scan alpha on a grid of 1/1024 for the first crossing, then bisect it (60 halvings).
// Errors when tau < 1 or above the largest value found on the grid.
Expected<double> calibrate_alpha(const Tree& tree, double tau, const std::string& field = "tau");
// The same search for any tau(alpha), e.g. a tree regenerated per alpha (EAGLE-2's dynamic tree).
Expected<double> calibrate_alpha_with(const std::function<double(double)>& tau_of_alpha, double tau,
                                      const std::string& field = "tau");

// c * p with a scalar c in [0, 1 / (largest row sum)]: a one-parameter family around any
// matrix (e.g. a Medusa table or the EAGLE-2 draft's ranks), monotone in c.
AcceptanceMatrix scale_acceptance(const AcceptanceMatrix& base, double c);
// The c for which `tree` under scale_acceptance(base, c) reproduces `tau` (bisection).
Expected<double> calibrate_scale(const Tree& tree, const AcceptanceMatrix& base, double tau,
                                 const std::string& field = "tau");
// 1 / (largest row sum): the largest c that keeps every row sum <= 1 (0 for an all-zero matrix).
double max_scale(const AcceptanceMatrix& base);
// The same bisection for any tau(c) on [0, c_max] (e.g. a tree regenerated per c).
Expected<double> calibrate_scale_with(const std::function<double(double)>& tau_of_scale,
                                      double c_max, double tau, const std::string& field = "tau");

}  // namespace speccalc::tree
