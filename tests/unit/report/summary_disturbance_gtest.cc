// summarize shows the disturbance (docs/driver.md, "Disturbance"; docs/reports.md, "Formats"):
// the medians of others_cpu_s and steal_s and the disturbed rows per group in tsv and json, and
// an "others CPU" column in the pretty table only when some group was disturbed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {
namespace {

const std::string kHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tsink\tstatus\tothers_cpu_s\tsteal_s\n";

std::string row(const std::string& test, const std::string& status, const std::string& others,
                const std::string& steal = "0") {
  return test + "\t2\t1\t0.5\t75\t1024\tpipe\t" + status + "\t" + others + "\t" + steal + "\n";
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

const std::string kDisturbedFile = kHeader + row("A", "ok", "0.02") + row("A", "ok", "0.04") +
                                   row("A", "ok", "0.03", "0.01") + row("A", "disturbed", "1.5") +
                                   row("B", "ok", "0") + row("B", "ok", "0");

TEST(SummaryDisturbance, TsvHasTheMediansOverOkRunsAndTheDisturbedCount) {
  const std::string tsv = written(kDisturbedFile, Format::kTsv);
  EXPECT_EQ(tsv_cell(tsv, 1, "others_cpu_s_median"), "0.03");  // the disturbed row's 1.5 is out
  EXPECT_EQ(tsv_cell(tsv, 1, "steal_s_median"), "0");
  EXPECT_EQ(tsv_cell(tsv, 1, "disturbed"), "1");
  EXPECT_EQ(tsv_cell(tsv, 1, "excluded"), "1");
  EXPECT_EQ(tsv_cell(tsv, 2, "others_cpu_s_median"), "0");
  EXPECT_EQ(tsv_cell(tsv, 2, "disturbed"), "0");
}

TEST(SummaryDisturbance, JsonHasTheMediansAndTheDisturbedCount) {
  const std::string json = written(kDisturbedFile, Format::kJson);
  EXPECT_NE(json.find("\"disturbance\": {\n          \"others_cpu_s_median\": 0.03,\n          "
                      "\"steal_s_median\": 0.0,\n          \"disturbed\": 1\n        }"),
            std::string::npos)
      << json;
}

TEST(SummaryDisturbance, PrettyShowsOthersCpuWhenAGroupWasDisturbed) {
  const std::string pretty = written(kDisturbedFile, Format::kPretty);
  // A: (0.03 + 0) s of others over its 2 s median elapsed; B had none.
  EXPECT_NE(pretty.find("  relative  others CPU\n"), std::string::npos) << pretty;
  EXPECT_NE(pretty.find("reference        0.01\n"), std::string::npos) << pretty;
  EXPECT_NE(pretty.find("1.00×        0.00\n"), std::string::npos) << pretty;
}

TEST(SummaryDisturbance, PrettyShowsOthersCpuWhenOthersKeptOverATwentiethOfACpu) {
  // 0.1 s of others and 0.02 s of steal over 2 s: 0.06 CPU, none disturbed.
  const std::string busy = kHeader + row("A", "ok", "0.1", "0.02") + row("A", "ok", "0.1", "0.02");
  EXPECT_NE(written(busy, Format::kPretty).find("reference        0.06\n"), std::string::npos)
      << written(busy, Format::kPretty);
}

TEST(SummaryDisturbance, AQuietTableStaysAsItWas) {
  const std::string quiet = kHeader + row("A", "ok", "0.08") + row("A", "ok", "0.09");
  std::string without = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tsink\tstatus\n";
  without += "A\t2\t1\t0.5\t75\t1024\tpipe\tok\nA\t2\t1\t0.5\t75\t1024\tpipe\tok\n";
  EXPECT_EQ(written(quiet, Format::kPretty), written(without, Format::kPretty));
  EXPECT_EQ(written(without, Format::kTsv).find("others_cpu_s"), std::string::npos);
}

TEST(SummaryDisturbance, AnEmptyCellIsNotRecordedAndABadOneIsAnError) {
  const std::string partly = kHeader + row("A", "ok", "") + row("A", "ok", "0.5", "");
  const runfile::RunSet set = runfile::parse_runs({{"p.tsv", partly, ""}});
  ASSERT_EQ(set.groups.size(), 1U);
  EXPECT_EQ(set.groups[0].others_cpu_s, std::vector<double>{0.5});
  EXPECT_EQ(set.groups[0].steal_s, std::vector<double>{0});
  try {
    runfile::parse_runs({{"bad.tsv", kHeader + row("A", "ok", "lots"), ""}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad.tsv:2: column 'others_cpu_s': 'lots' is not a time in seconds");
  }
}

}  // namespace
}  // namespace iobench::report
