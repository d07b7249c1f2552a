// Reading run files from disk (and the meta file beside each) for parse_runs and the row reader.
#include "driver/runfile/load.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <utility>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/read_file.hpp"
#include "common/sysio.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::runfile {

// Unmapped when the last RunFileData holding it goes.
struct MappedFile {
  void* address = MAP_FAILED;
  std::size_t size = 0;
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (address != MAP_FAILED) ::munmap(address, size);
  }
};

std::string_view RunFileData::text() const {
  return mapped ? std::string_view(static_cast<const char*>(mapped->address), mapped->size)
                : std::string_view(read);
}

RunFileData load_run_file(const std::filesystem::path& path) {
  RunFileData out;
  if (path == "-") {
    out.read.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return out;
  }
  const UniqueFd fd(sys::ops().open(path.c_str(), O_RDONLY | O_CLOEXEC, 0));
  if (!fd) throw Error(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  struct stat st {};
  const bool known = ::fstat(fd.get(), &st) == 0;
  if (known && S_ISDIR(st.st_mode)) {
    throw Error(fmt::format("{}: is a folder, not a run file", path.string()));
  }
  const std::size_t size = known && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) : 0;
  if (known && S_ISREG(st.st_mode) && size > 0) {
    auto mapped = std::make_unique<MappedFile>();
    mapped->address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
    mapped->size = size;
    if (mapped->address != MAP_FAILED) {
      out.mapped = std::move(mapped);
      return out;
    }
  }
  out.read = read_fd_bytes(fd.get(), size, path);
  return out;
}

RunSet parse_runs(const std::vector<RunFileText>& files, const ReadOptions& options) {
  std::vector<RunFileView> views;
  views.reserve(files.size());
  for (const RunFileText& file : files)
    views.push_back({file.name, file.text, file.cache_mode, file.filter});
  return parse_run_views(views, options);
}

RunSet parse_runs(std::string_view text, std::string name, const ReadOptions& options) {
  return parse_run_views({{std::move(name), text, ""}}, options);
}

MetaFacts meta_facts_for(const std::filesystem::path& run_file) {
  if (run_file == "-") return {};
  try {
    const auto meta = runfile::read_meta_for(run_file);
    if (!meta) return {};
    return {meta->cache_mode(), meta->options ? meta->options->filter : std::string()};
  } catch (const Error&) {
    return {};  // a meta file we cannot read only means the cache state is not checked
  }
}

RunSet read_runs(const std::vector<std::filesystem::path>& files, const ReadOptions& options) {
  if (files.empty()) throw Error("no run files given");
  std::vector<RunFileData> data;  // kept until parsed: the views point into it
  data.reserve(files.size());
  std::vector<RunFileView> views;
  views.reserve(files.size());
  for (const auto& path : files) {
    data.push_back(load_run_file(path));
    MetaFacts facts = meta_facts_for(path);
    views.push_back({path == "-" ? "<stdin>" : path.string(), data.back().text(),
                     std::move(facts.cache_mode), std::move(facts.filter)});
  }
  return parse_run_views(views, options);
}

}  // namespace iobench::runfile
