#pragma once
// Hodges-Lehmann: the estimates and the distribution-free interval that go with the Mann-Whitney
// U test (mann_whitney.hpp), from the m * n pairwise differences or ratios of two samples.
#include <optional>
#include <span>

namespace iobench::stats {

// The median of the pairwise differences a_i - b_j: R's wilcox.test(a, b, conf.int = TRUE)
// $estimate ("difference in location") where R takes the exact way. NaN when a sample is empty.
double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b);
// The median of the pairwise ratios candidate_j / base_i: the ratio the interval below is
// centred on (for an odd m * n, exp of hodges_lehmann_shift over the logs). NaN when a sample is
// empty or a base value is not positive.
double hodges_lehmann_ratio(std::span<const double> base, std::span<const double> candidate);

// Confidence interval of the ratio new/base from the pairwise ratios new_j / base_i: the
// distribution-free interval of Hodges-Lehmann / Bauer (1972) for a scale change, the
// counterpart of the Mann-Whitney test on log times. Its bounds are order statistics k and
// mn + 1 - k of the m*n ratios, k taken from the exact U distribution (normal approximation
// for m + n > 60). Empty when the samples are too small to reach the confidence asked for.
struct Interval {
  double low = 0;
  double high = 0;
};
std::optional<Interval> ratio_confidence_interval(std::span<const double> base,
                                                  std::span<const double> candidate,
                                                  double confidence = 0.95);

}  // namespace iobench::stats
