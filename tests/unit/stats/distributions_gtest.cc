// The distributions (driver/stats/distributions.hpp) against published values: each is what R
// prints with options(digits = 17) (qnorm, pnorm, dnorm, qt, pt, pbeta), checked with mpmath at
// 40 digits. Boost.Math computes them; these pin which function each name calls and with which
// arguments (a tail swapped for the other, or a shape for the other, fails here).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "driver/stats/distributions.hpp"

namespace iobench::stats {
namespace {

// Full double precision: within 2e-15 of the value, relatively (about 9 units in the last place,
// which R's own printed qt(0.995, 10) needs too; the hand-written t quantile this replaced was
// 1e-8 off at 31 degrees of freedom).
::testing::AssertionResult FullPrecision(const char* actual_text, const char* /*expected_text*/,
                                         double actual, double expected) {
  if (std::fabs(actual - expected) <= 2e-15 * std::fabs(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << fmt::format("{} = {:.17g}, the published value {:.17g} (relative error {:.2g})",
                        actual_text, actual, expected, actual / expected - 1);
}

TEST(Distributions, NormalQuantileMatchesR) {
  EXPECT_PRED_FORMAT2(FullPrecision, normal_quantile(0.975), 1.959963984540054);  // qnorm(0.975)
  EXPECT_PRED_FORMAT2(FullPrecision, normal_quantile(0.025), -1.959963984540054);
  EXPECT_EQ(normal_quantile(0.5), 0);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_quantile(0.001), -3.0902323061678135);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_quantile(0.999), 3.0902323061678135);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_quantile(1e-10), -6.3613409024040562);
  EXPECT_TRUE(std::isnan(normal_quantile(0)));
  EXPECT_TRUE(std::isnan(normal_quantile(1)));
  EXPECT_TRUE(std::isnan(normal_quantile(NAN)));
}

TEST(Distributions, NormalTailAndDensityMatchR) {
  EXPECT_PRED_FORMAT2(FullPrecision, normal_sf(1.959963984540054),
                      0.025);  // pnorm(q, lower = FALSE)
  EXPECT_PRED_FORMAT2(FullPrecision, normal_sf(3), 0.0013498980316300945);
  // The far tail, not 1 - cdf (which would be 0 here); z / sqrt(2) rounded costs about 2 z^2
  // units in the last place there, so 1e-14.
  EXPECT_NEAR(normal_sf(8) / 6.2209605742717841e-16, 1, 1e-14);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_sf(-1), 0.84134474606854295);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_pdf(0), 0.39894228040143268);  // dnorm(0)
  EXPECT_PRED_FORMAT2(FullPrecision, normal_pdf(1), 0.24197072451914335);
  EXPECT_PRED_FORMAT2(FullPrecision, normal_pdf(-1), normal_pdf(1));
}

TEST(Distributions, StudentTQuantileMatchesR) {
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 5),
                      2.570581835636314);  // qt(0.975, 5)
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.995, 10),
                      3.169272672616954);  // qt(0.995, 10)
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 1),
                      12.706204736174705);  // qt(0.975, 1)
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 2), 4.3026527297494639);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 30), 2.0422724563012383);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 31), 2.0395134463964085);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 100), 1.9839715185235523);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 1e6), 1.9599663568141070);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.975, 2.5),
                      3.5746548420036832);  // df need not be whole
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.025, 5), -2.570581835636314);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_quantile(0.9, 3), 1.6377443536962101);
  EXPECT_TRUE(std::isnan(student_t_quantile(0.975, 0)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1, 5)));
}

TEST(Distributions, StudentTTwoSidedPMatchesR) {
  // 2 * pt(-abs(t), df)
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_two_sided_p(2, 5), 0.10193947882985836);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_two_sided_p(-2, 5), 0.10193947882985836);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_two_sided_p(0.5, 2.5), 0.65769791986971469);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_two_sided_p(3, 10), 0.013343655022569577);
  EXPECT_PRED_FORMAT2(FullPrecision, student_t_two_sided_p(10, 30), 4.5752514082296132e-11);
  EXPECT_EQ(student_t_two_sided_p(0, 7), 1);
  EXPECT_EQ(student_t_two_sided_p(INFINITY, 7), 0);
  EXPECT_TRUE(std::isnan(student_t_two_sided_p(NAN, 7)));
  EXPECT_TRUE(std::isnan(student_t_two_sided_p(1, 0)));
}

TEST(Distributions, IncompleteBetaMatchesR) {
  // pbeta(x, a, b) = regularized_incomplete_beta(a, b, x)
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(2, 5, 0.3),
                      0.579825);  // pbeta(0.3, 2, 5)
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(5, 2, 0.7),
                      1 - 0.579825);  // the symmetry
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(2, 3, 0.3), 0.3483);
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(0.5, 7.5, 0.9),
                      0.99999999328971035);
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(10, 10, 0.5), 0.5);
  EXPECT_PRED_FORMAT2(FullPrecision, regularized_incomplete_beta(0.5, 0.5, 0.01),
                      0.063768560858519848);
  EXPECT_EQ(regularized_incomplete_beta(2, 3, 0), 0);
  EXPECT_EQ(regularized_incomplete_beta(2, 3, 1), 1);
  EXPECT_TRUE(std::isnan(regularized_incomplete_beta(0, 3, 0.5)));
}

}  // namespace
}  // namespace iobench::stats
