#include "driver/stats/distributions.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>

namespace iobench::stats {
namespace {

namespace policies = boost::math::policies;
// Boost.Math throws on a bad argument by default; here a bad argument gives NaN (and a pole or
// an overflow infinity), as the rest of stats/ does, so that no caller needs a try block. Doubles
// stay doubles (Boost would compute in long double): the sequential rule's integration calls the
// normal density and tail millions of times, three times slower in long double, for no digit
// the tests can see.
using Policy = policies::policy<
    policies::domain_error<policies::ignore_error>, policies::pole_error<policies::ignore_error>,
    policies::overflow_error<policies::ignore_error>,
    policies::evaluation_error<policies::ignore_error>, policies::promote_double<false>>;
using Normal = boost::math::normal_distribution<double, Policy>;
using StudentT = boost::math::students_t_distribution<double, Policy>;

// What a function of a probability returns outside its domain.
constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double normal_pdf(double z) {
  if (std::isnan(z)) return kNoValue;
  return boost::math::pdf(Normal{}, z);
}

double normal_sf(double z) {
  if (std::isnan(z)) return kNoValue;
  return boost::math::cdf(boost::math::complement(Normal{}, z));
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) return kNoValue;
  return boost::math::quantile(Normal{}, p);
}

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0)) return kNoValue;
  return boost::math::quantile(StudentT{df}, p);
}

double student_t_two_sided_p(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return kNoValue;
  if (std::isinf(t)) return 0;
  return 2 * boost::math::cdf(boost::math::complement(StudentT{df}, std::fabs(t)));
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0 && b > 0) || std::isnan(x)) return kNoValue;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return boost::math::ibeta(a, b, x, Policy{});
}

}  // namespace iobench::stats
