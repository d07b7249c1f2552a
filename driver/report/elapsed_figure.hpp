#pragma once
// Which elapsed figure a verdict is about (docs/bench.md, "Which figure"): the raw one, or the
// one with the shell's start-up subtracted. One function decides it from the run set's records,
// so that bench's terminal summary, its --report page and its JSON export judge the same
// samples and name the same figure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/reader.hpp"
#include "driver/runfile/shell_startup.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::report {

enum class ElapsedFigureKind { kRaw, kStartupSubtracted };

struct ElapsedFigure {
  ElapsedFigureKind kind = ElapsedFigureKind::kRaw;
  std::optional<runfile::ShellStartup> startup;  // what comes off every sample; set when subtracted

  // "elapsed, shell start-up subtracted" or "elapsed": what a surface says it shows.
  [[nodiscard]] std::string name() const;
  // "startup_subtracted" or "raw": the JSON export's "elapsed_figure".
  [[nodiscard]] std::string_view json_name() const;
};

// From each run file's recorded shell start-up, in the set's file order (nullopt: the file's
// meta record has none, or there is no record). Start-up subtracted when every file recorded
// the same start-up (one bench run, or files of one): a figure less a start-up only some files
// had, or different ones, would mix two figures in one comparison. Raw otherwise.
ElapsedFigure decide_elapsed_figure(
    const std::vector<std::optional<runfile::ShellStartup>>& startups);

// decide_elapsed_figure over the runs' meta records (a run without one counts as none).
ElapsedFigure elapsed_figure_of(const std::vector<runfile::WrittenRun>& runs);

// `set` with the start-up's elapsed, user and system taken from those samples (each at least 0),
// cpu_pct recomputed from them; every other metric as it was.
runfile::RunSet subtract_shell_startup(const runfile::RunSet& set,
                                       const runfile::ShellStartup& startup);

// The samples a verdict in `figure` is about: `raw` itself, or `raw` less the start-up.
runfile::RunSet in_figure(const runfile::RunSet& raw, const ElapsedFigure& figure);

}  // namespace iobench::report
