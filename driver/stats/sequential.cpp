#include "driver/stats/sequential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "driver/stats/distributions.hpp"
#include "driver/stats/hodges_lehmann.hpp"
#include "driver/stats/signed_rank.hpp"

namespace iobench::stats {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Below this a look spends nothing worth a boundary (the integration's own error is larger).
constexpr double kNothingSpent = 1e-13;
// Where the continuation density is cut off when a look has no boundary: 9 standard deviations
// of S(t) leave less than 1e-18 outside.
constexpr double kDensityReach = 9;
// A plan with a long budget looks this often at most: each look costs a convolution on the
// grid, and more looks gain little power once they are a few runs apart.
constexpr std::size_t kMaxLooks = 30;

// The density of the score S(t) = Z(t) sqrt(t) on the paths that have not crossed yet,
// on an evenly spaced grid with Simpson weights (an odd number of points).
struct Density {
  std::vector<double> s;
  std::vector<double> weighted;  // density times Simpson weight
};

std::vector<double> simpson_weights(std::size_t points, double step) {
  std::vector<double> w(points, 0.0);
  for (std::size_t i = 0; i < points; ++i) {
    const bool end = i == 0 || i + 1 == points;
    w[i] = step / 3 * (end ? 1 : (i % 2 == 1 ? 4 : 2));
  }
  return w;
}

// An odd number of points over [-reach, reach], spaced at most an eighth of `sigma` (the width
// of the kernel the next look integrates against) and 0.02 apart.
std::vector<double> grid(double reach, double sigma) {
  const double step_max = std::min(0.02, sigma / 8);
  std::size_t points = static_cast<std::size_t>(std::ceil(2 * reach / step_max)) + 1;
  points = std::clamp<std::size_t>(points | 1, 101, 4001);
  std::vector<double> s(points);
  const double step = 2 * reach / static_cast<double>(points - 1);
  for (std::size_t i = 0; i < points; ++i) s[i] = -reach + step * static_cast<double>(i);
  return s;
}

// Probability that a path still inside at the previous look is outside ±b (on the score's
// scale) at this one, `sigma` being the standard deviation of the increment between them.
double exit_probability(const Density& before, double b, double sigma) {
  double p = 0;
  for (std::size_t i = 0; i < before.s.size(); ++i) {
    const double u = before.s[i];
    p += before.weighted[i] * (normal_sf((b - u) / sigma) + normal_sf((b + u) / sigma));
  }
  return p;
}

// The boundary b (score scale) with exit_probability(b) == spend, by bisection.
double solve_boundary(const Density& before, double sigma, double spend, double reach) {
  double low = 0;
  double high = reach;
  for (int i = 0; i < 200 && high - low > 1e-12; ++i) {
    const double mid = (low + high) / 2;
    (exit_probability(before, mid, sigma) > spend ? low : high) = mid;
  }
  return (low + high) / 2;
}

// The density inside ±b after an increment of standard deviation `sigma` (convolution).
Density advance(const Density& before, double b, double sigma, double next_sigma) {
  Density after;
  after.s = grid(b, next_sigma);
  const std::vector<double> w = simpson_weights(after.s.size(), after.s[1] - after.s[0]);
  after.weighted.resize(after.s.size());
  for (std::size_t j = 0; j < after.s.size(); ++j) {
    double f = 0;
    for (std::size_t i = 0; i < before.s.size(); ++i)
      f += before.weighted[i] * normal_pdf((after.s[j] - before.s[i]) / sigma) / sigma;
    after.weighted[j] = f * w[j];
  }
  return after;
}

// The first look: S(t_1) ~ N(0, t_1), boundary from the normal quantile.
Density first_density(double t, double b, double next_sigma) {
  Density d;
  d.s = grid(b, next_sigma);
  const std::vector<double> w = simpson_weights(d.s.size(), d.s[1] - d.s[0]);
  d.weighted.resize(d.s.size());
  const double sd = std::sqrt(t);
  for (std::size_t i = 0; i < d.s.size(); ++i) d.weighted[i] = normal_pdf(d.s[i] / sd) / sd * w[i];
  return d;
}

void validate(const SequentialPlan& plan) {
  if (plan.first_look_runs == 0 || plan.first_look_runs > plan.max_runs)
    throw std::invalid_argument("a sequential plan needs 1 <= first look runs <= max runs");
  if (!(plan.alpha > 0 && plan.alpha < 1))
    throw std::invalid_argument("a sequential plan's alpha is between 0 and 1");
  if (!(plan.margin >= 0)) throw std::invalid_argument("a sequential plan's margin is >= 0");
}

// Two-sided boundaries for looks at information fractions `t` (increasing, last 1) that spend
// `spent[k] - spent[k-1]` at look k.
std::vector<double> z_boundaries(const std::vector<double>& t, const std::vector<double>& spent) {
  std::vector<double> z(t.size(), kInfinity);
  const auto sigma_after = [&](std::size_t k) {
    return k + 1 < t.size() ? std::sqrt(t[k + 1] - t[k]) : 1.0;
  };
  Density density;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double spend = spent[k] - (k == 0 ? 0.0 : spent[k - 1]);
    const double reach = kDensityReach * std::sqrt(t[k]);
    double b = reach;  // on the score's scale; `reach` stands for no boundary
    if (k == 0) {
      if (spend > kNothingSpent)
        b = std::min(reach, normal_quantile(1 - spend / 2) * std::sqrt(t[0]));
      density = first_density(t[0], b, sigma_after(0));
    } else {
      const double sigma = std::sqrt(t[k] - t[k - 1]);
      if (spend > kNothingSpent) b = solve_boundary(density, sigma, spend, reach);
      if (k + 1 < t.size()) density = advance(density, b, sigma, sigma_after(k));
    }
    if (spend > kNothingSpent && b < reach) z[k] = b / std::sqrt(t[k]);
  }
  return z;
}

// The runs a side of each look: every run from the first look to the budget, or, past
// kMaxLooks of them, kMaxLooks counts spread evenly over that span (the last at the budget).
std::vector<std::size_t> look_runs(const SequentialPlan& plan) {
  const std::size_t span = plan.max_runs - plan.first_look_runs;
  std::vector<std::size_t> runs;
  if (span + 1 <= kMaxLooks) {
    for (std::size_t r = plan.first_look_runs; r <= plan.max_runs; ++r) runs.push_back(r);
    return runs;
  }
  for (std::size_t k = 0; k < kMaxLooks; ++k) {
    const std::size_t r = plan.first_look_runs + (span * k + (kMaxLooks - 1) / 2) / (kMaxLooks - 1);
    if (runs.empty() || r > runs.back()) runs.push_back(r);
  }
  return runs;
}

}  // namespace

