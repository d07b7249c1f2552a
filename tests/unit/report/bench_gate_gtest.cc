// bench's gate, --fail-if-slower PCT (report::fail_if_slower; docs/bench.md, "A gate"): slower
// (exit 1) only when decided slower by more than PCT, passed only when the interval rules a
// slowdown beyond PCT out, and not judged (exit 4) in between; --gate-format writes it as history
// check writes its verdicts (report/gate_output).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/report/gate_output.hpp"
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

// The rule's result: its interval, and the estimate it goes with (the interval's middle unless
// given), as SequentialRule::decide gives both.
stats::SequentialResult ruled(stats::Decision decision, double low, double high,
                              std::optional<double> estimate = std::nullopt) {
  stats::SequentialResult r;
  r.decision = decision;
  r.runs = 8;
  r.interval = stats::Interval{low, high};
  r.estimate = estimate.value_or((low + high) / 2);
  return r;
}

std::vector<std::string> slower(const Gate& gate) {
  return gate_lines(gate, GateVerdict::kSlower);
}
std::vector<std::string> not_judged(const Gate& gate) {
  return gate_lines(gate, GateVerdict::kNotJudged);
}

TEST(BenchGate, DecidedSlowerByMoreThanAllowedIsRed) {
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 3);
  ASSERT_EQ(slower(gate).size(), 1U);
  EXPECT_EQ(slower(gate)[0],
            "'b' on in.txt (pipe sink) is 1.05× slower [1.03, 1.07] against 'a', more than the 3 % "
            "--fail-if-slower allows (decided: different after 8 runs, sequential rule on round "
            "pairs)");
  EXPECT_TRUE(not_judged(gate).empty());
  EXPECT_EQ(gate_exit_status(gate), 1);
  ASSERT_EQ(gate.cells.size(), 1U);
  EXPECT_EQ(gate.cells[0].cell, "'b' on in.txt (pipe sink)");
  EXPECT_EQ(gate.cells[0].ratio, 1.05);
  EXPECT_EQ(gate.cells[0].interval->low, 1.03);  // the rule's, not the U test's
}

// Judged on the figures the rule decided on (issue 46): an A/A duet on this VM, decided
// "different" on its pairs (1.004× [1.001, 1.008]) while the ratio of its medians was 1.052, is
// within a 1 % gate, and says the pairs' figures. Judged by that ratio it was red.
TEST(BenchGate, ADecisionIsJudgedOnTheRulesEstimateNotTheRatioOfMedians) {
  const Row r = row(1.052, stats::Interval{0.985, 1.082}, Verdict::kNoChange);
  const Gate gate =
      fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.001, 1.008, 1.004)), 1);
  EXPECT_TRUE(slower(gate).empty());
  EXPECT_TRUE(not_judged(gate).empty());
  EXPECT_EQ(gate_exit_status(gate), 0);
  ASSERT_EQ(gate.cells.size(), 1U);
  EXPECT_EQ(gate.cells[0].ratio, 1.004);
  EXPECT_EQ(gate.cells[0].line,
            "'b' on in.txt (pipe sink) is 1.00× slower [1.00, 1.01] against 'a', within the 1 % "
            "--fail-if-slower allows (decided: different after 8 runs, sequential rule on round "
            "pairs)");
  // Its estimate past the allowance, its interval above 1: red, by the estimate.
  const Gate red =
      fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.005, 1.03, 1.015)), 1);
  ASSERT_EQ(slower(red).size(), 1U);
  EXPECT_EQ(red.cells[0].ratio, 1.015);
}

TEST(BenchGate, AnIntervalBelowTheAllowanceIsGreen) {
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 10);
  EXPECT_TRUE(slower(gate).empty());
  EXPECT_TRUE(not_judged(gate).empty());
  EXPECT_EQ(gate_exit_status(gate), 0);
  EXPECT_EQ(gate_lines(gate, GateVerdict::kPassed),
            std::vector<std::string>{
                "'b' on in.txt (pipe sink) is 1.05× slower [1.03, 1.07] against 'a', within the "
                "10 % --fail-if-slower allows (decided: different after 8 runs, sequential rule "
                "on round pairs)"});
  // Faster, decided: its interval is below 1.
  const Row faster = row(0.9, stats::Interval{0.85, 0.95}, Verdict::kFaster);
  const Gate fast =
      fail_if_slower(versus(faster, ruled(stats::Decision::kDifferent, 0.86, 0.94)), 0);
  EXPECT_TRUE(slower(fast).empty());
  EXPECT_TRUE(not_judged(fast).empty());
}

