#pragma once
// `iobench bench`'s closing summary: every test of one run file against the reference test on
// the same input and sink, judged as `iobench compare` judges two files (Mann-Whitney U test,
// distribution-free interval of the ratio of medians), said as people say it.
#include <iosfwd>
#include <string>
#include <vector>

#include "driver/report/compare.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {

struct VersusReference {
  std::string reference;             // the reference test's name
  report::Result result;             // rows keyed test, input, sink; base = the reference
  std::vector<std::string> missing;  // "input (sink)" where the reference has no ok run
};

// `set` grouped by test, input, sink (in that order).
VersusReference compare_with_reference(const runfile::RunSet& set, const std::string& reference,
                                       const report::CompareOptions& options = {});

// One test against the reference as an interval, not a ± (docs/bench.md): "1.52× slower
// [1.31, 1.77], p = 0.003", the bracket the 95 % interval of the factor; "no significant
// difference (1.01× slower [0.97, 1.05], p = 0.410)" when the interval holds 1 or the test finds
// none; "too few runs to judge (...)"; "no comparison (no time to divide by)".
std::string interval_phrase(const report::Row& row);

// How bench says it (its -u and --sort, docs/bench.md).
struct VersusStyle {
  TimeUnit time_unit = TimeUnit::kAuto;
  bool by_time = false;  // each input and sink's lines fastest first; false: in command order
  std::string figures;  // what the figures are, after the test's name ("shell start-up subtracted")
};

// Per input and sink: the reference's median, then one line per test with its verdict as
// interval_phrase says it ("2.31× faster [2.27, 2.35], p < 0.001").
void write_versus_reference(const VersusReference& versus, std::ostream& out,
                            const VersusStyle& style = {});

}  // namespace iobench::report
