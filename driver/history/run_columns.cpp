#include "driver/history/run_columns.hpp"

#include <fmt/format.h>

#include <array>

namespace iobench::history {
namespace {

// One column a line of the runs table, its field where the line's WHERE puts it.
#define IOBENCH_RUN_COLUMN(where, type, member, column, sql_type, since_version)   \
  {column, sql_type, since_version, [](StoredRun& run) -> type& {                  \
     return IOBENCH_RUNS_WHERE_##where(run.member, run.labels.member, run.member); \
   }},

const auto kRunColumns = std::to_array<RunColumn>({IOBENCH_RUNS_TABLE(IOBENCH_RUN_COLUMN)});

#undef IOBENCH_RUN_COLUMN

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
