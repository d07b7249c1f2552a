// Which elapsed figure a verdict is about (docs/bench.md, "Which figure"): one decision for the
// terminal, the --report page and the JSON export.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "driver/report/elapsed_figure.hpp"

namespace iobench::report {
namespace {

const runfile::ShellStartup kSh{{"sh", "-c", ""}, 30, 0.001, 0.0008, 0.0001};

TEST(ElapsedFigure, OneFileWithAStartUpIsJudgedWithItSubtracted) {
  const ElapsedFigure figure = decide_elapsed_figure({kSh});
  EXPECT_EQ(figure.kind, ElapsedFigureKind::kStartupSubtracted);
  ASSERT_TRUE(figure.startup);
  EXPECT_EQ(figure.startup->elapsed_s, 0.001);
  EXPECT_EQ(figure.name(), "elapsed, shell start-up subtracted");
  EXPECT_EQ(figure.json_name(), "startup_subtracted");
}

TEST(ElapsedFigure, WithoutAStartUpTheFigureIsRaw) {
  for (const auto& startups : std::vector<std::vector<std::optional<runfile::ShellStartup>>>{
           {}, {std::nullopt}, {kSh, std::nullopt}, {std::nullopt, kSh}}) {
    const ElapsedFigure figure = decide_elapsed_figure(startups);
    EXPECT_EQ(figure.kind, ElapsedFigureKind::kRaw) << startups.size();
    EXPECT_FALSE(figure.startup);
    EXPECT_EQ(figure.name(), "elapsed");
    EXPECT_EQ(figure.json_name(), "raw");
  }
}

TEST(ElapsedFigure, FilesWithDifferentStartUpsAreNotMixed) {
  runfile::ShellStartup bash = kSh;
  bash.command = {"bash", "-c", ""};
  EXPECT_EQ(decide_elapsed_figure({kSh, bash}).kind, ElapsedFigureKind::kRaw);
  runfile::ShellStartup slower = kSh;
  slower.elapsed_s = 0.002;
  EXPECT_EQ(decide_elapsed_figure({kSh, slower}).kind, ElapsedFigureKind::kRaw);
  EXPECT_EQ(decide_elapsed_figure({kSh, kSh}).kind, ElapsedFigureKind::kStartupSubtracted);
}

TEST(ElapsedFigure, InFigureSubtractsOnlyWhenTheFigureSaysSo) {
  runfile::RunSet set;
  set.group_by = {"test", "input", "sink"};
  runfile::Group g;
  g.key = {"cmd", "", "pipe"};
  g.samples[runfile::index(runfile::Metric::kElapsed)] = {0.010, 0.0005};
  g.samples[runfile::index(runfile::Metric::kUser)] = {0.004, 0.0001};
  g.samples[runfile::index(runfile::Metric::kSystem)] = {0.002, 0.0001};
  g.samples[runfile::index(runfile::Metric::kCpuPct)] = {60, 40};
  set.groups.push_back(g);
  EXPECT_EQ(in_figure(set, decide_elapsed_figure({std::nullopt}))
                .groups[0]
                .metric(runfile::Metric::kElapsed),
            (std::vector<double>{0.010, 0.0005}));
  const auto subtracted =
      in_figure(set, decide_elapsed_figure({kSh})).groups[0].metric(runfile::Metric::kElapsed);
  ASSERT_EQ(subtracted.size(), 2u);
  EXPECT_NEAR(subtracted[0], 0.009, 1e-12);
  EXPECT_EQ(subtracted[1], 0);  // never below 0
}

}  // namespace
}  // namespace iobench::report
