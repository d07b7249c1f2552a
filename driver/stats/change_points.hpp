#pragma once
// Change points along a series (docs/history.md, "Change points"): E-divisive means (Matteson
// and James, 2014) picks where a series splits best, and Welch's t-test between the two sides
// decides whether the split is real, in place of the original's permutations, so that the answer
// is deterministic (Apache Otava's approach; welch.hpp). Pure functions over the per-run medians
// (history/changes.hpp runs them over a series).
#include <cstddef>
#include <span>
#include <vector>

namespace iobench::stats {

// E-divisive's divergence of the split of x before index tau (0 < tau < x.size()), with
// exponent 1: Q = tau (n - tau) / n * (2 mean|a - b| - mean|a - a'| - mean|b - b'|) over the
// pairs between and within the two sides (a side of one value has no within pairs).
double energy_divergence(std::span<const double> x, std::size_t tau);

// energy_divergence for every tau from 1 to x.size() - 1 (element tau - 1), in O(n^2) time
// together: the sums within each side are carried from one tau to the next.
std::vector<double> energy_divergences(std::span<const double> x);

struct DetectorOptions {
  double max_p_value = 3e-4;          // Welch's p of the two sides of a change point
  double min_relative_change = 0.05;  // |mean after / mean before - 1|: the check's minimum effect
  std::size_t min_segment = 4;        // runs a level must hold on each side
};

struct ChangePoint {
  std::size_t index = 0;  // the first point of the new level
  double p_value = 1;     // Welch's p between the segments either side
  double mean_before = 0;
  double mean_after = 0;
  [[nodiscard]] double relative_change() const { return mean_after / mean_before - 1; }
};

// Every change point of `series`, in order. Top-down: each segment's best split (the largest
// divergence, each side at least min_segment long) is tested against its neighbours, the most
// significant one (p below 10 x max_p_value) is kept, and again until none is; then bottom-up,
// the weakest point (largest p against the segments either side, or a change below
// min_relative_change) is removed until every one left passes both.
std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const DetectorOptions& options = {});

}  // namespace iobench::stats
