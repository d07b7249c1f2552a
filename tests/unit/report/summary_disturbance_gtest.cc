// summarize shows the disturbance (docs/driver.md, "Disturbance"; docs/reports.md, "Formats"):
// the medians of others_cpu_s, steal_s and wait_cpu_s and the disturbed rows per group in tsv and
// json, a "waited CPU" column in the pretty table only when some group was disturbed or waited,
// and a group whose every run was disturbed with its figures, marked.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {
namespace {

const std::string kDisturbanceHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tsink\tstatus\tothers_cpu_s\tsteal_s\twait_cpu_s\n";

std::string disturbance_row(const std::string& test, const std::string& status,
                            const std::string& others, const std::string& steal = "0",
                            const std::string& wait = "0.01") {
  return test + "\t2\t1\t0.5\t75\t1024\tpipe\t" + status + "\t" + others + "\t" + steal + "\t" +
         wait + "\n";
}

std::string written(const std::string& text, Format format) {
  const runfile::RunSet set = runfile::parse_runs({{"d.tsv", text, ""}});
  std::ostringstream out;
  write_summary(summarize(set), format, out);
  return out.str();
}

// Columns of the tsv's header and of its row `r` (1-based), by name.
std::string tsv_cell(const std::string& tsv, std::size_t r, std::string_view column) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(tsv);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, '\t');) cells.push_back(cell);
    if (!line.empty() && line.back() == '\t') cells.emplace_back();
    lines.push_back(std::move(cells));
  }
  for (std::size_t c = 0; c < lines.at(0).size(); ++c) {
    if (lines[0][c] == column) return lines.at(r).at(c);
  }
  return "(no column " + std::string(column) + ")";
}

const std::string kDisturbedFile =
    kDisturbanceHeader + disturbance_row("A", "ok", "0.02", "0", "0.02") +
    disturbance_row("A", "ok", "0.04", "0", "0.04") +
    disturbance_row("A", "ok", "0.03", "0.01", "0.03") +
    disturbance_row("A", "disturbed", "1.5", "0", "1.0") +
    disturbance_row("B", "ok", "0", "0", "0") + disturbance_row("B", "ok", "0", "0", "0");

TEST(SummaryDisturbance, TsvHasTheMediansOverOkRunsAndTheDisturbedCount) {
  const std::string tsv = written(kDisturbedFile, Format::kTsv);
  EXPECT_EQ(tsv_cell(tsv, 1, "others_cpu_s_median"), "0.03");  // the disturbed row's 1.5 is out
  EXPECT_EQ(tsv_cell(tsv, 1, "steal_s_median"), "0");
  EXPECT_EQ(tsv_cell(tsv, 1, "disturbed"), "1");
  EXPECT_EQ(tsv_cell(tsv, 1, "excluded"), "1");
  EXPECT_EQ(tsv_cell(tsv, 1, "wait_cpu_s_median"), "0.03");  // the disturbed row's 1.0 is out
  EXPECT_EQ(tsv_cell(tsv, 1, "figures_of"), "ok");
  EXPECT_EQ(tsv_cell(tsv, 2, "others_cpu_s_median"), "0");
  EXPECT_EQ(tsv_cell(tsv, 2, "disturbed"), "0");
}

TEST(SummaryDisturbance, JsonHasTheMediansAndTheDisturbedCount) {
  const std::string json = written(kDisturbedFile, Format::kJson);
  EXPECT_NE(json.find("\"disturbance\": {\n          \"others_cpu_s_median\": 0.03,\n          "
                      "\"steal_s_median\": 0.0,\n          \"disturbed\": 1,\n          "
                      "\"wait_cpu_s_median\": 0.03,\n          \"figures_of\": \"ok\"\n        }"),
            std::string::npos)
      << json;
}

TEST(SummaryDisturbance, PrettyShowsWaitedCpuWhenAGroupWasDisturbed) {
  const std::string pretty = written(kDisturbedFile, Format::kPretty);
  // A: 0.03 s of waiting over its 2 s median elapsed; B waited none.
  EXPECT_NE(pretty.find("  relative  waited CPU\n"), std::string::npos) << pretty;
  EXPECT_NE(pretty.find("reference        0.01\n"), std::string::npos) << pretty;
  EXPECT_NE(pretty.find("1.00×        0.00\n"), std::string::npos) << pretty;
}

