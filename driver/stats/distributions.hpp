#pragma once
// The distributions the tests and intervals need, from Boost.Math (full double precision; R's
// qnorm, qt, pt and pbeta give the same values): the standard normal, Student's t and the
// regularized incomplete beta. Arguments outside a function's domain give NaN, never an
// exception.
namespace iobench::stats {

// Standard normal density at z.
double normal_pdf(double z);
// Standard normal upper tail P(Z > z).
double normal_sf(double z);
// Standard normal quantile (inverse CDF), for 0 < p < 1 (R: qnorm(p)).
double normal_quantile(double p);

// Student's t quantile: the t with P(T <= t) = p, for 0 < p < 1 and df > 0 degrees of freedom,
// whole or not (R: qt(p, df)).
double student_t_quantile(double p, double df);
// Two-sided P(|T| >= |t|) for Student's t with df > 0 degrees of freedom (R: 2 * pt(-|t|, df)).
double student_t_two_sided_p(double t, double df);

// The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1: the CDF of
// the Beta(a, b) distribution at x (R: pbeta(x, a, b)).
double regularized_incomplete_beta(double a, double b, double x);

}  // namespace iobench::stats
