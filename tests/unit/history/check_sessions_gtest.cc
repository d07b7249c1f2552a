// Sessions as the unit of history check (driver/history/check_sessions.hpp): a change the rows
// show must stand out from how far the series' sessions drift; too few sessions to know that
// leave a slowdown not judged unless --session-spread states it; levels split where a change
// point was found or a change acknowledged. Error rates: check_sessions_simulation_gtest.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "driver/history/check.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

// Judges the unverified series too, so that the exit status is the other series'.
CheckOptions judged(std::optional<double> stated_pct = std::nullopt) {
  CheckOptions options;
  options.allow_unverified = true;
  options.session_spread_pct = stated_pct;
  return options;
}

TEST(HistorySessions, TooFewSessionsLeaveASlowdownNotJudgedUntilAThirdOrAStatedSpread) {
  History h = History::sessions_then(2, 0.12);
  CheckReport report = h.check(judged());
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.rows_verdict, CellVerdict::kRegression);
  EXPECT_EQ(slow.verdict, CellVerdict::kTooFewSessions);
  EXPECT_EQ(slow.gate, Gate::kNotJudged);
  // Steady by its rows is not judged either: no spread says it rules out 5 % (issue 46, 47).
  EXPECT_EQ(History::cell(report, "steady").rows_verdict, CellVerdict::kSteady);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kTooFewSessions);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  const std::string line = describe_cell(slow);
  EXPECT_EQ(line.rfind("too few sessions 01aabbcc@0003ffff slow (in.txt, pipe): elapsed", 0), 0u);
  EXPECT_NE(line.find("; 2 earlier sessions cannot say how far sessions drift (3 in one level "
                      "needed, or --session-spread PCT);"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.substr(line.size() - 21), "; not judged (exit 4)") << line;

  report = h.check(judged(5));
  const CellCheck& stated = History::cell(report, "slow");
  EXPECT_EQ(stated.verdict, CellVerdict::kRegression);
  EXPECT_TRUE(stated.sessions.stated);
  EXPECT_NE(describe_cell(stated).find("sessions spread 5.0 % (stated by --session-spread)"),
            std::string::npos);
  EXPECT_EQ(report.exit_status, kExitRunFailed);
}

// An acknowledged change is expected: it passes though no spread could judge it.
TEST(HistorySessions, AnAcknowledgedSlowdownPassesWithTooFewSessions) {
  History h = History::sessions_then(2, 0.12);
  const std::string id = History::cell(h.check(judged()), "slow").change_id;
  h.data.acks.push_back({id, "", "", "the new format costs 20 %", "me", "2026-02-01T00:00:00Z"});
  const CheckReport report = h.check(judged());
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kAcknowledged);
  EXPECT_EQ(History::cell(report, "slow").gate, Gate::kPass);
  // (steady, with no spread known, is not judged: exit 4 for it alone.)
  EXPECT_EQ(History::cell(report, "steady").gate, Gate::kNotJudged);
  EXPECT_EQ(report.not_judged, 1u);
}

TEST(HistorySessions, AThirdSessionTeachesTheSpread) {
  History h = History::sessions_then(3, 0.12);
  const CellCheck slow = History::cell(h.check(judged()), "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_FALSE(slow.sessions.stated);
  EXPECT_EQ(slow.sessions.learnt.sessions, 3u);
  EXPECT_EQ(slow.sessions.learnt.df, 2u);
  EXPECT_NE(describe_cell(slow).find("(learnt from 3 sessions): the newest 1.2"), std::string::npos)
      << describe_cell(slow);
}

// Sessions of unchanged code at 100, 112, 95, 108 and 100 ms: a newest at 115 ms is slower by its
// rows (every row above every baseline median but one) and within how far sessions drift, so
// one session can neither show nor rule out the 5 % the gate allows: not judged. Its interval
// [0.91, 1.37] rules out 40 %: steady and green at --min-effect 40. One at 160 ms is beyond the
// drift: a regression.
TEST(HistorySessions, ASlowdownWithinTheDriftOfSessionsIsNotJudgedAndOneBeyondItFails) {
  History h;
  for (const double level : {0.1, 0.112, 0.095, 0.108, 0.1}) {
    h.add_run("aaaa1111");
    h.add_rows("slow", level);
  }
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.115);
  CheckReport report = h.check(judged());
  const CellCheck& weak = History::cell(report, "slow");
  EXPECT_EQ(weak.rows_verdict, CellVerdict::kRegression);
  EXPECT_EQ(weak.verdict, CellVerdict::kUnderpowered);  // within drift, and the drift is wide
  EXPECT_EQ(weak.gate, Gate::kNotJudged);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  EXPECT_GT(weak.sessions.judgement.p_value, 0.05);
  EXPECT_NEAR(spread_pct(weak.sessions.sd_log), 6.9, 0.1);
  EXPECT_NEAR(weak.sessions.judgement.low, 0.912, 0.001);
  EXPECT_NEAR(weak.sessions.judgement.high, 1.368, 0.001);
  EXPECT_NE(describe_cell(weak).find("too weak to judge: the newest session against the "
                                     "baseline's [0.91, 1.37] reaches past the 5 % allowed"),
            std::string::npos)
      << describe_cell(weak);
  CheckOptions options = judged();
  options.allow_underpowered = true;
  EXPECT_EQ(h.check(options).exit_status, kExitOk);
  options = judged();
  options.min_effects = {parse_min_effect("40")};
  report = h.check(options);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  EXPECT_EQ(report.exit_status, kExitOk);
  h.data.samples.resize(h.data.samples.size() - 5);
  h.add_rows("slow", 0.16);
  report = h.check(judged());
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kRegression);
  EXPECT_EQ(report.exit_status, kExitRunFailed);
}

