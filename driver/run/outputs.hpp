#pragma once
// Where a run's files go: the runs file (never overwritten), its medians and metadata beside it
// under medians/ and meta/, and a private folder for the run's temporary files.
#include <filesystem>
#include <string>
#include <string_view>

namespace iobench::run {

struct OutputPaths {
  std::filesystem::path runs;
  std::filesystem::path medians;
  std::filesystem::path meta;
  std::filesystem::path folder;
};

// requested_runs empty: results/<config_name>-<UTC stamp><name_suffix>.tsv (a free name; the
// suffix names a shard, "-shard-K-of-N", since the tasks of one array start in the same second).
// Throws iobench::Error (exit 2) when requested_runs exists.
OutputPaths choose_outputs(const std::filesystem::path& requested_runs,
                           const std::string& config_name, const std::string& name_suffix = "");

// Creates the folders of paths; throws iobench::Error (exit 2) when one cannot be made or written.
void make_output_folders(const OutputPaths& paths);

// A private (0700, mkdtemp) folder `name_prefix` + six random characters under `parent`, removed
// with everything in it at the end: the run's temporary files (file sinks, files a strategy
// writes besides stdout), bench's runs file when nothing asks for one. Throws iobench::Error
// (exit 2): "PARENT: cannot make a private folder for PURPOSE: REASON".
class PrivateFolder {
 public:
  explicit PrivateFolder(const std::filesystem::path& parent,
                         std::string_view name_prefix = ".sinks-",
                         std::string_view purpose = "file sinks");
  PrivateFolder(const PrivateFolder&) = delete;
  PrivateFolder& operator=(const PrivateFolder&) = delete;
  ~PrivateFolder();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace iobench::run
