#pragma once
// What `history list`, `history show` and `history export --format bmf` print.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"

namespace iobench::history {

// One line per series: id, label, runs, the latest median and its trend against the medians
// of the runs before (up to 10), the last change point.
void write_series_list(const HistoryData& data, const std::vector<Timeline>& timelines,
                       std::ostream& out);

// The series' identity, then one line per run: date, labels, rows that count of all, median,
// min and max, conditions, and the change points and acknowledgements at it.
void write_series_detail(const HistoryData& data, const Timeline& timeline, std::ostream& out);

// Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format): one benchmark per
// series, named "test (input, sink)" (with the series id when two series share a name), with
// `latency` (the median elapsed in nanoseconds, min and max as lower_value and upper_value) and
// `max-rss` (KiB) of one run: the newest run of each series, or its newest run whose commit
// starts with `commit`.
void write_bmf(const std::vector<Timeline>& timelines, const std::optional<std::string>& commit,
               std::ostream& out);

}  // namespace iobench::history
