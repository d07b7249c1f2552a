// Reading run files from disk (and the meta file beside each) for parse_runs.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::runfile {
namespace {

std::string read_whole_file(const std::filesystem::path& path) {
  std::string data;
  if (path == "-") {
    data.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return data;
  }
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw Error(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw Error(fmt::format("{}: is a folder, not a run file", path.string()));
  }
  // One read for a regular file (its size plus one byte to see the end), growing for pipes.
  data.resize(st.st_size > 0 ? static_cast<std::size_t>(st.st_size) + 1 : std::size_t{1} << 16);
  std::size_t filled = 0;
  try {
    for (;;) {
      if (filled == data.size()) data.resize(data.size() * 2);
      const std::size_t got = sys::read_some(fd.get(), data.data() + filled, data.size() - filled);
      if (got == 0) break;
      filled += got;
    }
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot read: {}", path.string(), e.code().message()));
  }
  data.resize(filled);
  return data;
}

}  // namespace

std::string cache_mode_from_meta(const std::filesystem::path& run_file) {
  if (run_file == "-") return "";
  try {
    const auto meta = runfile::read_meta_for(run_file);
    return meta ? meta->cache_mode() : "";
  } catch (const Error&) {
    return "";  // a meta file we cannot read only means the cache state is not checked
  }
}

RunSet read_runs(const std::vector<std::filesystem::path>& files, const ReadOptions& options) {
  if (files.empty()) throw Error("no run files given");
  std::vector<RunFileText> texts;
  texts.reserve(files.size());
  for (const auto& path : files) {
    texts.push_back({path == "-" ? "<stdin>" : path.string(), read_whole_file(path),
                     cache_mode_from_meta(path)});
  }
  return parse_runs(texts, options);
}

}  // namespace iobench::runfile
