// What the HTML report computes: sections by input and sink, rows in the chart's order, the
// verdicts as compare judges them, every warning beside its row, and the command that runs the
// config again.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "driver/report/html_model.hpp"
#include "driver/report/html_record.hpp"
#include "tests/unit/report/html_test_runs.hpp"

namespace iobench::report {
namespace {

using testing::kMarkupTest;
using testing::write_test_runs;

const ReportRow& row_of(const ReportSection& section, const std::string& test) {
  const auto it = std::find_if(section.rows.begin(), section.rows.end(),
                               [&](const ReportRow& r) { return r.test == test; });
  if (it == section.rows.end()) throw std::runtime_error("no row " + test);
  return *it;
}

bool has_note(const ReportRow& row, const std::string& label) {
  return std::any_of(row.notes.begin(), row.notes.end(),
                     [&](const Note& n) { return n.label == label; });
}

TEST(HtmlModel, ASectionPerInputAndSinkWithItsRowsFastestFirst) {
  const iobench::test::TempDir dir("html-model");
  const ReportModel model = build_report_model({write_test_runs(dir)}, "");
  ASSERT_EQ(model.sections.size(), 2u);
  EXPECT_EQ(model.sections[0]->sink, "pipe");
  EXPECT_EQ(model.sections[1]->sink, "null");
  EXPECT_EQ(model.tests, (std::vector<std::string>{"ref", "fast", kMarkupTest, "slow-one"}));
  const ReportSection& pipe = *model.sections[0];
  ASSERT_EQ(pipe.rows.size(), 4u);
  EXPECT_EQ(pipe.rows[0].test, "fast");
  EXPECT_EQ(pipe.rows[1].test, "ref");
  EXPECT_EQ(pipe.rows[3].test, "slow-one");
  EXPECT_EQ(pipe.set.rows, 24u);
  EXPECT_EQ(model.baseline, "ref");  // the config's, from the meta file
  EXPECT_EQ(pipe.reference, "ref");
  EXPECT_EQ(model.records.size(), 1u);
  EXPECT_TRUE(model.records[0].meta.has_value());
}

TEST(HtmlModel, VerdictsAreComparesAgainstTheReference) {
  const iobench::test::TempDir dir("html-verdicts");
  const ReportModel model = build_report_model({write_test_runs(dir)}, "");
  const ReportSection& pipe = *model.sections[0];
  const ReportRow& ref = row_of(pipe, "ref");
  const ReportRow& fast = row_of(pipe, "fast");
  EXPECT_FALSE(ref.versus.has_value());
  ASSERT_TRUE(fast.versus.has_value());
  const report::Row expected =
      report::compare_samples(ref.stats->group->metric(runfile::Metric::kElapsed),
                              fast.stats->group->metric(runfile::Metric::kElapsed));
  EXPECT_DOUBLE_EQ(fast.versus->ratio, expected.ratio);
  EXPECT_EQ(fast.versus->p_value, expected.p_value);
  EXPECT_EQ(fast.versus->verdict, report::Verdict::kFaster);
  // --baseline chooses another reference.
  const ReportModel other = build_report_model({dir / "runs.tsv"}, "fast");
  EXPECT_EQ(other.sections[0]->reference, "fast");
  EXPECT_EQ(row_of(*other.sections[0], "ref").versus->verdict, report::Verdict::kSlower);
}

TEST(HtmlModel, EveryWarningSitsBesideItsRow) {
  const iobench::test::TempDir dir("html-notes");
  const ReportModel model = build_report_model({write_test_runs(dir)}, "");
  for (const auto& section : model.sections) {
    const ReportRow& slow = row_of(*section, "slow-one");
    EXPECT_TRUE(has_note(slow, "1 timed out")) << section->sink;
    const ReportRow& fast = row_of(*section, "fast");
    EXPECT_TRUE(has_note(fast, "cache not warm")) << section->sink;
    // The recorded line "fast: ..." goes to fast's rows, once, and to no other.
    EXPECT_EQ(std::count_if(fast.notes.begin(), fast.notes.end(),
                            [](const Note& n) { return n.label == "warned in the run"; }),
              1)
        << section->sink;
    EXPECT_FALSE(has_note(row_of(*section, "ref"), "warned in the run"));
  }
  // The busy machine names no test: it is about the whole run.
  EXPECT_EQ(model.run_warnings, std::vector<std::string>{testing::kBusyLine});
}

TEST(HtmlModel, AnOlderRecordsCacheStateLinesStillGoToTheirRows) {
  const iobench::test::TempDir dir("html-older");
  const auto runs = write_test_runs(dir);
  auto meta = runfile::read_meta_for(runs);
  meta->end->warnings.clear();  // as written before every warning was kept
  runfile::write_meta(runfile::meta_path_for(runs), *meta);
  const ReportModel model = build_report_model({runs}, "");
  EXPECT_TRUE(has_note(row_of(*model.sections[0], "fast"), "warned in the run"));
  EXPECT_TRUE(model.run_warnings.empty());
}

TEST(HtmlModel, RecordedWarningsGoToTheRowsTheyName) {
  const iobench::test::TempDir dir("html-attach");
  ReportModel model = build_report_model({write_test_runs(dir)}, "");
  attach_recorded_warnings(
      model,
      {"slow-one on in.txt (null sink, run 2): exited 1: boom",
       "input in.txt changed size during the run: 1 -> 2 bytes; later runs read different data"});
  EXPECT_TRUE(has_note(row_of(*model.sections[1], "slow-one"), "warned in the run"));
  EXPECT_FALSE(has_note(row_of(*model.sections[0], "slow-one"), "warned in the run"));
  ASSERT_EQ(model.run_warnings.size(), 2u);  // the record's busy line, then this one
  EXPECT_NE(model.run_warnings[1].find("changed size"), std::string::npos);
}

TEST(HtmlModel, NotesSayEachKindOfDoubt) {
  runfile::Group g;
  g.key = {"t", "in", "null"};
  g.samples[runfile::index(runfile::Metric::kElapsed)] = {1.0, 1.3};
  g.rows[0] = 2;
  g.rows[static_cast<std::size_t>(runfile::RunStatus::kMismatch)] = 1;
  report::GroupStats gs;
  gs.group = &g;
  gs.metrics[0] = stats::summarize(g.samples[0]);
  gs.elapsed_outliers = 1;
  const std::vector<Note> notes = row_notes(gs, report::SummaryOptions{});
  std::vector<std::string> labels;
  labels.reserve(notes.size());
  for (const Note& n : notes) labels.push_back(n.label);
  EXPECT_EQ(labels,
            (std::vector<std::string>{"1 mismatched", "n = 2", "spread 13.0 %", "1 outlier"}));
  EXPECT_NE(notes[0].text.find("1 of 3 runs mismatched (status mismatch)"), std::string::npos);
}

TEST(HtmlModel, ContextSwitchesAreTheMediansOfTheOkRows) {
  const auto cs = context_switches_of(
      {{"a.tsv",
        "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\tnvcsw\tnivcsw\n"
        "a\t1\t1\t0\t100\t1\tin\tpipe\tok\t3\t10\n"
        "a\t1\t1\t0\t100\t1\tin\tpipe\tok\t5\t20\n"
        "a\t1\t1\t0\t100\t1\tin\tpipe\tfailed\t900\t900\n"
        "a\t1\t1\t0\t100\t1\tin\tpipe\tok\t4\t30\n"}});
  ASSERT_EQ(cs.count(cell_key("a", "in", "pipe")), 1u);
  EXPECT_EQ(cs.at(cell_key("a", "in", "pipe")).voluntary_median, 4.0);
  EXPECT_EQ(cs.at(cell_key("a", "in", "pipe")).involuntary_median, 20.0);
  EXPECT_TRUE(context_switches_of({{"gnu.tsv",
                                    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n"
                                    "a\t1\t1\t0\t100\t1\n"}})
                  .empty());
}

TEST(HtmlModel, RefusesStandardInputAndAnUnknownBaseline) {
  const iobench::test::TempDir dir("html-refuse");
  const auto runs = write_test_runs(dir);
  EXPECT_THROW(build_report_model({"-"}, ""), Error);
  EXPECT_THROW(build_report_model({runs}, "nope"), Error);
  EXPECT_THROW(build_report_model({dir / "missing.tsv"}, ""), Error);
}

TEST(HtmlRecord, TheCommandRunsTheConfigAgainAsItRan) {
  runfile::RunMeta meta;
  meta.config_file = "configs/my tiny.json";
  meta.config = nlohmann::ordered_json::parse(R"({"name": "x", "repeats": 3})");
  meta.options = runfile::RunSettings{
      "",           3,           3, 0, {}, "interleave", 1, "w", std::nullopt, std::nullopt,
      std::nullopt, std::nullopt};
  EXPECT_EQ(reproduce_command(meta), "iobench run 'configs/my tiny.json'");
  meta.options->filter = "a|b";
  meta.options->repeats = 7;
  meta.options->shard = runfile::ShardId{2, 3};
  EXPECT_EQ(reproduce_command(meta),
            "iobench run 'configs/my tiny.json' --filter 'a|b' --repeats 7 --shard 2/3");
  meta.config = nlohmann::ordered_json::parse(R"({"name": "x"})");  // repeats 5 by default
  meta.options = runfile::RunSettings{
      "",           5,           5, 0, {}, "interleave", 1, "w", std::nullopt, std::nullopt,
      std::nullopt, std::nullopt};
  EXPECT_EQ(reproduce_command(meta), "iobench run 'configs/my tiny.json'");
  meta.options.reset();  // a merged file's record: no command
  EXPECT_EQ(reproduce_command(meta), "");
}

TEST(HtmlRecord, ADisturbanceModeFromTheEnvironmentIsInTheCommand) {
  runfile::RunMeta meta;
  meta.config_file = "c.json";
  meta.config = nlohmann::ordered_json::parse(R"({"name": "x"})");
  meta.options =
      runfile::RunSettings{"", 5, 5, 0, {}, "interleave", 1, "w", std::nullopt, "off", 0.1, "tree"};
  // The config does not say it: the environment did, and the command must too.
  EXPECT_EQ(reproduce_command(meta), "IOBENCH_DISTURBANCE=off iobench run c.json");
  meta.options->disturbance = "rerun";  // the default: nothing to say
  EXPECT_EQ(reproduce_command(meta), "iobench run c.json");
  meta.options->disturbance = "flag";
  meta.config = nlohmann::ordered_json::parse(R"({"name": "x", "disturbance": "flag"})");
  EXPECT_EQ(reproduce_command(meta), "iobench run c.json");  // the config says it
}

}  // namespace
}  // namespace iobench::report
