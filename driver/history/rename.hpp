#pragma once
// `iobench history rename OLD NEW` (docs/history.md, "Rename"): a series whose command text
// changed (so its hash did) continues an older one, so that check compares the new runs with the
// old ones. Stored in the series_renames table (store_rename.cpp); applied to the timelines
// every reading command builds.
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"

namespace iobench::history {

struct SeriesRename {
  std::string old_hash;  // the series that stops
  std::string new_hash;  // the series that continues it
  std::string who;
  std::string renamed_at;  // UTC, ISO 8601
};

// Moves the runs of every renamed series into the timeline of the series it continues (along
// chains: A -> B -> C all continue as C), sorted as build_timelines sorts them; a renamed series'
// own timeline goes. Renames naming a series without rows are left out, and so are those across
// tools, units or directions (stored by an older iobench, whose plan_rename let them through), so
// that a series never mixes them.
void continue_renamed(std::vector<Timeline>& timelines, const std::vector<SeriesRename>& renames);

// The rename of OLD to NEW (each as find_timeline takes it, among the series as stored), checked:
// not the same series, no loop with the renames already stored, the same tool, unit, direction,
// input, sink (an import's measure), cache mode, counters, verification and host class (only the
// command may change), and never both in one run (two commands side by side are not one
// renamed). Throws iobench::Error (exit 2).
SeriesRename plan_rename(const HistoryData& data, const std::vector<SeriesRename>& existing,
                         const std::string& old_name, const std::string& new_name);

}  // namespace iobench::history
