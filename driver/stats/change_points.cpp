#include "driver/stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/welch.hpp"

namespace iobench::stats {
namespace {

struct Candidate {
  std::size_t index = 0;
  double p_value = 1;
  double divergence = 0;
};

// The best split of x[begin, end) (each side at least min_segment), tested against its sides.
std::optional<Candidate> best_split(std::span<const double> x, std::size_t begin, std::size_t end,
                                    std::size_t min_segment) {
  if (end - begin < 2 * min_segment) return std::nullopt;
  const std::span<const double> segment = x.subspan(begin, end - begin);
  const std::vector<double> divergences = energy_divergences(segment);
  Candidate best;
  best.divergence = -std::numeric_limits<double>::infinity();
  for (std::size_t tau = min_segment; tau + min_segment <= segment.size(); ++tau) {
    const double q = divergences[tau - 1];
    if (q > best.divergence) {
      best.divergence = q;
      best.index = begin + tau;
    }
  }
  best.p_value =
      welch_t_test(x.subspan(begin, best.index - begin), x.subspan(best.index, end - best.index))
          .p_value;
  return best;
}

ChangePoint describe(std::span<const double> x, std::size_t begin, std::size_t index,
                     std::size_t end) {
  const auto before = x.subspan(begin, index - begin);
  const auto after = x.subspan(index, end - index);
  ChangePoint point;
  point.index = index;
  point.p_value = welch_t_test(before, after).p_value;
  point.mean_before = mean(before);
  point.mean_after = mean(after);
  return point;
}

std::vector<std::size_t> split_top_down(std::span<const double> x, const DetectorOptions& options) {
  std::vector<std::size_t> points;
  for (;;) {
    std::optional<Candidate> chosen;
    std::size_t begin = 0;
    for (std::size_t i = 0; i <= points.size(); ++i) {
      const std::size_t end = i < points.size() ? points[i] : x.size();
      const auto candidate = best_split(x, begin, end, options.min_segment);
      begin = end;
      if (!candidate) continue;
      if (!chosen || candidate->p_value < chosen->p_value ||
          (candidate->p_value == chosen->p_value && candidate->divergence > chosen->divergence)) {
        chosen = candidate;
      }
    }
    if (!chosen || !(chosen->p_value < 10 * options.max_p_value)) return points;
    points.insert(std::upper_bound(points.begin(), points.end(), chosen->index), chosen->index);
  }
}

}  // namespace

double energy_divergence(std::span<const double> x, std::size_t tau) {
  const std::size_t n = x.size();
  double between = 0;
  for (std::size_t i = 0; i < tau; ++i)
    for (std::size_t j = tau; j < n; ++j) between += std::fabs(x[i] - x[j]);
  const auto within = [&](std::size_t from, std::size_t to) {
    double sum = 0;
    for (std::size_t i = from; i < to; ++i)
      for (std::size_t j = i + 1; j < to; ++j) sum += std::fabs(x[i] - x[j]);
    const double pairs = static_cast<double>(to - from) * static_cast<double>(to - from - 1) / 2;
    return pairs > 0 ? sum / pairs : 0.0;
  };
  const double m = static_cast<double>(tau);
  const double k = static_cast<double>(n - tau);
  const double divergence = 2 * between / (m * k) - within(0, tau) - within(tau, n);
  return m * k / static_cast<double>(n) * divergence;
}

std::vector<double> energy_divergences(std::span<const double> x) {
  const std::size_t n = x.size();
  std::vector<double> q;
  if (n < 2) return q;
  double total = 0;  // every pair
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) total += std::fabs(x[i] - x[j]);
  double left = 0;       // pairs within x[0, tau)
  double right = total;  // pairs within x[tau, n)
  for (std::size_t tau = 1; tau < n; ++tau) {
    // x[tau - 1] moves from the right side to the left.
    for (std::size_t i = 0; i + 1 < tau; ++i) left += std::fabs(x[i] - x[tau - 1]);
    for (std::size_t j = tau; j < n; ++j) right -= std::fabs(x[tau - 1] - x[j]);
    const double m = static_cast<double>(tau);
    const double k = static_cast<double>(n - tau);
    const double between = total - left - right;
    const double within_left = tau > 1 ? left / (m * (m - 1) / 2) : 0.0;
    const double within_right = n - tau > 1 ? right / (k * (k - 1) / 2) : 0.0;
    q.push_back(m * k / static_cast<double>(n) *
                (2 * between / (m * k) - within_left - within_right));
  }
  return q;
}

std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const DetectorOptions& options) {
  std::vector<std::size_t> points = split_top_down(series, options);
  std::vector<ChangePoint> described;
  for (;;) {
    described.clear();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t begin = i == 0 ? 0 : points[i - 1];
      const std::size_t end = i + 1 < points.size() ? points[i + 1] : series.size();
      described.push_back(describe(series, begin, points[i], end));
    }
    // The weakest: one that fails the minimum change first, else the largest p.
    std::optional<std::size_t> weakest;
    for (std::size_t i = 0; i < described.size(); ++i) {
      const bool small = std::fabs(described[i].relative_change()) < options.min_relative_change;
      const bool weak = !(described[i].p_value < options.max_p_value);
      if (!small && !weak) continue;
      if (!weakest || described[i].p_value > described[*weakest].p_value) weakest = i;
    }
    if (!weakest) return described;
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(*weakest));
  }
}

}  // namespace iobench::stats
