// history check's error rates with a session effect, by simulation (docs/history.md, "Sessions"):
// sessions of unchanged code whose level drifts from one to the next (log-normal, 7 % of a
// standard deviation: what this VM's quiet sessions spread, docs/history.md), 12 runs a session
// spreading 5 % around it, fixed seeds (tests/unit/seeded_normal.hpp). It shows that the rows
// alone, taken as independent samples, call a quarter of unchanged sessions a regression, that
// the session rule keeps its false alarms within alpha while finding a 25 % slowdown, more often
// with more history, and that a pass means the power was there.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "driver/history/check.hpp"
#include "history_builder.hpp"
#include "tests/unit/seeded_normal.hpp"

namespace iobench::history {
namespace {

using test::History;

constexpr int kTrials = 1000;
constexpr double kSessionSd = 0.07;  // log sd of a session's level
constexpr double kRunSd = 0.05;      // log sd of a run around its session's level
constexpr int kRunsASession = 12;

struct Rates {
  int rows_regressions = 0;  // the rows alone (rows_verdict) said regression
  int regressions = 0;       // the session rule's verdict
  int not_judged = 0;
  int underpowered = 0;  // of not_judged: steady, but the interval reaches past the minimum effect
  int passed = 0;        // the gate's pass: green
};

// kTrials series of `earlier` sessions of unchanged code, then one at `ratio`; check of the last,
// with a minimum effect of `min_effect_pct`.
Rates simulate(int earlier, double ratio, double min_effect_pct = kDefaultMinEffectPct) {
  Rates rates;
  for (std::uint64_t trial = 0; trial < kTrials; ++trial) {
    iobench::test::SeededNormal noise(0x5e55100000 + trial);
    History h;
    for (int s = 0; s <= earlier; ++s) {
      h.add_run(fmt::format("c{}", s));
      const double level =
          0.01 * (s == earlier ? ratio : 1) * std::exp(kSessionSd * noise.normal());
      std::vector<double> runs(kRunsASession);
      for (double& run : runs) run = level * std::exp(kRunSd * noise.normal());
      h.add_values("slow", runs);
    }
    CheckOptions options;
    options.min_effects = {MinEffect{std::nullopt, "", min_effect_pct}};
    const CheckReport report = h.check(options);
    const CellCheck& cell = History::cell(report, "slow");
    rates.rows_regressions += cell.rows_verdict == CellVerdict::kRegression ? 1 : 0;
    rates.regressions += cell.verdict == CellVerdict::kRegression ? 1 : 0;
    rates.not_judged += cell.gate == Gate::kNotJudged ? 1 : 0;
    rates.underpowered += cell.verdict == CellVerdict::kUnderpowered ? 1 : 0;
    rates.passed += cell.gate == Gate::kPass ? 1 : 0;
  }
  std::printf(
      "%d earlier sessions, newest x%.2f, min effect %g %%: rows alone %.1f %% regressions; "
      "sessions %.1f %% (not judged %.1f %%, underpowered %.1f %%); passed %.1f %%\n",
      earlier, ratio, min_effect_pct, 100.0 * rates.rows_regressions / kTrials,
      100.0 * rates.regressions / kTrials, 100.0 * rates.not_judged / kTrials,
      100.0 * rates.underpowered / kTrials, 100.0 * rates.passed / kTrials);
  return rates;
}

TEST(HistorySessionsSimulation, UnchangedCodeIsARegressionOfTheRowsButRarelyOfTheSessions) {
  for (const int earlier : {5, 20}) {
    const Rates rates = simulate(earlier, 1);
    EXPECT_GT(rates.rows_regressions, kTrials * 15 / 100) << earlier;  // the issue, reproduced
    // Within alpha (0.05): 2.5 % one-sided were the baseline fixed in advance; a level that the
    // rows see come in before the newest run is split off (check.cpp, judge_sessions), a choice
    // made on the data, which costs about a point with five earlier sessions (4.0 %, 2.8 %
    // without the split) and nothing with twenty (2.1 %, 2.0 %).
    EXPECT_LE(rates.regressions, kTrials * 50 / 1000) << earlier;
    // Sessions 7 % apart cannot rule out 5 %: the rest is not judged, all of it as underpowered.
    EXPECT_EQ(rates.not_judged, rates.underpowered) << earlier;
    EXPECT_GE(rates.underpowered, kTrials * 80 / 100) << earlier;
  }
}

TEST(HistorySessionsSimulation, ASlowdownOfAQuarterIsFoundAndMoreOftenWithMoreHistory) {
  const Rates five = simulate(5, 1.25);
  const Rates twenty = simulate(20, 1.25);
  EXPECT_GE(five.regressions, kTrials * 40 / 100);
  EXPECT_GE(twenty.regressions, kTrials * 75 / 100);
  EXPECT_GT(twenty.regressions, five.regressions);
}

TEST(HistorySessionsSimulation, TwoEarlierSessionsLeaveASlowdownNotJudged) {
  const Rates rates = simulate(2, 1.25);
  EXPECT_EQ(rates.regressions, 0);
  EXPECT_GE(rates.not_judged, rates.rows_regressions);
}

// A green gate means the power was there (issue 47): a slowdown of exactly the allowed size is
// passed in at most alpha of the trials (one-sided, about 2.5 %; measured 1.9-2.8 %). Taking
// every steady or within-drift verdict as a pass, as check did, passed it in about half.
TEST(HistorySessionsSimulation, ASlowdownOfTheAllowedSizeIsPassedAtMostAlphaOfTheTime) {
  for (const int earlier : {3, 5, 20}) {
    const Rates rates = simulate(earlier, 1.20, 20);
    EXPECT_LE(rates.passed, kTrials * 50 / 1000) << earlier;
    EXPECT_GT(rates.passed + rates.underpowered, kTrials * 40 / 100) << earlier;  // the old rule
  }
}

// With a minimum effect the drift lets one session rule out, unchanged code passes.
TEST(HistorySessionsSimulation, AMinimumEffectAboveTheDriftPassesUnchangedCode) {
  const Rates rates = simulate(20, 1, 40);
  EXPECT_GE(rates.passed, kTrials * 99 / 100);
  EXPECT_EQ(rates.regressions, 0);
}

}  // namespace
}  // namespace iobench::history
