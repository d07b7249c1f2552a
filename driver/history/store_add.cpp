// Store::add and add_all: the runs of one add, whole, in one transaction (docs/history.md,
// "Adding runs").
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "driver/history/store_impl.hpp"

namespace iobench::history {
namespace {

long long micros(double seconds) {
  return std::llround(seconds * 1e6);
}
int tenths(double percent) {
  return static_cast<int>(std::lround(percent * 10));
}

// The ids of the series of `hashes` the store has, in one query: a prepared statement a series
// costs SQLite a parse and PostgreSQL a round trip each (docs/history.md, "Performance"). The
// hashes are hex_hash64's 16 hex digits, safe as literals.
std::unordered_map<std::string, std::int64_t> stored_series_ids(
    Store::Impl& impl, const std::vector<std::string>& hashes) {
  std::unordered_map<std::string, std::int64_t> ids;
  if (hashes.empty()) return ids;
  std::string list;
  for (const std::string& hash : hashes) {
    list += fmt::format("{}'{}'", list.empty() ? "" : ", ", hash);
  }
  std::string hash;
  long long id = 0;
  soci::statement select =
      (impl.sql.prepare << fmt::format(
           "SELECT series_hash, series_id FROM series WHERE series_hash IN ({})", list),
       soci::into(hash), soci::into(id));
  select.execute();
  while (select.fetch()) ids.emplace(hash, id);
  return ids;
}

// The samples of one run as SOCI's bulk binds: one vector per column, an indicator vector for
// each column that may be NULL.
struct SampleColumns : SampleColumnVectors {
  template <typename T>
  static void push(std::vector<T>& values, std::vector<soci::indicator>& nulls,
                   const std::optional<T>& value) {
    values.push_back(value ? *value : T{});
    nulls.push_back(value ? soci::i_ok : soci::i_null);
  }
  void add(std::int64_t run, std::int64_t series, const runfile::RunRow& row,
           const std::string& run_host);
  // The columns only an imported row fills (NULL for iobench's own): its exact value, and a
  // summary's n and bounds.
  void add_imported(const runfile::RunRow& row, const ImportedRow* imported);
};

void SampleColumns::add_imported(const runfile::RunRow& row, const ImportedRow* imported) {
  push(value, value_null,
       imported != nullptr ? std::optional<double>(row.elapsed_s) : std::nullopt);
  const auto n = imported != nullptr ? imported->summary_n : std::nullopt;
  push(summary_n, summary_n_null, n ? std::optional<long long>(*n) : std::nullopt);
  push(summary_low, summary_low_null, imported != nullptr ? imported->summary_low : std::nullopt);
  push(summary_high, summary_high_null,
       imported != nullptr ? imported->summary_high : std::nullopt);
}

void SampleColumns::add(std::int64_t run, std::int64_t series, const runfile::RunRow& row,
                        const std::string& run_host) {
  run_id.push_back(run);
  series_id.push_back(series);
  repeat_no.push_back(row.repeat);
  status.push_back(static_cast<int>(row.status));
  push(exit_code, exit_code_null, row.exit_code);
  elapsed_us.push_back(micros(row.elapsed_s));
  user_us.push_back(micros(row.user_s));
  system_us.push_back(micros(row.system_s));
  cpu_pct_tenths.push_back(tenths(row.cpu_pct));
  max_rss_kib.push_back(row.max_rss_kib);
  // Every format `run` wrote has them; history add refuses a file without (run_file.hpp).
  minflt.push_back(row.minflt.value());
  majflt.push_back(row.majflt.value());
  nvcsw.push_back(row.nvcsw.value());
  nivcsw.push_back(row.nivcsw.value());
  inblock.push_back(row.inblock.value());
  oublock.push_back(row.oublock.value());
  push(bytes_out, bytes_out_null,
       row.bytes_out ? std::optional<long long>(static_cast<long long>(*row.bytes_out))
                     : std::nullopt);
  push(cache_pct_tenths, cache_pct_null,
       row.cache_pct ? std::optional<int>(tenths(*row.cache_pct)) : std::nullopt);
  std::optional<long long> hash;
  if (row.output_hash.size() == 16) {
    // The 64 bits of the hex digest, stored as a signed BIGINT of the same bits.
    hash = static_cast<long long>(std::stoull(row.output_hash, nullptr, 16));
  }
  push(output_hash, output_hash_null, hash);
  push(row_host, row_host_null,
       row.host == run_host ? std::nullopt : std::optional<std::string>(row.host));
  for (std::size_t c = 0; c < runfile::kCounterCount; ++c) {
    const auto& counted = row.counters[c];
    push(counters[c], counters_null[c],
         counted ? std::optional<long long>(static_cast<long long>(*counted)) : std::nullopt);
  }
  push(counted_pct, counted_pct_null,
       row.counted_pct ? std::optional<int>(tenths(*row.counted_pct)) : std::nullopt);
}

void insert_samples(Store::Impl& impl, SampleColumns& columns) {
  if (impl.location.backend == Backend::kPostgresql) {
    insert_samples_postgresql(impl.sql, columns);
  } else {
    insert_samples_sqlite(impl, columns);
  }
}

std::string counter_list(const std::vector<runfile::Counter>& counters) {
  std::vector<std::string_view> names;
  names.reserve(counters.size());
  for (const runfile::Counter c : counters) names.push_back(column_name(c));
  return fmt::format("{}", fmt::join(names, ","));
}

// The series identity of `run`'s rows, kept for the later runs measured alike.
SeriesIdentity& identity_of(Store::Impl& impl, const RunRecord& run) {
  const std::string counters = counter_list(run.file.counters);
  std::string context = SeriesIdentity::context_of(run.facts, counters);
  auto found = impl.identities.find(context);
  if (found == impl.identities.end()) {
    found = impl.identities.try_emplace(std::move(context), run.facts, counters, &impl.config_memo)
                .first;
  }
  return found->second;
}

// The series of each of an imported run's rows: the harness, the benchmark (test), the measure
// (sink), its unit and direction, on the machine the file names: the class its importer made of
// it, else the one iobench's runs get (docs/history.md, "Other harnesses").
std::vector<SeriesIdentity::Cell> imported_cells(const RunRecord& run) {
  std::vector<SeriesIdentity::Cell> cells;
  cells.reserve(run.file.rows.size());
  const std::string host_class = run.host_class.empty() ? host_class_of(run.facts) : run.host_class;
  for (std::size_t i = 0; i < run.file.rows.size(); ++i) {
    SeriesIdentity::Cell cell;
    cell.key.test = run.file.rows[i].test;
    cell.key.sink = run.file.rows[i].sink;
    cell.key.cache_mode = run.facts.cache_mode;
    cell.key.host_class = host_class;
    cell.key.tool = run.tool;
    cell.key.unit = run.imported[i].unit;
    cell.key.direction = run.imported[i].direction;
    cell.hash = cell.key.hash();
    cells.push_back(std::move(cell));
  }
  return cells;
}

// Adds `run` in the transaction open; `ids` holds the ids of the series this transaction made
// or looked up, so that a later run of the same add finds them without a query.
AddOutcome add_in_transaction(Store::Impl& impl, const RunRecord& run,
                              std::unordered_map<std::string, std::int64_t>& ids) {
  if (!impl.add_statements) impl.add_statements = std::make_unique<AddStatements>(impl.sql);
  AddStatements& statements = *impl.add_statements;
  AddOutcome outcome;
  if (const auto existing = statements.find_run(run)) {
    outcome.run_id = *existing;
    return outcome;
  }
  outcome.stored = true;
  outcome.run_id = statements.insert_run(stored_run_of(run, utc_now()));
  const bool imported = !run.tool.empty();
  SeriesIdentity* identity = imported ? nullptr : &identity_of(impl, run);
  const std::vector<SeriesIdentity::Cell> imported_rows =
      imported ? imported_cells(run) : std::vector<SeriesIdentity::Cell>();
  std::vector<const SeriesIdentity::Cell*> cells;
  cells.reserve(run.file.rows.size());
  std::vector<std::string> unseen;
  for (std::size_t r = 0; r < run.file.rows.size(); ++r) {
    const runfile::RunRow& row = run.file.rows[r];
    cells.push_back(imported ? &imported_rows[r] : &identity->cell(row.test, row.input, row.sink));
    const std::string& hash = cells.back()->hash;
    if (ids.contains(hash)) continue;
    if (const auto committed = impl.committed_series.find(hash);
        committed != impl.committed_series.end()) {
      ids.insert(*committed);
    } else if (std::find(unseen.begin(), unseen.end(), hash) == unseen.end()) {
      unseen.push_back(hash);
    }
  }
  ids.merge(stored_series_ids(impl, unseen));
  SampleColumns columns;
  for (std::size_t i = 0; i < run.file.rows.size(); ++i) {
    auto it = ids.find(cells[i]->hash);
    if (it == ids.end()) {  // made in the order of the rows, as before
      it = ids.emplace(cells[i]->hash, statements.insert_series(cells[i]->key, cells[i]->hash))
               .first;
      ++outcome.new_series;
    }
    columns.add(outcome.run_id, it->second, run.file.rows[i], run.facts.host);
    columns.add_imported(run.file.rows[i], imported ? &run.imported[i] : nullptr);
  }
  insert_samples(impl, columns);
  outcome.rows = run.file.rows.size();
  return outcome;
}

}  // namespace

AddOutcome Store::add(const RunRecord& run) {
  AddOutcome outcome;
  bool handed = false;
  add_all([&]() -> const RunRecord* { return std::exchange(handed, true) ? nullptr : &run; },
          [&](const RunRecord&, const AddOutcome& stored) { outcome = stored; });
  return outcome;
}

void Store::add_all(const NextRun& next, const RunStored& stored) {
  const RunRecord* run = nullptr;
  try {
    std::unordered_map<std::string, std::int64_t> ids;
    impl_->write([&] {
      for (;;) {
        run = nullptr;  // a failure in `next` is not the last run's
        run = next();
        if (run == nullptr) break;
        stored(*run, add_in_transaction(*impl_, *run, ids));
      }
      run = nullptr;
    });
    impl_->committed_series.merge(ids);  // only once committed: a rolled-back series is no series
  } catch (...) {
    rethrow_as_store_error(impl_->location, run != nullptr
                                                ? fmt::format("cannot add {}", run->runs_file)
                                                : std::string("cannot add the runs"));
  }
}

}  // namespace iobench::history
