// bench's default output (docs/bench.md, "Output"): hyperfine's block per command, the line that
// says what the blocks leave out, --sort mean-time's order; no empty input named anywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "driver/bench/blocks.hpp"

namespace iobench::bench {

using report::ElapsedFigure;
using report::ElapsedFigureKind;
using report::format_time;
using report::summarize;
using report::Summary;
using report::SummaryOptions;
using report::TimeUnit;

namespace {

using runfile::Metric;

runfile::Group group(const std::string& test, const std::string& input, const std::string& sink,
                     std::vector<double> elapsed_s) {
  runfile::Group g;
  g.key = {test, input, sink};
  const std::size_t n = elapsed_s.size();
  g.samples[runfile::index(Metric::kElapsed)] = std::move(elapsed_s);
  g.samples[runfile::index(Metric::kUser)] = std::vector<double>(n, 0.0005);
  g.samples[runfile::index(Metric::kSystem)] = std::vector<double>(n, 0.0002);
  g.samples[runfile::index(Metric::kCpuPct)] = std::vector<double>(n, 10);
  g.samples[runfile::index(Metric::kMem)] = std::vector<double>(n, 1500);
  g.exit_codes.assign(n, 0);
  g.rows[0] = n;
  return g;
}

runfile::RunSet set_of(std::vector<runfile::Group> groups) {
  runfile::RunSet set;
  set.group_by = {"test", "input", "sink"};
  set.groups = std::move(groups);
  return set;
}

std::string blocks(const runfile::RunSet& set, TimeUnit unit = TimeUnit::kAuto) {
  const Summary summary = summarize(set);
  std::ostringstream out;
  write_bench_blocks(summary, unit, out);
  return out.str();
}

TEST(BenchBlocks, OneBlockPerCommandAsHyperfinesWithoutAnEmptyInput) {
  const auto set = set_of({group("sleep 0.01", "", "pipe", {0.0110, 0.0112, 0.0111}),
                           group("sleep 0.02", "", "pipe", {0.0210, 0.0212})});
  const std::string text = blocks(set);
  EXPECT_TRUE(
      text.starts_with("Benchmark 1: sleep 0.01\n"
                       "  Time (median ± 95 % CI):  11.1 ms ±  "))
      << text;
  EXPECT_NE(text.find("    [User: 0.5 ms, System: 0.2 ms]\n"
                      "  Range (min … max):        11.0 ms …  11.2 ms    3 runs\n\n"
                      "Benchmark 2: sleep 0.02\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(", pipe"), std::string::npos) << text;  // one place: not named
}

TEST(BenchBlocks, TheUnitIsUsToldElsePickedPerBlock) {
  const auto set = set_of({group("a", "", "pipe", {0.5, 0.5}), group("b", "", "pipe", {2.0, 2.0})});
  const std::string picked = blocks(set);
  EXPECT_NE(picked.find("500.0 ms"), std::string::npos) << picked;
  EXPECT_NE(picked.find("2.000 s"), std::string::npos) << picked;
  const std::string told = blocks(set, TimeUnit::kMillisecond);
  EXPECT_NE(told.find("2000.0 ms"), std::string::npos) << told;
  EXPECT_EQ(told.find(" s "), std::string::npos) << told;
}

TEST(BenchBlocks, SeveralPlacesAreNamedAndACommandWithoutAnOkRunSaysWhy) {
  runfile::Group broken = group("false", "in.txt", "null", {});
  broken.rows[static_cast<std::size_t>(runfile::RunStatus::kFailed)] = 4;
  const auto set = set_of({group("cat", "in.txt", "pipe", {0.001, 0.001}), broken});
  const std::string text = blocks(set);
  EXPECT_NE(text.find("Benchmark 1: cat (in.txt, pipe sink)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Benchmark 2: false (in.txt, null sink)\n  no ok run: 4 failed\n"),
            std::string::npos)
      << text;
}

TEST(BenchBlocks, RunsLeftOutForAFailureAreCountedOnTheRangeLine) {
  runfile::Group g = group("flaky", "", "pipe", {0.001, 0.001});
  g.rows[static_cast<std::size_t>(runfile::RunStatus::kFailed)] = 1;
  g.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] = 2;  // the summary line's
  const std::string text = blocks(set_of({g}));
  EXPECT_NE(text.find("    2 runs (1 failed left out)\n"), std::string::npos) << text;
}

TEST(BenchBlocks, TheSummaryLineNamesTheFigureTheRunsLeftOutAndTheOutliers) {
  runfile::Group g = group("a", "", "pipe", {0.010, 0.010, 0.010, 0.010, 0.010, 0.011, 0.030});
  g.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] = 2;
  const auto set = set_of({g});
  const Summary summary = summarize(set);
  ElapsedFigure figure;
  figure.kind = ElapsedFigureKind::kStartupSubtracted;
  figure.startup = runfile::ShellStartup{{"sh", "-c", ""}, 30, 0.00086, 0.0008, 0};
  const std::string line = runs_summary_line(summary, figure, std::nullopt, TimeUnit::kAuto, false);
  EXPECT_TRUE(
      line.starts_with("Figures: elapsed, shell start-up subtracted (sh -c '' took "
                       "860 µs); 7 ok runs, 2 disturbed (left out); 1 outlier (kept); "))
      << line;
  EXPECT_TRUE(line.ends_with("--verbose for the environment, the tables and the warnings")) << line;
  const std::string verbose =
      runs_summary_line(summary, ElapsedFigure{}, std::nullopt, TimeUnit::kAuto, true);
  EXPECT_TRUE(verbose.starts_with("Figures: elapsed; 7 ok runs")) << verbose;
  EXPECT_EQ(verbose.find("--verbose"), std::string::npos) << verbose;
}

// After an interrupt the figures are what ran: the line says first that the result is partial.
// A meta without an end (written before the runs) or with a finished one says nothing of it.
TEST(BenchBlocks, ARunStoppedBeforeThePlansEndIsSaidToBePartial) {
  const auto set = set_of({group("a", "", "pipe", {0.010, 0.011})});
  const Summary summary = summarize(set);
  runfile::RunMeta meta;
  EXPECT_FALSE(stopped_early(meta));
  meta.end = runfile::RunEnd{};
  meta.end->finished = false;
  EXPECT_TRUE(stopped_early(meta));
  const std::string line = runs_summary_line(summary, ElapsedFigure{}, meta, TimeUnit::kAuto, true);
  EXPECT_TRUE(
      line.starts_with("PARTIAL: the runs stopped before the plan's end (every finished "
                       "run kept); Figures: elapsed; 2 ok runs"))
      << line;
  meta.end->finished = true;
  EXPECT_FALSE(stopped_early(meta));
  EXPECT_TRUE(runs_summary_line(summary, ElapsedFigure{}, meta, TimeUnit::kAuto, true)
                  .starts_with("Figures: elapsed; 2 ok runs"));
}

TEST(BenchBlocks, MeanTimeOrdersEachPlaceFastestFirstAndNoOkRunLast) {
  const auto set = set_of({group("slow", "", "pipe", {0.03}), group("none", "", "pipe", {}),
                           group("fast", "", "pipe", {0.01}), group("slow", "", "null", {0.02}),
                           group("fast", "", "null", {0.005})});
  const runfile::RunSet sorted = reordered(set, order_by_time(set));
  std::vector<std::string> names;
  for (const auto& g : sorted.groups) names.push_back(g.key[0] + "/" + g.key[2]);
  EXPECT_EQ(names, (std::vector<std::string>{"fast/pipe", "slow/pipe", "none/pipe", "fast/null",
                                             "slow/null"}));
}

// The run file lists a group where its first run ended; the blocks follow the order given.
TEST(BenchBlocks, CommandOrderIsTheOrderGivenNotTheRunFiles) {
  const auto set = set_of({group("b", "", "pipe", {0.01}), group("a", "", "null", {0.01}),
                           group("a", "", "pipe", {0.01}), group("other", "", "pipe", {0.01})});
  const runfile::RunSet sorted = reordered(set, order_by_command(set, {"a", "b"}));
  std::vector<std::string> names;
  for (const auto& g : sorted.groups) names.push_back(g.key[0] + "/" + g.key[2]);
  EXPECT_EQ(names, (std::vector<std::string>{"a/pipe", "a/null", "b/pipe", "other/pipe"}));
}

TEST(BenchBlocks, ATimeWithoutARunIsADash) {
  EXPECT_EQ(format_time(NAN, TimeUnit::kMillisecond), "-");
  EXPECT_EQ(format_time(NAN, TimeUnit::kAuto), "-");
}

// The warning of a reference without an ok run names its place, not an empty input ("for ,
// pipe" before).
TEST(BenchBlocks, AReferenceWithoutAnOkRunIsWarnedAboutWithoutAnEmptyInput) {
  const auto set = set_of({group("ref", "", "pipe", {}), group("other", "", "pipe", {0.01})});
  SummaryOptions options;
  options.baseline = "ref";
  const Summary summary = summarize(set, options);
  bool found = false;
  for (const std::string& warning : summary.warnings) {
    if (warning.starts_with("baseline 'ref' has no successful run")) {
      EXPECT_TRUE(warning.starts_with("baseline 'ref' has no successful run for pipe;")) << warning;
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

// A baseline a --filter left out never failed: the warning says it was not run.
TEST(BenchBlocks, ABaselineWithoutRunsIsNotSaidToHaveFailed) {
  const auto set = set_of({group("other", "in.txt", "pipe", {0.01})});
  SummaryOptions options;
  options.baseline = "ref";
  const Summary summary = summarize(set, options);
  const std::string expected =
      "baseline 'ref' has no runs here (left out by --filter?) for in.txt, pipe; relative is to "
      "the fastest there";
  EXPECT_NE(std::find(summary.warnings.begin(), summary.warnings.end(), expected),
            summary.warnings.end())
      << testing::PrintToString(summary.warnings);
}

}  // namespace
}  // namespace iobench::bench
