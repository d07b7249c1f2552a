#include "driver/bench/side_by_side.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "driver/report/export.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::bench {

using report::format_time;
using report::interval_phrase;
using report::TimeUnit;
using report::VersusReference;

namespace {

const OtherToolResult* find_result(const OtherToolRun& other, const std::string& test,
                                   const std::string& input, const std::string& sink) {
  for (const OtherToolResult& r : other.results) {
    if (r.test == test && r.input == input && r.sink == sink) return &r;
  }
  return nullptr;
}

// iobench's verdict for a test on an input and sink ("reference" for the reference itself).
std::string iobench_verdict(const VersusReference& versus, const runfile::Group& group) {
  if (group.key[0] == versus.reference) return "reference";
  for (const report::Row& row : versus.result.rows) {
    if (row.key == group.key) return interval_phrase(row);
  }
  return "-";
}

}  // namespace

std::string hyperfine_ratio(const OtherToolResult& result, const OtherToolResult& reference) {
  if (&result == &reference) return "reference";
  if (!(result.mean_s > 0) || !(reference.mean_s > 0)) return "-";
  const bool faster = result.mean_s < reference.mean_s;
  const double factor =
      faster ? reference.mean_s / result.mean_s : result.mean_s / reference.mean_s;
  std::string phrase = fmt::format("{:.2f}", factor);
  if (!std::isnan(result.stddev_s) && !std::isnan(reference.stddev_s)) {
    phrase += fmt::format(
        " ± {:.2f}", factor * stats::ratio_relative_stddev(result.mean_s, result.stddev_s,
                                                           reference.mean_s, reference.stddev_s));
  }
  return phrase + (faster ? " times faster" : " times slower");
}

void write_side_by_side(const runfile::RunSet& set, const VersusReference& versus,
                        const OtherToolRun& other, TimeUnit unit, std::ostream& out) {
  out << fmt::format(
      "Side by side with {} (run after iobench's runs, the same commands and options; its mean "
      "± σ and ratio to the reference as its summary gives them{}):\n",
      other.tool, other.note.empty() ? "" : "; " + other.note);
  report::Table table;
  table.header = {"test",
                  "input",
                  "sink",
                  "iobench median",
                  "iobench against the reference",
                  "hyperfine mean ± σ",
                  "hyperfine against the reference"};
  table.numeric = {false, false, false, true, false, true, false};
  for (const runfile::Group& group : set.groups) {
    const OtherToolResult* mine = find_result(other, group.key[0], group.key[1], group.key[2]);
    const OtherToolResult* ref = find_result(other, versus.reference, group.key[1], group.key[2]);
    std::string mean = "-";
    std::string ratio = "-";
    if (mine != nullptr) {
      mean = format_time(mine->mean_s, unit);
      if (!std::isnan(mine->stddev_s)) mean += " ± " + format_time(mine->stddev_s, unit);
      if (ref != nullptr) ratio = hyperfine_ratio(*mine, *ref);
    }
    const auto& elapsed = group.metric(runfile::Metric::kElapsed);
    table.rows.push_back({group.key[0], group.key[1], group.key[2],
                          elapsed.empty() ? "-" : format_time(stats::median(elapsed), unit),
                          iobench_verdict(versus, group), mean, ratio});
  }
  report::write_table(table, report::Format::kPretty, out);
  out << "Only iobench's: every output checked against the reference's (status ok), the runs "
         "interleaved, max RSS exact, the shell start-up measured as the commands run "
         "(runs file and meta file).\n";
}

}  // namespace iobench::bench
