#pragma once
// bench's default output, as hyperfine's (docs/bench.md, "Output"): one block per command (per
// input and sink), then, after the comparisons, one line that says what the blocks leave out.
//
//   Benchmark 1: sleep 0.01
//     Time (median ± 95 % CI):  10.9 ms ±   0.1 ms    [User: 0.5 ms, System: 0.2 ms]
//     Range (min … max):        10.7 ms …  11.4 ms    12 runs
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "driver/report/elapsed_figure.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::bench {

// One block per group of `summary` (grouped by test, input, sink), in its order, numbered from
// 1; `unit` (-u) or, per block, hyperfine's pick from its median. A group without an ok run
// says so and why ("no ok run: 10 failed").
void write_bench_blocks(const report::Summary& summary, report::TimeUnit unit, std::ostream& out);

// Whether the meta file says the runs stopped before the plan's end (interrupted, or iobench
// could not go on): what the summary line and the JSON mark as partial. A meta without an end
// (written before the runs, by a run that died) is not a stopped bench's.
inline bool stopped_early(const std::optional<runfile::RunMeta>& meta) {
  return meta && meta->end && !meta->end->finished;
}

// The line under the comparisons: "PARTIAL: ..." first when stopped_early; the figure shown, the
// runs left out and why, the outliers
// kept, the load, and where the rest is: "Figures: elapsed, shell start-up subtracted (sh -c ''
// took 0.9 ms); 24 ok runs, 2 disturbed (left out); 1 outlier (kept); 2 warnings about the
// figures; load 0.52 at the start; --verbose for the environment, the tables and the warnings" (the
// warnings' count only without --verbose, which prints them).
std::string runs_summary_line(const report::Summary& summary, const report::ElapsedFigure& figure,
                              const std::optional<runfile::RunMeta>& meta, report::TimeUnit unit,
                              bool verbose);

// `set`'s groups reordered: within each input and sink (in order of first appearance) fastest
// median first, a group without an ok run last. --sort mean-time's order.
std::vector<std::size_t> order_by_time(const runfile::RunSet& set);
// `set`'s groups by command, in the order `commands` gives them (one not there last), then by
// input and sink in their order of first appearance: the order given, as the exports list it,
// whatever order the runs ended in.
std::vector<std::size_t> order_by_command(const runfile::RunSet& set,
                                          const std::vector<std::string>& commands);
// `set` with its groups in `order` (indices into set.groups).
runfile::RunSet reordered(const runfile::RunSet& set, const std::vector<std::size_t>& order);

}  // namespace iobench::bench
