#pragma once
// Statistics as pure functions over samples (docs/reports.md says which definition each uses).
// None of them reorders its argument; an empty sample gives NaN (or an empty result) where a
// value is undefined.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace iobench::report {

// Middle value; the mean of the two middle values for an even count. NaN for an empty sample.
double median(std::span<const double> values);
double min(std::span<const double> values);
double max(std::span<const double> values);
double mean(std::span<const double> values);
// Sample standard deviation (divides by n - 1); NaN for fewer than 2 values.
double stddev(std::span<const double> values);
// Median absolute deviation from the median, unscaled (raw): median(|x - median(x)|).
// Multiply by 1.4826 for a consistent estimate of a normal distribution's sigma.
double mad(std::span<const double> values);

// Everything `summarize` prints for one metric of one group.
struct SampleStats {
  std::size_t n = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double mad = 0;
  double mean = 0;
  double stddev = 0;  // NaN for n < 2
};
SampleStats summarize(std::span<const double> values);

// Iglewicz and Hoaglin's modified z-score: 0.6745 * (x - median) / MAD. When MAD is 0 the
// mean absolute deviation stands in (z = (x - median) / (1.253314 * meanAD)); when that is 0
// too, every score is 0.
std::vector<double> modified_z_scores(std::span<const double> values);
// Indices of the values whose |modified z-score| exceeds `threshold` (3.5 by the book).
std::vector<std::size_t> outliers(std::span<const double> values, double threshold = 3.5);
// outliers(values, threshold).size() for a sample whose median and raw MAD are known already
// (summarize's): the same test, without a copy or another selection when the MAD is positive.
std::size_t count_outliers(std::span<const double> values, double median, double mad,
                           double threshold = 3.5);

// Mann-Whitney U (Wilcoxon rank-sum) test, two-sided.
struct MannWhitney {
  double u_a = 0;      // U of sample a: pairs (a_i, b_j) with a_i > b_j, ties counting 1/2
  double u_b = 0;      // n_a * n_b - u_a
  double p_value = 1;  // two-sided
  bool exact = false;  // exact distribution used (no ties, a sample of 8 or fewer); else normal
  double z = 0;        // the normal approximation's z (0 when exact)
};
// As scipy.stats.mannwhitneyu(a, b, alternative="two-sided") with method "auto" and
// use_continuity=True, which Google Benchmark's compare.py calls: exact when there are no ties
// and a sample has 8 or fewer values, else the normal approximation with the tie correction of
// the variance and a continuity correction of 0.5. NaN p-value when a sample is empty.
MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b);

// P(U <= u) under H0 for samples of sizes m and n without ties (exact distribution).
double mann_whitney_cdf(std::size_t m, std::size_t n, std::int64_t u);
// The smallest two-sided p-value any outcome can reach with sizes m and n (2 / C(m+n, m),
// at most 1): a difference cannot be significant at an alpha below it.
double smallest_p_value(std::size_t m, std::size_t n);

// Standard normal upper tail P(Z > z).
double normal_sf(double z);
// Standard normal quantile (inverse CDF), for 0 < p < 1.
double normal_quantile(double p);

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

}  // namespace iobench::report
