#include "driver/stats/two_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "driver/stats/descriptive.hpp"

namespace iobench::stats {
namespace {

struct Moments {
  double mean = 0;
  double squares = 0;  // sum of squared deviations from the mean
};

Moments moments(std::span<const double> values) {
  Moments m;
  for (const double v : values) m.mean += v;
  m.mean /= static_cast<double>(values.size());
  for (const double v : values) m.squares += (v - m.mean) * (v - m.mean);
  return m;
}

}  // namespace

double split_t(std::span<const double> series, std::size_t split) {
  const std::size_t n = series.size();
  const Moments first = moments(series.first(split));
  const Moments second = moments(series.subspan(split));
  const double gap = std::fabs(first.mean - second.mean);
  const double pooled_sd = std::sqrt((first.squares + second.squares) / static_cast<double>(n - 2));
  if (pooled_sd == 0) return gap == 0 ? 0 : std::numeric_limits<double>::infinity();
  const double k = static_cast<double>(split);
  return gap / (pooled_sd * std::sqrt(1 / k + 1 / (static_cast<double>(n) - k)));
}

namespace {

// The runs of `segment` that are not strays.
std::vector<double> without_strays(std::span<const double> segment) {
  const std::vector<std::size_t> strays = stats::outliers(segment, kStrayZ);
  std::vector<double> kept;
  kept.reserve(segment.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (next < strays.size() && strays[next] == i) {
      ++next;
    } else {
      kept.push_back(segment[i]);
    }
  }
  return kept;
}

double absolute_deviations(std::span<const double> segment) {
  const double middle = stats::median(segment);
  double sum = 0;
  for (const double v : segment) sum += std::fabs(v - middle);
  return sum;
}

}  // namespace

std::size_t median_split(std::span<const double> series, std::size_t min_runs) {
  std::size_t best = 0;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t k = min_runs; k + min_runs <= series.size(); ++k) {
    const double cost =
        absolute_deviations(series.first(k)) + absolute_deviations(series.subspan(k));
    if (cost < best_cost) {
      best = k;
      best_cost = cost;
    }
  }
  return best;
}

double split_t_without_strays(std::span<const double> series, std::size_t split,
                              std::size_t min_runs) {
  std::vector<double> kept = without_strays(series.first(split));
  const std::size_t first = kept.size();
  const std::vector<double> second = without_strays(series.subspan(split));
  if (first < min_runs || second.size() < min_runs) return 0;
  kept.insert(kept.end(), second.begin(), second.end());
  return split_t(kept, first);
}

std::optional<TwoLevels> find_two_levels(std::span<const double> series,
                                         const TwoLevelsOptions& options) {
  const std::size_t min_runs = options.min_runs_per_level < 1 ? 1 : options.min_runs_per_level;
  if (series.size() < 2 * min_runs || series.size() < 3) return std::nullopt;
  const std::size_t split = median_split(series, min_runs);
  if (split == 0) return std::nullopt;
  const TwoLevels best{split, split_t_without_strays(series, split, min_runs)};
  if (best.t < options.min_t) return std::nullopt;
  const double first = stats::median(series.first(best.split));
  const double second = stats::median(series.subspan(best.split));
  const double lower = std::min(first, second);
  if (!(lower > 0) || std::fabs(first - second) < options.min_step * lower) return std::nullopt;
  return best;
}

}  // namespace iobench::stats
