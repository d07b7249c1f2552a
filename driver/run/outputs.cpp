#include "driver/run/outputs.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <system_error>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
  return text;
}

void make_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw Error(fmt::format("{}: cannot create results folder: {}", folder.string(), ec.message()));
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw Error(fmt::format("{}: results folder is not writable: {}", folder.string(),
                            std::strerror(errno)));
  }
}

}  // namespace

OutputPaths choose_outputs(const fs::path& requested_runs, const std::string& config_name,
                           const std::string& name_suffix) {
  OutputPaths paths;
  if (requested_runs.empty()) {
    paths.folder = "results";
    const std::string stem = fmt::format("{}-{}{}", config_name, utc_stamp(), name_suffix);
    paths.runs = paths.folder / (stem + ".tsv");
    for (int n = 2; fs::exists(paths.runs); ++n)
      paths.runs = paths.folder / fmt::format("{}-{}.tsv", stem, n);
  } else {
    paths.runs = requested_runs;
    paths.folder = paths.runs.has_parent_path() ? paths.runs.parent_path() : fs::path(".");
    if (fs::exists(paths.runs)) {
      throw Error(fmt::format("{}: exists; results are never overwritten (choose another -o)",
                              paths.runs.string()));
    }
  }
  paths.medians = runfile::medians_path_for(paths.runs);
  paths.meta = runfile::meta_path_for(paths.runs);
  return paths;
}

void make_output_folders(const OutputPaths& paths) {
  make_folder(paths.folder);
  make_folder(paths.medians.parent_path());
  make_folder(paths.meta.parent_path());
}

PrivateFolder::PrivateFolder(const fs::path& parent, std::string_view name_prefix,
                             std::string_view purpose) {
  std::string pattern = (parent / fmt::format("{}XXXXXX", name_prefix)).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(fmt::format("{}: cannot make a private folder for {}: {}", parent.string(), purpose,
                            std::strerror(errno)));
  }
  path_ = pattern;
}

PrivateFolder::~PrivateFolder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace iobench::run