// The pull request's case: its base commit measured once. The spread is the series' own, from its
// earlier sessions, so one base session can still be judged against.
TEST(HistorySessions, OneBaseSessionIsJudgedWithTheSpreadTheSeriesTaught) {
  History h;
  for (const char* commit : {"c1", "c2", "c3", "c4"}) {
    h.add_run(commit);
    h.add_rows("slow", 0.1);
  }
  h.add_run("c5", "pr");
  h.add_rows("slow", 0.102);
  CheckOptions options = judged();
  options.base = "c4";
  CellCheck cell = History::cell(h.check(options), "slow");
  EXPECT_EQ(cell.verdict, CellVerdict::kSteady);
  h.data.samples.resize(h.data.samples.size() - 5);
  h.add_rows("slow", 0.12);
  cell = History::cell(h.check(options), "slow");
  EXPECT_EQ(cell.verdict, CellVerdict::kRegression);
  EXPECT_EQ(cell.sessions.baseline_sessions, 1u);
  EXPECT_EQ(cell.sessions.learnt.sessions, 4u);
}

// Issue 46's case: c1, then c2 25 % slower, then c3 unchanged but 8 % slower by drift, each
// measured once; `--base c2` of c3 said "regression". Two sessions say nothing of the drift.
TEST(HistorySessions, AgainstOneSessionWithNoOtherHistoryASlowdownIsNotJudged) {
  History h;
  for (const auto& [commit, level] : {std::pair{"c1", 0.1}, {"c2", 0.125}, {"c3", 0.135}}) {
    h.add_run(commit);
    h.add_rows("slow", level);
  }
  CheckOptions options = judged();
  options.base = "c2";
  const CheckReport report = h.check(options);
  EXPECT_EQ(History::cell(report, "slow").rows_verdict, CellVerdict::kRegression);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kTooFewSessions);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
}

// A change point splits the levels: two of five sessions each teach 8 degrees of freedom and a
// spread of the rows' own jitter, not of the 30 % step between them.
TEST(HistorySessions, AChangePointSplitsTheLevelsTheSpreadIsLearntFrom) {
  History h;
  for (int i = 0; i < 10; ++i) {
    h.add_run(fmt::format("c{}", i));
    h.add_rows("slow", i < 5 ? 0.1 : 0.13);
  }
  h.add_run("c10");
  h.add_rows("slow", 0.13);
  const CellCheck cell = History::cell(h.check(judged()), "slow");
  EXPECT_EQ(cell.sessions.learnt.df, 8u);
  EXPECT_LT(spread_pct(cell.sessions.sd_log), 1);
  EXPECT_EQ(cell.verdict, CellVerdict::kRegression);  // not acknowledged: held to the old level
  EXPECT_EQ(cell.sessions.baseline_sessions, 5u);
  EXPECT_EQ(format_range(cell.commits), "c4..c5");
}

// Three sessions, an acknowledged step (too short for a change point), two more: the ack splits
// the levels, so the step is no drift.
TEST(HistorySessions, AnAcknowledgedChangeSplitsTheLevelsToo) {
  History h;
  for (int i = 0; i < 6; ++i) {
    h.add_run(fmt::format("c{}", i));
    h.add_rows("slow", i < 3 ? 0.1 : 0.13);
  }
  const std::string id = change_id(h.data.series[0].series_hash, h.data.runs[3].run_hash);
  h.data.acks.push_back({id, "", "", "bigger records", "me", "2026-02-01T00:00:00Z"});
  h.add_run("c6");
  h.add_rows("slow", 0.13);
  const CellCheck cell = History::cell(h.check(judged()), "slow");
  EXPECT_EQ(cell.sessions.learnt.df, 4u);
  EXPECT_LT(spread_pct(cell.sessions.sd_log), 1);
  EXPECT_EQ(cell.verdict, CellVerdict::kSteady);
}

TEST(HistorySessions, AnImprovementWithTooFewSessionsIsSaidAsTheRowsSayItAndFailsNothing) {
  History h = History::sessions_then(2, 0.08);
  const CheckReport report = h.check(judged());
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kFaster);
  EXPECT_FALSE(slow.sessions.known);
  EXPECT_EQ(slow.gate, Gate::kPass);
  EXPECT_EQ(report.regressions, 0u);
  EXPECT_EQ(report.not_judged, 1u);  // steady, with no spread known
}

}  // namespace
}  // namespace iobench::history