TEST(BenchGate, SlowerByLessThanAllowedButNotRuledOutIsNotJudged) {
  // 1.05 is within 6 %, but the rule's interval reaches 1.07: a slowdown beyond 6 % is possible.
  const Row r = row(1.05, stats::Interval{1.02, 1.08}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(r, ruled(stats::Decision::kDifferent, 1.03, 1.07)), 6);
  EXPECT_TRUE(slower(gate).empty());
  EXPECT_EQ(gate_exit_status(gate), 4);
  ASSERT_EQ(not_judged(gate).size(), 1U);
  EXPECT_EQ(not_judged(gate)[0],
            "'b' on in.txt (pipe sink) against 'a': cannot rule out a slowdown of more than 6 %: "
            "1.05× slower [1.03, 1.07] (decided: different after 8 runs, sequential rule on round "
            "pairs); more runs would tell (-m, -r)");
}

TEST(BenchGate, AnUndecidedComparisonIsJudgedByItsInterval) {
  const Row r = row(1.0, stats::Interval{0.97, 1.03}, Verdict::kNoChange);
  const stats::SequentialResult budget = ruled(stats::Decision::kBudget, 0.98, 1.02);
  EXPECT_TRUE(not_judged(fail_if_slower(versus(r, budget), 3)).empty());
  EXPECT_EQ(not_judged(fail_if_slower(versus(r, budget), 1)).size(), 1U);
  // A significant U test is not a decision: the rule's word stands, and 1.34 is not red.
  const Row u_slower = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  EXPECT_TRUE(
      slower(fail_if_slower(versus(u_slower, ruled(stats::Decision::kBudget, 0.99, 1.5)), 10))
          .empty());
}

TEST(BenchGate, WithoutTheRuleTheUTestJudges) {
  const Row slow = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  const Gate gate = fail_if_slower(versus(slow), 10);
  ASSERT_EQ(slower(gate).size(), 1U);
  EXPECT_EQ(slower(gate)[0],
            "'b' on in.txt (pipe sink) is 1.34× slower [1.32, 1.36] against 'a', more than the "
            "10 % --fail-if-slower allows (Mann-Whitney U, p = 0.002)");
  // Three runs a side: no interval, so nothing is ruled out.
  const Row few = row(1.01, std::nullopt, Verdict::kTooFewRuns);
  const Gate none = fail_if_slower(versus(few), 10);
  ASSERT_EQ(not_judged(none).size(), 1U);
  EXPECT_NE(not_judged(none)[0].find("too few runs for an interval (Mann-Whitney U"),
            std::string::npos)
      << not_judged(none)[0];
}

TEST(BenchGate, NothingToCompareIsNotGreen) {
  VersusReference alone;
  alone.reference = "a";
  const Gate gate = fail_if_slower(alone, 5);
  EXPECT_TRUE(slower(gate).empty());
  ASSERT_EQ(not_judged(gate).size(), 1U);
  EXPECT_EQ(not_judged(gate)[0],
            "--fail-if-slower 5: no command to judge against 'a' (it needs two commands or more, "
            "the first the reference, with ok runs on the same input and sink)");
}

// `run`'s gate has tests, and under --versus each one's twin, not bench's commands.
TEST(BenchGate, NothingToCompareUnderRunSpeaksOfTests) {
  const GateOf run{"iobench run", "test", "--repeats"};
  VersusReference twins;
  twins.reference = "base build";
  twins.each_against_its_twin = true;
  const Gate versus = fail_if_slower(twins, 5, run);
  ASSERT_EQ(not_judged(versus).size(), 1U);
  EXPECT_EQ(not_judged(versus)[0],
            "--fail-if-slower 5: no test to judge against its base build twin (each needs ok "
            "runs, and its twin NAME@base ok runs, on the same input and sink)");
  EXPECT_EQ(gate_summary(versus), "1 test against 'base build': 1 not judged");
  VersusReference baseline;
  baseline.reference = "a";
  EXPECT_EQ(not_judged(fail_if_slower(baseline, 5, run))[0],
            "--fail-if-slower 5: no test to judge against 'a' (it needs two tests or more, one "
            "of them the baseline, with ok runs on the same input and sink)");
  baseline.reference = "";  // a config without one
  EXPECT_EQ(not_judged(fail_if_slower(baseline, 5, run))[0],
            "--fail-if-slower 5: no test to judge: without --versus each is judged against the "
            "config's \"baseline\", and it names none");
}

