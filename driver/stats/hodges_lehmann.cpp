#include "driver/stats/hodges_lehmann.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/distributions.hpp"
#include "driver/stats/mann_whitney.hpp"

namespace iobench::stats {
namespace {

bool all_positive(std::span<const double> values) {
  return std::all_of(values.begin(), values.end(), [](double x) { return x > 0; });
}

std::vector<double> pairwise_ratios(std::span<const double> base,
                                    std::span<const double> candidate) {
  std::vector<double> ratios;
  ratios.reserve(base.size() * candidate.size());
  for (double x : base) {
    for (double y : candidate) ratios.push_back(y / x);
  }
  return ratios;
}

// k: the largest count with P(U <= k - 1) <= alpha / 2, so that [r_(k), r_(mn+1-k)] covers the
// true ratio with probability 1 - alpha at least. 0 when no such count exists.
std::size_t order_statistic(std::size_t m, std::size_t n, double alpha) {
  const std::size_t mn = m * n;
  if (m + n > 60) {
    const double dm = static_cast<double>(m);
    const double dn = static_cast<double>(n);
    const double z = normal_quantile(1 - alpha / 2);
    const double k = std::floor(dm * dn / 2 - z * std::sqrt(dm * dn * (dm + dn + 1) / 12));
    return k < 0 ? 0 : static_cast<std::size_t>(k);
  }
  const std::vector<double> dist = mann_whitney_distribution(m, n);
  std::size_t k = 0;
  double cdf = 0;
  while (k < mn) {
    cdf += dist[k];
    if (cdf > alpha / 2 + 1e-12) break;
    ++k;
  }
  return k;
}

}  // namespace

double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b) {
  std::vector<double> differences;
  differences.reserve(a.size() * b.size());
  for (double x : a) {
    for (double y : b) differences.push_back(x - y);
  }
  return median(differences);
}

double hodges_lehmann_ratio(std::span<const double> base, std::span<const double> candidate) {
  if (!all_positive(base)) return std::numeric_limits<double>::quiet_NaN();
  return median(pairwise_ratios(base, candidate));
}

std::optional<Interval> ratio_confidence_interval(std::span<const double> base,
                                                  std::span<const double> candidate,
                                                  double confidence) {
  const std::size_t m = base.size();
  const std::size_t n = candidate.size();
  if (m == 0 || n == 0 || !(confidence > 0 && confidence < 1)) return std::nullopt;
  if (!all_positive(base)) return std::nullopt;  // ratios need positive times
  const std::size_t mn = m * n;
  const std::size_t k = order_statistic(m, n, 1 - confidence);
  if (k == 0 || 2 * k > mn + 1) return std::nullopt;
  std::vector<double> ratios = pairwise_ratios(base, candidate);
  std::sort(ratios.begin(), ratios.end());
  return Interval{ratios[k - 1], ratios[mn - k]};
}

}  // namespace iobench::stats
