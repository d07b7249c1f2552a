#pragma once
// The runs table of the history store (docs/formats.md, "History store"), one line a column, in
// the table's order: X(WHERE, TYPE, MEMBER, COLUMN, SQL_TYPE, SINCE_VERSION). The same lines make
// the member in the struct WHERE names (RunProvenance, Labels or StoredRun itself) and the column
// (run_columns.cpp: the DDL, the migration, the INSERT and the load), so a new column is one line
// here, with the next schema version; RunColumns.* round-trip every line through a real store.
// SQL_TYPE is as CREATE TABLE writes it ("{id}" is the dialect's key column); Version 1's columns
// are in the order its CREATE TABLE had them, and a later version's are added in their order here.
#include <cstdint>
#include <optional>
#include <string>

// WHERE:
// - PROVENANCE: what a run's meta file (or an imported result file) says of where and how it was
//   measured, read by `history add` (RunMetaFacts) and held by the store (StoredRun);
// - LABEL: what the run is filed under (Labels);
// - RUN: what the store and `history add` give the run itself (StoredRun).
#define IOBENCH_RUNS_TABLE(X)                                                                     \
  X(RUN, std::int64_t, run_id, "run_id", "{id}", 1)                                               \
  X(RUN, std::string, run_hash, "run_hash", "TEXT NOT NULL UNIQUE", 1)                            \
  X(RUN, std::string, added_at, "added_at", "TEXT NOT NULL", 1)                                   \
  X(RUN, std::string, added_by, "added_by", "TEXT NOT NULL", 1)                                   \
  X(LABEL, std::optional<std::string>, commit, "commit_label", "TEXT", 1)                         \
  X(LABEL, std::optional<std::string>, branch, "branch_label", "TEXT", 1)                         \
  /* absent outside a git repository */                                                           \
  X(PROVENANCE, std::optional<std::string>, measured_commit, "measured_commit", "TEXT", 1)        \
  X(PROVENANCE, std::optional<bool>, measured_dirty, "measured_dirty", "INTEGER", 1)              \
  /* UTC, ISO 8601: the runs' time axis */                                                        \
  X(PROVENANCE, std::string, date, "run_date", "TEXT NOT NULL", 1)                                \
  X(PROVENANCE, std::string, config_name, "config_name", "TEXT NOT NULL", 1)                      \
  X(RUN, std::string, runs_file, "runs_file", "TEXT NOT NULL", 1)                                 \
  X(PROVENANCE, std::string, host, "host", "TEXT NOT NULL", 1)                                    \
  X(PROVENANCE, std::string, kernel, "kernel", "TEXT NOT NULL", 1) /* "Linux 6.1.0-18-amd64" */   \
  X(PROVENANCE, std::string, cpu_model, "cpu_model", "TEXT NOT NULL", 1)                          \
  X(PROVENANCE, std::optional<std::int64_t>, cpus_online, "cpus_online", "INTEGER", 1)            \
  /* MemTotal; empty in meta files from before it was kept */                                     \
  X(PROVENANCE, std::optional<std::int64_t>, memory_kib, "memory_kib", "BIGINT", 1)               \
  X(PROVENANCE, std::string, worker_build, "worker_build", "TEXT NOT NULL", 1)                    \
  X(PROVENANCE, std::string, worker_xxh3, "worker_xxh3", "TEXT NOT NULL", 1)                      \
  X(PROVENANCE, std::string, iobench_version, "iobench_version", "TEXT NOT NULL", 1)              \
  X(PROVENANCE, std::string, iobench_build, "iobench_build", "TEXT NOT NULL", 1)                  \
  /* "warm", "cold", ...; "" for an import */                                                     \
  X(PROVENANCE, std::string, cache_mode, "cache_mode", "TEXT NOT NULL", 1)                        \
  X(PROVENANCE, std::optional<double>, load_average_start, "load_average_start",                  \
    "DOUBLE PRECISION", 1)                                                                        \
  X(PROVENANCE, std::optional<double>, load_average_end, "load_average_end", "DOUBLE PRECISION",  \
    1)                                                                                            \
  X(PROVENANCE, std::optional<double>, busy_cpus_start, "busy_cpus_start", "DOUBLE PRECISION", 1) \
  X(RUN, std::int64_t, row_count, "row_count", "INTEGER NOT NULL", 1) /* the run file's rows */   \
  /* absent from a run that died, and from an import */                                           \
  X(PROVENANCE, std::optional<bool>, finished, "finished", "INTEGER", 1)                          \
  /* Version 2: other harnesses' results (docs/history.md, "Other harnesses"). */                 \
  /* The harness that measured it: "" for iobench, "hyperfine", ... */                            \
  X(RUN, std::string, tool, "tool", "TEXT NOT NULL DEFAULT ''", 2)                                \
  /* An import's like-with-like conditions: "key=value; ..." ("" none) */                         \
  X(RUN, std::string, conditions, "conditions", "TEXT NOT NULL DEFAULT ''", 2)                    \
  /* An import's recorded context, JSON (absent for iobench's) */                                 \
  X(RUN, std::optional<std::string>, context, "context", "TEXT", 2)

// A line's piece by its WHERE: the first for PROVENANCE, the second for LABEL, the third for RUN.
#define IOBENCH_RUNS_WHERE_PROVENANCE(provenance, label, run) provenance
#define IOBENCH_RUNS_WHERE_LABEL(provenance, label, run) label
#define IOBENCH_RUNS_WHERE_RUN(provenance, label, run) run

// A line's member, declared in the struct its WHERE names and nowhere else.
#define IOBENCH_RUNS_PROVENANCE_MEMBER(where, type, member, ...) \
  IOBENCH_RUNS_WHERE_##where(type member{};, , )
#define IOBENCH_RUNS_LABEL_MEMBER(where, type, member, ...) \
  IOBENCH_RUNS_WHERE_##where(, type member{};, )
#define IOBENCH_RUNS_RUN_MEMBER(where, type, member, ...) \
  IOBENCH_RUNS_WHERE_##where(, , type member{};)
