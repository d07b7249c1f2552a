#include "driver/report/two_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "driver/stats/descriptive.hpp"

namespace iobench::report {
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

// The largest split_t over the splits that leave min_runs a side; split 0 when there is none.
TwoLevels best_split(std::span<const double> series, std::size_t min_runs) {
  TwoLevels best;
  for (std::size_t k = min_runs; k + min_runs <= series.size(); ++k) {
    const double t = split_t(series, k);
    if (t > best.t) best = TwoLevels{k, t};
  }
  return best;
}

// The indices of `series` kept when each segment of `split` leaves out its strays.
std::vector<std::size_t> kept_runs(std::span<const double> series, std::size_t split) {
  std::vector<std::size_t> kept;
  kept.reserve(series.size());
  for (const std::size_t begin : {std::size_t{0}, split}) {
    const std::size_t end = begin == 0 ? split : series.size();
    const std::vector<std::size_t> strays =
        stats::outliers(series.subspan(begin, end - begin), kStrayZ);
    std::size_t next = 0;
    for (std::size_t i = begin; i < end; ++i) {
      if (next < strays.size() && strays[next] == i - begin) {
        ++next;
      } else {
        kept.push_back(i);
      }
    }
  }
  return kept;
}

}  // namespace

TwoLevels split_without_strays(std::span<const double> series, std::size_t min_runs) {
  const TwoLevels first = best_split(series, min_runs);
  if (first.split == 0) return first;
  const std::vector<std::size_t> kept = kept_runs(series, first.split);
  if (kept.size() == series.size()) return first;
  std::vector<double> trimmed;
  trimmed.reserve(kept.size());
  for (const std::size_t i : kept) trimmed.push_back(series[i]);
  const TwoLevels again = best_split(trimmed, min_runs);
  if (again.split == 0) return first;
  return TwoLevels{kept[again.split], again.t};
}

std::optional<TwoLevels> find_two_levels(std::span<const double> series,
                                         const TwoLevelsOptions& options) {
  const std::size_t min_runs = options.min_runs_per_level < 1 ? 1 : options.min_runs_per_level;
  if (series.size() < 2 * min_runs || series.size() < 3) return std::nullopt;
  const TwoLevels best = split_without_strays(series, min_runs);
  if (best.split == 0 || best.t < options.min_t) return std::nullopt;
  const double first = stats::median(series.first(best.split));
  const double second = stats::median(series.subspan(best.split));
  const double lower = std::min(first, second);
  if (!(lower > 0) || std::fabs(first - second) < options.min_step * lower) return std::nullopt;
  return best;
}

}  // namespace iobench::report
