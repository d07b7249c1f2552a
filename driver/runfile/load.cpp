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
  for (const RunFileText& file : files) {
    views.push_back({file.name, file.text, file.cache_mode, file.meta});
  }
  return parse_run_views(views, options);
}

RunSet parse_runs(std::string_view text, std::string name, const ReadOptions& options) {
  return parse_run_views({{std::move(name), text, ""}}, options);
}

namespace {

// The meta file beside a run file; none for stdin, or when it cannot be read (which only means
// its conditions are unknown and its cache state not checked).
std::optional<RunMeta> meta_or_none(const std::filesystem::path& run_file) {
  if (run_file == "-") return std::nullopt;
  try {
    return runfile::read_meta_for(run_file);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// The files' bytes and meta files, kept while their views are parsed.
struct LoadedRunFiles {
  std::vector<RunFileData> data;
  std::vector<std::optional<RunMeta>> metas;
  std::vector<RunFileView> views;
};

void load_into(const std::vector<std::filesystem::path>& files, LoadedRunFiles& out) {
  for (const auto& path : files) {
    out.data.push_back(load_run_file(path));
    out.metas.push_back(meta_or_none(path));
  }
}

// The views of files [first, first + count) once every file is loaded (the vectors stay put).
std::vector<RunFileView> views_of(const std::vector<std::filesystem::path>& files,
                                  const LoadedRunFiles& loaded, std::size_t first) {
  std::vector<RunFileView> views;
  views.reserve(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& meta = loaded.metas[first + i];
    views.push_back({files[i] == "-" ? "<stdin>" : files[i].string(), loaded.data[first + i].text(),
                     meta ? meta->cache_mode() : std::string(), meta ? &*meta : nullptr});
  }
  return views;
}

}  // namespace

std::string cache_mode_from_meta(const std::filesystem::path& run_file) {
  const auto meta = meta_or_none(run_file);
  return meta ? meta->cache_mode() : "";
}

RunSet read_runs(const std::vector<std::filesystem::path>& files, const ReadOptions& options) {
  if (files.empty()) throw Error("no run files given");
  LoadedRunFiles loaded;
  load_into(files, loaded);
  return parse_run_views(views_of(files, loaded, 0), options);
}

std::vector<RunSet> read_run_sides(const std::vector<std::vector<std::filesystem::path>>& sides,
                                   const ReadOptions& options) {
  LoadedRunFiles loaded;
  for (const auto& side : sides) load_into(side, loaded);
  std::vector<std::vector<RunFileView>> views;
  std::size_t first = 0;
  for (const auto& side : sides) {
    views.push_back(views_of(side, loaded, first));
    first += side.size();
  }
  return parse_run_sides(views, options);
}

}  // namespace iobench::runfile
