#include "driver/report/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace iobench::report {
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

// Coefficients c[u] = number of orderings of m values of a and n values of b (no ties) in which
// U_a = u: the Gaussian binomial coefficient [m+n choose m]_q, built as
// prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Kept as probabilities (divided by C(m+n, m)).
std::vector<double> u_distribution(std::size_t m, std::size_t n) {
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

double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) return kNaN;
  // Acklam's rational approximation, then two Newton steps on erfc for full double precision.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - 0.02425) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  for (int i = 0; i < 2; ++i) {
    const double e = (1 - normal_sf(x)) - p;
    const double pdf = std::exp(-x * x / 2) / std::sqrt(2 * M_PI);
    x -= e / pdf;
  }
  return x;
}

double mann_whitney_cdf(std::size_t m, std::size_t n, std::int64_t u) {
  if (u < 0) return 0;
  if (static_cast<std::size_t>(u) >= m * n) return 1;
  const std::vector<double> dist = u_distribution(m, n);
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
    r.p_value = kNaN;
    return r;
  }
  // Midranks of the pooled sample.
  struct Item {
    double value;
    bool from_a;
  };
  std::vector<Item> pooled;
  pooled.reserve(m + n);
  for (double x : a) pooled.push_back({x, true});
  for (double x : b) pooled.push_back({x, false});
  std::sort(pooled.begin(), pooled.end(),
            [](const Item& x, const Item& y) { return x.value < y.value; });
  const std::size_t total = m + n;
  double rank_sum_a = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of ties
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j < total && pooled[j].value == pooled[i].value) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = static_cast<double>(i + j + 1) / 2;  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].from_a) rank_sum_a += midrank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  const double dm = static_cast<double>(m);
  const double dn = static_cast<double>(n);
  r.u_a = rank_sum_a - dm * (dm + 1) / 2;
  r.u_b = dm * dn - r.u_a;
  const double u_big = std::max(r.u_a, r.u_b);
  const bool ties = tie_term > 0;
  if ((m <= 8 || n <= 8) && !ties) {
    r.exact = true;
    // P(U >= u_big) = P(U <= mn - u_big) by symmetry.
    const auto u_small = static_cast<std::int64_t>(std::llround(dm * dn - u_big));
    r.p_value = std::min(1.0, 2 * mann_whitney_cdf(m, n, u_small));
    return r;
  }
  const double dt = dm + dn;
  const double mu = dm * dn / 2;
  const double variance = dm * dn / 12 * ((dt + 1) - tie_term / (dt * (dt - 1)));
  if (!(variance > 0)) {
    r.p_value = 1;  // every value equal: no evidence of a difference
    return r;
  }
  r.z = (u_big - mu - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, 2 * normal_sf(r.z));
  return r;
}

std::optional<Interval> ratio_confidence_interval(std::span<const double> base,
                                                  std::span<const double> candidate,
                                                  double confidence) {
  const std::size_t m = base.size();
  const std::size_t n = candidate.size();
  if (m == 0 || n == 0 || !(confidence > 0 && confidence < 1)) return std::nullopt;
  for (double x : base) {
    if (!(x > 0)) return std::nullopt;  // ratios need positive times
  }
  const double alpha = 1 - confidence;
  const std::size_t mn = m * n;
  // k: the largest count with P(U <= k - 1) <= alpha / 2; the interval is [r_(k), r_(mn+1-k)].
  std::size_t k = 0;
  if (m + n <= 60) {
    const std::vector<double> dist = u_distribution(m, n);
    double cdf = 0;
    while (k < mn) {
      cdf += dist[k];
      if (cdf > alpha / 2 + 1e-12) break;
      ++k;
    }
  } else {
    const double dm = static_cast<double>(m);
    const double dn = static_cast<double>(n);
    const double z = normal_quantile(1 - alpha / 2);
    const double kk = std::floor(dm * dn / 2 - z * std::sqrt(dm * dn * (dm + dn + 1) / 12));
    k = kk < 0 ? 0 : static_cast<std::size_t>(kk);
  }
  if (k == 0 || 2 * k > mn + 1) return std::nullopt;
  std::vector<double> ratios;
  ratios.reserve(mn);
  for (double x : base) {
    for (double y : candidate) ratios.push_back(y / x);
  }
  std::sort(ratios.begin(), ratios.end());
  return Interval{ratios[k - 1], ratios[mn - k]};
}

}  // namespace iobench::report
