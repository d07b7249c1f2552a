#pragma once
// One run file as `history add` stores it: its rows, its meta file's facts and its labels.
#include <filesystem>
#include <string>

#include "driver/history/location.hpp"
#include "driver/history/model.hpp"
#include "driver/history/run_file.hpp"
#include "driver/history/run_meta_facts.hpp"

namespace iobench::history {

struct RunRecord {
  std::string runs_file;
  RunFileRows file;
  RunMetaFacts facts;
  Labels labels;
  std::string added_by;
};

// The labels a run is filed under: each given one (--commit, --branch), else CI's (GITHUB_SHA,
// CI_COMMIT_SHA; GITHUB_REF_NAME, CI_COMMIT_REF_NAME), else for the commit the measured one (the
// meta file's provenance); a branch may stay unknown.
Labels resolve_labels(const Labels& given, const EnvLookup& lookup,
                      const std::optional<std::string>& measured_commit);

// Who adds or acknowledges: GITHUB_ACTOR, GITLAB_USER_LOGIN, USER, LOGNAME, else the user id's
// name.
std::string current_user(const EnvLookup& lookup);
// Now, UTC, ISO 8601 to the second: "2026-01-31T12:00:00Z".
std::string utc_now();

// Reads RUNS and its meta file (read_run_meta_facts). Throws iobench::Error (exit 2) for a run
// file without its meta, a malformed row, or a run file with no row.
RunRecord load_run_record(const std::filesystem::path& runs_file, const Labels& given,
                          const EnvLookup& lookup);

}  // namespace iobench::history
