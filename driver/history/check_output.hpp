#pragma once
// `history check --format text|markdown|json|github` (docs/history.md, "Formats"): a CheckReport
// serialised, nothing judged here.
#include <iosfwd>
#include <string>
#include <string_view>

#include "driver/history/check.hpp"

namespace iobench::history {

enum class CheckFormat { kText, kMarkdown, kJson, kGithub };
// "text", "markdown", "json", "github"; throws iobench::Error (exit 2) for anything else.
CheckFormat parse_check_format(const std::string& name);

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

// GitHub's escapes for a workflow command's message (% \r \n) and for a property's value (those
// and : ,), as @actions/core's escapeData and escapeProperty.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

}  // namespace iobench::history
