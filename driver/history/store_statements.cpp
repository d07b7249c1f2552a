#include "driver/history/store_statements.hpp"

#include <algorithm>
#include <span>
#include <type_traits>
#include <variant>

#include "driver/history/run_columns.hpp"

namespace iobench::history {
namespace {

using RunValue = AddStatements::RunValue;

// A field's value into the slot its type binds.
void set(RunValue& slot, const std::string& value) {
  slot.text = value;
}
void set(RunValue& slot, std::int64_t value) {
  slot.whole = value;
}
void set(RunValue& slot, double value) {
  slot.real = value;
}
template <typename T>
void set(RunValue& slot, const std::optional<T>& value) {
  slot.indicator = value ? soci::i_ok : soci::i_null;
  using Bound = std::conditional_t<std::is_same_v<T, bool>, std::int64_t, T>;  // a flag: 0 or 1
  if (value) set(slot, static_cast<Bound>(*value));
}

// The INSERT of run_columns(), each column bound to its slot of `values` (sized here).
soci::statement prepared_insert_run(soci::session& sql, std::vector<RunValue>& values,
                                    long long& id) {
  const std::span<const RunColumn> columns = run_columns();
  values.resize(static_cast<std::size_t>(std::count_if(
      columns.begin(), columns.end(), [](const RunColumn& c) { return !c.assigned_by_store(); })));
  soci::statement statement(sql);
  std::size_t i = 0;
  for (const RunColumn& column : columns) {
    if (column.assigned_by_store()) continue;
    RunValue& slot = values[i++];
    std::visit(
        [&](auto field) {
          using Field = std::remove_cvref_t<decltype(field(std::declval<StoredRun&>()))>;
          if constexpr (std::is_same_v<Field, std::string> ||
                        std::is_same_v<Field, std::optional<std::string>>) {
            statement.exchange(soci::use(slot.text, slot.indicator));
          } else if constexpr (std::is_same_v<Field, std::optional<double>>) {
            statement.exchange(soci::use(slot.real, slot.indicator));
          } else {
            statement.exchange(soci::use(slot.whole, slot.indicator));
          }
        },
        column.field);
  }
  statement.exchange(soci::into(id));
  statement.alloc();
  statement.prepare(runs_insert_sql());
  statement.define_and_bind();
  return statement;
}

// Runs `statement`, which returns one row (or none), to its end: a statement left on its row would
// be an SQLite statement still in progress at the COMMIT.
bool run_to_end(soci::statement& statement) {
  const bool got_row = statement.execute(true);
  if (got_row) {
    while (statement.fetch()) {
    }
  }
  return got_row;
}

}  // namespace

AddStatements::AddStatements(soci::session& sql)
    : find_run_((sql.prepare << "SELECT run_id, run_hash, commit_label, branch_label FROM runs"
                                " WHERE run_hash IN (:h, :file)",
                 soci::use(find_hash_), soci::use(find_file_hash_), soci::into(id_),
                 soci::into(found_hash_), soci::into(found_commit_, found_commit_null_),
                 soci::into(found_branch_, found_branch_null_))),
      insert_run_(prepared_insert_run(sql, run_, id_)),
      insert_series_(
          (sql.prepare << "INSERT INTO series (series_hash, test, input, sink, cache_mode,"
                          " counters, definition_hash, verified, input_identity, host_class,"
                          " tool, unit, direction) VALUES (:h, :test, :input, :sink, :cache,"
                          " :counters, :definition, :verified, :identity, :class, :tool, :unit,"
                          " :direction) RETURNING series_id",
           soci::use(series_.hash), soci::use(series_.key.test), soci::use(series_.key.input),
           soci::use(series_.key.sink), soci::use(series_.key.cache_mode),
           soci::use(series_.key.counters), soci::use(series_.key.definition_hash),
           soci::use(series_.verified), soci::use(series_.key.input_identity),
           soci::use(series_.key.host_class), soci::use(series_.key.tool),
           soci::use(series_.key.unit), soci::use(series_.key.direction), soci::into(id_))) {}

std::optional<std::int64_t> AddStatements::find_run(const RunRecord& run) {
  find_hash_ = run_hash_of(run);
  find_file_hash_ = run.file.hash;
  const auto label = [](const std::string& value, soci::indicator null) {
    return null == soci::i_ok ? std::optional<std::string>(value) : std::nullopt;
  };
  std::optional<std::int64_t> found;
  // Each row (two at most: run_hash is unique) is read to the end, so that the statement is not
  // left in progress at the COMMIT.
  for (bool row = find_run_.execute(true); row; row = find_run_.fetch()) {
    if (found_hash_ == find_hash_ ||
        (label(found_commit_, found_commit_null_) == run.labels.commit &&
         label(found_branch_, found_branch_null_) == run.labels.branch)) {
      found = id_;
    }
  }
  return found;
}

std::int64_t AddStatements::insert_run(StoredRun run) {
  std::size_t i = 0;
  for (const RunColumn& column : run_columns()) {
    if (column.assigned_by_store()) continue;
    std::visit([&](auto field) { set(run_[i++], field(run)); }, column.field);
  }
  run_to_end(insert_run_);
  return id_;
}

std::int64_t AddStatements::insert_series(const SeriesKey& key, const std::string& hash) {
  series_.hash = hash;
  series_.key = key;
  series_.verified = key.verified ? 1 : 0;
  run_to_end(insert_series_);
  return id_;
}

}  // namespace iobench::history
