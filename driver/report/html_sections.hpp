#pragma once
// The report's part for one input and sink (docs/reports.md, "The HTML report"): the chart (drawn
// by plot, as `iobench plot` draws it), the table of times and verdicts, the table of counters,
// and the warnings about its rows.
#include <cstddef>
#include <string>

#include "driver/report/html_model.hpp"

namespace iobench::report {

// The page's first section (docs/reports.md, "The answer"): each section's answer, its claim,
// its reference and why, and every test ranked with its factor and interval, linked to its
// section.
std::string render_answers(const ReportModel& model);

// The section's HTML, its id "s<index>".
std::string render_section(const ReportSection& section, std::size_t index);

// "input data/x.txt · sink pipe", as the chart titles a section.
std::string section_title(const ReportSection& section);

// A count as people read it: "812", "12.3 k", "4.56 M", "1.23 G"; "-" for NaN.
std::string format_count(double value);

}  // namespace iobench::report