// bench and run end a gated run alike: the lines of what is not green, then the exit status.
TEST(BenchGate, FinishGatePrintsWhatIsNotGreenAndLetsARunsFailureStand) {
  Row b = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  Row c = row(1.0, stats::Interval{0.97, 1.03}, Verdict::kNoChange);
  Row d = row(1.05, stats::Interval{0.9, 1.3}, Verdict::kNoChange);
  c.key[0] = "c";
  d.key[0] = "d";
  VersusReference v;
  v.reference = "a";
  v.result.rows = {d, c, b};
  const Gate gate = fail_if_slower(v, 10);
  std::ostringstream err;
  EXPECT_EQ(finish_gate(gate, kExitOk, err), kExitRunFailed);
  EXPECT_EQ(err.str(), "iobench: " + slower(gate)[0] + "\niobench: " + not_judged(gate)[0] + "\n");
  std::ostringstream again;
  EXPECT_EQ(finish_gate(gate, kExitInterrupted, again), kExitInterrupted);
  v.result.rows = {c};
  EXPECT_EQ(finish_gate(fail_if_slower(v, 10), kExitOk, again), kExitOk);
}

// Two commands against 'a': 'b' red, 'c' passed.
Gate two_commands() {
  Row b = row(1.34, stats::Interval{1.32, 1.36}, Verdict::kSlower);
  Row c = row(1.0, stats::Interval{0.97, 1.03}, Verdict::kNoChange);
  c.key[0] = "c|d";
  VersusReference v;
  v.reference = "a";
  v.result.rows = {c, b};
  return fail_if_slower(v, 10);
}

std::string written(const Gate& gate, VerdictFormat format) {
  std::ostringstream out;
  write_gate(gate, format, out);
  return out.str();
}

TEST(BenchGateOutput, TextAndMarkdownSaySlowerFirstAndTheSummary) {
  const Gate gate = two_commands();
  EXPECT_EQ(gate_summary(gate), "2 commands against 'a': 1 slower, 1 passed");
  EXPECT_EQ(written(gate, VerdictFormat::kText),
            "slower: 'b' on in.txt (pipe sink) is 1.34× slower [1.32, 1.36] against 'a', more "
            "than the 10 % --fail-if-slower allows (Mann-Whitney U, p = 0.002)\n"
            "passed: 'c|d' on in.txt (pipe sink) is 1.00× slower [0.97, 1.03] against 'a', "
            "within the 10 % --fail-if-slower allows (Mann-Whitney U, p = 0.002)\n"
            "iobench bench --fail-if-slower 10: 2 commands against 'a': 1 slower, 1 passed; exit "
            "1: 1 slower\n");
  EXPECT_EQ(written(gate, VerdictFormat::kMarkdown),
            "**iobench bench --fail-if-slower 10**: 2 commands against 'a': 1 slower, 1 passed; "
            "exit 1: 1 slower\n\n"
            "| command | verdict | ratio [interval] | judged by |\n|---|---|---|---|\n"
            "| 'b' on in.txt (pipe sink) | **slower** | 1.340 [1.320, 1.360] | Mann-Whitney U, p "
            "= 0.002 |\n"
            "| 'c\\|d' on in.txt (pipe sink) | passed | 1.000 [0.970, 1.030] | Mann-Whitney U, p "
            "= 0.002 |\n");
}

TEST(BenchGateOutput, JsonAndGithubCarryEachCommandsVerdict) {
  const Gate gate = two_commands();
  const nlohmann::json j = nlohmann::json::parse(written(gate, VerdictFormat::kJson));
  EXPECT_EQ(j["exit_status"], 1);
  EXPECT_EQ(j["reason"], "1 slower");
  ASSERT_EQ(j["commands"].size(), 2U);
  EXPECT_EQ(j["commands"][1]["command"], "'b' on in.txt (pipe sink)");
  EXPECT_EQ(j["commands"][1]["verdict"], "slower");
  EXPECT_EQ(j["commands"][1]["interval"], nlohmann::json::array({1.32, 1.36}));
  EXPECT_EQ(j["commands"][0]["verdict"], "passed");
  const std::string github = written(gate, VerdictFormat::kGithub);
  EXPECT_NE(github.find("::notice title=passed%3A 'c|d' on in.txt (pipe sink)::"),
            std::string::npos)
      << github;
  EXPECT_NE(github.find("::error title=slower%3A 'b' on in.txt (pipe sink)::'b' on in.txt (pipe "
                        "sink) is 1.34× slower [1.32, 1.36] against 'a', more than the 10 %25"),
            std::string::npos)
      << github;
  EXPECT_NE(github.find("::error title=iobench bench --fail-if-slower 10::2 commands against 'a': "
                        "1 slower, 1 passed; exit 1: 1 slower\n"),
            std::string::npos)
      << github;
  EXPECT_EQ(parse_verdict_format("--gate-format", "markdown"), VerdictFormat::kMarkdown);
  try {
    parse_verdict_format("--gate-format", "html");
    ADD_FAILURE() << "html was taken";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--gate-format html: one of text, markdown, json, github");
  }
}

}  // namespace
}  // namespace iobench::report
