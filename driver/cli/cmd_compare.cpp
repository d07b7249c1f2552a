// `iobench compare BASE.tsv NEW.tsv [--alpha A] [--format F] [--fail-on-regression PCT] [--top N]`.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/compare.hpp"

namespace iobench::cli {
namespace {

struct CompareOptions {
  std::string base;
  std::string candidate;
  double alpha = 0.05;
  std::string format = "pretty";
  std::string metric = "elapsed";
  std::vector<std::string> group_by;
  double fail_pct = -1;
  std::size_t top_rows = 0;
};

runfile::Metric metric_option(const std::string& name) {
  if (const auto metric = runfile::parse_metric(name)) return *metric;
  throw Error(fmt::format("--metric {}: unknown metric ({})", name,
                          fmt::join(runfile::kMetricNames, ", ")));
}

void setup_compare(CLI::App& sub, int& exit_code) {
  auto opts = std::make_shared<CompareOptions>();
  sub.add_option("base", opts->base, "Run file of the baseline")->required();
  sub.add_option("new", opts->candidate, "Run file of the change")->required();
  sub.add_option("--alpha", opts->alpha, "Significance level of the Mann-Whitney U test")
      ->capture_default_str();
  sub.add_option("--format", opts->format, "pretty, tsv, markdown or json")->capture_default_str();
  sub.add_option("--metric", opts->metric, "elapsed, user, system, cpu_pct or mem")
      ->capture_default_str();
  sub.add_option("--group-by", opts->group_by,
                 "Columns that match groups (default: test,input,sink, and each condition the "
                 "files' meta files differ in: cache, host, build, counters, pipe_size)")
      ->delimiter(',');
  sub.add_option("--top", opts->top_rows,
                 "Pretty and markdown: the N largest slowdowns of each input and sink first, then "
                 "a count of the rest (0: all, in the base file's order; tsv and json: every row)")
      ->capture_default_str();
  auto* fail =
      sub.add_option("--fail-on-regression", opts->fail_pct,
                     "Exit 1 when a group is significantly slower by more than PCT percent");
  sub.callback([opts, fail, &exit_code] {
    const report::Format format = report::parse_format(opts->format);
    report::CompareOptions options;
    options.alpha = opts->alpha;
    options.metric = metric_option(opts->metric);
    if (fail->count() > 0) {
      if (!(opts->fail_pct >= 0)) {
        throw Error(fmt::format("--fail-on-regression {}: must be a percentage of 0 or more",
                                opts->fail_pct));
      }
      options.fail_on_regression_pct = opts->fail_pct;
    }
    const report::Result result =
        report::compare_files({opts->base}, {opts->candidate}, opts->group_by, options);
    report::write_result(result, format, std::cout, {opts->top_rows});
    std::cout.flush();
    report::write_warnings(result.warnings, std::cerr);
    exit_code = result.failed ? kExitRunFailed : kExitOk;
  });
}

const RegisterCommand kRegisterCompare{
    "compare",
    "Compare two run files: change per test, confidence interval, "
    "Mann-Whitney U p-value",
    &setup_compare, 30};

}  // namespace
}  // namespace iobench::cli
