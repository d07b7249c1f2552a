#include "driver/bench/hyperfine_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <regex>

#include "common/error.hpp"
#include "driver/config/bench_keys.hpp"
#include "driver/config/choices.hpp"
#include "driver/config/validator.hpp"

namespace iobench::bench {

using config::Config;
using config::parse_ignored_failures;
using config::sink_names;
using config::StrategySpec;

void refuse(const std::string& message) {
  throw Error(message);
}

namespace {

constexpr int kDefaultRuns = 10;
// Without -r, hyperfine's rule: as many runs as fill 3 s at the first run's time, at least 10 (or
// -m), at most -M (docs/bench.md, "How many runs"); without -M at most 1000, since the plan lists
// its rounds and the ratio's interval compares every pair of runs.
constexpr int kDefaultFillMaxRuns = 1000;
constexpr double kDefaultFillS = 3;
constexpr std::size_t kMostScanValues = 10000;

// A decimal number as a whole number of 10^-scale: "1.25" is {125, 2}. Exact, unlike a double,
// so that 0.3 + 0.2 + 0.2 is 0.7.
struct Decimal {
  std::int64_t units = 0;
  int scale = 0;
};

Decimal parse_decimal(const std::string& text, const std::string& what) {
  static const std::regex kNumber(R"(-?[0-9]{1,15}(\.[0-9]{1,6})?)");
  if (!std::regex_match(text, kNumber)) {
    refuse(fmt::format("{} '{}': not a number (digits, an optional '-' and decimals)", what, text));
  }
  const auto dot = text.find('.');
  std::string digits = text;
  Decimal d;
  if (dot != std::string::npos) {
    d.scale = static_cast<int>(text.size() - dot - 1);
    digits.erase(dot, 1);
  }
  std::from_chars(digits.data(), digits.data() + digits.size(), d.units);
  return d;
}

std::int64_t at_scale(const Decimal& d, int scale) {
  std::int64_t units = d.units;
  for (int s = d.scale; s < scale; ++s) units *= 10;
  return units;
}

std::string format_decimal(std::int64_t units, int scale) {
  if (scale == 0) return std::to_string(units);
  std::int64_t power = 1;
  for (int s = 0; s < scale; ++s) power *= 10;
  const std::int64_t magnitude = units < 0 ? -units : units;
  return fmt::format("{}{}.{:0{}}", units < 0 ? "-" : "", magnitude / power, magnitude % power,
                     scale);
}

}  // namespace

std::pair<std::string, std::vector<std::string>> parameter_scan_values(
    const std::vector<std::string>& scan, const std::string& step) {
  if (scan.empty()) {
    if (!step.empty()) refuse(fmt::format("-D {}: steps a -P VAR MIN MAX; give -P", step));
    return {};
  }
  if (scan.size() != 3) refuse("-P: expected VAR MIN MAX, e.g. -P threads 1 8");
  const Decimal min = parse_decimal(scan[1], "-P " + scan[0] + " MIN");
  const Decimal max = parse_decimal(scan[2], "-P " + scan[0] + " MAX");
  Decimal delta{1, 0};
  if (!step.empty()) {
    delta = parse_decimal(step, "-D");
    if (delta.units <= 0) refuse(fmt::format("-D {}: must be above 0", step));
  } else if (min.scale > 0 || max.scale > 0) {
    refuse(fmt::format("-P {} {} {}: bounds with decimals need a step size: give -D DELTA", scan[0],
                       scan[1], scan[2]));
  }
  const int scale = std::max({min.scale, max.scale, delta.scale});
  const std::int64_t first = at_scale(min, scale);
  const std::int64_t last = at_scale(max, scale);
  const std::int64_t increment = at_scale(delta, scale);
  if (first > last) refuse(fmt::format("-P {} {} {}: an empty range", scan[0], scan[1], scan[2]));
  if ((last - first) / increment >= static_cast<std::int64_t>(kMostScanValues)) {
    refuse(fmt::format("-P {} {} {}: more than {} values", scan[0], scan[1], scan[2],
                       kMostScanValues));
  }
  // hyperfine's Decimal keeps the scale of MIN + DELTA: "1", "1.25", ... "2.00".
  const int shown = std::max(min.scale, delta.scale);
  std::vector<std::string> values{scan[1]};
  for (std::int64_t v = first + increment; v <= last; v += increment) {
    std::int64_t units = v;
    for (int s = scale; s > shown; --s) units /= 10;
    values.push_back(format_decimal(units, shown));
  }
  return {scan[0], std::move(values)};
}

void set_bench_repeats(const BenchRequest& request, Config& config) {
  auto exactly = [&](int runs) {
    config.repeats = config.repeats_min = runs;
    config.repeats_ci_pct = config.repeats_fill_s = 0;
  };
  auto between = [&](int min, int max, double ci_pct) {
    config.repeats_min = min;
    config.repeats = max;
    config.repeats_ci_pct = ci_pct;
    config.repeats_fill_s = ci_pct > 0 ? 0 : request.fill_s.value_or(kDefaultFillS);
  };
  const bool bounds = request.min_runs || request.max_runs;
  if (request.runs && bounds) {
    refuse(
        fmt::format("--runs {}: is exactly that many runs, while -m/-M bound the count; give "
                    "one or the other (as hyperfine)",
                    *request.runs));
  }
  if (request.ci_pct && !bounds) refuse("--ci-pct: is the target between -m and -M; give them");
  if (!bounds && !request.runs) return between(kDefaultRuns, kDefaultFillMaxRuns, 0);
  if (!bounds) {
    if (*request.runs < 1) refuse(fmt::format("--runs {}: must be 1 or more", *request.runs));
    return exactly(*request.runs);
  }
  if (request.max_runs && *request.max_runs < 1) {
    refuse(fmt::format("--max-runs {}: must be 1 or more", *request.max_runs));
  }
  // hyperfine's bounds: -M alone lowers the least to it, -m alone has no most (here the
  // default's, or -m itself when above it).
  const int min = request.min_runs.value_or(std::min(kDefaultRuns, *request.max_runs));
  const int max = request.max_runs.value_or(std::max(kDefaultFillMaxRuns, min));
  // hyperfine takes -m 1 (3 s fill it, or one run does); a precision target needs a spread.
  if (request.min_runs && min < (request.ci_pct ? 2 : 1)) {
    refuse(fmt::format("--min-runs {}: must be {} or more{}", min, request.ci_pct ? 2 : 1,
                       request.ci_pct ? ", the fewest a spread needs (-r 1 runs once)" : ""));
  }
  if (max < min)
    refuse(fmt::format("--max-runs {}: below --min-runs {}, an empty range", max, min));
  if (min == max) return exactly(max);
  if (!request.ci_pct) return between(min, max, 0);
  const double ci_pct = *request.ci_pct;
  if (!(ci_pct > 0 && ci_pct <= 100)) {
    refuse(fmt::format("--ci-pct {}: must be a percentage above 0 and at most 100", ci_pct));
  }
  between(min, max, ci_pct);
}

namespace {

// hyperfine's --output WHERE: null, pipe and inherit are the sinks of those names; anything else
// is a FILE, the file sink writing there, which hyperfine takes only as a path of two parts or
// more ("./capture.txt"), so that a misspelt "nul" is not a file.
std::string output_sink(const std::string& where) {
  if (where == "null" || where == "pipe" || where == "inherit") return where;
  const std::filesystem::path path(where);
  if (std::distance(path.begin(), path.end()) <= 1) {
    refuse(
        fmt::format("--output {}: not null, pipe or inherit; --output ./{} writes each command's "
                    "output to that file, as hyperfine's (-o/--runs-file names iobench's runs "
                    "file)",
                    where, where));
  }
  return "file";
}

// --output's sink: one for every command, since the rows of different sinks are never compared.
std::vector<std::string> output_sinks(const BenchRequest& request) {
  if (request.show_output || !request.sinks.empty()) {
    refuse(fmt::format("--output and {} both say where the output goes; give one of them",
                       request.show_output ? "--show-output" : "--sink"));
  }
  const std::string sink = output_sink(request.outputs.front());
  for (const std::string& where : request.outputs) {
    if (output_sink(where) != sink) {
      refuse(fmt::format(
          "--output {} and --output {}: iobench compares commands within one sink, so every "
          "command's output goes to the same kind of place (each to its own FILE is fine)",
          request.outputs.front(), where));
    }
  }
  return {sink};
}

}  // namespace

std::vector<std::string> bench_sinks(const BenchRequest& request) {
  if (!request.outputs.empty()) return output_sinks(request);
  if (request.show_output && !request.sinks.empty()) {
    refuse(
        "--show-output is the inherit sink, and --sink says where the output goes too; give "
        "one of them");
  }
  if (request.show_output) return {"inherit"};
  std::vector<std::string> sinks;
  for (const auto& sink : request.sinks) {
    if (const auto names = sink_names();
        std::find(names.begin(), names.end(), sink) == names.end()) {
      refuse(fmt::format("--sink {}: not one of {}", sink, fmt::join(names, ", ")));
    }
    if (std::find(sinks.begin(), sinks.end(), sink) != sinks.end()) {
      refuse(fmt::format("--sink {}: given twice", sink));
    }
    sinks.push_back(sink);
  }
  return sinks.empty() ? std::vector<std::string>{"pipe"} : sinks;
}

std::vector<std::string> output_files(const BenchRequest& request) {
  if (request.outputs.empty() || output_sinks(request).front() != "file") return {};
  return request.outputs;
}

namespace {

// A hook given once for all commands or once per command (--prepare, --conclude): refused when
// it is neither, or per command beside an added reference.
void check_per_command_hook(const char* option, const std::vector<std::string>& given,
                            std::size_t commands, bool reference_added) {
  if (given.size() > 1 && given.size() != commands) {
    refuse(
        fmt::format("{} is given {} times for {} commands; give it once for all, or "
                    "once per command, in order",
                    option, given.size(), commands));
  }
  if (given.size() > 1 && reference_added) {
    refuse(
        fmt::format("{} is given per command, and the --reference is not one of them: give the "
                    "reference as a command too",
                    option));
  }
}

// The hook for command `command`: the one for all, its own, or none.
std::string hook_for(const std::vector<std::string>& given, std::size_t command) {
  if (given.size() == 1) return given.front();
  return given.size() > 1 ? given[command] : std::string();
}

}  // namespace

void add_command_keys(std::vector<StrategySpec>& strategies, const BenchRequest& request,
                      bool reference_added) {
  const std::size_t commands = request.commands.size();
  check_per_command_hook("--prepare", request.prepare, commands, reference_added);
  check_per_command_hook("--conclude", request.conclude, commands, reference_added);
  check_per_command_hook("--output", request.outputs, commands, reference_added);
  const std::vector<std::string> files = output_files(request);
  const bool shell_none = request.shell_name == "none";
  if (!request.shell && !request.shell_name.empty() && !shell_none) {
    refuse(fmt::format("-S {}: and --no-shell say different things; give one", request.shell_name));
  }
  const config::detail::Validator v(kBenchConfigSource);
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    StrategySpec& strategy = strategies[s];
    const std::size_t command = reference_added ? s - 1 : s;  // the added reference: none
    if (!request.shell_name.empty() && !shell_none && request.shell_name != "default") {
      strategy.shell_words = config::detail::shell_words_of(
          v, request.shell_name,
          config::detail::Validator::join(config::detail::Validator::index("strategies", s),
                                          "shell"));
    }
    strategy.setup = request.setup;
    strategy.prepare = hook_for(request.prepare, command);
    strategy.conclude = hook_for(request.conclude, command);
    strategy.cleanup = request.cleanup;
    strategy.output_file = hook_for(files, command);
    if (!request.ignore_failure.empty())
      strategy.ignore_failure = parse_ignored_failures(request.ignore_failure, "--ignore-failure");
  }
}

}  // namespace iobench::bench
