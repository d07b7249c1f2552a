// The sequential rule (driver/stats/sequential.hpp) against published boundaries and on fixed
// samples, one for each outcome.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <stdexcept>
#include <vector>

#include "driver/stats/distributions.hpp"
#include "driver/stats/sequential.hpp"

namespace iobench::stats {
namespace {

TEST(ObrienFlemingSpent, SpendsAlmostNothingEarlyAndAlphaAtTheEnd) {
  EXPECT_DOUBLE_EQ(obrien_fleming_spent(0.05, 0), 0);
  EXPECT_DOUBLE_EQ(obrien_fleming_spent(0.05, 1), 0.05);
  EXPECT_DOUBLE_EQ(obrien_fleming_spent(0.05, 1.5), 0.05);
  // 2 (2 - 2 Phi(z_0.9875 / sqrt(t))), z_0.9875 = 2.241403 (python3: statistics.NormalDist)
  EXPECT_NEAR(obrien_fleming_spent(0.05, 0.5), 0.003050645515977809, 1e-12);
  EXPECT_NEAR(obrien_fleming_spent(0.05, 0.2), 1.0777425258117401e-06, 1e-15);
}

// Five equally spaced looks, alpha 0.05 two-sided: the Lan-DeMets O'Brien-Fleming-like
// boundaries published with the ldbounds program (Reboussin, DeMets, Kim and Lan 2000;
// Jennison and Turnbull's tables): 4.877, 3.357, 2.680, 2.290, 2.031.
TEST(PlanLooks, FiveEquallySpacedLooksMatchThePublishedBoundaries) {
  const std::vector<Look> looks = plan_looks(SequentialPlan{1, 5, 0.05, 0.01});
  ASSERT_EQ(looks.size(), 5u);
  const double published[] = {4.877, 3.357, 2.680, 2.290, 2.031};
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(looks[k].runs, k + 1);
    EXPECT_DOUBLE_EQ(looks[k].information_fraction, static_cast<double>(k + 1) / 5);
    EXPECT_NEAR(looks[k].z_boundary, published[k], 1.5e-3) << "look " << k + 1;
    EXPECT_DOUBLE_EQ(looks[k].nominal_alpha, 2 * normal_sf(looks[k].z_boundary));
  }
}

TEST(PlanLooks, OneLookIsTheFixedSampleTest) {
  const std::vector<Look> looks = plan_looks(SequentialPlan{10, 10, 0.05, 0.01});
  ASSERT_EQ(looks.size(), 1u);
  EXPECT_NEAR(looks[0].z_boundary, 1.959964, 1e-6);
  EXPECT_NEAR(looks[0].nominal_alpha, 0.05, 1e-9);
}

TEST(PlanLooks, TwoLooksMatchThePublishedBoundaries) {
  const std::vector<Look> looks = plan_looks(SequentialPlan{1, 2, 0.05, 0.01});
  ASSERT_EQ(looks.size(), 2u);
  EXPECT_NEAR(looks[0].z_boundary, 2.963, 1e-3);
  EXPECT_NEAR(looks[1].z_boundary, 1.969, 1e-3);
}

// The default plan's levels (5, 6, ..., 10 runs a side), as this integration gives them; the
// first look's is exact (the normal quantile of what is spent), the rest pinned to 1e-6.
TEST(PlanLooks, DefaultPlanLevels) {
  const std::vector<Look> looks = plan_looks(SequentialPlan{});
  ASSERT_EQ(looks.size(), 6u);
  const double z[] = {2.962588043, 2.711632379, 2.503106252, 2.335400695, 2.197270990, 2.081031935};
  const double alpha[] = {0.00305064551598, 0.00669528009141, 0.0123108579096,
                          0.0195224981502,  0.0280010981916,  0.0374309831399};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(looks[k].runs, 5 + k);
    EXPECT_NEAR(looks[k].z_boundary, z[k], 1e-6) << "look " << k + 1;
    EXPECT_NEAR(looks[k].nominal_alpha, alpha[k], 1e-8) << "look " << k + 1;
  }
  EXPECT_NEAR(looks[0].nominal_alpha, obrien_fleming_spent(0.05, 0.5), 1e-12);
  // Every look's level is below alpha, and the levels grow: most of alpha is kept for the end.
  for (std::size_t k = 1; k < 6; ++k) EXPECT_GT(looks[k].nominal_alpha, looks[k - 1].nominal_alpha);
  EXPECT_LT(looks.back().nominal_alpha, 0.05);
}

