#pragma once
// `bench --fail-if-slower PCT --gate-format text|markdown|json|github` (docs/bench.md, "A
// gate"): the gate's verdict for a pull request, in the formats `history check` writes
// (docs/history.md, "Formats"), so that CI reads the same-session gate as it reads the history's.
// A Gate serialised, nothing judged here.
#include <iosfwd>
#include <string>

#include "driver/report/verdict_format.hpp"
#include "driver/report/versus_reference.hpp"

namespace iobench::report {

// "2 commands against 'base': 1 slower, 1 passed".
std::string gate_summary(const Gate& gate);
// What the exit status means: "1 slower", "1 not judged", "every command judged, none slower".
std::string gate_exit_reason(const Gate& gate);

// text: a line per command, its verdict first, then the summary; markdown: a heading line and a
// table, slower first, then not judged, then passed; json: {"exit_status", "summary", "reason",
// "reference", "fail_if_slower_pct", "commands": [...]}; github: a workflow command per command
// (::error for slower or not judged, ::notice for passed) and one for the summary.
void write_gate(const Gate& gate, VerdictFormat format, std::ostream& out);

// How `bench` and `run` end a gated run: the slower and the not judged cells' lines on `err`,
// each "iobench: "-prefixed; returns the gate's exit status when the run's own was 0, else the
// run's (the gate speaks for a run that had nothing worse to say).
int finish_gate(const Gate& gate, int run_exit_code, std::ostream& err);

}  // namespace iobench::report
