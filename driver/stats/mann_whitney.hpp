#pragma once
// The Mann-Whitney U (Wilcoxon rank-sum) test, two-sided, and the exact distribution of U that
// it and the Hodges-Lehmann interval (hodges_lehmann.hpp) share.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace iobench::stats {

struct MannWhitney {
  double u_a = 0;      // U of sample a: pairs (a_i, b_j) with a_i > b_j, ties counting 1/2
  double u_b = 0;      // n_a * n_b - u_a
  double p_value = 1;  // two-sided
  bool exact = false;  // exact distribution used (no ties, a sample of 8 or fewer); else normal
  double z = 0;        // the normal approximation's z (0 when exact)
};
// As scipy.stats.mannwhitneyu(a, b, alternative="two-sided") with method "auto" and
// use_continuity=True, which Google Benchmark's compare.py calls: exact when there are no ties
// and a sample has 8 or fewer values, else the normal approximation with the tie correction of
// the variance and a continuity correction of 0.5. NaN p-value when a sample is empty. R's
// wilcox.test(a, b)$p.value is the same where R takes the same way (R is exact without ties
// when both samples have fewer than 50 values).
MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b);

// P(U = u) under H0 for samples of sizes m and n without ties, for u = 0 .. m * n.
std::vector<double> mann_whitney_distribution(std::size_t m, std::size_t n);
// P(U <= u) under H0 for samples of sizes m and n without ties (exact distribution).
double mann_whitney_cdf(std::size_t m, std::size_t n, std::int64_t u);
// The smallest two-sided p-value any outcome can reach with sizes m and n (2 / C(m+n, m),
// at most 1): a difference cannot be significant at an alpha below it.
double smallest_p_value(std::size_t m, std::size_t n);

}  // namespace iobench::stats
