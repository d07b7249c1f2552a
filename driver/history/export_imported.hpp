#pragma once
// `history export` of series other harnesses measured (docs/history.md, "Other harnesses"): an
// imported BMF file's metrics back as they were, hyperfine's JSON with its times.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"

namespace iobench::history {

// One run's BMF metric of an imported series: a summary's value and bounds as the file gave them
// (lower_value and upper_value only where it had them); per-run values' median, min and max.
nlohmann::ordered_json imported_bmf_metric(const RunPoint& point, const StoredSeries& series);

// hyperfine's --export-json, through report/hyperfine_json (results[]: command, mean, stddev,
// median, user, system, min, max, times, exit_codes, memory_usage_byte) of every series whose
// values are seconds a run: iobench's own (elapsed) and hyperfine's imports (without user, system
// and memory_usage_byte, which an import does not keep). One run each, chosen as write_bmf
// chooses it.
void write_hyperfine_json(const std::vector<Timeline>& timelines,
                          const std::optional<std::string>& commit, std::ostream& out);

// The run of `timeline` export reads: its newest with a row that counts, or its newest whose
// commit starts with `commit`; nullptr when there is none.
const RunPoint* export_point(const Timeline& timeline, const std::optional<std::string>& commit);

}  // namespace iobench::history
