// The answer (docs/reports.md, "The answer"): the reference rule, the ranking, the factors and
// their intervals, the claim, on run sets whose numbers make every figure known exactly.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "driver/report/answer.hpp"
#include "driver/report/export.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {
namespace {

const std::string kHeader = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n";

std::string runs(const std::string& test, const std::vector<std::string>& elapsed_s,
                 const std::string& sink = "pipe") {
  std::string text;
  for (const auto& e : elapsed_s)
    text += fmt::format("{}\t{}\t0.5\t0.1\t60\t5\tin.txt\t{}\tok\n", test, e, sink);
  return text;
}

// A: 1.00 … 1.05 s; B: 2 s each run. The 36 ratios A/B are a_j / 2, six of each: their median
// (the Hodges-Lehmann ratio) is (0.51 + 0.515) / 2 = 0.5125; for 6 and 6 runs the exact U
// distribution gives k = 6 (P(U <= 5) = 0.0206, P(U <= 6) = 0.0325), so the 95 % interval is the
// 6th smallest and the 6th largest: [0.5, 0.525]. C: within 2 % of A's median (1.025 s: C's 1.04
// <= 1.0455); D: 4 % slower (1.066 s).
const std::string kFast = runs("A", {"1.00", "1.01", "1.02", "1.03", "1.04", "1.05"});
const std::string kSlow = runs("B", {"2", "2", "2", "2", "2", "2"});
const std::string kNear = runs("C", {"1.03", "1.035", "1.04", "1.04", "1.045", "1.05"});
const std::string kFar = runs("D", {"1.066", "1.066", "1.066", "1.066", "1.066", "1.066"});

runfile::RunMeta meta_with_baseline(const std::string& baseline) {
  runfile::RunMeta meta;
  meta.config = nlohmann::ordered_json{{"name", "x"}, {"baseline", baseline}};
  return meta;
}

const AnswerEntry& entry(const Answer& answer, const std::string& test) {
  for (const AnswerEntry& e : answer.ranked) {
    if (e.test == test) return e;
  }
  throw std::logic_error("no entry " + test);
}

TEST(Answer, TheConfigsBaselineInTheMetaFileIsTheReferenceOverTheFastest) {
  const runfile::RunMeta meta = meta_with_baseline("B");
  const auto set = runfile::parse_runs(
      {{"r.tsv", kHeader + kSlow + kFast + kNear + kFar, "warm", &meta}}, runfile::cell_grouping());
  const Summary summary = summarize(set);
  const std::vector<Answer> all = answers(summary);
  ASSERT_EQ(all.size(), 1u);
  const Answer& a = all[0];
  EXPECT_EQ(a.reference, "B");
  EXPECT_EQ(a.reference_why, "the config's baseline");
  EXPECT_EQ(a.fastest, "A");
  ASSERT_EQ(a.ranked.size(), 4u);
  EXPECT_EQ(a.ranked[0].test, "A");
  EXPECT_EQ(a.ranked[1].test, "C");
  EXPECT_EQ(a.ranked[2].test, "D");
  EXPECT_EQ(a.ranked[3].test, "B");
  const AnswerEntry& fast = a.ranked[0];
  ASSERT_TRUE(fast.versus && fast.versus->ci);
  EXPECT_DOUBLE_EQ(fast.versus->ratio, 0.5125);
  EXPECT_DOUBLE_EQ(fast.versus->ci->low, 0.5);
  EXPECT_DOUBLE_EQ(fast.versus->ci->high, 0.525);
  EXPECT_EQ(answer_factor(fast), "1.95× faster [1.90, 2.00]");
  EXPECT_EQ(answer_factor(a.ranked[3]), "reference");
  EXPECT_EQ(a.claim,
            "A is 1.95× faster [1.90, 2.00] than B here; 1 other is within 2 % of the fastest (C)");
  // The `relative` column divides by the same reference.
  EXPECT_EQ(summary.groups[0].relative, 1.0);
  EXPECT_TRUE(summary.groups[0].is_reference);
  EXPECT_DOUBLE_EQ(*summary.groups[1].relative, 1.025 / 2);
}

TEST(Answer, WithoutABaselineTheFastestIsTheReferenceAndTheClaimNamesTheNext) {
  const auto set = runfile::parse_runs({{"r.tsv", kHeader + kSlow + kFast, ""}});
  const std::vector<Answer> all = answers(summarize(set));
  ASSERT_EQ(all.size(), 1u);
  const Answer& a = all[0];
  EXPECT_EQ(a.reference, "A");
  EXPECT_EQ(a.reference_why, "the fastest");
  EXPECT_EQ(answer_factor(a.ranked[0]), "reference");
  // B / A: the median of 2 / a_j, six of each, is (2 / 1.03 + 2 / 1.02) / 2; the interval the
  // 6th smallest and largest, 2 / 1.05 and 2 / 1.00.
  const AnswerEntry& slow = entry(a, "B");
  ASSERT_TRUE(slow.versus && slow.versus->ci);
  EXPECT_DOUBLE_EQ(slow.versus->ratio, (2 / 1.03 + 2 / 1.02) / 2);
  EXPECT_DOUBLE_EQ(slow.versus->ci->low, 2 / 1.05);
  EXPECT_DOUBLE_EQ(slow.versus->ci->high, 2.0);
  EXPECT_EQ(answer_factor(slow), "1.95× slower [1.90, 2.00]");
  EXPECT_EQ(a.claim,
            "A is 1.95× faster [1.90, 2.00] than B, the next fastest, here; no other is within 2 % "
            "of it");
}

TEST(Answer, AGivenBaselineWinsOverTheConfigsAndIsNamedSo) {
  const runfile::RunMeta meta = meta_with_baseline("B");
  const auto set = runfile::parse_runs({{"r.tsv", kHeader + kSlow + kFast + kFar, "warm", &meta}});
  SummaryOptions options;
  options.baseline = "D";
  const Answer a = answers(summarize(set, options)).at(0);
  EXPECT_EQ(a.reference, "D");
  EXPECT_EQ(a.reference_why, "--baseline");
}

TEST(Answer, WarmAndColdFilesGiveTwoAnswersNeverPooled) {
  const runfile::RunMeta meta = meta_with_baseline("B");
  const std::string cold_a = runs("A", {"3", "3", "3", "3", "3", "3"});
  const auto set = runfile::parse_runs({{"warm.tsv", kHeader + kSlow + kFast, "warm", &meta},
                                        {"cold.tsv", kHeader + kSlow + cold_a, "cold", &meta}},
                                       runfile::cell_grouping());
  const std::vector<Answer> all = answers(summarize(set));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(answer_where(all[0]), "input in.txt, sink pipe, cache warm");
  EXPECT_EQ(answer_where(all[1]), "input in.txt, sink pipe, cache cold");
  EXPECT_EQ(all[0].fastest, "A");
  EXPECT_EQ(all[1].fastest, "B");  // cold, A is 1.5 times slower: its warm runs are not pooled
  EXPECT_DOUBLE_EQ(entry(all[1], "A").versus->ratio, 1.5);
  EXPECT_EQ(all[1].claim,
            "B is 1.50× faster [1.50, 1.50] than A, the next fastest, here; no other is within 2 % "
            "of it");
}

TEST(Answer, UnderVersusEachTestIsComparedWithItsBaseTwin) {
  const std::string twin = runs("A@base", {"2", "2", "2", "2", "2", "2"});
  const auto set = runfile::parse_runs({{"r.tsv", kHeader + twin + kFast + kFar, ""}});
  const Summary summary = summarize(set);
  const Answer a = answers(summary).at(0);
  const AnswerEntry& fast = entry(a, "A");
  EXPECT_EQ(fast.reference, "A@base");
  EXPECT_TRUE(a.against_twins);
  EXPECT_DOUBLE_EQ(fast.versus->ratio, 0.5125);
  EXPECT_EQ(summary.groups[1].reference_rule, ReferenceRule::kBaseTwin);
  EXPECT_DOUBLE_EQ(*summary.groups[1].relative, 1.025 / 2);
  // D has no twin: the fastest of its peers, A, is its reference.
  EXPECT_EQ(entry(a, "D").reference, "A");
}

// 501 runs against 500 are 250,500 pairs, past kMostPairsCompared: the ratio of medians, no
// interval, said so (the pairwise interval of 20,000 runs a side would sort 4 * 10^8 ratios).
TEST(Answer, TooManyPairsOfRunsGiveTheRatioOfMediansWithoutAnInterval) {
  const auto set = runfile::parse_runs({{"r.tsv",
                                         kHeader + runs("A", std::vector<std::string>(501, "1")) +
                                             runs("B", std::vector<std::string>(500, "2")),
                                         ""}});
  const Answer a = answers(summarize(set)).at(0);
  const AnswerEntry& slow = entry(a, "B");
  ASSERT_TRUE(slow.versus);
  EXPECT_DOUBLE_EQ(slow.versus->ratio, 2.0);
  EXPECT_FALSE(slow.versus->ci);
  EXPECT_EQ(answer_factor(slow),
            "2.00× slower (the ratio of medians: too many runs for the pairwise interval)");
}

TEST(Answer, SummarizeBeginsWithItRunEndsWithItAndTheJsonHasTheSameNumbers) {
  const runfile::RunMeta meta = meta_with_baseline("B");
  const auto set = runfile::parse_runs({{"r.tsv", kHeader + kSlow + kFast, "warm", &meta}});
  const Summary summary = summarize(set);
  std::ostringstream pretty;
  TableView view;
  view.answer = AnswerAt::kFirst;
  write_summary(summary, Format::kPretty, pretty, view);
  EXPECT_EQ(pretty.str().rfind("The answer (input in.txt, sink pipe): A is 1.95× faster [1.90, "
                               "2.00] than B here; no other is within 2 % of it.\n",
                               0),
            0u)
      << pretty.str();
  std::ostringstream json;
  write_summary(summary, Format::kJson, json);
  const auto doc = nlohmann::json::parse(json.str());
  const auto& answer = doc["iobench"]["answer"][0];
  EXPECT_EQ(answer["reference"], "B");
  EXPECT_EQ(answer["reference_is"], "the config's baseline");
  EXPECT_EQ(answer["ranked"][0]["test"], "A");
  EXPECT_DOUBLE_EQ(answer["ranked"][0]["ratio"].get<double>(), 0.5125);
  EXPECT_DOUBLE_EQ(answer["ranked"][0]["ci_low"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(answer["ranked"][0]["ci_high"].get<double>(), 0.525);
  EXPECT_EQ(answer["ranked"][0]["factor"], "1.95× faster [1.90, 2.00]");

  std::ostringstream table;
  std::ostringstream warnings;
  write_medians_report(
      {"r.tsv", "", "B", "", 0},
      runfile::parse_runs({{"r.tsv", kHeader + kSlow + kFast, ""}}, medians_grouping()), table,
      warnings);
  const std::string out = table.str();
  const auto at = out.find("The answer (");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_LT(out.find("relative"), at);  // after the medians table
  EXPECT_NE(out.find("reference: B (the config's baseline)"), std::string::npos) << out;
}

}  // namespace
}  // namespace iobench::report