double obrien_fleming_spent(double alpha, double information_fraction) {
  if (!(information_fraction > 0)) return 0;
  if (information_fraction >= 1) return alpha;
  // Each side spends alpha / 2 by the one-sided function 2 - 2 Phi(z_{1 - a/2} / sqrt(t)) with
  // a = alpha / 2, as ldbounds and gsDesign's sfLDOF apply it to a two-sided test.
  const double z = normal_quantile(1 - alpha / 4);
  return 2 * (2 * normal_sf(z / std::sqrt(information_fraction)));
}

std::vector<Look> plan_looks(const SequentialPlan& plan) {
  validate(plan);
  const std::vector<std::size_t> runs = look_runs(plan);
  std::vector<double> t;
  std::vector<double> spent;
  for (const std::size_t r : runs) {
    t.push_back(static_cast<double>(r) / static_cast<double>(plan.max_runs));
    spent.push_back(obrien_fleming_spent(plan.alpha, t.back()));
  }
  const std::vector<double> z = z_boundaries(t, spent);
  std::vector<Look> looks(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    looks[k].runs = runs[k];
    looks[k].information_fraction = t[k];
    looks[k].z_boundary = z[k];
    looks[k].nominal_alpha = std::isinf(z[k]) ? 0.0 : 2 * normal_sf(z[k]);
  }
  return looks;
}

SequentialRule::SequentialRule(const SequentialPlan& plan)
    : plan_(plan), looks_(plan_looks(plan)) {}

SequentialResult SequentialRule::decide(std::span<const double> reference_s,
                                        std::span<const double> test_s) const {
  SequentialResult result;
  result.runs = std::min(reference_s.size(), test_s.size());
  result.look = look_at(result.runs);
  if (result.look == 0) return result;
  const Look& look = looks_[result.look - 1];
  const bool last = result.runs >= plan_.max_runs;
  result.estimate =
      plan_.paired ? paired_ratio(reference_s, test_s) : hodges_lehmann_ratio(reference_s, test_s);
  if (look.nominal_alpha > 0) {
    result.confidence = 1 - look.nominal_alpha;
    result.interval = plan_.paired
                          ? paired_ratio_interval(reference_s, test_s, result.confidence)
                          : ratio_confidence_interval(reference_s, test_s, result.confidence);
  }
  if (result.interval) {
    const Interval& i = *result.interval;
    if (i.low > 1 || i.high < 1) {
      result.decision = Decision::kDifferent;
      return result;
    }
    if (i.low >= 1 - plan_.margin && i.high <= 1 + plan_.margin) {
      result.decision = Decision::kEquivalent;
      return result;
    }
  }
  if (last) result.decision = Decision::kBudget;
  return result;
}

std::size_t SequentialRule::look_at(std::size_t runs) const {
  const auto after =
      std::upper_bound(looks_.begin(), looks_.end(), runs,
                       [](std::size_t r, const Look& look) { return r < look.runs; });
  return static_cast<std::size_t>(after - looks_.begin());
}

}  // namespace iobench::stats
