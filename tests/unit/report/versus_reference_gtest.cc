// bench's closing summary: each test against the reference on the same input and sink.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/report/versus_reference.hpp"

namespace iobench::report {
namespace {

runfile::Group group(const std::string& test, const std::string& sink,
                     const std::vector<double>& elapsed_s) {
  runfile::Group g;
  g.key = {test, "in.txt", sink};
  g.samples[runfile::index(runfile::Metric::kElapsed)] = elapsed_s;
  for (std::size_t m = 1; m < runfile::kMetricCount; ++m) g.samples[m] = elapsed_s;
  g.rows[0] = elapsed_s.size();
  return g;
}

runfile::RunSet run_set() {
  runfile::RunSet set;
  set.group_by = {"test", "input", "sink"};
  const std::vector<double> reference{1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09};
  std::vector<double> half;
  std::vector<double> same;
  for (const double t : reference) {
    half.push_back(t / 2);
    same.push_back(t + 0.001);
  }
  set.groups = {group("ref", "pipe", reference), group("fast", "pipe", half),
                group("same", "pipe", same), group("ref", "file", {}), group("fast", "file", half)};
  return set;
}

TEST(VersusReference, ComparesEachTestWithTheReferenceOnTheSameInputAndSink) {
  const VersusReference versus = compare_with_reference(run_set(), "ref");
  ASSERT_EQ(versus.result.rows.size(), 3u);  // fast and same on pipe, fast on file
  const report::Row& fast = versus.result.rows[0];
  EXPECT_EQ(fast.key, (std::vector<std::string>{"fast", "in.txt", "pipe"}));
  EXPECT_NEAR(fast.ratio, 0.5, 1e-9);
  EXPECT_EQ(fast.verdict, report::Verdict::kFaster);
  EXPECT_EQ(versus.result.rows[1].key[0], "fast");  // the file sink, whose reference has no run
  EXPECT_EQ(versus.result.rows[1].verdict, report::Verdict::kTooFewRuns);
  EXPECT_EQ(versus.result.rows[2].verdict, report::Verdict::kNoChange);
  EXPECT_EQ(versus.missing, std::vector<MissingReference>{{"in.txt, file sink"}});
}

TEST(VersusReference, AReferenceWithoutAnOkRunAndNoInputNamesItsSinkAlone) {
  runfile::RunSet set = run_set();
  for (auto& group : set.groups) group.key[1] = "";
  const VersusReference versus = compare_with_reference(set, "ref");
  EXPECT_EQ(versus.missing, std::vector<MissingReference>{{"file sink"}});
  std::ostringstream out;
  write_versus_reference(versus, out);
  EXPECT_NE(out.str().find("\n  file sink: the reference has no ok run to compare with\n"),
            std::string::npos)
      << out.str();
}

TEST(VersusReference, SaysEachVerdictOnItsOwnLineUnderItsInputAndSink) {
  std::ostringstream out;
  write_versus_reference(compare_with_reference(run_set(), "ref"), out);
  const std::string text = out.str();
  EXPECT_NE(text.find("Against the reference 'ref'"), std::string::npos) << text;
  EXPECT_NE(text.find("  in.txt, pipe sink: 'ref' "), std::string::npos) << text;
  // Intervals, not ± (docs/bench.md): "2.00× faster [1.9x, 2.0x], p < 0.001".
  EXPECT_NE(text.find("\n    fast  2.00× faster ["), std::string::npos) << text;
  EXPECT_NE(text.find("], p < 0.001"), std::string::npos) << text;
  EXPECT_NE(text.find("\n    same  no significant difference (1.00× "), std::string::npos) << text;
  EXPECT_NE(text.find("in.txt, file sink: the reference has no ok run"), std::string::npos) << text;
}

// `run --versus`: each test against its own twin, NAME@base, never against another test's.
TEST(VersusReference, EachCandidateIsComparedWithItsOwnBaseTwin) {
  const runfile::RunSet set = run_set();  // ref 1.00-1.09 s, fast half of it, same 1 ms more
  runfile::RunSet twins;
  twins.group_by = set.group_by;
  const auto renamed = [](runfile::Group g, const std::string& test) {
    g.key[0] = test;
    return g;
  };
  twins.groups = {renamed(set.groups[0], "a@base"), renamed(set.groups[1], "a"),
                  renamed(set.groups[1], "b@base"), renamed(set.groups[0], "b"),
                  renamed(set.groups[3], "c@base"), renamed(set.groups[4], "c")};
  const VersusReference versus = compare_with_base_twins(twins, {});
  ASSERT_EQ(versus.result.rows.size(), 3u);
  EXPECT_EQ(versus.result.rows[0].key, (std::vector<std::string>{"a", "in.txt", "pipe"}));
  EXPECT_NEAR(versus.result.rows[0].ratio, 0.5, 1e-9);  // against a@base, not against b's
  EXPECT_EQ(versus.result.rows[1].key[0], "b");
  EXPECT_NEAR(versus.result.rows[1].ratio, 2.0, 1e-9);
  EXPECT_EQ(versus.result.rows[2].verdict, report::Verdict::kTooFewRuns);
  EXPECT_EQ(versus.missing, std::vector<MissingReference>{{"'c' on in.txt (file sink)"}});
  std::ostringstream out;
  write_versus_reference(versus, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("Against the base build (median over its twin's, NAME@base, "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  in.txt, pipe sink:\n    a  522.50 ms from 1.045 s: 2.00× faster ["),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the base build's twin has no ok run to compare with"), std::string::npos)
      << text;
}

// A twin whose every run was disturbed is left out of the comparisons, as a reference is, but its
// candidate is named, and the gate does not call it green.
TEST(VersusReference, ACandidateWhoseTwinWasAllDisturbedIsNamedAndNotJudged) {
  const runfile::RunSet set = run_set();
  runfile::RunSet twins;
  twins.group_by = set.group_by;
  const auto renamed = [](runfile::Group g, const std::string& test) {
    g.key[0] = test;
    return g;
  };
  runfile::Group disturbed = renamed(set.groups[0], "c@base");
  disturbed.from_disturbed_runs = true;
  disturbed.rows = {};
  disturbed.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] = 10;
  twins.groups = {renamed(set.groups[0], "a@base"), renamed(set.groups[2], "a"), disturbed,
                  renamed(set.groups[0], "c")};
  const VersusReference versus = compare_with_base_twins(twins, {});
  ASSERT_EQ(versus.result.rows.size(), 1U);  // a alone: no verdict on disturbed runs
  EXPECT_EQ(versus.missing, (std::vector<MissingReference>{{"'c' on in.txt (pipe sink)", true}}));
  std::ostringstream out;
  write_versus_reference(versus, out);
  EXPECT_NE(out.str().find("\n  'c' on in.txt (pipe sink): the base build's twin has no ok run to "
                           "compare with (every run disturbed)\n"),
            std::string::npos)
      << out.str();
  const Gate gate = fail_if_slower(versus, 10, {"iobench run", "test", "--repeats"});
  EXPECT_EQ(gate_exit_status(gate), kExitNotJudged);
  const std::vector<std::string> lines = gate_lines(gate, GateVerdict::kNotJudged);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0],
            "'c' on in.txt (pipe sink) against 'base build': not judged: every run of its base "
            "build's twin was disturbed, so none is ok to compare with; a quieter machine or more "
            "runs would tell (--repeats)");
}

}  // namespace
}  // namespace iobench::report
