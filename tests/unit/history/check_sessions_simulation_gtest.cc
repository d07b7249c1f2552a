// history check's error rates with a session effect, by simulation (docs/history.md, "Sessions"):
// sessions of unchanged code whose level drifts from one to the next (log-normal, 7 % of a
// standard deviation: what this VM's quiet sessions spread, docs/history.md), 12 runs a session
// spreading 5 % around it, fixed seeds (tests/unit/seeded_normal.hpp). It shows that the rows
// alone, taken as independent samples, call a quarter of unchanged sessions a regression, and that
// the session rule keeps its false alarms within alpha while finding a 25 % slowdown, more often
// with more history.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
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
};

// kTrials series of `earlier` sessions of unchanged code, then one at `ratio`; check of the last.
Rates simulate(int earlier, double ratio) {
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
    const CheckReport report = h.check();
    const CellCheck& cell = History::cell(report, "slow");
    rates.rows_regressions += cell.rows_verdict == CellVerdict::kRegression ? 1 : 0;
    rates.regressions += cell.verdict == CellVerdict::kRegression ? 1 : 0;
    rates.not_judged += cell.gate == Gate::kNotJudged ? 1 : 0;
  }
  std::printf(
      "%d earlier sessions, newest x%.2f: rows alone %.1f %% regressions; sessions %.1f %% "
      "(not judged %.1f %%)\n",
      earlier, ratio, 100.0 * rates.rows_regressions / kTrials, 100.0 * rates.regressions / kTrials,
      100.0 * rates.not_judged / kTrials);
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
    EXPECT_EQ(rates.not_judged, 0) << earlier;
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
  EXPECT_EQ(rates.not_judged, rates.rows_regressions);
}

}  // namespace
}  // namespace iobench::history