// Intervals below were computed independently (python3: the exact U distribution by recursion,
// the sorted m * n ratios, k the largest count with P(U <= k - 1) <= alpha_k / 2).
const std::vector<double> kReference6{1.00, 1.01, 1.02, 1.03, 1.04, 1.05};

std::vector<double> scaled(const std::vector<double>& times, double factor) {
  std::vector<double> out;
  out.reserve(times.size());
  for (double t : times) out.push_back(t * factor);
  return out;
}

TEST(SequentialRule, FiveRunsASideCannotReachTheFirstLooksLevel) {
  const SequentialRule rule{SequentialPlan{}};
  const std::vector<double> reference(kReference6.begin(), kReference6.begin() + 5);
  const SequentialResult result = rule.decide(reference, scaled(reference, 1.2));
  // The smallest two-sided p of 5 and 5 runs is 2 / 252 = 0.0079, above the look's 0.0031.
  EXPECT_EQ(result.decision, Decision::kContinue);
  EXPECT_EQ(result.runs, 5u);
  EXPECT_EQ(result.look, 1u);
  EXPECT_NEAR(result.confidence, 1 - 0.00305064551598, 1e-12);
  EXPECT_FALSE(result.interval);
}

TEST(SequentialRule, BeforeTheFirstLookItKeepsGoing) {
  const SequentialRule rule{SequentialPlan{}};
  const std::vector<double> reference{1, 1, 1, 1};
  const SequentialResult result = rule.decide(reference, scaled(kReference6, 2));
  EXPECT_EQ(result.decision, Decision::kContinue);
  EXPECT_EQ(result.runs, 4u) << "the smaller side counts";
  EXPECT_EQ(result.look, 0u);
  EXPECT_EQ(result.confidence, 0);
}

TEST(SequentialRule, SixRunsASideAllSlowerIsDifferent) {
  const SequentialRule rule{SequentialPlan{}};
  const SequentialResult result = rule.decide(kReference6, scaled(kReference6, 1.2));
  EXPECT_EQ(result.decision, Decision::kDifferent);
  EXPECT_EQ(result.runs, 6u);
  ASSERT_TRUE(result.interval);
  EXPECT_NEAR(result.interval->low, 1.1538461538461537, 1e-12);  // 1.2 * 1.00 / 1.04
  EXPECT_NEAR(result.interval->high, 1.248, 1e-12);              // 1.2 * 1.04 / 1.00
}

// The estimate is the one the interval goes with, exactly: every ratio 1.2 gives 1.2 on pairs
// and unpaired alike; on pairs 1.01, 1.02, 1.03, 1.50, 1.60, 1.70 (test / reference) the
// pseudo-median is the median of the 21 Walsh averages of their logs.
TEST(SequentialRule, ItsEstimateIsTheOneItsIntervalGoesWith) {
  const SequentialRule rule{SequentialPlan{}};
  EXPECT_NEAR(rule.decide(kReference6, scaled(kReference6, 1.2)).estimate, 1.2, 1e-12);
  SequentialPlan paired_plan;
  paired_plan.paired = true;
  const SequentialRule paired{paired_plan};
  const std::vector<double> reference(6, 1.0);
  const std::vector<double> test{1.01, 1.02, 1.03, 1.50, 1.60, 1.70};
  // The 21 Walsh averages' median (the 11th) is (log 1.02 + log 1.60) / 2 here.
  EXPECT_NEAR(paired.decide(reference, test).estimate, std::sqrt(1.02 * 1.60), 1e-12);
  EXPECT_TRUE(std::isnan(paired.decide(std::vector<double>(4, 1.0), test).estimate))
      << "before the first look";
}

TEST(SequentialRule, TightInterleavedTimesAreEquivalent) {
  const SequentialRule rule{SequentialPlan{}};
  std::vector<double> reference;
  std::vector<double> test;
  for (int i = 0; i < 10; ++i) {
    reference.push_back(1 + 0.001 * i);
    test.push_back(1.0005 + 0.001 * i);
  }
  const SequentialResult result = rule.decide(reference, test);
  EXPECT_EQ(result.decision, Decision::kEquivalent);
  ASSERT_TRUE(result.interval);
  EXPECT_NEAR(result.interval->low, 0.9975099601593623, 1e-12);
  EXPECT_NEAR(result.interval->high, 1.0034965034965035, 1e-12);
  // The same interval with a margin of 0.3 % is not within it: at the budget, undecided.
  const SequentialRule narrow{SequentialPlan{5, 10, 0.05, 0.003}};
  EXPECT_EQ(narrow.decide(reference, test).decision, Decision::kBudget);
}

