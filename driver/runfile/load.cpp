// Reading run files from disk (and the meta file beside each) for parse_runs.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::results {
namespace {

std::string read_whole_file(const std::filesystem::path& path) {
  std::string data;
  if (path == "-") {
    data.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return data;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw Error(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error(fmt::format("{}: is a folder, not a run file", path.string()));
  }
  // One read for a regular file (its size plus one byte to see the end), growing for pipes.
  data.resize(st.st_size > 0 ? static_cast<std::size_t>(st.st_size) + 1 : std::size_t{1} << 16);
  std::size_t filled = 0;
  for (;;) {
    if (filled == data.size()) data.resize(data.size() * 2);
    const ssize_t got = ::read(fd, data.data() + filled, data.size() - filled);
    if (got < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw Error(fmt::format("{}: cannot read: {}", path.string(), std::strerror(err)));
    }
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  ::close(fd);
  data.resize(filled);
  return data;
}

}  // namespace

std::string cache_mode_from_meta(const std::filesystem::path& run_file) {
  if (run_file == "-") return "";
  const std::filesystem::path meta =
      run_file.parent_path() / "meta" / (run_file.stem().string() + ".json");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(meta, ec)) return "";
  try {
    const nlohmann::json json = nlohmann::json::parse(read_whole_file(meta));
    const auto config = json.find("config");
    if (config == json.end() || !config->is_object()) return "";
    const auto cache = config->find("cache");
    if (cache == config->end()) return "warm";  // the config's default
    return cache->is_string() ? cache->get<std::string>() : "";
  } catch (const std::exception&) {
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

}  // namespace iobench::results
