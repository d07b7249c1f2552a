#pragma once
// The files a `--op split` run writes (docs/workers.md): a fresh folder inside the run's private
// folder, given to the worker as its --prefix; after the run their hashes (in output order) are
// folded into the output hash, so the class comparison and the verification cover them, and the
// folder is removed.
#include <filesystem>
#include <string>
#include <vector>

#include "driver/run/sink.hpp"

namespace iobench::run {

class SplitFolder {
 public:
  // Without `used`, nothing: no folder, argv untouched.
  SplitFolder(bool used, const std::filesystem::path& parent, std::vector<std::string>& argv);
  SplitFolder(const SplitFolder&) = delete;
  SplitFolder& operator=(const SplitFolder&) = delete;
  ~SplitFolder();
  void fold_into(SinkResult& output) const;

 private:
  std::filesystem::path folder_;
};

}  // namespace iobench::run
