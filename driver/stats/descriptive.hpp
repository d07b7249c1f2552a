#pragma once
// Descriptive statistics as pure functions over samples (docs/reports.md says which definition
// each uses). None of them reorders its argument; an empty sample gives NaN (or an empty result)
// where a value is undefined.
#include <cstddef>
#include <span>
#include <vector>

namespace iobench::stats {

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

// The relative standard deviation of a ratio of two means, each mean's own propagated to first
// order: hypot(stddev_a / mean_a, stddev_b / mean_b). Times the ratio, it is the "± 0.26" beside
// hyperfine's relative figures.
double ratio_relative_stddev(double mean_a, double stddev_a, double mean_b, double stddev_b);

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

}  // namespace iobench::stats
