#pragma once
// The answer a run is for (docs/reports.md, "The answer"), for each input, sink, cache state and
// every other condition: the fastest strategy, every strategy ranked by its elapsed median with
// its factor and 95 % interval against the one named reference (the rule of reference.hpp), and
// the one claim the data supports. `run` ends with it, `summarize` begins with it, its JSON
// carries it, and the HTML report's first section shows it: one computation, so they agree.
#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "driver/report/compare.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {

// Within this fraction of the fastest's median, a strategy is as fast for the claim.
inline constexpr double kWithinOfFastest = 0.02;
// Pairs of runs (m * n) up to which a factor gets its interval; beyond, the ratio of medians alone
// (summarize of 1,000,000 rows must stay fast: docs/reports.md, "Speed").
inline constexpr std::size_t kMostPairsCompared = 250'000;

struct AnswerEntry {
  std::size_t group = 0;                 // index into Summary::groups
  const runfile::Group* runs = nullptr;  // its runs (and marks, group_marks)
  std::string test;       // the test column's value; its marks are the group's (group_marks)
  std::size_t n = 0;      // ok runs
  double median_s = 0;    // elapsed; NaN without an ok run
  std::string reference;  // the test it is compared with; "" for a reference of its own peers
  // Against the reference: the Hodges-Lehmann ratio (this / reference) and its 95 % interval,
  // compare's (compare_samples); none for the reference itself, a group without an ok run, or one
  // whose every run was disturbed.
  std::optional<Row> versus;
};

struct Answer {
  // The peers' conditions, each column but `test` that has a value: {"input", "in.txt"}, ...
  std::vector<std::pair<std::string, std::string>> conditions;
  std::string reference;            // the reference's test, or "NAME@base" under run --versus
  std::string reference_why;        // "the config's baseline", "--baseline", "the fastest"
  bool against_twins = false;       // run --versus: some test is compared with its twin NAME@base
  std::string fastest;              // "" when no group has an ok run
  std::vector<AnswerEntry> ranked;  // fastest first; groups without an ok run last
  std::vector<std::string> within_of_fastest;  // others within kWithinOfFastest of it
  std::string claim;                           // one sentence, no final period
};

// One answer per set of peers (reference.hpp), in order of first appearance. Elapsed times.
std::vector<Answer> answers(const Summary& summary);

// "input in.txt, sink pipe, cache warm" ("all runs" when there is no condition).
std::string answer_where(const Answer& answer);

// How an entry compares with its reference: "2.10× faster [2.00, 2.20]", "reference", "no ok
// run", "disturbed, not compared".
std::string answer_factor(const AnswerEntry& entry);

// Pretty or markdown: per answer a heading with the claim, the reference and why, then the
// ranking, `top_rows` entries at most (0: all) and a count of the rest ("… and 4 more (HINT)").
void write_answers(const std::vector<Answer>& answers, Format format, std::size_t top_rows,
                   const std::string& all_rows_hint, std::ostream& out);

// The JSON of `summarize --format json`'s "iobench": {"answer": [...]}: per answer its
// conditions, reference, reference_is, fastest, claim, within_2pct_of_fastest and ranked (test,
// n, median, ratio, ci_low, ci_high, reference, factor), the numbers write_answers prints.
nlohmann::ordered_json answers_json(const std::vector<Answer>& answers);

}  // namespace iobench::report