TEST(SequentialRule, NoisyOverlappingTimesSpendTheBudget) {
  const SequentialRule rule{SequentialPlan{}};
  const std::vector<double> reference{1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 0.98, 1.08, 0.92, 1.0};
  const std::vector<double> test{1.01, 1.09, 0.91, 1.04, 0.96, 1.03, 0.97, 1.07, 0.93, 0.99};
  const SequentialResult at_nine =
      rule.decide(std::span(reference).first(9), std::span(test).first(9));
  EXPECT_EQ(at_nine.decision, Decision::kContinue);
  const SequentialResult result = rule.decide(reference, test);
  EXPECT_EQ(result.decision, Decision::kBudget);
  ASSERT_TRUE(result.interval);
  EXPECT_NEAR(result.interval->low, 0.9351851851851851, 1e-12);
  EXPECT_NEAR(result.interval->high, 1.07, 1e-12);
}

TEST(SequentialRule, MoreRunsThanTheBudgetUseTheLastLook) {
  const SequentialRule rule{SequentialPlan{5, 6, 0.05, 0.01}};
  std::vector<double> reference = kReference6;
  reference.push_back(1.0);
  const SequentialResult result = rule.decide(reference, scaled(reference, 1.01));
  EXPECT_EQ(result.runs, 7u);
  EXPECT_NEAR(result.confidence, 1 - rule.looks().back().nominal_alpha, 1e-15);
  EXPECT_EQ(result.decision, Decision::kBudget);
}

TEST(PlanLooks, ALongBudgetHasThirtyLooksSpreadOverIt) {
  const std::vector<Look> looks = plan_looks(SequentialPlan{2, 1000, 0.05, 0.01});
  ASSERT_EQ(looks.size(), 30u);
  EXPECT_EQ(looks.front().runs, 2u);
  EXPECT_EQ(looks[1].runs, 36u);  // 2 + 998 / 29, rounded
  EXPECT_EQ(looks.back().runs, 1000u);
  for (std::size_t k = 1; k < looks.size(); ++k) EXPECT_GT(looks[k].runs, looks[k - 1].runs);
  EXPECT_LT(looks.back().nominal_alpha, 0.05);
  EXPECT_GT(looks.back().nominal_alpha, looks[28].nominal_alpha);
  // Thirty looks and no more: every run up to 31 looks, 32 spreads.
  EXPECT_EQ(plan_looks(SequentialPlan{2, 31, 0.05, 0.01}).size(), 30u);
  EXPECT_EQ(plan_looks(SequentialPlan{2, 32, 0.05, 0.01}).size(), 30u);
  EXPECT_EQ(plan_looks(SequentialPlan{2, 32, 0.05, 0.01}).back().runs, 32u);
}

TEST(SequentialRule, LookAtCountsTheLooksReached) {
  const SequentialRule rule{SequentialPlan{2, 1000, 0.05, 0.01}};
  EXPECT_EQ(rule.look_at(1), 0u);
  EXPECT_EQ(rule.look_at(2), 1u);
  EXPECT_EQ(rule.look_at(35), 1u) << "between looks, the last one reached";
  EXPECT_EQ(rule.look_at(36), 2u);
  EXPECT_EQ(rule.look_at(5000), 30u);
}

TEST(PlanLooks, RefusesAPlanWithoutLooks) {
  EXPECT_THROW(plan_looks(SequentialPlan{0, 10, 0.05, 0.01}), std::invalid_argument);
  EXPECT_THROW(plan_looks(SequentialPlan{11, 10, 0.05, 0.01}), std::invalid_argument);
  EXPECT_THROW(plan_looks(SequentialPlan{5, 10, 0, 0.01}), std::invalid_argument);
  EXPECT_THROW(plan_looks(SequentialPlan{5, 10, 0.05, -1}), std::invalid_argument);
}

}  // namespace
}  // namespace iobench::stats
