// Store::rename_series and Store::renames: the series_renames table (docs/formats.md, "History
// store"), made by the first rename. Schema version 1 stays: an iobench that does not know the
// table reads the store as before, without the renames.
#include <fmt/format.h>

#include "driver/history/store_impl.hpp"

namespace iobench::history {
namespace {

constexpr const char* kCreateRenames =
    "CREATE TABLE IF NOT EXISTS series_renames (old_hash TEXT PRIMARY KEY,"
    " new_hash TEXT NOT NULL, who TEXT NOT NULL, renamed_at TEXT NOT NULL)";

bool has_renames_table(Store::Impl& impl) {
  long long tables = 0;
  const std::string name = "series_renames";
  impl.sql << impl.dialect->table_exists, soci::use(name), soci::into(tables);
  return tables != 0;
}

}  // namespace

void Store::rename_series(const SeriesRename& rename) {
  try {
    impl_->write([&] {
      impl_->sql << kCreateRenames;
      impl_->sql << "DELETE FROM series_renames WHERE old_hash = :o", soci::use(rename.old_hash);
      impl_->sql << "INSERT INTO series_renames (old_hash, new_hash, who, renamed_at)"
                    " VALUES (:o, :n, :who, :at)",
          soci::use(rename.old_hash), soci::use(rename.new_hash), soci::use(rename.who),
          soci::use(rename.renamed_at);
    });
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot record the rename");
  }
}

std::vector<SeriesRename> Store::renames() {
  try {
    std::vector<SeriesRename> renames;
    if (!has_renames_table(*impl_)) return renames;  // no rename yet; reading never makes it
    const soci::rowset<soci::row> rows =
        impl_->sql.prepare << "SELECT old_hash, new_hash, who, renamed_at FROM series_renames"
                              " ORDER BY renamed_at, old_hash";
    for (const soci::row& row : rows) {
      renames.push_back(SeriesRename{row.get<std::string>(0), row.get<std::string>(1),
                                     row.get<std::string>(2), row.get<std::string>(3)});
    }
    return renames;
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot read the renames");
  }
}

}  // namespace iobench::history
