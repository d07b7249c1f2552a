// The spread between sessions and the judgement of a new session (driver/stats/session_spread.hpp)
// against exact values: mpmath at 30 digits (the script is in the comment of each test).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/stats/session_spread.hpp"

namespace iobench::stats {
namespace {

std::vector<double> logs(std::initializer_list<double> medians) {
  std::vector<double> out;
  for (const double m : medians) out.push_back(std::log(m));
  return out;
}

// Two levels, {10, 10.5, 9.8} and {12, 12.3} ms: sd = sqrt((SS1 + SS2) / 3) of their logs.
TEST(SessionSpread, IsPooledOverLevelsAndALevelOfOneAddsNothing) {
  const SessionSpread spread =
      pooled_session_spread({logs({10, 10.5, 9.8}), logs({12, 12.3}), logs({20})});
  EXPECT_NEAR(spread.sd_log, 0.0306652780364222700509, 1e-15);
  EXPECT_EQ(spread.df, 3u);
  EXPECT_EQ(spread.sessions, 5u);
  const SessionSpread none = pooled_session_spread({logs({10}), logs({12})});
  EXPECT_EQ(none.df, 0u);
  EXPECT_EQ(none.sd_log, 0);
}

// k = 3, newest 12.6: d = log 12.6 - mean, se = sd sqrt(1 + 1/3), t = 6.2578 on 3 df;
// p = betainc(3/2, 1/2, 0, 3/(3+t^2), regularized=True), q = qt(0.975, 3) = 3.18245.
TEST(SessionJudgement, AnEstimatedSpreadGivesStudentsTPredictionInterval) {
  const std::vector<double> baseline = logs({10, 10.5, 9.8});
  const double sd = 0.0306652780364222700509;
  const SessionJudgement j = judge_session(baseline, std::log(12.6), sd, 3, 0.05);
  EXPECT_NEAR(j.ratio, 1.24805029383114246872, 1e-12);
  EXPECT_NEAR(j.p_value, 0.00823496356913816813, 1e-12);
  EXPECT_NEAR(j.low, 1.11504487351737438819, 1e-10);
  EXPECT_NEAR(j.high, 1.39692094275856998160, 1e-10);
}

// A stated spread of 5 % (sd = log 1.05) is known, not estimated: the normal, z = 3.93309.
TEST(SessionJudgement, AStatedSpreadGivesTheNormal) {
  const SessionJudgement j =
      judge_session(logs({10, 10.5, 9.8}), std::log(12.6), std::log(1.05), 0, 0.05);
  EXPECT_NEAR(j.p_value, 0.0000838606294981764455, 1e-15);
  EXPECT_NEAR(j.low, 1.11757600789350577449, 1e-10);
  EXPECT_NEAR(j.high, 1.39375713591771034123, 1e-10);
}

TEST(SessionJudgement, NoSpreadDecidesByTheDifferenceAlone) {
  const SessionJudgement moved = judge_session(logs({10}), std::log(11), 0, 0, 0.05);
  EXPECT_EQ(moved.p_value, 0);
  EXPECT_NEAR(moved.ratio, 1.1, 1e-12);
  EXPECT_EQ(moved.low, moved.ratio);
  EXPECT_EQ(judge_session(logs({10}), std::log(10), 0, 0, 0.05).p_value, 1);
  EXPECT_EQ(judge_session({}, std::log(10), 0.1, 3, 0.05).p_value, 1);
}

// One baseline session: the interval is wider than with many by sqrt(2) against sqrt(1 + 1/k).
TEST(SessionJudgement, OneBaselineSessionWidensTheIntervalBySqrtTwo) {
  const double sd = 0.05;
  const SessionJudgement one = judge_session(logs({10}), std::log(10), sd, 0, 0.05);
  const SessionJudgement many =
      judge_session(logs({10, 10, 10, 10, 10, 10, 10, 10, 10, 10}), std::log(10), sd, 0, 0.05);
  EXPECT_NEAR(std::log(one.high) / std::log(many.high), std::sqrt(2 / 1.1), 1e-12);
}

}  // namespace
}  // namespace iobench::stats
