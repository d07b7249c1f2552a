#pragma once
// bench's figures with the shell's start-up subtracted (docs/bench.md, "Shell start-up"): every
// sample of elapsed, user and system less the medians of an empty `SHELL -c ''` (the meta file's
// shell_startup), at least 0, as hyperfine subtracts its shell's spawning time; and the table
// that shows them below the raw one. The runs file keeps the raw figures.
#include <iosfwd>

#include "driver/report/time_unit.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/shell_startup.hpp"

namespace iobench::report {

// `set` with the start-up's elapsed, user and system taken from those samples (each at least 0),
// cpu_pct recomputed from them; every other metric as it was.
results::RunSet subtract_shell_startup(const results::RunSet& set,
                                       const runfile::ShellStartup& startup);

// A line saying what was subtracted, then per group (test, input when there is one, sink): n and
// the elapsed, user and system medians of `corrected`, in `unit`.
void write_shell_corrected(const results::RunSet& corrected, const runfile::ShellStartup& startup,
                           TimeUnit unit, std::ostream& out);

}  // namespace iobench::report