TEST(SummaryDisturbance, PrettyShowsWaitedCpuWhenTheRunsWaitedOverATwentiethOfACpu) {
  // 0.12 s of waiting over 2 s: 0.06 CPU, none disturbed; others' time does not count.
  const std::string waited = kDisturbanceHeader + disturbance_row("A", "ok", "0", "0", "0.12") +
                             disturbance_row("A", "ok", "0", "0", "0.12");
  EXPECT_NE(written(waited, Format::kPretty).find("reference        0.06\n"), std::string::npos)
      << written(waited, Format::kPretty);
  const std::string busy =
      kDisturbanceHeader + disturbance_row("A", "ok", "1.9") + disturbance_row("A", "ok", "1.9");
  EXPECT_EQ(written(busy, Format::kPretty).find("waited CPU"), std::string::npos)
      << written(busy, Format::kPretty);
}

TEST(SummaryDisturbance, AGroupWhoseEveryRunWasDisturbedShowsTheirFiguresMarked) {
  const std::string all = kDisturbanceHeader + disturbance_row("A", "disturbed", "0", "0", "1.0") +
                          disturbance_row("A", "disturbed", "0", "0", "1.2") +
                          disturbance_row("B", "ok", "0", "0", "0");
  const runfile::RunSet set = runfile::parse_runs({{"d.tsv", all, ""}});
  ASSERT_EQ(set.groups.size(), 2U);
  EXPECT_TRUE(set.groups[0].from_disturbed_runs);
  EXPECT_EQ(set.groups[0].ok_count(), 2U);
  EXPECT_EQ(set.groups[0].ok_runs(), 0U);
  EXPECT_FALSE(set.groups[1].from_disturbed_runs);
  const std::string tsv = written(all, Format::kTsv);
  EXPECT_EQ(tsv_cell(tsv, 1, "elapsed_median"), "2");
  EXPECT_EQ(tsv_cell(tsv, 1, "figures_of"), "disturbed");
  EXPECT_EQ(tsv_cell(tsv, 1, "wait_cpu_s_median"), "1.1");
  const std::string pretty = written(all, Format::kPretty);
  EXPECT_NE(pretty.find("A (disturbed) "), std::string::npos) << pretty;
  EXPECT_NE(
      pretty.find("(disturbed): every run of it was kept waiting for a CPU or slowed by a burst"),
      std::string::npos)
      << pretty;
  const Summary summary = summarize(set);
  EXPECT_NE(summary.warnings.front().find("A (pipe): every one of its 2 runs was disturbed"),
            std::string::npos)
      << summary.warnings.front();
}

TEST(SummaryDisturbance, AQuietTableStaysAsItWas) {
  const std::string quiet =
      kDisturbanceHeader + disturbance_row("A", "ok", "0.08") + disturbance_row("A", "ok", "0.09");
  std::string without = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tsink\tstatus\n";
  without += "A\t2\t1\t0.5\t75\t1024\tpipe\tok\nA\t2\t1\t0.5\t75\t1024\tpipe\tok\n";
  EXPECT_EQ(written(quiet, Format::kPretty), written(without, Format::kPretty));
  EXPECT_EQ(written(without, Format::kTsv).find("others_cpu_s"), std::string::npos);
}

TEST(SummaryDisturbance, AnEmptyCellIsNotRecordedAndABadOneIsAnError) {
  const std::string partly =
      kDisturbanceHeader + disturbance_row("A", "ok", "") + disturbance_row("A", "ok", "0.5", "");
  const runfile::RunSet set = runfile::parse_runs({{"p.tsv", partly, ""}});
  ASSERT_EQ(set.groups.size(), 1U);
  EXPECT_EQ(set.groups[0].others_cpu_s, std::vector<double>{0.5});
  EXPECT_EQ(set.groups[0].steal_s, std::vector<double>{0});
  try {
    runfile::parse_runs({{"bad.tsv", kDisturbanceHeader + disturbance_row("A", "ok", "lots"), ""}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad.tsv:2: column 'others_cpu_s': 'lots' is not a time in seconds");
  }
}

}  // namespace
}  // namespace iobench::report
