// `iobench summarize FILE... [--group-by COLS] [--format F] [--baseline TEST] [--top N]`.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::cli {
namespace {

struct SummarizeOptions {
  std::vector<std::string> files;
  std::vector<std::string> group_by;
  std::string format = "pretty";
  std::string baseline;
  std::size_t top_rows = 0;
};

void setup_summarize(CLI::App& sub, int& exit_code) {
  auto opts = std::make_shared<SummarizeOptions>();
  sub.add_option("files", opts->files,
                 "Run files (results/*.tsv, or GNU time recipe files; - is stdin)")
      ->required();
  sub.add_option(
         "--group-by", opts->group_by,
         "Columns to group by, comma-separated (default: test,input,sink,host where present, and "
         "each condition the files' meta files differ in: cache, host, build, counters, "
         "pipe_size)")
      ->delimiter(',');
  sub.add_option("--format", opts->format, "pretty, tsv, markdown or json")->capture_default_str();
  sub.add_option(
      "--baseline", opts->baseline,
      "Test that the answer and `relative` compare with (default: the baseline of the run files' "
      "configs, from their meta files, else the fastest of the same input, sink and cache)");
  sub.add_option("--top", opts->top_rows,
                 "Pretty and markdown: the first N rows of each input and sink, then a count of "
                 "the rest (0: all; tsv and json always have every row)")
      ->capture_default_str();
  sub.callback([opts, &exit_code] {
    const report::Format format = report::parse_format(opts->format);
    runfile::ReadOptions read_options;
    read_options.group_by = opts->group_by;
    const std::vector<std::filesystem::path> files(opts->files.begin(), opts->files.end());
    const runfile::RunSet set = runfile::read_runs(files, read_options);
    report::SummaryOptions options;
    options.baseline = opts->baseline;
    const report::Summary summary = report::summarize(set, options);
    report::TableView view{opts->top_rows};
    view.answer = report::AnswerAt::kFirst;  // the answer first (docs/reports.md, "The answer")
    report::write_summary(summary, format, std::cout, view);
    std::cout.flush();
    report::write_warnings(summary.warnings, std::cerr);
    exit_code = kExitOk;
  });
}

const RegisterCommand kRegisterSummarize{
    "summarize",
    "The answer (fastest, ranked, with intervals) and per-test statistics of run files",
    &setup_summarize, 20};

}  // namespace
}  // namespace iobench::cli
