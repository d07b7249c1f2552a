#include "driver/history/new_store_undo.hpp"

#include <exception>
#include <system_error>

#include "driver/history/store.hpp"

namespace iobench::history {

namespace fs = std::filesystem;

NewStoreUndo::NewStoreUndo(const StoreLocation& location) : location_(location) {
  if (location.backend != Backend::kSqlite) return;
  const fs::path& path = location.sqlite_path;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec))) return;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    fs::path file = path;
    file += suffix;
    if (!fs::exists(fs::symlink_status(file, ec))) files_.push_back(file);
  }
  for (fs::path folder = path.parent_path(); !folder.empty() && folder != folder.root_path();
       folder = folder.parent_path()) {
    if (fs::exists(fs::symlink_status(folder, ec))) break;
    folders_.push_back(folder);
  }
}

NewStoreUndo::~NewStoreUndo() {
  if (files_.empty()) return;
  try {
    if (fs::exists(location_.sqlite_path) &&
        !Store(location_, OpenMode::kReadOnly).load().runs.empty()) {
      return;  // another add stored runs in it meanwhile
    }
  } catch (const std::exception&) {
    // Not a store that can be read (half made): ours to remove.
  }
  std::error_code ec;
  for (const fs::path& file : files_) fs::remove(file, ec);
  for (const fs::path& folder : folders_) fs::remove(folder, ec);  // only an empty one goes
}

}  // namespace iobench::history
