// Store::add and add_all: the runs of one add, whole, in one transaction (docs/history.md,
// "Adding runs").
#include <fmt/format.h>

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

// A value and its indicator, for SOCI's one-row binds of what may be NULL.
template <typename T>
struct Nullable {
  T value{};
  soci::indicator indicator = soci::i_null;
  Nullable() = default;
  explicit Nullable(const std::optional<T>& optional) {
    if (optional) {
      value = *optional;
      indicator = soci::i_ok;
    }
  }
};

std::int64_t insert_run(Store::Impl& impl, const RunRecord& run) {
  const RunMetaFacts& f = run.facts;
  Nullable<std::string> commit(run.labels.commit);
  Nullable<std::string> branch(run.labels.branch);
  Nullable<std::string> measured(f.measured_commit);
  Nullable<int> dirty(f.measured_dirty ? std::optional<int>(*f.measured_dirty ? 1 : 0)
                                       : std::nullopt);
  Nullable<long long> cpus(f.cpus_online ? std::optional<long long>(*f.cpus_online) : std::nullopt);
  Nullable<long long> memory(f.memory_kib ? std::optional<long long>(*f.memory_kib) : std::nullopt);
  Nullable<double> load_start(f.load_average_start);
  Nullable<double> load_end(f.load_average_end);
  Nullable<double> busy(f.busy_cpus_start);
  Nullable<int> finished(f.finished ? std::optional<int>(*f.finished ? 1 : 0) : std::nullopt);
  const std::string added_at = utc_now();
  const long long rows = static_cast<long long>(run.file.rows.size());
  long long run_id = 0;
  impl.sql << "INSERT INTO runs (run_hash, added_at, added_by, commit_label, branch_label,"
              " measured_commit, measured_dirty, run_date, config_name, runs_file, host, kernel,"
              " cpu_model, cpus_online, memory_kib, worker_build, worker_xxh3, iobench_version,"
              " iobench_build, cache_mode, load_average_start, load_average_end, busy_cpus_start,"
              " row_count, finished) VALUES (:hash, :added_at, :added_by, :commit, :branch,"
              " :measured, :dirty, :date, :config, :file, :host, :kernel, :cpu, :cpus, :memory,"
              " :wbuild, :wxxh3, :version, :build, :cache, :load_start, :load_end, :busy, :rows,"
              " :finished) RETURNING run_id",
      soci::use(run.file.hash), soci::use(added_at), soci::use(run.added_by),
      soci::use(commit.value, commit.indicator), soci::use(branch.value, branch.indicator),
      soci::use(measured.value, measured.indicator), soci::use(dirty.value, dirty.indicator),
      soci::use(f.date), soci::use(f.config_name), soci::use(run.runs_file), soci::use(f.host),
      soci::use(f.kernel), soci::use(f.cpu_model), soci::use(cpus.value, cpus.indicator),
      soci::use(memory.value, memory.indicator), soci::use(f.worker_build),
      soci::use(f.worker_xxh3), soci::use(f.iobench_version), soci::use(f.iobench_build),
      soci::use(f.cache_mode), soci::use(load_start.value, load_start.indicator),
      soci::use(load_end.value, load_end.indicator), soci::use(busy.value, busy.indicator),
      soci::use(rows), soci::use(finished.value, finished.indicator), soci::into(run_id);
  return run_id;
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

std::int64_t insert_series(Store::Impl& impl, const SeriesKey& key, const std::string& hash) {
  long long id = 0;
  const int verified = key.verified ? 1 : 0;
  impl.sql << "INSERT INTO series (series_hash, test, input, sink, cache_mode, counters,"
              " definition_hash, verified, input_identity, host_class) VALUES (:h, :test, :input,"
              " :sink, :cache, :counters, :definition, :verified, :identity, :class)"
              " RETURNING series_id",
      soci::use(hash), soci::use(key.test), soci::use(key.input), soci::use(key.sink),
      soci::use(key.cache_mode), soci::use(key.counters), soci::use(key.definition_hash),
      soci::use(verified), soci::use(key.input_identity), soci::use(key.host_class), soci::into(id);
  return id;
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
  void add(std::int64_t run, std::int64_t series, const RunRow& row, const std::string& run_host);
};

void SampleColumns::add(std::int64_t run, std::int64_t series, const RunRow& row,
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
  minflt.push_back(row.minflt);
  majflt.push_back(row.majflt);
  nvcsw.push_back(row.nvcsw);
  nivcsw.push_back(row.nivcsw);
  inblock.push_back(row.inblock);
  oublock.push_back(row.oublock);
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
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    const auto& value = row.counters[c];
    push(counters[c], counters_null[c],
         value ? std::optional<long long>(static_cast<long long>(*value)) : std::nullopt);
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

std::string counter_list(const std::vector<Counter>& counters) {
  std::vector<std::string_view> names;
  names.reserve(counters.size());
  for (const Counter c : counters) names.push_back(column_name(c));
  return fmt::format("{}", fmt::join(names, ","));
}

// Adds `run` in the transaction open; `ids` holds the ids of the series this transaction made
// or looked up, so that a later run of the same add finds them without a query.
AddOutcome add_in_transaction(Store::Impl& impl, const RunRecord& run,
                              std::unordered_map<std::string, std::int64_t>& ids) {
  AddOutcome outcome;
  long long existing = 0;
  soci::indicator found = soci::i_null;
  impl.sql << "SELECT run_id FROM runs WHERE run_hash = :h", soci::use(run.file.hash),
      soci::into(existing, found);
  if (impl.sql.got_data() && found == soci::i_ok) {
    outcome.run_id = existing;
    return outcome;
  }
  outcome.stored = true;
  outcome.run_id = insert_run(impl, run);
  SeriesIdentity identity(run.facts, counter_list(run.file.counters), &impl.config_memo);
  std::vector<const SeriesKey*> row_keys;
  std::unordered_map<const SeriesKey*, std::string> hashes;  // once a cell, not once a row
  std::vector<std::string> unseen;
  for (const RunRow& row : run.file.rows) {
    row_keys.push_back(&identity.key(row.test, row.input, row.sink));
    const auto [entry, made] = hashes.try_emplace(row_keys.back());
    if (!made) continue;
    entry->second = row_keys.back()->hash();
    if (ids.contains(entry->second)) continue;
    const auto committed = impl.committed_series.find(entry->second);
    if (committed == impl.committed_series.end()) {
      unseen.push_back(entry->second);
    } else {
      ids.insert(*committed);
    }
  }
  ids.merge(stored_series_ids(impl, unseen));
  SampleColumns columns;
  for (std::size_t i = 0; i < run.file.rows.size(); ++i) {
    const std::string& hash = hashes[row_keys[i]];
    auto it = ids.find(hash);
    if (it == ids.end()) {  // made in the order of the rows, as before
      it = ids.emplace(hash, insert_series(impl, *row_keys[i], hash)).first;
      ++outcome.new_series;
    }
    columns.add(outcome.run_id, it->second, run.file.rows[i], run.facts.host);
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
