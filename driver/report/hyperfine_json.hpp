#pragma once
// The one writer of hyperfine's --export-json schema (results[]: command, mean, stddev, median,
// user, system, min, max, times, exit_codes, memory_usage_byte, parameters), for `summarize
// --format json` and `bench --export-json`. It only serialises: each caller builds the results.
// iobench's own fields go beside hyperfine's, under "iobench", where hyperfine's readers skip
// them.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace iobench::report {

// One command's result as hyperfine exports it. Seconds; NaN is written as null (no ok run, or
// stddev below two runs).
struct HyperfineResult {
  std::string command;
  double mean_s = 0;
  double stddev_s = 0;
  double median_s = 0;
  double user_mean_s = 0;
  double system_mean_s = 0;
  double min_s = 0;
  double max_s = 0;
  std::vector<double> times_s;
  std::vector<int> exit_codes;
  std::vector<double> max_rss_kib;  // per run; written as hyperfine's memory_usage_byte
  std::vector<std::pair<std::string, std::string>> parameters;  // omitted when empty
  nlohmann::ordered_json iobench;                               // the extras, an object
};

// {"results": [...]} and, unless `document_extras` is null, "iobench": document_extras after
// them; two-space indented, one newline at the end.
void write_hyperfine_json(const std::vector<HyperfineResult>& results,
                          const nlohmann::ordered_json& document_extras, std::ostream& out);

}  // namespace iobench::report
