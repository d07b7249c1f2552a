#pragma once
// One run file as `history add` stores it: its rows, its meta file's facts and its labels.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/location.hpp"
#include "driver/history/model.hpp"
#include "driver/history/run_file.hpp"
#include "driver/history/run_meta_facts.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::history {

// What an imported run adds to each of its rows (import_record.hpp): the series' unit and
// direction, and a summary's n and bounds where the file had no per-run values.
struct ImportedRow {
  std::string unit;
  std::string direction;
  std::optional<std::int64_t> summary_n;
  std::optional<double> summary_low;
  std::optional<double> summary_high;
};

struct RunRecord {
  std::string runs_file;
  RunFileRows file;
  RunMetaFacts facts;
  Labels labels;
  std::string added_by;
  // Another harness's results (docs/history.md, "Other harnesses"); empty tool for iobench's.
  std::string tool;
  std::string conditions;
  std::string context;
  std::vector<ImportedRow> imported;  // beside file.rows, for an import
  // An import's host class where its file describes the machine its own way (Google Benchmark);
  // empty: host_class_of(facts).
  std::string host_class;
  // What the add says of the file beside its "added" line: what it did not import, and why.
  std::vector<std::string> notes;
};

// The labels a run is filed under: each given one (--commit, --branch), else CI's (GITHUB_SHA,
// CI_COMMIT_SHA; GITHUB_REF_NAME, CI_COMMIT_REF_NAME), else for the commit the measured one (the
// meta file's provenance); a branch may stay unknown.
Labels resolve_labels(const Labels& given, const EnvLookup& lookup,
                      const std::optional<std::string>& measured_commit);

// The branch a pull request targets, as CI names it to the job: GITHUB_BASE_REF,
// CI_MERGE_REQUEST_TARGET_BRANCH_NAME, else CI_DEFAULT_BRANCH; none outside CI.
std::optional<std::string> ci_target_branch(const EnvLookup& lookup);

// Who adds or acknowledges: GITHUB_ACTOR, GITLAB_USER_LOGIN, USER, LOGNAME, else the user id's
// name.
std::string current_user(const EnvLookup& lookup);
// Now, UTC, ISO 8601 to the second: "2026-01-31T12:00:00Z".
std::string utc_now();

// The run's identity in the store (its run_hash, docs/history.md "Adding runs"): the XXH3-128 of
// its file's bytes (file.hash) with the commit and branch it is filed under, so that the same
// bytes under another commit or branch are another run (a metric that never changes still builds
// a history), and under the same commit and branch the same run. A store written before this
// holds runs whose run_hash is file.hash alone: they keep it (their change ids and acks name it),
// and Store::add takes such a run with the same labels as this one.
std::string run_hash_of(const RunRecord& run);

// The runs table's row of `run`, added at `added_at` (its id is the store's to assign).
StoredRun stored_run_of(const RunRecord& run, std::string added_at);

// Reads RUNS and its meta file (read_run_meta_facts). Throws iobench::Error (exit 2) for a run
// file without its meta, a malformed row, or a run file with no row.
RunRecord load_run_record(const std::filesystem::path& runs_file, const Labels& given,
                          const EnvLookup& lookup);
// The same of a run held in memory (`run --history`, `bench --history`: the run just written);
// throws as load_run_record.
RunRecord run_record_of(const runfile::WrittenRun& run, const Labels& given,
                        const EnvLookup& lookup);

}  // namespace iobench::history
