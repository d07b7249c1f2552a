#include "driver/stats/signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/distributions.hpp"

namespace iobench::stats {
namespace {

// Above this many pairs the exact distribution (n^3 / 4 additions) gives way to the normal one.
constexpr std::size_t kExactPairsMax = 200;

// The pairs' log ratios; empty when a time is not positive.
std::vector<double> log_ratios(std::span<const double> base, std::span<const double> candidate) {
  const std::size_t n = std::min(base.size(), candidate.size());
  std::vector<double> logs;
  logs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!(base[i] > 0 && candidate[i] > 0)) return {};
    logs.push_back(std::log(candidate[i] / base[i]));
  }
  return logs;
}

std::vector<double> walsh_averages(const std::vector<double>& d) {
  std::vector<double> averages;
  averages.reserve(d.size() * (d.size() + 1) / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) averages.push_back((d[i] + d[j]) / 2);
  }
  return averages;
}

// k: the largest count with P(T+ <= k - 1) <= alpha / 2; 0 when none exists.
std::size_t order_statistic(std::size_t n, double alpha) {
  const double dn = static_cast<double>(n);
  if (n > kExactPairsMax) {
    const double z = normal_quantile(1 - alpha / 2);
    const double k =
        std::floor(dn * (dn + 1) / 4 - z * std::sqrt(dn * (dn + 1) * (2 * dn + 1) / 24));
    return k < 0 ? 0 : static_cast<std::size_t>(k);
  }
  const std::vector<double> dist = signed_rank_distribution(n);
  std::size_t k = 0;
  double cdf = 0;
  while (k + 1 < dist.size()) {  // k at most n (n + 1) / 2
    cdf += dist[k];
    if (cdf > alpha / 2 + 1e-12) break;
    ++k;
  }
  return k;
}

}  // namespace

std::vector<double> signed_rank_distribution(std::size_t n) {
  const std::size_t top = n * (n + 1) / 2;
  std::vector<double> dist(top + 1, 0.0);
  dist[0] = 1;
  // Adding rank r: each pattern's sum stays or grows by r, each with probability 1/2.
  for (std::size_t r = 1; r <= n; ++r) {
    for (std::size_t t = r * (r + 1) / 2; t >= r; --t) dist[t] = (dist[t] + dist[t - r]) / 2;
    for (std::size_t t = 0; t < r; ++t) dist[t] /= 2;
  }
  return dist;
}

double paired_ratio(std::span<const double> base, std::span<const double> candidate) {
  const std::vector<double> d = log_ratios(base, candidate);
  if (d.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::exp(median(walsh_averages(d)));
}

std::optional<Interval> paired_ratio_interval(std::span<const double> base,
                                              std::span<const double> candidate,
                                              double confidence) {
  if (!(confidence > 0 && confidence < 1)) return std::nullopt;
  const std::vector<double> d = log_ratios(base, candidate);
  if (d.empty()) return std::nullopt;
  const std::size_t k = order_statistic(d.size(), 1 - confidence);
  std::vector<double> averages = walsh_averages(d);
  const std::size_t count = averages.size();
  if (k == 0 || 2 * k > count + 1) return std::nullopt;
  std::sort(averages.begin(), averages.end());
  return Interval{std::exp(averages[k - 1]), std::exp(averages[count - k])};
}

}  // namespace iobench::stats
