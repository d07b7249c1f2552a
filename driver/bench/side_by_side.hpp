#pragma once
// `iobench bench --compare-with hyperfine` (docs/bench.md): hyperfine's answer for the same
// commands beside iobench's, per input and sink: iobench's median and its interval against the
// reference, hyperfine's mean ± σ and its ratio to the same reference as hyperfine's summary
// computes it (the means' ratio, the spread propagated from both σ).
#include <cmath>
#include <iosfwd>
#include <string>
#include <vector>

#include "driver/report/time_unit.hpp"
#include "driver/report/versus_reference.hpp"

namespace iobench::bench {

// What the other tool measured for one test on one input and sink.
struct OtherToolResult {
  std::string test;
  std::string input;
  std::string sink;
  double mean_s = 0;
  double stddev_s = std::nan("");  // NaN after one run
  std::size_t runs = 0;
};

struct OtherToolRun {
  std::string tool;  // "hyperfine 1.15.0"
  std::vector<OtherToolResult> results;
  std::string note;  // what it was not told (a cache state it cannot prepare); empty: nothing
};

// hyperfine's summary wording for a mean against the reference's: "1.86 ± 0.06 times slower",
// "2.31 ± 0.04 times faster" (no ± without both σ); "reference" for the reference itself.
std::string hyperfine_ratio(const OtherToolResult& result, const OtherToolResult& reference);

// The side-by-side table of `versus` (iobench's comparisons, grouped test, input, sink) and
// `other`, after a line naming the tool.
void write_side_by_side(const runfile::RunSet& set, const report::VersusReference& versus,
                        const OtherToolRun& other, report::TimeUnit unit, std::ostream& out);

}  // namespace iobench::bench
