// history check's formats on a report made by hand (so every figure is known): text, markdown,
// json and github, each compared line by line; GitHub's escapes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/history/check_output.hpp"

namespace iobench::history {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Four series: a regression, a steady one, a new one (a `|` in its command) and one on a busy
// machine, both not judged.
class CheckOutput : public ::testing::Test {
 protected:
  CheckOutput() {
    const char* tests[] = {"slow", "steady", "grep x | wc -l", "busy"};
    for (int i = 0; i < 4; ++i) {
      StoredSeries s;
      s.series_id = i + 1;
      s.series_hash = fmt::format("{:02d}aabbccddeeff00", i + 1);
      s.key.test = tests[i];
      s.key.input = "in.txt";
      s.key.sink = "pipe";
      series_.push_back(s);
    }
    for (const StoredSeries& s : series_) timelines_.push_back(Timeline{&s, {}, {}});
    CellCheck slow = cell(0, CellVerdict::kRegression, Gate::kRegression);
    slow.comparison = row(0.1, 0.12, 1.2, 1.18, 1.22, 0.0004, report::Verdict::kSlower);
    slow.baseline_runs = 2;
    slow.commits = {"aaaa1111", "bbbb2222"};
    slow.why.moved.push_back({"syscalls", 300, 90000});
    slow.why.reading = "the work changed";
    slow.rows_verdict = CellVerdict::kRegression;
    slow.sessions = sessions(0.002);
    CellCheck steady = cell(1, CellVerdict::kSteady, Gate::kPass);
    steady.comparison = row(0.2, 0.2002, 1.001, 0.99, 1.01, 0.84, report::Verdict::kNoChange);
    steady.baseline_runs = 2;
    steady.commits = {"aaaa1111", "bbbb2222"};
    CellCheck fresh = cell(2, CellVerdict::kNoBaseline, Gate::kNotJudged);
    fresh.not_judged = "a new series: no earlier run to compare with";
    fresh.accepted_by = "--allow-new-series";
    fresh.commits = {"", "bbbb2222"};
    CellCheck busy = cell(3, CellVerdict::kConditionsChanged, Gate::kNotJudged);
    busy.conditions = "a busy machine (1.50 CPUs busy with others at the start, before 0.10)";
    busy.not_judged = "no baseline run shares its conditions: " + busy.conditions;
    busy.accepted_by = "--allow-conditions-changed";
    busy.commits = {"aaaa1111", "bbbb2222"};
    report_.cells = {slow, steady, fresh, busy};
    report_.regressions = 1;
    report_.not_judged = 2;
    report_.exit_status = check_exit_status(report_);
  }
  CellCheck cell(std::size_t i, CellVerdict verdict, Gate gate) {
    CellCheck c;
    c.timeline = &timelines_[i];
    c.verdict = verdict;
    c.gate = gate;
    c.change_id = fmt::format("{:02d}aabbcc@0003ffff", i + 1);
    return c;
  }
  // Sessions spread 3.1 %, learnt from 4; the newest 1.2 [1.1, 1.31] of the baseline's 2.
  static SessionCheck sessions(double p) {
    SessionCheck c;
    c.known = true;
    c.learnt = {std::log(1.031), 3, 4};
    c.sd_log = c.learnt.sd_log;
    c.baseline_sessions = 2;
    c.judgement = {1.2, 1.1, 1.31, p};
    return c;
  }
  static report::Row row(double base, double now, double ratio, double low, double high, double p,
                         report::Verdict verdict) {
    report::Row r;
    r.base_n = 10;
    r.new_n = 5;
    r.base_median = base;
    r.new_median = now;
    r.ratio = ratio;
    r.ci = stats::Interval{low, high};
    r.p_value = p;
    r.verdict = verdict;
    return r;
  }
  std::string written(CheckFormat format) const {
    std::ostringstream out;
    write_check_report(report_, format, out);
    return out.str();
  }

