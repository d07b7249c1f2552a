#include "driver/stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace iobench::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Iglewicz and Hoaglin's modified z-score of x, for a sample whose raw MAD is positive.
double modified_z(double x, double median, double mad) {
  return 0.6745 * (x - median) / mad;
}

// Median of a scratch copy that may be reordered.
double median_in_place(std::vector<double>& v) {
  if (v.empty()) return kNaN;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

}  // namespace

double median(std::span<const double> values) {
  std::vector<double> scratch(values.begin(), values.end());
  return median_in_place(scratch);
}

double min(std::span<const double> values) {
  if (values.empty()) return kNaN;
  return *std::min_element(values.begin(), values.end());
}

double max(std::span<const double> values) {
  if (values.empty()) return kNaN;
  return *std::max_element(values.begin(), values.end());
}

double mean(std::span<const double> values) {
  if (values.empty()) return kNaN;
  // Two passes keep the mean exact for equal values and small for large offsets.
  const double first =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  double correction = 0;
  for (double x : values) correction += x - first;
  return first + correction / static_cast<double>(values.size());
}

double stddev(std::span<const double> values) {
  if (values.size() < 2) return kNaN;
  const double m = mean(values);
  double sum_sq = 0;
  for (double x : values) sum_sq += (x - m) * (x - m);
  return std::sqrt(sum_sq / static_cast<double>(values.size() - 1));
}

double ratio_relative_stddev(double mean_a, double stddev_a, double mean_b, double stddev_b) {
  return std::hypot(stddev_a / mean_a, stddev_b / mean_b);
}

double mad(std::span<const double> values) {
  if (values.empty()) return kNaN;
  std::vector<double> scratch(values.begin(), values.end());
  const double med = median_in_place(scratch);
  for (std::size_t i = 0; i < values.size(); ++i) scratch[i] = std::fabs(values[i] - med);
  return median_in_place(scratch);
}

SampleStats summarize(std::span<const double> values) {
  SampleStats s;
  s.n = values.size();
  if (values.empty()) {
    s.median = s.min = s.max = s.mad = s.mean = s.stddev = kNaN;
    return s;
  }
  // Linear-time selections, no full sort: summarize runs over a million rows.
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  std::vector<double> scratch(values.begin(), values.end());
  s.median = median_in_place(scratch);
  s.mean = mean(values);
  s.stddev = stddev(values);
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) scratch[i] = std::fabs(values[i] - s.median);
  s.mad = median_in_place(scratch);
  return s;
}

std::vector<double> modified_z_scores(std::span<const double> values) {
  std::vector<double> z(values.size(), 0.0);
  if (values.empty()) return z;
  const double med = median(values);
  const double m = mad(values);
  if (m > 0) {
    for (std::size_t i = 0; i < values.size(); ++i) z[i] = modified_z(values[i], med, m);
    return z;
  }
  double mean_ad = 0;
  for (double x : values) mean_ad += std::fabs(x - med);
  mean_ad /= static_cast<double>(values.size());
  if (mean_ad > 0) {
    for (std::size_t i = 0; i < values.size(); ++i) z[i] = (values[i] - med) / (1.253314 * mean_ad);
  }
  return z;
}

std::vector<std::size_t> outliers(std::span<const double> values, double threshold) {
  std::vector<std::size_t> out;
  const std::vector<double> z = modified_z_scores(values);
  for (std::size_t i = 0; i < z.size(); ++i) {
    if (std::fabs(z[i]) > threshold) out.push_back(i);
  }
  return out;
}

std::size_t count_outliers(std::span<const double> values, double median, double mad,
                           double threshold) {
  if (!(mad > 0)) return outliers(values, threshold).size();  // the mean absolute deviation's way
  return static_cast<std::size_t>(std::count_if(values.begin(), values.end(), [&](double x) {
    return std::fabs(modified_z(x, median, mad)) > threshold;
  }));
}

}  // namespace iobench::stats
