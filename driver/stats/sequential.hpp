#pragma once
// Deciding a comparison while its runs come in (docs/reports.md, "Deciding a comparison"): after
// each round, the test's elapsed times against the reference's (same input and sink) are either
// decided, "different" or "equivalent", or not yet, until a budget of runs.
//
// The rule, exactly. A plan has a first look at `first_look_runs` ok runs a side, then one look
// per further run a side (at most 30 looks, spread evenly over a longer span), the last at
// `max_runs` (the budget); alpha is the overall two-sided error rate (default 0.05). Look k is
// planned at n_k runs a side and made once the smaller side has them; its information fraction
// is t_k = n_k / max_runs (the Mann-Whitney statistic's
// information grows as m n / (m + n), n / 2 for equal sides). The alpha spent by fraction t is
// Lan and DeMets' O'Brien-Fleming-like function, alpha / 2 on each side
//     alpha(t) = 2 (2 - 2 Phi(z_{1 - alpha/4} / sqrt(t))),
// and look k's two-sided boundary c_k is the one at which the probability of first crossing at
// look k, for standardized statistics Z_1..Z_K with the canonical (Brownian) joint distribution
// corr(Z_j, Z_k) = sqrt(t_j / t_k), equals alpha(t_k) - alpha(t_{k-1}) (Armitage, McPherson and
// Rowe's recursive integration; the Wilcoxon-Mann-Whitney statistic follows that distribution
// asymptotically). The look's nominal level is alpha_k = 2 (1 - Phi(c_k)), and its interval is
// the distribution-free Hodges-Lehmann / Bauer interval of the ratio test / reference at
// confidence 1 - alpha_k (hodges_lehmann.hpp): Jennison and Turnbull's repeated confidence
// intervals, which hold the true ratio at every look at once with probability 1 - alpha. So:
//   - "different" when the look's interval excludes 1: wrongly so with probability <= alpha
//     over all looks together, not per look;
//   - else "equivalent" when it lies within [1 - margin, 1 + margin] (default margin 1 %);
//   - else, at n_k >= max_runs, "budget": the runs are spent and neither was shown;
//   - else keep going (also when the samples are too small to reach the look's level).
// A difference inside the margin is "different" (the interval excludes 1; the margin only says
// when no difference is small enough not to matter). A look that is skipped (a round whose runs
// failed) only lowers the error rate. Each test's comparison with the reference has its own
// alpha, as `iobench compare` judges each group on its own. A paired plan uses the first
// min(m, n) runs of each side as pairs.
// How the decision is said is report's (report/sequential.hpp).
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "driver/stats/hodges_lehmann.hpp"

namespace iobench::stats {

struct SequentialPlan {
  std::size_t first_look_runs = 5;  // ok runs a side at the first look
  std::size_t max_runs = 10;        // the budget: ok runs a side at the last look
  double alpha = 0.05;              // overall two-sided error rate of "different"
  double margin = 0.01;             // "equivalent": the interval within [1 - margin, 1 + margin]
  // Run i of each side measured together (in one interleaved round): the interval is the
  // signed-rank one of the pairs' ratios (signed_rank.hpp), so what moves a round cancels; the
  // signed-rank statistic's information grows as n, so the looks and boundaries are the same.
  bool paired = false;
};

// Lan and DeMets' O'Brien-Fleming-like spending function, alpha / 2 a side: the two-sided alpha
// spent by information fraction t (0 at t <= 0, alpha at t >= 1).
double obrien_fleming_spent(double alpha, double information_fraction);

struct Look {
  std::size_t runs = 0;             // ok runs a side
  double information_fraction = 0;  // runs / max_runs
  double z_boundary = 0;            // two-sided; infinite when nothing is spent there
  double nominal_alpha = 0;         // 2 (1 - Phi(z_boundary)): the interval's 1 - confidence
};

// The plan's looks, first to last. Throws std::invalid_argument for a plan with no look
// (first_look_runs 0 or above max_runs), alpha outside (0, 1) or a negative margin.
std::vector<Look> plan_looks(const SequentialPlan& plan);

enum class Decision { kContinue, kDifferent, kEquivalent, kBudget };

struct SequentialResult {
  Decision decision = Decision::kContinue;
  std::size_t runs = 0;              // ok runs a side the look used (the smaller side)
  std::size_t look = 0;              // which look (1 = the first); 0 before the first
  double confidence = 0;             // of the look's interval; 0 before the first look
  std::optional<Interval> interval;  // of the ratio test / reference; empty: too few runs
  // The ratio test / reference the interval goes with: the pairs' pseudo-median (paired_ratio)
  // or the Hodges-Lehmann ratio; NaN before the first look. Not the ratio of the medians, which
  // may lie outside the interval.
  double estimate = std::numeric_limits<double>::quiet_NaN();
};

class SequentialRule {
 public:
  explicit SequentialRule(const SequentialPlan& plan);
  // The decision after a round, at the last look whose runs the smaller side has; call it once
  // per look (look_at tells when it changes): a look repeated on more data spends its alpha
  // twice.
  [[nodiscard]] SequentialResult decide(std::span<const double> reference_s,
                                        std::span<const double> test_s) const;
  // The look (1 = the first) that `runs` ok runs a side have reached; 0 before the first.
  [[nodiscard]] std::size_t look_at(std::size_t runs) const;
  [[nodiscard]] const SequentialPlan& plan() const { return plan_; }
  [[nodiscard]] const std::vector<Look>& looks() const { return looks_; }

 private:
  SequentialPlan plan_;
  std::vector<Look> looks_;
};

}  // namespace iobench::stats
