// The sequential rule on round pairs (SequentialPlan::paired; docs/reports.md, "Deciding a
// comparison") by simulation, beside the unpaired rule on the same times: 2,000 comparisons a
// figure from fixed seeds (common/splitmix64.hpp), so every figure is the same on every machine.
// Each round of an interleaved session runs the reference and the test once; a round factor
// moves both alike (the machine's drift, a burst that spans the round), drawn from the same
// two-level shape as the runs (tests/unit/report/bimodal_times.hpp) raised to a power: at 5,
// rounds spread by 10 % and one in ten is some 60 % slower.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "driver/stats/sequential.hpp"
#include "tests/unit/report/bimodal_times.hpp"
#include "tests/unit/stats/simulation_rates.hpp"

namespace iobench::stats {
namespace {

using simulation::kComparisons;
using simulation::rate;
using simulation::within_error;

using report::testing::BimodalTimes;

struct PairedNoise {
  double run_scale = 1;    // the runs' log spread, as a power of BimodalTimes
  double round_scale = 0;  // the rounds' factor, likewise; 0: no round effect
  // A duet's second CPU's factor (bench --order duet): a pair's two runs at one moment, each on a
  // CPU of its own, who gets which alternating with the rounds; 1: no CPU effect.
  double second_cpu = 1;
};

struct PairedRates {
  int different = 0;
  int slower = 0;
  int equivalent = 0;
};

// kComparisons sessions of the reference (scale 1) against a test at `ratio`, round by round;
// the rule looks once per look from its first and stops at its decision.
PairedRates simulate(const SequentialPlan& plan, double ratio, PairedNoise noise) {
  const SequentialRule rule(plan);
  PairedRates rates;
  for (std::uint64_t c = 0; c < kComparisons; ++c) {
    BimodalTimes runs(std::uint64_t{0x5eed0000} + c);
    BimodalTimes rounds(std::uint64_t{0x20d50000} + c);
    std::vector<double> reference;
    std::vector<double> test;
    for (std::size_t n = 1; n <= plan.max_runs; ++n) {
      const double round = std::pow(rounds.next(1), noise.round_scale);
      const bool test_first = n % 2 == 1;  // the first run takes the first CPU
      reference.push_back(round * (test_first ? noise.second_cpu : 1) *
                          std::pow(runs.next(1), noise.run_scale));
      test.push_back(round * ratio * (test_first ? 1 : noise.second_cpu) *
                     std::pow(runs.next(1), noise.run_scale));
      if (n < plan.first_look_runs || rule.look_at(n) == rule.look_at(n - 1)) continue;
      const SequentialResult result = rule.decide(reference, test);
      if (result.decision == Decision::kContinue) continue;
      rates.different += result.decision == Decision::kDifferent ? 1 : 0;
      rates.slower += result.decision == Decision::kDifferent && result.interval->low > 1 ? 1 : 0;
      rates.equivalent += result.decision == Decision::kEquivalent ? 1 : 0;
      break;
    }
  }
  return rates;
}

SequentialPlan plan_of(std::size_t max_runs, bool paired) {
  SequentialPlan plan{5, max_runs, 0.05, 0.01};
  plan.paired = paired;
  return plan;
}

// Alpha holds for pairs: under the null each pair's log ratio is symmetric about 0. A round
// factor cancels in it exactly, so the figure is the same with round effects.
TEST(PairedSimulation, AaFalseAlarmsStayWithinAlpha) {
  for (const std::size_t budget : {10U, 54U}) {
    const PairedRates aa = simulate(plan_of(budget, true), 1.0, PairedNoise{1, 5});
    std::printf("paired, budget %zu: A/A different %.4f (bound %.4f)\n", budget, rate(aa.different),
                within_error(0.05));
    RecordProperty("aa_paired_budget_" + std::to_string(budget),
                   std::to_string(rate(aa.different)));
    EXPECT_LE(rate(aa.different), within_error(0.05)) << budget;
  }
}

// A duet whose second CPU is slower (issue 46: two A/A duets on this VM were called 5 % apart):
// each pair's ratio is then the CPUs' ratio or its inverse, round by round, a distribution
// symmetric about 1 in log, so the signed-rank rule keeps its alpha; the CPU effect costs power.
TEST(PairedSimulation, ADuetsSlowerCpuKeepsAlphaAndCostsPower) {
  for (const double cpu : {1.05, 1.2}) {
    for (const std::size_t budget : {10U, 54U}) {
      const PairedRates aa = simulate(plan_of(budget, true), 1.0, PairedNoise{1, 5, cpu});
      const PairedRates slower = simulate(plan_of(budget, true), 1.05, PairedNoise{1, 5, cpu});
      std::printf(
          "duet, second CPU %.2fx, budget %zu: A/A different %.4f (bound %.4f); 5 %% slower "
          "found %.4f\n",
          cpu, budget, rate(aa.different), within_error(0.05), rate(slower.slower));
      EXPECT_LE(rate(aa.different), within_error(0.05)) << cpu << " " << budget;
      EXPECT_EQ(slower.different, slower.slower) << "never decided faster";
    }
  }
}

// What the pairs are for: with round effects a 5 % slowdown is lost in the unpaired runs and
// found in the pairs. Without them the pairs cost little.
TEST(PairedSimulation, RoundEffectsHideFivePercentFromUnpairedRunsNotFromPairs) {
  const PairedRates paired = simulate(plan_of(54, true), 1.05, PairedNoise{1, 5});
  const PairedRates unpaired = simulate(plan_of(54, false), 1.05, PairedNoise{1, 5});
  const PairedRates paired_quiet = simulate(plan_of(54, true), 1.05, PairedNoise{1, 0});
  const PairedRates unpaired_quiet = simulate(plan_of(54, false), 1.05, PairedNoise{1, 0});
  std::printf(
      "5 %% slower, budget 54: with round effects decided slower paired %.4f, unpaired %.4f; "
      "without, paired %.4f, unpaired %.4f\n",
      rate(paired.slower), rate(unpaired.slower), rate(paired_quiet.slower),
      rate(unpaired_quiet.slower));
  RecordProperty("power_5pct_round_effects_paired", std::to_string(rate(paired.slower)));
  RecordProperty("power_5pct_round_effects_unpaired", std::to_string(rate(unpaired.slower)));
  EXPECT_GE(rate(paired.slower), 0.95);
  EXPECT_LE(rate(unpaired.slower), 0.6);
  EXPECT_GE(rate(paired_quiet.slower), 0.97);
  EXPECT_EQ(paired.different, paired.slower) << "never decided faster";
}

// "Equivalent" is never said of a difference three times the margin (3 % against ±1 %), on a
// machine quiet enough (a tenth of the spread) for equivalence to be shown at all; an A/A pair
// there is shown equivalent.
TEST(PairedSimulation, NeverEquivalentForThreeTimesTheMargin) {
  for (const std::size_t budget : {10U, 20U, 54U}) {
    const PairedRates three = simulate(plan_of(budget, true), 1.03, PairedNoise{0.1, 0.5});
    const PairedRates noisier = simulate(plan_of(budget, true), 1.03, PairedNoise{0.3, 0.5});
    const PairedRates aa = simulate(plan_of(budget, true), 1.0, PairedNoise{0.1, 0.5});
    std::printf(
        "paired, budget %zu: 3 %% slower equivalent %d (spread / 10), %d (spread / 3); "
        "A/A equivalent %.4f (spread / 10)\n",
        budget, three.equivalent, noisier.equivalent, rate(aa.equivalent));
    EXPECT_EQ(three.equivalent, 0) << budget;
    EXPECT_EQ(noisier.equivalent, 0) << budget;
    EXPECT_GE(rate(aa.equivalent), 0.9) << budget;
  }
}

}  // namespace
}  // namespace iobench::stats
