#include "driver/stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "driver/stats/distributions.hpp"

namespace iobench::stats {
namespace {

struct RankSums {
  double rank_sum_a = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of ties
};

// The midranks of the pooled sample, summed over a, and the ties' term of the variance.
RankSums rank_sums(std::span<const double> a, std::span<const double> b) {
  struct Item {
    double value;
    bool from_a;
  };
  std::vector<Item> pooled;
  pooled.reserve(a.size() + b.size());
  for (double x : a) pooled.push_back({x, true});
  for (double x : b) pooled.push_back({x, false});
  std::sort(pooled.begin(), pooled.end(),
            [](const Item& x, const Item& y) { return x.value < y.value; });
  const std::size_t total = pooled.size();
  RankSums sums;
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j < total && pooled[j].value == pooled[i].value) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = static_cast<double>(i + j + 1) / 2;  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].from_a) sums.rank_sum_a += midrank;
    }
    sums.tie_term += t * t * t - t;
    i = j;
  }
  return sums;
}

}  // namespace

// Coefficients c[u] = number of orderings of m values of a and n values of b (no ties) in which
// U_a = u: the Gaussian binomial coefficient [m+n choose m]_q, built as
// prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Boost.Math has no such distribution.
std::vector<double> mann_whitney_distribution(std::size_t m, std::size_t n) {
  if (m > n) std::swap(m, n);
  const std::size_t max_u = m * n;
  std::vector<double> c(max_u + 1, 0.0);
  c[0] = 1.0;
  for (std::size_t i = 1; i <= m; ++i) {
    // Multiply by (1 - q^(n+i)), highest degree first.
    const std::size_t shift = n + i;
    for (std::size_t k = max_u + 1; k-- > shift;) c[k] -= c[k - shift];
    // Divide by (1 - q^i): c[k] += c[k - i] in increasing k.
    for (std::size_t k = i; k <= max_u; ++k) c[k] += c[k - i];
  }
  double total = 0;
  for (double& x : c) {
    x = std::max(0.0, std::round(x));  // exact integers while they fit a double's mantissa
    total += x;
  }
  for (double& x : c) x /= total;
  return c;
}

double mann_whitney_cdf(std::size_t m, std::size_t n, std::int64_t u) {
  if (u < 0) return 0;
  if (static_cast<std::size_t>(u) >= m * n) return 1;
  const std::vector<double> dist = mann_whitney_distribution(m, n);
  double sum = 0;
  for (std::size_t k = 0; k <= static_cast<std::size_t>(u); ++k) sum += dist[k];
  return std::min(1.0, sum);
}

double smallest_p_value(std::size_t m, std::size_t n) {
  if (m == 0 || n == 0) return 1;
  // 2 / C(m+n, m), computed in logs to avoid overflow.
  const double log_choose = std::lgamma(static_cast<double>(m + n + 1)) -
                            std::lgamma(static_cast<double>(m + 1)) -
                            std::lgamma(static_cast<double>(n + 1));
  return std::min(1.0, 2 * std::exp(-log_choose));
}

MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b) {
  MannWhitney r;
  const std::size_t m = a.size();
  const std::size_t n = b.size();
  if (m == 0 || n == 0) {
    r.p_value = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  const RankSums sums = rank_sums(a, b);
  const double dm = static_cast<double>(m);
  const double dn = static_cast<double>(n);
  r.u_a = sums.rank_sum_a - dm * (dm + 1) / 2;
  r.u_b = dm * dn - r.u_a;
  const double u_big = std::max(r.u_a, r.u_b);
  if ((m <= 8 || n <= 8) && !(sums.tie_term > 0)) {
    r.exact = true;
    // P(U >= u_big) = P(U <= mn - u_big) by symmetry.
    const auto u_small = static_cast<std::int64_t>(std::llround(dm * dn - u_big));
    r.p_value = std::min(1.0, 2 * mann_whitney_cdf(m, n, u_small));
    return r;
  }
  const double dt = dm + dn;
  const double mu = dm * dn / 2;
  const double variance = dm * dn / 12 * ((dt + 1) - sums.tie_term / (dt * (dt - 1)));
  if (!(variance > 0)) {
    r.p_value = 1;  // every value equal: no evidence of a difference
    return r;
  }
  r.z = (u_big - mu - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, 2 * normal_sf(r.z));
  return r;
}

}  // namespace iobench::stats
