#pragma once
// bench's figures with the shell's start-up subtracted (docs/bench.md, "Shell start-up"): every
// sample of elapsed, user and system less the medians of an empty `SHELL -c ''` (the meta file's
// shell_startup), at least 0, as hyperfine subtracts its shell's spawning time; and the table
// that shows them below the raw one. The runs file keeps the raw figures.
#include <iosfwd>
#include <string>

#include "driver/report/elapsed_figure.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/shell_startup.hpp"

namespace iobench::bench {

// The conditions of the runs in one line, the first of bench's output, so that a pasted result
// carries them: "Environment: CPU Intel(R) Xeon(R) CPU @ 2.20GHz (2 online), governor
// performance, load 0.52, busy CPUs 0.10, cache warm, sink pipe" (the governor left out when
// unknown; docs/bench.md), from the run's meta file.
std::string environment_line(const runfile::RunMeta& meta);

// A line saying what was subtracted, then per group (test, input when there is one, sink): n and
// the elapsed, user and system medians of `corrected`, in `unit`.
void write_shell_corrected(const runfile::RunSet& corrected, const runfile::ShellStartup& startup,
                           report::TimeUnit unit, std::ostream& out);

}  // namespace iobench::bench
