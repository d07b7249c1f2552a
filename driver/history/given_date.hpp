#pragma once
// `history add --date DATE`: the date a user gives the runs of an add (docs/history.md, "Adding
// runs"), as the time axis holds every date: UTC, ISO 8601, to the second.
#include <optional>
#include <string>
#include <string_view>

namespace iobench::history {

// DATE as the runs table's run_date ("2026-12-01T10:00:00Z"), from ISO 8601 in one of three
// forms: UTC ("2026-12-01T10:00:00Z", with or without a fraction of a second, dropped), an offset
// from UTC ("2026-12-01T12:00:00+02:00", converted to UTC) or a plain date ("2026-12-01", its
// midnight UTC). nullopt for anything else: a day or time that does not exist, a date-time with no
// zone (whose UTC time is unknown), another form.
std::optional<std::string> parse_given_date(std::string_view text);

// The one line `history add --date` refuses TEXT with (parse_given_date gave nullopt).
std::string given_date_refusal(std::string_view text);

}  // namespace iobench::history
