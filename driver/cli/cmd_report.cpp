// `iobench report RUNS.tsv... -o report.html [--title T] [--baseline TEST]`: one self-contained
// HTML page of the runs (docs/reports.md, "The HTML report").
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/html_report.hpp"

namespace iobench::cli {
namespace {

struct ReportCli {
  std::vector<std::string> files;
  std::string out;
  report::HtmlReportOptions options;
};

void setup_report(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<ReportCli>();
  sub.add_option("files", cli->files,
                 "Run files (results/*.tsv; the meta file beside each adds the machine, "
                 "provenance and config; files whose meta files differ in cache, host, build, "
                 "counters or pipe size are shown apart)")
      ->required();
  sub.add_option("-o,--output", cli->out, "The HTML file to write")->required();
  sub.add_option("--title", cli->options.title, "Title of the page (default: from the files)");
  sub.add_option("--baseline", cli->options.baseline,
                 "Test the verdicts compare with (default: the config's baseline, else the "
                 "fastest of each input and sink)");
  sub.callback([cli, &exit_code] {
    const std::vector<std::filesystem::path> files(cli->files.begin(), cli->files.end());
    report::write_html_report(files, cli->out, cli->options);
    exit_code = kExitOk;
  });
}

const RegisterCommand kRegisterReport{
    "report", "Write run files as one self-contained HTML page (charts, verdicts, warnings)",
    &setup_report, 45};

}  // namespace
}  // namespace iobench::cli
