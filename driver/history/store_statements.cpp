#include "driver/history/store_statements.hpp"

namespace iobench::history {
namespace {

template <typename T>
std::optional<T> as_optional(const std::optional<bool>& flag) {
  return flag ? std::optional<T>(*flag ? 1 : 0) : std::nullopt;
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
    : find_run_((sql.prepare << "SELECT run_id FROM runs WHERE run_hash = :h",
                 soci::use(find_hash_), soci::into(id_, id_found_))),
      insert_run_(
          (sql.prepare
               << "INSERT INTO runs (run_hash, added_at, added_by, commit_label, branch_label,"
                  " measured_commit, measured_dirty, run_date, config_name, runs_file, host,"
                  " kernel, cpu_model, cpus_online, memory_kib, worker_build, worker_xxh3,"
                  " iobench_version, iobench_build, cache_mode, load_average_start,"
                  " load_average_end, busy_cpus_start, row_count, finished, tool, conditions,"
                  " context) VALUES (:hash,"
                  " :added_at, :added_by, :commit, :branch, :measured, :dirty, :date, :config,"
                  " :file, :host, :kernel, :cpu, :cpus, :memory, :wbuild, :wxxh3, :version, :build,"
                  " :cache, :load_start, :load_end, :busy, :rows, :finished, :tool, :conditions,"
                  " :context) RETURNING run_id",
           soci::use(run_.hash), soci::use(run_.added_at), soci::use(run_.added_by),
           soci::use(run_.commit.value, run_.commit.indicator),
           soci::use(run_.branch.value, run_.branch.indicator),
           soci::use(run_.measured.value, run_.measured.indicator),
           soci::use(run_.dirty.value, run_.dirty.indicator), soci::use(run_.date),
           soci::use(run_.config), soci::use(run_.file), soci::use(run_.host),
           soci::use(run_.kernel), soci::use(run_.cpu),
           soci::use(run_.cpus.value, run_.cpus.indicator),
           soci::use(run_.memory.value, run_.memory.indicator), soci::use(run_.worker_build),
           soci::use(run_.worker_xxh3), soci::use(run_.version), soci::use(run_.build),
           soci::use(run_.cache), soci::use(run_.load_start.value, run_.load_start.indicator),
           soci::use(run_.load_end.value, run_.load_end.indicator),
           soci::use(run_.busy.value, run_.busy.indicator), soci::use(run_.rows),
           soci::use(run_.finished.value, run_.finished.indicator), soci::use(run_.tool),
           soci::use(run_.conditions), soci::use(run_.context.value, run_.context.indicator),
           soci::into(id_))),
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

std::optional<std::int64_t> AddStatements::find_run(const std::string& run_hash) {
  find_hash_ = run_hash;
  id_found_ = soci::i_null;
  // The row's values stay as fetched: SOCI leaves them alone when a fetch finds no more.
  if (!run_to_end(find_run_) || id_found_ != soci::i_ok) return std::nullopt;
  return id_;
}

std::int64_t AddStatements::insert_run(const RunRecord& run, const std::string& added_at) {
  const RunMetaFacts& f = run.facts;
  run_.hash = run.file.hash;
  run_.added_at = added_at;
  run_.added_by = run.added_by;
  run_.commit = run.labels.commit;
  run_.branch = run.labels.branch;
  run_.measured = f.measured_commit;
  run_.dirty = as_optional<int>(f.measured_dirty);
  run_.date = f.date;
  run_.config = f.config_name;
  run_.file = run.runs_file;
  run_.host = f.host;
  run_.kernel = f.kernel;
  run_.cpu = f.cpu_model;
  run_.cpus = f.cpus_online ? std::optional<long long>(*f.cpus_online) : std::nullopt;
  run_.memory = f.memory_kib ? std::optional<long long>(*f.memory_kib) : std::nullopt;
  run_.worker_build = f.worker_build;
  run_.worker_xxh3 = f.worker_xxh3;
  run_.version = f.iobench_version;
  run_.build = f.iobench_build;
  run_.cache = f.cache_mode;
  run_.load_start = f.load_average_start;
  run_.load_end = f.load_average_end;
  run_.busy = f.busy_cpus_start;
  run_.rows = static_cast<long long>(run.file.rows.size());
  run_.finished = as_optional<int>(f.finished);
  run_.tool = run.tool;
  run_.conditions = run.conditions;
  run_.context = run.tool.empty() ? std::nullopt : std::optional<std::string>(run.context);
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
