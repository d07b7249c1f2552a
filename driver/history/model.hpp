#pragma once
// The history as the analyses read it (docs/formats.md "History store"): runs, series, samples
// and acknowledgements, loaded from a store or made by a test. Pure data.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/run_provenance.hpp"
#include "driver/history/runs_table.hpp"
#include "driver/history/series.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::history {

// What a run is filed under: the runs table's LABEL lines (runs_table.hpp).
struct Labels {
  IOBENCH_RUNS_TABLE(IOBENCH_RUNS_LABEL_MEMBER)
};

// One added run file, as the runs table holds it: its provenance, and the RUN and LABEL lines of
// runs_table.hpp (its identity, the file, its rows, the harness of an import and what it is filed
// under).
struct StoredRun : RunProvenance {
  IOBENCH_RUNS_TABLE(IOBENCH_RUNS_RUN_MEMBER)
  Labels labels;
};

struct StoredSeries {
  std::int64_t series_id = 0;
  std::string series_hash;
  SeriesKey key;
};

// One row of a run file, as stored (times exact to the file's microseconds).
struct StoredSample {
  std::int64_t run_id = 0;
  std::int64_t series_id = 0;
  int repeat = 0;
  runfile::RunStatus status = runfile::RunStatus::kOk;
  std::optional<int> exit_code;
  double elapsed_s = 0;
  double user_s = 0;
  double system_s = 0;
  double cpu_pct = 0;
  std::int64_t max_rss_kib = 0;
  std::int64_t minflt = 0;
  std::int64_t majflt = 0;
  std::int64_t nvcsw = 0;
  std::int64_t nivcsw = 0;
  std::int64_t inblock = 0;
  std::int64_t oublock = 0;
  std::optional<std::uint64_t> bytes_out;
  std::optional<double> cache_pct;
  std::optional<std::uint64_t> output_hash;
  std::string host;  // the row's host ("" when it is the run's)
  std::array<std::optional<std::uint64_t>, runfile::kCounterCount> counters{};
  std::optional<double> counted_pct;
  // An imported run's summary of the series (a file without per-run values): elapsed_s is its
  // center, these its n and bounds (docs/history.md, "Other harnesses").
  std::optional<std::int64_t> summary_n;
  std::optional<double> summary_low;
  std::optional<double> summary_high;
};

// A change marked as expected: `history ack CHANGE --why TEXT`.
struct Ack {
  std::string change_id;  // change_id(series_hash, run_hash)
  std::string series_hash;
  std::string run_hash;
  std::string why;
  std::string who;
  std::string acked_at;  // UTC, ISO 8601
};

struct HistoryData {
  std::vector<StoredRun> runs;
  std::vector<StoredSeries> series;
  std::vector<StoredSample> samples;
  std::vector<Ack> acks;
};

// What a change is called: the first 8 hex digits of its series and of the run it starts at,
// "3f2a9c1b@7b21e0aa". Stable: the same store always names a change the same way.
std::string change_id(const std::string& series_hash, const std::string& run_hash);

}  // namespace iobench::history
