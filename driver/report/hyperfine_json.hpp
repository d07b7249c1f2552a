#pragma once
// The one writer of hyperfine's --export-json schema (results[]: command, mean, stddev, median,
// user, system, min, max, times, exit_codes, memory_usage_byte, parameters), for `summarize
// --format json`, `bench --export-json` and `history export --format hyperfine`. It only
// serialises: each caller builds the results. iobench's own fields go beside hyperfine's, under
// "iobench", where hyperfine's readers skip them.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iobench::report {

// One command's result as hyperfine exports it. Seconds; NaN is written as null (no ok run, or
// stddev below two runs). What a result imported from another harness never had (CPU times, max
// RSS) is absent and its key left out, as hyperfine leaves out memory_usage_byte when it has none.
struct HyperfineResult {
  std::string command;
  double mean_s = 0;
  double stddev_s = 0;
  double median_s = 0;
  std::optional<double> user_mean_s;
  std::optional<double> system_mean_s;
  double min_s = 0;
  double max_s = 0;
  std::vector<double> times_s;
  std::vector<int> exit_codes;
  std::optional<std::vector<double>> max_rss_kib;  // per run; hyperfine's memory_usage_byte
  std::vector<std::pair<std::string, std::string>> parameters;  // omitted when empty
  nlohmann::ordered_json iobench;  // the extras, an object; omitted when null
};

// {"results": [...]} and, unless `document_extras` is null, "iobench": document_extras after
// them; two-space indented, one newline at the end.
void write_hyperfine_json(const std::vector<HyperfineResult>& results,
                          const nlohmann::ordered_json& document_extras, std::ostream& out);

}  // namespace iobench::report
