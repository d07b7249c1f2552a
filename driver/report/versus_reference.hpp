#pragma once
// `iobench bench`'s closing summary: every test of one run file against the reference test on
// the same input and sink, judged as `iobench compare` judges two files (Mann-Whitney U test,
// distribution-free interval of the ratio of medians), said as people say it.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/report/compare.hpp"
#include "driver/report/sequential.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/stats/sequential.hpp"

namespace iobench::report {

// How the sequential rule ended one test's comparison with the reference (docs/reports.md,
// "Deciding a comparison"), the cell named as its rows name it.
struct RuleDecision {
  std::string test;
  std::string input;  // the run file's input column ("" without an input)
  std::string sink;
  stats::SequentialResult result;  // the last look's
  stats::SequentialPlan plan;
};

// A place the reference has no ok run on.
struct MissingReference {
  std::string place;  // "input, sink sink" ("sink sink" without an input); under twins the
                      // candidate's cell, "'c' on in.txt (file sink)"
  // Every run of it was disturbed: it was left out, so no row compares it and only this names it.
  bool every_run_disturbed = false;
  bool operator==(const MissingReference&) const = default;
};

struct VersusReference {
  std::string reference;                  // the reference test's name
  report::Result result;                  // rows keyed test, input, sink; base = the reference
  std::vector<MissingReference> missing;  // where the reference has no ok run
  std::vector<RuleDecision> decisions;    // when the rule decided the runs: one per comparison
  // `run --versus`: each test against its own base twin, not one reference test; `missing` then
  // names the candidates whose twin has no ok run (every run disturbed, too).
  bool each_against_its_twin = false;
};

// `set` grouped by test, input, sink (in that order); `decisions`, when the sequential rule
// stopped the runs, say how each comparison ended.
VersusReference compare_with_reference(const runfile::RunSet& set, const std::string& reference,
                                       const report::CompareOptions& options = {},
                                       std::vector<RuleDecision> decisions = {});

// `run --versus` (docs/driver.md, "Two builds"): each candidate test of `set` (grouped by test,
// input, sink) against its base build's twin, "NAME@base", on the same input and sink; rows keyed
// by the candidate's name.
VersusReference compare_with_base_twins(const runfile::RunSet& set,
                                        std::vector<RuleDecision> decisions);

// The rule's decision for `row` (keyed test, input, sink); nullptr when the rule did not judge it.
const RuleDecision* decision_for(const VersusReference& versus, const report::Row& row);

// The row on the rule's figures: its estimate and its last look's interval in place of the ratio
// of medians and the U test's 95 % one; nullopt where the rule did not judge it with an interval.
// A decision is never said beside figures it was not made on: an A/A duet decided "different" on
// pairs 1.004× apart [1.001, 1.008] had a ratio of medians of 1.052 [0.985, 1.082], and a gate
// that took that ratio called it 5 % slower.
std::optional<report::Row> rule_row(const report::Row& row, const RuleDecision* decision);
// rule_row, else the row as it is.
report::Row as_judged(const report::Row& row, const RuleDecision* decision);

// What bench concludes for one row: when the rule judged it, "different" is the only significant
// outcome (the fixed-n U test's p is not the error rate of a decision made by repeated looks);
// else the U test's verdict (slower or faster).
bool significant(const report::Row& row, const RuleDecision* decision);

// The gate of `bench --fail-if-slower PCT` (docs/bench.md, "A gate"): a red gate means a real
// slowdown, a green one that the runs had the power to see one. Each comparison is
//   - slower: significantly slower, as `significant` judges (a rule's decision: "different", its
//     interval above 1), by more than `pct` percent (its ratio of medians);
//   - not judged: else, unless its interval (the rule's last look's, else the U test's 95 %)
//     rules out a slowdown of more than `pct` percent, its high end at most 1 + pct / 100;
//   - passed: the rest.
// Without a comparison at all (one command) the gate is not judged either, nor is a candidate
// whose base twin was left out, every run of it disturbed (`missing`).
// A line for each, naming the cell, the factor and its interval, and what judged it.
enum class GateVerdict { kSlower, kNotJudged, kPassed };
struct GateCell {
  std::string cell;  // "'head' on in.txt (pipe sink)"; "" where there was nothing to compare
  GateVerdict verdict = GateVerdict::kNotJudged;
  std::optional<double> ratio;              // candidate / reference, where one can be taken
  std::optional<stats::Interval> interval;  // the rule's last look's, else the U test's 95 %
  std::string judged_by;                    // "decided: different after 8 runs, ..."
  std::string line;                         // what bench says of it
};
// Whose gate: bench's commands, each against the first, or run's tests (against the baseline,
// or each against its base twin under --versus).
struct GateOf {
  std::string made_by = "iobench bench";  // the gate's command, in its outputs' headings
  std::string subject = "command";        // what each cell judges: bench's command, run's test
  std::string more_runs = "-m, -r";       // the options that give a comparison more runs
};
struct Gate {
  std::string reference;
  double pct = 0;
  std::vector<GateCell> cells;            // in the comparisons' order
  std::string made_by = "iobench bench";  // as GateOf's
  std::string subject = "command";
};
Gate fail_if_slower(const VersusReference& versus, double pct, const GateOf& of = {});
// The lines of the cells with `verdict`, in order.
std::vector<std::string> gate_lines(const Gate& gate, GateVerdict verdict);
// 1 when a cell is slower, else 4 when one is not judged, else 0 (docs/bench.md, "A gate").
int gate_exit_status(const Gate& gate);

// A row the rule judged. Stopped by a decision, it is said by the decision, on the rule's own
// estimate and interval (as_judged), and the rule's level instead of the U test's p: "1.52× slower
// [1.31, 1.77], decided different after 6 runs (sequential rule, alpha 0.05 overall)", "equivalent
// within ±1 % (1.00× slower [0.99, 1.01]), decided after 9 runs (...)". Not stopped (its runs all
// ran), interval_phrase then the rule's word: "1.03× slower [1.01, 1.05], p = 0.030; sequential
// rule: budget of 10 runs spent, undecided (alpha 0.05 overall)".
std::string decision_phrase(const report::Row& row, const RuleDecision& decision);

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
