#pragma once
// The run file's per-run columns the HTML report shows that the reader does not group: the
// context switches of each test, input and sink (the medians of nvcsw and nivcsw, wait4's
// rusage, over the ok rows) and what the rest of the machine did during each run (others_cpu_s
// and steal_s, every row; docs/driver.md, "Disturbance"). docs/formats.md "Run file".
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

// From run files' texts already parsed by runfile::parse_run_views (so well formed), each named
// for errors; a file without the columns gives nothing.
std::map<std::string, ContextSwitches> context_switches_of(
    const std::vector<std::pair<std::string, std::string_view>>& named_texts);

// What others did during one run, as its row says.
struct OthersDuringRun {
  int repeat = 0;
  std::string status;  // "ok", "disturbed", ...
  double elapsed_s = 0;
  std::optional<double> others_cpu_s;  // empty: the row has none (/proc/stat unread)
  std::optional<double> steal_s;
  std::optional<double> wait_cpu_s;  // what the run itself waited for a CPU: the rule's figure
};

// Every row of each cell (keyed by cell_key), in file order, of the files that have an
// others_cpu_s, steal_s or wait_cpu_s column; files without them (older files, GNU time files) give
// nothing.
std::map<std::string, std::vector<OthersDuringRun>> others_during_runs_of(
    const std::vector<std::pair<std::string, std::string_view>>& named_texts);

}  // namespace iobench::report
