#include "driver/history/store.hpp"

#include <fmt/format.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <filesystem>

#include "common/error.hpp"
#include "driver/history/store_impl.hpp"
#include "driver/history/timeline.hpp"

namespace iobench::history {
namespace {

// Gives the pruned pages back (docs/history.md, "Living with it"), outside any transaction, as both
// backends require. SQLite rewrites the file without them and truncates it once the log is
// copied back; PostgreSQL's plain VACUUM makes their space reusable by the next adds, without
// the exclusive lock of VACUUM FULL (the file shrinks only where the freed pages are at its end).
void vacuum(Store::Impl& impl) {
  if (impl.location.backend == Backend::kSqlite) {
    impl.sql << "VACUUM";
    impl.sql << "PRAGMA wal_checkpoint(TRUNCATE)";
    return;
  }
  for (const std::string_view table : {"samples", "runs", "acks"}) {
    impl.sql << fmt::format("VACUUM {}", table);
  }
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string line;
  bool space = false;
  for (const char c : text) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
  }
  return line;
}

void rethrow_as_store_error(const StoreLocation& location, std::string_view doing) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(
        fmt::format("{}: {}: {}", location.display, doing, redact_passwords(one_line(e.what()))));
  }
}

Store::Store(const StoreLocation& location, OpenMode mode) : impl_(std::make_unique<Impl>()) {
  impl_->location = location;
  try {
    open_store(*impl_, mode);
  } catch (...) {
    rethrow_as_store_error(location, "cannot open the history store");
  }
}

Store::~Store() = default;

const StoreLocation& Store::location() const {
  return impl_->location;
}

int Store::schema_version() const {
  return impl_->version;
}

void Store::acknowledge(const Ack& ack) {
  try {
    impl_->write([&] {
      impl_->sql << "DELETE FROM acks WHERE change_id = :c", soci::use(ack.change_id);
      impl_->sql << "INSERT INTO acks (change_id, series_hash, run_hash, why, who, acked_at)"
                    " VALUES (:c, :s, :r, :why, :who, :at)",
          soci::use(ack.change_id), soci::use(ack.series_hash), soci::use(ack.run_hash),
          soci::use(ack.why), soci::use(ack.who), soci::use(ack.acked_at);
    });
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot record the acknowledgement");
  }
}

PruneOutcome Store::prune(std::size_t keep) {
  try {
    const PruneOutcome pruned = impl_->write([&] {
      const HistoryData data = load();
      std::vector<long long> series_ids;
      std::vector<long long> run_ids;
      PruneOutcome outcome;
      for (const Timeline& timeline : build_timelines(data)) {
        if (timeline.points.size() <= keep) continue;
        for (std::size_t i = 0; i + keep < timeline.points.size(); ++i) {
          series_ids.push_back(timeline.series->series_id);
          run_ids.push_back(timeline.points[i].run->run_id);
          outcome.samples_removed += timeline.points[i].samples.size();
        }
      }
      if (!series_ids.empty()) {
        impl_->sql << "DELETE FROM samples WHERE series_id = :s AND run_id = :r",
            soci::use(series_ids), soci::use(run_ids);
      }
      long long runs_before = 0;
      long long runs_after = 0;
      impl_->sql << "SELECT COUNT(*) FROM runs", soci::into(runs_before);
      impl_->sql << "DELETE FROM runs WHERE NOT EXISTS"
                    " (SELECT 1 FROM samples WHERE samples.run_id = runs.run_id)";
      impl_->sql << "DELETE FROM acks WHERE run_hash NOT IN (SELECT run_hash FROM runs)";
      impl_->sql << "SELECT COUNT(*) FROM runs", soci::into(runs_after);
      outcome.runs_removed = static_cast<std::size_t>(runs_before - runs_after);
      return outcome;
    });
    if (pruned.samples_removed > 0 || pruned.runs_removed > 0) vacuum(*impl_);
    return pruned;
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot prune");
  }
}

}  // namespace iobench::history
