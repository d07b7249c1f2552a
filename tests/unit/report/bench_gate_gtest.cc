// bench's gate, --fail-if-slower PCT (report::fail_if_slower; docs/bench.md, "A gate"): slower
// (exit 1) only when decided slower by more than PCT, passed only when the interval rules a
// slowdown beyond PCT out, and not judged (exit 4) in between.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/report/versus_reference.hpp"

namespace iobench::report {
namespace {

Row row(double ratio, std::optional<stats::Interval> ci, Verdict verdict) {
  Row r;
  r.key = {"b", "in.txt", "pipe"};
  r.ratio = ratio;
  r.ci = ci;
  r.p_value = 0.002;
  r.verdict = verdict;
  return r;
}

VersusReference versus(const Row& r, std::optional<stats::SequentialResult> rule = {}) {
  VersusReference v;
  v.reference = "a";
  v.result.rows = {r};
  if (rule) {
    RuleDecision d;
    d.test = "b";
    d.input = "in.txt";
    d.sink = "pipe";
    d.result = *rule;
    d.plan.paired = true;
    v.decisions.push_back(d);
  }
  return v;
}

stats::SequentialResult ruled(stats::Decision decision, double low, double high) {
  stats::SequentialResult r;
  r.decision = decision;
  r.runs = 8;
  r.interval = stats::Interval{low, high};
  return r;
}

TEST(BenchGate, DecidedSlowerByMoreThanAllowedIsRed) {
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 3);
  ASSERT_EQ(gate.slower.size(), 1U);
  EXPECT_EQ(gate.slower[0],
            "'b' on in.txt (pipe sink) is 1.05× slower [1.02, 1.08] against 'a', more than the 3 % "
            "--fail-if-slower allows (decided: different after 8 runs, sequential rule on round "
            "pairs)");
  EXPECT_TRUE(gate.not_judged.empty());
}

TEST(BenchGate, AnIntervalBelowTheAllowanceIsGreen) {
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 10);
  EXPECT_TRUE(gate.slower.empty());
  EXPECT_TRUE(gate.not_judged.empty());
  // Faster, decided: its interval is below 1.
  const Row faster = row(0.9, stats::Interval{0.85, 0.95}, Verdict::kFaster);
  const Gate fast =
      fail_if_slower(versus(faster, ruled(stats::Decision::kDifferent, 0.86, 0.94)), 0);
  EXPECT_TRUE(fast.slower.empty());
  EXPECT_TRUE(fast.not_judged.empty());
}

TEST(BenchGate, SlowerByLessThanAllowedButNotRuledOutIsNotJudged) {
  // 1.05 is within 6 %, but the rule's interval reaches 1.07: a slowdown beyond 6 % is possible.
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 6);
  EXPECT_TRUE(gate.slower.empty());
  ASSERT_EQ(gate.not_judged.size(), 1U);
  EXPECT_EQ(gate.not_judged[0],
            "'b' on in.txt (pipe sink) against 'a': cannot rule out a slowdown of more than 6 %: "
            "1.05× slower [1.02, 1.08] (decided: different after 8 runs, sequential rule on round "
            "pairs); more runs would tell (-m, -r)");
}

TEST(BenchGate, AnUndecidedComparisonIsJudgedByItsInterval) {
  const Row r = row(1.0, stats::Interval{0.97, 1.03}, Verdict::kNoChange);
  const stats::SequentialResult budget = ruled(stats::Decision::kBudget, 0.98, 1.02);
  EXPECT_TRUE(fail_if_slower(versus(r, budget), 3).not_judged.empty());
  EXPECT_EQ(fail_if_slower(versus(r, budget), 1).not_judged.size(), 1U);
  // A significant U test is not a decision: the rule's word stands, and 1.34 is not red.
  const Row u_slower = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  EXPECT_TRUE(fail_if_slower(versus(u_slower, ruled(stats::Decision::kBudget, 0.99, 1.5)), 10)
                  .slower.empty());
}

TEST(BenchGate, WithoutTheRuleTheUTestJudges) {
  const Row slower = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(slower), 10);
  ASSERT_EQ(gate.slower.size(), 1U);
  EXPECT_EQ(gate.slower[0],
            "'b' on in.txt (pipe sink) is 1.34× slower [1.32, 1.36] against 'a', more than the "
            "10 % --fail-if-slower allows (Mann-Whitney U, p = 0.002)");
  // Three runs a side: no interval, so nothing is ruled out.
  const Row few = row(1.01, std::nullopt, Verdict::kTooFewRuns);
  const Gate none = fail_if_slower(versus(few), 10);
  ASSERT_EQ(none.not_judged.size(), 1U);
  EXPECT_NE(none.not_judged[0].find("too few runs for an interval (Mann-Whitney U"),
            std::string::npos)
      << none.not_judged[0];
}

TEST(BenchGate, NothingToCompareIsNotGreen) {
  VersusReference alone;
  alone.reference = "a";
  const Gate gate = fail_if_slower(alone, 5);
  EXPECT_TRUE(gate.slower.empty());
  ASSERT_EQ(gate.not_judged.size(), 1U);
  EXPECT_EQ(gate.not_judged[0],
            "--fail-if-slower 5: no command to judge against 'a' (it needs two commands or more, "
            "the first the reference, with ok runs on the same input and sink)");
}

}  // namespace
}  // namespace iobench::report
