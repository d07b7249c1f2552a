#pragma once
// A series along time: its runs in the order they were measured, each with its rows
// (docs/history.md, "Series"). Only rows that may count enter the statistics: `ok` rows of a
// verified test (usable_elapsed); the others are kept and counted.
#include <cstddef>
#include <vector>

#include "driver/history/model.hpp"

namespace iobench::history {

struct RunPoint {
  const StoredRun* run = nullptr;
  std::vector<const StoredSample*> samples;  // every row of this series in this run
};

struct Timeline {
  const StoredSeries* series = nullptr;
  std::vector<RunPoint> points;  // by the run's date, then the order runs were added
  // The series this one continues (history rename, rename.hpp), whose runs are in `points` too.
  std::vector<const StoredSeries*> earlier_series;
};

// Every series that has a row, in the store's order of series, each run once.
std::vector<Timeline> build_timelines(const HistoryData& data);

// The ack of the change that starts at `point` (change_id of the series and the point's run),
// under the series' hash or, for a series that continues renamed ones, theirs (rename.hpp);
// nullptr when there is none.
const Ack* ack_at(const Timeline& timeline, const RunPoint& point, const std::vector<Ack>& acks);

// Whether a row may enter the statistics: `ok`, and of a test whose output is verified
// (docs/history.md, "Only verified runs count").
bool counts(const StoredSample& sample, const StoredSeries& series);
// The elapsed seconds of the point's rows that count; usable_count, their number.
std::vector<double> usable_elapsed(const RunPoint& point, const StoredSeries& series);
// Rows of the point that do not count, by status name ("2 failed, 1 unverified").
std::string excluded_summary(const RunPoint& point, const StoredSeries& series);

// The series of `data` that `name` names: a series hash or its prefix (at least 4 hex digits),
// or a test name when one series alone has it (the hash or test of a series it continues names
// it too). Throws iobench::Error (exit 2) otherwise, listing
// the candidates when a test has several.
const Timeline& find_timeline(const std::vector<Timeline>& timelines, const std::string& name);

}  // namespace iobench::history
