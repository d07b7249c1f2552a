#pragma once
// After `run`'s runs: with --versus, each candidate test against its base build's twin; with
// --fail-if-slower, the gate over those comparisons (or over each test against the config's
// baseline), as bench's (docs/driver.md, "Two builds"; docs/bench.md, "A gate").
#include <iosfwd>
#include <optional>

#include "driver/config/config.hpp"
#include "driver/report/verdict_format.hpp"
#include "driver/run/runner.hpp"

namespace iobench::run {

struct RunGateOptions {
  bool twins = false;                        // --versus
  std::optional<double> fail_if_slower_pct;  // --fail-if-slower PCT
  std::optional<report::VerdictFormat> gate_format;
};

// The gate's question is a slowdown beyond PCT: the sequential rule decides each comparison
// (config "decide"), "equivalent" within PCT unless the config states its own margin.
void decide_for_gate(config::Config& config, double fail_if_slower_pct);

// The comparisons to `out` (with --versus), then the gate: its slower and not-judged lines to
// stderr, its verdict to `out` in gate_format. Returns the run's exit code when it is not 0, else
// the gate's (1 slower, 4 not judged, 0 passed). Nothing without --versus or --fail-if-slower.
int report_comparisons(const RunResult& result, const config::Config& config,
                       const RunGateOptions& options, std::ostream& out);

}  // namespace iobench::run
