#pragma once
// `history check --format text|markdown|json|github` (docs/history.md, "Formats"): a CheckReport
// serialised, nothing judged here.
#include <iosfwd>
#include <string>
#include <string_view>

#include "driver/history/check.hpp"
#include "driver/report/verdict_format.hpp"

namespace iobench::history {

using CheckFormat = report::VerdictFormat;

// text: one line per series that is not steady (describe_cell), as check always printed.
// markdown: a heading line and a table of every series, for a pull request's comment.
// json: {"exit_status", "summary", "base", "series": [one object per series]}.
// github: one workflow command per series: ::error for a regression or a series not judged,
// ::warning for conditions changed (also when accepted), ::notice for the others.
void write_check_report(const CheckReport& report, CheckFormat format, std::ostream& out);

// The summary: "2 series: 1 regression, 1 steady" (and ", against branch main").
std::string check_summary(const CheckReport& report);
// What the exit status means, in words: "a regression", "1 series not judged", "every series
// judged, none regressed".
std::string exit_reason(const CheckReport& report);

}  // namespace iobench::history