  std::vector<StoredSeries> series_;
  std::vector<Timeline> timelines_;
  CheckReport report_;
};

const char* const kRegressionLine =
    "regression 01aabbcc@0003ffff slow (in.txt, pipe): elapsed 100.00 ms -> 120.00 ms, 1.20× "
    "slower "
    "[1.18, 1.22], p < 0.001, against 10 rows of 2 runs, over the 5 % allowed, change in "
    "aaaa1111..bbbb2222; sessions spread 3.1 % (learnt from 4 sessions): the newest 1.200 "
    "[1.100, 1.310] of the baseline's 2, p = 0.002; why: syscalls 300 -> 90000 (×300): the work "
    "changed";
const char* const kNewLine =
    "no baseline 03aabbcc@0003ffff grep x | wc -l (in.txt, pipe): a new series: no earlier run to "
    "compare with; not judged (exit 4; --allow-new-series accepts it)";
const char* const kBusyLine =
    "conditions changed 04aabbcc@0003ffff busy (in.txt, pipe): a busy machine (1.50 CPUs busy "
    "with others at the start, before 0.10); not judged as a regression (no baseline run shares "
    "its conditions); not judged (exit 4; --allow-conditions-changed accepts it)";

TEST_F(CheckOutput, TextIsOneLinePerSeriesThatIsNotSteady) {
  const std::vector<std::string> expected{kRegressionLine, kNewLine, kBusyLine};
  EXPECT_EQ(lines_of(written(CheckFormat::kText)), expected);
}

TEST_F(CheckOutput, MarkdownIsAHeadingAndATableOfEverySeries) {
  // Each element is one line of the output, its literal split where it is long.
  // NOLINTBEGIN(bugprone-suspicious-missing-comma)
  const std::vector<std::string> expected{
      "**iobench history check**: 4 series: 1 regression, 1 conditions changed, 1 steady, 1 no "
      "baseline; exit 1: 1 regression, and 2 series not judged",
      "",
      "| series | verdict | baseline → newest | ratio [interval] | p | change | why |",
      "|---|---|---|---|---|---|---|",
      // Issue 47: what fails the gate first, and the id `history ack` takes.
      "| slow (in.txt, pipe) | **regression** in aaaa1111..bbbb2222 | 100.00 ms → 120.00 ms | "
      "1.200 "
      "[1.180, 1.220] | < 0.001 | `01aabbcc@0003ffff` | syscalls 300 -> 90000 (×300): the work "
      "changed |",
      "| grep x \\| wc -l (in.txt, pipe) | **no baseline**, not judged |  |  |  |  | a new series: "
      "no earlier run to compare with; --allow-new-series accepts it |",
      "| busy (in.txt, pipe) | **conditions changed**, not judged |  |  |  |  | no baseline run "
      "shares "
      "its conditions: a busy machine (1.50 CPUs busy with others at the start, before 0.10); "
      "--allow-conditions-changed accepts it |",
      "| steady (in.txt, pipe) | steady | 200.00 ms → 200.20 ms | 1.001 [0.990, 1.010] | 0.840 |  "
      "|  |",
  };
  // NOLINTEND(bugprone-suspicious-missing-comma)
  EXPECT_EQ(lines_of(written(CheckFormat::kMarkdown)), expected);
}

TEST_F(CheckOutput, GithubIsAWorkflowCommandPerSeriesEscaped) {
  // Each element is one line of the output, its literal split where it is long.
  // NOLINTBEGIN(bugprone-suspicious-missing-comma)
  const std::vector<std::string> expected{
      // The line's "5 %" is escaped as GitHub requires.
      "::error title=regression%3A slow (in.txt%2C pipe)::regression 01aabbcc@0003ffff slow "
      "(in.txt, pipe): elapsed 100.00 ms -> 120.00 ms, 1.20× slower [1.18, 1.22], p < 0.001, "
      "against 10 rows of 2 runs, over the 5 %25 allowed, change in aaaa1111..bbbb2222; sessions "
      "spread 3.1 %25 (learnt from 4 sessions): the newest 1.200 [1.100, 1.310] of the baseline's "
      "2, p = 0.002; why: syscalls 300 -> 90000 (×300): the work changed",
      "::notice title=steady%3A steady (in.txt%2C pipe)::steady 02aabbcc@0003ffff steady (in.txt, "
      "pipe): elapsed 200.00 ms -> 200.20 ms, 1.00× slower [0.99, 1.01], p = 0.840 (not a "
      "significant difference), against 10 rows of 2 runs",
      std::string("::error title=no baseline%3A grep x | wc -l (in.txt%2C pipe)::") + kNewLine,
      std::string("::warning title=conditions changed%3A busy (in.txt%2C pipe)::") + kBusyLine,
      "::error title=iobench history check::4 series: 1 regression, 1 conditions changed, 1 "
      "steady, 1 no baseline; exit 1: 1 regression, and 2 series not judged",
  };
  // NOLINTEND(bugprone-suspicious-missing-comma)
  EXPECT_EQ(lines_of(written(CheckFormat::kGithub)), expected);
}

TEST_F(CheckOutput, JsonIsOneObjectPerSeriesWithItsVerdictRatioIntervalPWhyAndCommits) {
  const nlohmann::json j = nlohmann::json::parse(written(CheckFormat::kJson));
  EXPECT_EQ(j["exit_status"], 1);
  ASSERT_EQ(j["series"].size(), 4u);
  const nlohmann::json& slow = j["series"][0];
  EXPECT_EQ(slow["series"], "slow (in.txt, pipe)");
  EXPECT_EQ(slow["verdict"], "regression");
  EXPECT_EQ(slow["gate"], "regression");
  EXPECT_DOUBLE_EQ(slow["ratio"].get<double>(), 1.2);
  EXPECT_EQ(slow["interval"], nlohmann::json::array({1.18, 1.22}));
  EXPECT_DOUBLE_EQ(slow["p"].get<double>(), 0.0004);
  EXPECT_EQ(slow["why"], "syscalls 300 -> 90000 (×300): the work changed");
  EXPECT_EQ(slow["commits"], (nlohmann::json{{"from", "aaaa1111"}, {"to", "bbbb2222"}}));
  const nlohmann::json& fresh = j["series"][2];
  EXPECT_EQ(fresh["verdict"], "no baseline");
  EXPECT_EQ(fresh["gate"], "not judged");
  EXPECT_TRUE(fresh["ratio"].is_null());
  EXPECT_TRUE(fresh["interval"].is_null());
  EXPECT_TRUE(fresh["p"].is_null());
  EXPECT_TRUE(fresh["commits"]["from"].is_null());
  EXPECT_EQ(fresh["why"],
            "a new series: no earlier run to compare with; --allow-new-series accepts it");
}

TEST_F(CheckOutput, AnAcceptedSeriesSaysByWhichOption) {
  report_.cells[2].gate = Gate::kAccepted;
  report_.not_judged = 1;
  report_.accepted = 1;
  const std::vector<std::string> text = lines_of(written(CheckFormat::kText));
  EXPECT_EQ(text[1],
            "no baseline 03aabbcc@0003ffff grep x | wc -l (in.txt, pipe): a new series: no earlier "
            "run to compare with; not judged, accepted by --allow-new-series");
  EXPECT_EQ(lines_of(written(CheckFormat::kGithub))[2].rfind("::notice title=no baseline", 0), 0u);
}

// Rows that moved by no more than sessions drift: a line with the spread, which passes the gate.
TEST_F(CheckOutput, WithinDriftSaysTheSpreadInEveryFormat) {
  CellCheck& slow = report_.cells[0];
  slow.verdict = CellVerdict::kWithinDrift;
  slow.gate = Gate::kPass;
  slow.sessions = sessions(0.21);
  slow.sessions.judgement.low = 0.95;
  report_.regressions = 0;
  report_.exit_status = check_exit_status(report_);
  const std::string phrase =
      "sessions spread 3.1 % (learnt from 4 sessions): the newest 1.200 [0.950, 1.310] of the "
      "baseline's 2, p = 0.210";
  EXPECT_EQ(lines_of(written(CheckFormat::kText))[0],
            "within drift 01aabbcc@0003ffff slow (in.txt, pipe): elapsed 100.00 ms -> 120.00 ms, "
            "1.20× slower [1.18, 1.22], p < 0.001, against 10 rows of 2 runs; " +
                phrase + "; why: syscalls 300 -> 90000 (×300): the work changed");
  EXPECT_NE(written(CheckFormat::kMarkdown).find("| within drift | 100.00 ms"), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(written(CheckFormat::kJson));
  const nlohmann::json& cell = j["series"][0];
  EXPECT_EQ(cell["verdict"], "within drift");
  EXPECT_EQ(cell["rows_verdict"], "regression");
  EXPECT_EQ(cell["gate"], "pass");
  EXPECT_EQ(cell["why"], phrase);
  EXPECT_NEAR(cell["sessions"]["spread_pct"].get<double>(), 3.1, 1e-9);
  EXPECT_EQ(cell["sessions"]["spread_from"], "learnt");
  EXPECT_EQ(cell["sessions"]["learnt_sessions"], 4);
  EXPECT_EQ(cell["sessions"]["baseline_sessions"], 2);
  EXPECT_EQ(cell["sessions"]["interval"], nlohmann::json::array({0.95, 1.31}));
  EXPECT_DOUBLE_EQ(cell["sessions"]["p"].get<double>(), 0.21);
}

TEST(CheckOutputFormats, OnlyTheFourNamesAreFormats) {
  EXPECT_EQ(report::parse_verdict_format("--format", "github"), CheckFormat::kGithub);
  EXPECT_EQ(report::parse_verdict_format("--format", "markdown"), CheckFormat::kMarkdown);
  EXPECT_THROW(report::parse_verdict_format("--format", "html"), Error);
}

}  // namespace
}  // namespace iobench::history
