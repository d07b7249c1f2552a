// bench's closing verdicts after the sequential rule stopped a comparison (docs/reports.md,
// "Deciding a comparison"): the decision and the rule's level, never the fixed-n U test's p, which
// is not the error rate of a decision made by repeated looks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "driver/bench/exports.hpp"
#include "driver/report/versus_reference.hpp"

namespace iobench::bench {

using report::compare_with_reference;
using report::CompareOptions;
using report::decision_phrase;
using report::RuleDecision;
using report::VersusReference;
using report::write_versus_reference;

namespace {

using stats::Decision;  // the sequential rule's (driver/stats/sequential.hpp)

report::Row row(double ratio, double low, double high, double p, report::Verdict verdict) {
  report::Row r;
  r.key = {"b", "in.txt", "pipe"};
  r.ratio = ratio;
  r.ci = stats::Interval{low, high};
  r.p_value = p;
  r.verdict = verdict;
  return r;
}

RuleDecision decided(Decision decision, std::size_t runs) {
  RuleDecision d;
  d.test = "b";
  d.input = "in.txt";
  d.sink = "pipe";
  d.result.decision = decision;
  d.result.runs = runs;
  return d;
}

TEST(BenchDecided, ADecidedDifferenceSaysTheDecisionAndTheRulesLevelNotAP) {
  const report::Row slower = row(1.34, 1.32, 1.36, 0.002, report::Verdict::kSlower);
  EXPECT_EQ(decision_phrase(slower, decided(Decision::kDifferent, 6)),
            "1.34× slower [1.32, 1.36], decided different after 6 runs (sequential rule, alpha "
            "0.05 overall)");
  EXPECT_TRUE(significant(slower, nullptr));
  const RuleDecision different = decided(Decision::kDifferent, 6);
  EXPECT_TRUE(significant(slower, &different));
  RuleDecision paired = decided(Decision::kBudget, 10);
  paired.plan.paired = true;
  EXPECT_EQ(decision_phrase(slower, paired),
            "1.34× slower [1.32, 1.36], p = 0.002; sequential rule on round pairs: budget of 10 "
            "runs spent, undecided (alpha 0.05 overall)");
}

TEST(BenchDecided, EquivalentAndUndecidedAreNotSignificantWhateverTheUTestSays) {
  // The fixed-n 95 % interval excludes 1 and p < 0.05, but the rule did not decide: its verdict
  // stands.
  const report::Row r = row(1.03, 1.01, 1.05, 0.03, report::Verdict::kSlower);
  const RuleDecision budget = decided(Decision::kBudget, 10);
  EXPECT_FALSE(significant(r, &budget));
  EXPECT_EQ(decision_phrase(r, budget),
            "1.03× slower [1.01, 1.05], p = 0.030; sequential rule: budget of 10 runs spent, "
            "undecided (alpha 0.05 overall)");
  const RuleDecision stopped = decided(Decision::kContinue, 7);
  EXPECT_EQ(decision_phrase(r, stopped),
            "1.03× slower [1.01, 1.05], p = 0.030; sequential rule: undecided after 7 runs "
            "(alpha 0.05 overall)");
  const report::Row same = row(1.001, 0.995, 1.004, 0.6, report::Verdict::kNoChange);
  const RuleDecision equivalent = decided(Decision::kEquivalent, 9);
  EXPECT_FALSE(significant(same, &equivalent));
  EXPECT_EQ(decision_phrase(same, equivalent),
            "equivalent within ±1 % (1.00× slower [0.99, 1.00]), decided after 9 runs "
            "(sequential rule, alpha 0.05 overall)");
}

runfile::RunSet two_tests_two_sinks() {
  runfile::RunSet set;
  set.group_by = {"test", "input", "sink"};
  const auto group = [](const std::string& test, const std::string& sink, double scale) {
    runfile::Group g;
    g.key = {test, "in.txt", sink};
    for (int i = 0; i < 10; ++i) {
      for (auto& samples : g.samples) samples.push_back((1.0 + 0.01 * i) * scale);
    }
    g.rows[0] = 10;
    return g;
  };
  set.groups = {group("a", "pipe", 1), group("b", "pipe", 2), group("a", "null", 1),
                group("b", "null", 2)};
  return set;
}

TEST(BenchDecided, TheClosingLinesUseTheRuleWhereItJudgedAndTheUTestElsewhere) {
  const runfile::RunSet set = two_tests_two_sinks();
  const VersusReference versus =
      compare_with_reference(set, "a", CompareOptions{}, {decided(Decision::kDifferent, 6)});
  std::ostringstream out;
  write_versus_reference(versus, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("a comparison the sequential rule stopped is said by its decision, alpha "
                      "0.05 over all its looks"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    b  2.00× slower [1.9"), std::string::npos) << text;
  EXPECT_NE(text.find("], decided different after 6 runs (sequential rule"), std::string::npos)
      << text;
  // The null sink's comparison was not the rule's: the U test's p, as before.
  EXPECT_NE(text.find("], p < 0.001\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("], p = "), std::string::npos) << text;
}

TEST(BenchDecided, TheJsonExportCarriesTheVerdictBenchPrinted) {
  const runfile::RunSet set = two_tests_two_sinks();
  const VersusReference versus =
      compare_with_reference(set, "a", CompareOptions{}, {decided(Decision::kBudget, 10)});
  ExportData data;
  data.figures = &set;
  data.raw = &set;
  data.tests = {{"a", {}}, {"b", {}}};
  data.reference = "a";
  data.versus = &versus;
  std::ostringstream out;
  write_bench_export(data, ExportFormat::kJson, out);
  const auto json = nlohmann::json::parse(out.str());
  const auto verdict_of = [&](const std::string& sink, const std::string& command) {
    for (const auto& r : json["results"]) {
      if (r["command"] == command && r["iobench"]["sink"] == sink) return r["iobench"]["verdict"];
    }
    return nlohmann::json();
  };
  EXPECT_TRUE(verdict_of("pipe", "a").is_null());  // the reference
  const auto by_rule = verdict_of("pipe", "b");
  EXPECT_EQ(by_rule["significant"], false) << by_rule;  // twice as slow, but the budget ran out
  EXPECT_EQ(by_rule["judged_by"], "sequential rule");
  EXPECT_EQ(by_rule["outcome"], "budget");
  EXPECT_GT(by_rule["p_value"].get<double>(), 0);  // printed: the rule did not stop it
  const VersusReference stopped =
      compare_with_reference(set, "a", CompareOptions{}, {decided(Decision::kDifferent, 6)});
  data.versus = &stopped;
  std::ostringstream decided_out;
  write_bench_export(data, ExportFormat::kJson, decided_out);
  // Kept in a variable: a range-for over a member of parse()'s temporary would outlive it.
  const nlohmann::json decided_export = nlohmann::json::parse(decided_out.str());
  for (const auto& r : decided_export["results"]) {
    if (r["command"] != "b" || r["iobench"]["sink"] != "pipe") continue;
    EXPECT_EQ(r["iobench"]["verdict"]["significant"], true);
    EXPECT_TRUE(r["iobench"]["verdict"]["p_value"].is_null());  // the rule's alpha stands
    EXPECT_EQ(r["iobench"]["verdict"]["look_runs"], 6);
  }
  EXPECT_EQ(by_rule["look_runs"], 10);
  const auto by_u = verdict_of("null", "b");
  EXPECT_EQ(by_u["significant"], true) << by_u;
  EXPECT_EQ(by_u["judged_by"], "Mann-Whitney U");
  EXPECT_EQ(by_u["outcome"], "slower");
  EXPECT_LT(by_u["p_value"].get<double>(), 0.001);
  EXPECT_NEAR(by_u["ratio"].get<double>(), 2.0, 1e-9);
}

}  // namespace
}  // namespace iobench::bench
