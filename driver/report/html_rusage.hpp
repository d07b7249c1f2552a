#pragma once
// The context switches of each test, input and sink for the HTML report: the medians of the
// run file's nvcsw and nivcsw columns (wait4's rusage, docs/formats.md "Run file") over the ok
// rows. The reader groups only the metrics, so the report reads these two columns itself.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::report {

struct ContextSwitches {
  std::optional<double> voluntary_median;    // nvcsw: the worker waited (I/O, a full pipe)
  std::optional<double> involuntary_median;  // nivcsw: the kernel took the CPU away
};

// "test\tinput\tsink", as the maps below are keyed.
std::string cell_key(std::string_view test, std::string_view input, std::string_view sink);

// From run files already read by runfile::read_runs (so well formed); a file without the columns
// gives nothing. Throws iobench::Error when a file cannot be read again.
std::map<std::string, ContextSwitches> read_context_switches(
    const std::vector<std::filesystem::path>& files);
// The same from texts in memory, named for errors.
std::map<std::string, ContextSwitches> context_switches_of(
    const std::vector<std::pair<std::string, std::string>>& named_texts);

}  // namespace iobench::report
