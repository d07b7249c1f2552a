#pragma once
// The paired counterpart of hodges_lehmann.hpp: the ratio of two samples measured in pairs (run
// i of each in the same interleaved round), from the log ratios of the pairs, by the Wilcoxon
// signed-rank test's distribution-free interval (Hollander and Wolfe, 1999, section 3.3; R's
// wilcox.test(x, conf.int = TRUE) on one sample). A factor that moves both runs of a pair alike
// (drift, a burst that spans the round) cancels in the pair's ratio.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "driver/stats/hodges_lehmann.hpp"

namespace iobench::stats {

// P(T+ = t) for t = 0 .. n (n + 1) / 2: the exact null distribution of the signed-rank
// statistic of n pairs without ties (each of the 2^n sign patterns equally likely).
std::vector<double> signed_rank_distribution(std::size_t n);

// The median of the Walsh averages (d_i + d_j) / 2, i <= j, of the pairs' log ratios
// log(candidate_i / base_i), as a ratio: exp of R's pseudo-median estimate. Pairs are the first
// min(sizes) of each. NaN without a pair or with a time that is not positive.
double paired_ratio(std::span<const double> base, std::span<const double> candidate);

// Confidence interval of the ratio candidate / base from the same pairs: exp of the Walsh
// averages of order k and N + 1 - k (N = n (n + 1) / 2), k the largest count with
// P(T+ <= k - 1) <= (1 - confidence) / 2 from the exact distribution (the normal approximation
// for n > 200). Empty when n is too small to reach the confidence asked for, or as above.
std::optional<Interval> paired_ratio_interval(std::span<const double> base,
                                              std::span<const double> candidate,
                                              double confidence = 0.95);

}  // namespace iobench::stats
