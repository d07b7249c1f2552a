#include "driver/run/split_folder.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <system_error>
#include <utility>

#include "common/hash.hpp"
#include "driver/config/plan.hpp"

namespace iobench::run {

namespace fs = std::filesystem;

SplitFolder::SplitFolder(bool used, const fs::path& parent, std::vector<std::string>& argv) {
  if (!used) return;
  static std::uint64_t next_folder = 0;
  folder_ = parent / fmt::format("split-{}", next_folder++);
  fs::create_directories(folder_);
  for (auto& arg : argv) {
    if (arg == config::kSplitPrefixPlaceholder) arg = (folder_ / "out-{}").string();
  }
}

SplitFolder::~SplitFolder() {
  std::error_code ec;
  if (!folder_.empty()) fs::remove_all(folder_, ec);
}

void SplitFolder::fold_into(SinkResult& output) const {
  if (folder_.empty() || output.hash.empty()) return;
  std::vector<std::pair<std::uint64_t, fs::path>> files;  // by output index, not by name
  for (const auto& entry : fs::directory_iterator(folder_)) {
    const std::string name = entry.path().filename().string();
    files.emplace_back(std::stoull(name.substr(name.find('-') + 1)), entry.path());
  }
  std::sort(files.begin(), files.end());
  StreamHash combined;
  combined.update(output.hash.data(), output.hash.size());
  for (const auto& [index, path] : files) {
    const std::string part = fmt::format("\n{}:{}", index, hash_file(path));
    combined.update(part.data(), part.size());
  }
  output.hash = combined.hex();
}

}  // namespace iobench::run
