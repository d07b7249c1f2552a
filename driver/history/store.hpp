#pragma once
// The history store (docs/history.md): SQLite or PostgreSQL through SOCI, one SQL text for both.
// Each add is one transaction: its runs are stored whole or not at all, and each once (by the hash
// of its bytes), however many runners add at the same moment (SQLite: WAL and a busy timeout,
// writers in turn; PostgreSQL: an advisory lock per transaction).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "driver/history/location.hpp"
#include "driver/history/model.hpp"
#include "driver/history/rename.hpp"
#include "driver/history/run_record.hpp"

namespace iobench::history {

enum class OpenMode {
  kCreate,    // an SQLite file (and its folders) is made when missing
  kExisting,  // a missing SQLite file is an error: nothing to read
  kReadOnly,  // kExisting, opened read-only: never written, made or migrated (reading commands)
};

struct AddOutcome {
  bool stored = false;  // false: this run was already in the store
  std::int64_t run_id = 0;
  std::size_t rows = 0;
  std::size_t new_series = 0;
};

struct PruneOutcome {
  std::size_t samples_removed = 0;
  std::size_t runs_removed = 0;
};

class Store {
 public:
  // Connects, refuses a store from a newer schema and migrates an older one. Throws
  // iobench::Error (exit 2) with one line naming the store: a server that refuses, a file that is
  // not a store, a newer schema.
  Store(const StoreLocation& location, OpenMode mode);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  [[nodiscard]] const StoreLocation& location() const;
  [[nodiscard]] int schema_version() const;

  // Adds one run in a transaction of its own.
  AddOutcome add(const RunRecord& run);
  // The runs to add, one a call, in order; nullptr when there are no more.
  using NextRun = std::function<const RunRecord*()>;
  // Told of each run once it is stored in the transaction (not yet committed).
  using RunStored = std::function<void(const RunRecord&, const AddOutcome&)>;
  // Adds every run `next` hands out in one transaction, committed after the last: a throw from
  // `next`, `stored` or the store rolls back every one (docs/history.md, "Adding runs"). A run
  // given twice is stored once, the second "already" in the store.
  void add_all(const NextRun& next, const RunStored& stored);
  [[nodiscard]] HistoryData load();
  // Records (or replaces) the acknowledgement of ack.change_id.
  void acknowledge(const Ack& ack);
  // Keeps the newest `keep` runs of each series; a run with no row left goes too.
  PruneOutcome prune(std::size_t keep);
  // Records (or replaces) that rename.old_hash continues as rename.new_hash (store_rename.cpp).
  void rename_series(const SeriesRename& rename);
  // Every rename recorded, oldest first; none in a store never renamed (nothing is created).
  [[nodiscard]] std::vector<SeriesRename> renames();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace iobench::history
