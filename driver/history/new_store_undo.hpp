#pragma once
// A command that fails creates nothing (docs/history.md, "Adding runs"): `history add` makes an
// SQLite store, with its folders, only to keep it when the add succeeds.
#include <filesystem>
#include <vector>

#include "driver/history/location.hpp"

namespace iobench::history {

// Made before the store is opened; unless keep() is called, its destructor removes the SQLite file
// (and its -wal, -shm and -journal files) and the folders that were missing when it was made, the
// deepest first and only while empty. Nothing for a store that existed, or a server's, and nothing
// when the store holds a run by then: another `history add` that made it at the same moment and
// succeeded keeps what it stored.
class NewStoreUndo {
 public:
  explicit NewStoreUndo(const StoreLocation& location);
  ~NewStoreUndo();
  NewStoreUndo(const NewStoreUndo&) = delete;
  NewStoreUndo& operator=(const NewStoreUndo&) = delete;

  void keep() {
    files_.clear();
    folders_.clear();
  }

 private:
  StoreLocation location_;
  std::vector<std::filesystem::path> files_;    // to remove, when they were missing
  std::vector<std::filesystem::path> folders_;  // missing ones, the deepest first
};

}  // namespace iobench::history
