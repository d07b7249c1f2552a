#include "driver/history/run_columns.hpp"

#include <fmt/format.h>

#include <array>

namespace iobench::history {
namespace {

// A column's field, as a function a table entry can hold: IOBENCH_RUN_FIELD(labels.commit).
#define IOBENCH_RUN_FIELD(member) ([](StoredRun & run) -> auto& { return run.member; })

// Version 1's columns are in the order its CREATE TABLE had them; each later version's come after,
// in the order its migration adds them. A new column goes last, with the next version.
const auto kRunColumns = std::to_array<RunColumn>({
    {"run_id", "{id}", 1, IOBENCH_RUN_FIELD(run_id)},
    {"run_hash", "TEXT NOT NULL UNIQUE", 1, IOBENCH_RUN_FIELD(run_hash)},
    {"added_at", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(added_at)},
    {"added_by", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(added_by)},
    {"commit_label", "TEXT", 1, IOBENCH_RUN_FIELD(labels.commit)},
    {"branch_label", "TEXT", 1, IOBENCH_RUN_FIELD(labels.branch)},
    {"measured_commit", "TEXT", 1, IOBENCH_RUN_FIELD(measured_commit)},
    {"measured_dirty", "INTEGER", 1, IOBENCH_RUN_FIELD(measured_dirty)},
    {"run_date", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(date)},
    {"config_name", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(config_name)},
    {"runs_file", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(runs_file)},
    {"host", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(host)},
    {"kernel", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(kernel)},
    {"cpu_model", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(cpu_model)},
    {"cpus_online", "INTEGER", 1, IOBENCH_RUN_FIELD(cpus_online)},
    {"memory_kib", "BIGINT", 1, IOBENCH_RUN_FIELD(memory_kib)},
    {"worker_build", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(worker_build)},
    {"worker_xxh3", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(worker_xxh3)},
    {"iobench_version", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(iobench_version)},
    {"iobench_build", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(iobench_build)},
    {"cache_mode", "TEXT NOT NULL", 1, IOBENCH_RUN_FIELD(cache_mode)},
    {"load_average_start", "DOUBLE PRECISION", 1, IOBENCH_RUN_FIELD(load_average_start)},
    {"load_average_end", "DOUBLE PRECISION", 1, IOBENCH_RUN_FIELD(load_average_end)},
    {"busy_cpus_start", "DOUBLE PRECISION", 1, IOBENCH_RUN_FIELD(busy_cpus_start)},
    {"row_count", "INTEGER NOT NULL", 1, IOBENCH_RUN_FIELD(row_count)},
    {"finished", "INTEGER", 1, IOBENCH_RUN_FIELD(finished)},
    // Version 2: other harnesses' results (docs/history.md, "Other harnesses").
    {"tool", "TEXT NOT NULL DEFAULT ''", 2, IOBENCH_RUN_FIELD(tool)},
    {"conditions", "TEXT NOT NULL DEFAULT ''", 2, IOBENCH_RUN_FIELD(conditions)},
    {"context", "TEXT", 2, IOBENCH_RUN_FIELD(context)},
});

#undef IOBENCH_RUN_FIELD

}  // namespace

std::span<const RunColumn> run_columns() {
  return kRunColumns;
}

std::vector<std::string> runs_table_statements(int version) {
  std::vector<std::string> statements;
  std::vector<std::string> created;
  for (const RunColumn& column : kRunColumns) {
    if (column.since_version != version) continue;
    if (version == 1) {
      created.push_back(fmt::format("{} {}", column.name, column.sql_type));
    } else {
      statements.push_back(
          fmt::format("ALTER TABLE runs ADD COLUMN {} {}", column.name, column.sql_type));
    }
  }
  if (version == 1)
    statements.push_back(fmt::format("CREATE TABLE runs ({})", fmt::join(created, ", ")));
  return statements;
}

std::string runs_insert_sql() {
  std::vector<std::string> names;
  std::vector<std::string> marks;
  for (const RunColumn& column : kRunColumns) {
    if (column.assigned_by_store()) continue;
    names.emplace_back(column.name);
    marks.push_back(fmt::format(":c{}", marks.size() + 1));
  }
  return fmt::format("INSERT INTO runs ({}) VALUES ({}) RETURNING run_id", fmt::join(names, ", "),
                     fmt::join(marks, ", "));
}

std::string runs_select_sql() {
  std::vector<std::string_view> names;
  names.reserve(kRunColumns.size());
  for (const RunColumn& column : kRunColumns) names.push_back(column.name);
  return fmt::format("SELECT {} FROM runs ORDER BY run_id", fmt::join(names, ", "));
}

}  // namespace iobench::history
