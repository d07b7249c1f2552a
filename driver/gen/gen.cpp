// `iobench gen` and a config input's "generate": the kinds, their validation, and the way every
// kind is written (big blocks into a temporary name beside the target, renamed at the end,
// optionally through `gzip -n`).
#include "driver/gen/gen.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/child_process.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "driver/gen/detail.hpp"
#include "driver/gen/interrupt.hpp"

namespace iobench::gen {
namespace detail {

std::string string_option(const GenRequest& request, std::string_view name,
                          std::string_view fallback) {
  const auto it = request.options.find(name);
  if (it == request.options.end()) return std::string(fallback);
  if (!it->is_string()) {
    throw Error("option " + std::string(name) + " must be a string, not " +
                std::string(it->type_name()));
  }
  return it->get<std::string>();
}

std::uint64_t uint_option(const GenRequest& request, std::string_view name, std::uint64_t fallback,
                          std::uint64_t min, std::uint64_t max) {
  const auto it = request.options.find(name);
  if (it == request.options.end()) return fallback;
  std::uint64_t value = 0;
  bool ok = false;
  if (it->is_number_integer() && (it->is_number_unsigned() || it->get<std::int64_t>() >= 0)) {
    value = it->get<std::uint64_t>();
    ok = true;
  } else if (it->is_string()) {
    const auto text = it->get<std::string>();
    ok = !text.empty() && text.size() < 20 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (ok) value = std::stoull(text);
  }
  if (!ok || value < min || value > max) {
    throw Error("option " + std::string(name) + " must be a whole number from " +
                std::to_string(min) + " to " + std::to_string(max) + ", not " + it->dump());
  }
  return value;
}

}  // namespace detail

namespace {

using detail::BlockWriter;

struct Kind {
  std::string_view name;
  std::vector<std::string_view> options;  // the kind's own option names (config spelling)
  bool folder;                            // writes a folder rather than a file
  void (*validate)(const GenRequest&);
  void (*write_file)(const GenRequest&, BlockWriter&);
  void (*write_folder)(const GenRequest&, const std::filesystem::path&);
};

const std::vector<Kind>& kind_table() {
  static const std::vector<Kind> table{
      {"ngram", {"compress"}, false, &detail::validate_ngram, &detail::write_ngram, nullptr},
      {"lines",
       {"line_length", "compress"},
       false,
       &detail::validate_lines,
       &detail::write_lines,
       nullptr},
      {"edge", {}, true, &detail::validate_edge, nullptr, &detail::write_edge},
      {"fastq",
       {"read_length", "compress"},
       false,
       &detail::validate_fastq,
       &detail::write_fastq,
       nullptr},
  };
  return table;
}

std::string join(const std::vector<std::string_view>& names) {
  std::string text;
  for (const auto& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

const Kind& find_kind(const std::string& name) {
  for (const auto& kind : kind_table()) {
    if (kind.name == name) return kind;
  }
  std::vector<std::string_view> names;
  for (const auto& kind : kind_table()) names.push_back(kind.name);
  throw Error("kind '" + name + "' is not known (kinds: " + join(names) + ")");
}

// The keys a config's "generate" object holds besides the kind's own options; tolerated in
// `options` so a caller may pass the whole object.
bool is_request_field(const std::string& key) {
  return key == "kind" || key == "size" || key == "seed";
}

// Compression applied to the bytes of a file kind: nothing, or gzip without name and time stamp
// (so the compressed bytes are deterministic too) at level 1: on random bases gzip's default level
// is about 8x slower for files only 15% smaller.
std::vector<std::string> compressor_argv(const GenRequest& request) {
  const std::string compress = detail::string_option(request, "compress", "none");
  if (compress == "none") return {};
  if (compress == "gzip") return {"gzip", "-1", "-n", "-c"};
  throw Error("compress '" + compress + "' is not known (use gzip or none)");
}

[[noreturn]] void throw_io(const std::string& what, const std::filesystem::path& path, int err) {
  throw Error("cannot " + what + " '" + path.string() + "': " + std::strerror(err));
}

// A new folder under a fresh hidden name beside `out` (mkdtemp: never one planted there).
std::filesystem::path make_temp_folder_beside(const std::filesystem::path& out) {
  std::string name = ".";
  name += out.filename().string();
  name += ".tmp.XXXXXX";
  std::string pattern = (out.parent_path() / name).string();
  if (::mkdtemp(pattern.data()) == nullptr) throw_io("create a folder beside", out, errno);
  ::chmod(pattern.c_str(), 0755);  // mkdtemp makes 0700; the corpus is as readable as a file kind
  return pattern;
}

// Blocks SIGPIPE in this thread while we write into a compressor's pipe, so a compressor that dies
// shows up as EPIPE (and its exit status) rather than killing the driver.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, &saved_);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;
  ~SigpipeBlock() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    const timespec zero{0, 0};
    while (sigtimedwait(&set, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
  }

 private:
  sigset_t saved_{};
};

// Starts argv with stdin from a new pipe, whose write end goes to pipe_write, and stdout to out_fd.
child::Helper spawn_compressor(const std::vector<std::string>& argv, int out_fd,
                               UniqueFd& pipe_write) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw Error(std::string("cannot make a pipe: ") + strerror(errno));
  UniqueFd read_end(fds[0]);
  pipe_write.reset(fds[1]);
  return child::Helper(argv, boost::process::v2::process_stdio{read_end.get(), out_fd, {}});
}

// Streams a file kind into `file`, through the compressor when asked; the caller commits it.
void write_file_kind(const Kind& kind, const GenRequest& request, const AtomicFile& file) {
  const std::filesystem::path& temp = file.temp_path();
  const auto compressor = compressor_argv(request);
  if (compressor.empty()) {
    BlockWriter out(file.fd());
    try {
      kind.write_file(request, out);
      out.flush();
    } catch (const std::system_error& e) {
      throw_io("write", temp, e.code().value());
    }
  } else {
    SigpipeBlock block_sigpipe;
    UniqueFd pipe_write;
    child::Helper compressor_process = spawn_compressor(compressor, file.fd(), pipe_write);
    int write_error = 0;
    try {
      BlockWriter out(pipe_write.get());
      kind.write_file(request, out);
      out.flush();
    } catch (const std::system_error& e) {
      write_error = e.code().value();
    } catch (...) {
      pipe_write.reset();
      compressor_process.wait();
      throw;
    }
    pipe_write.reset();
    const int status = compressor_process.wait();
    if (status != 0) {
      throw Error("'" + compressor[0] + "' failed (exit status " + std::to_string(status) +
                  ") while writing '" + temp.string() + "'");
    }
    if (write_error != 0) throw_io("write", temp, write_error);
  }
}

// Whether `folder` may take the corpus: an empty folder (made for it, `mkdir corpus`) or an edge
// corpus we wrote before. A folder holding anything else is the user's, never replaced.
bool may_take_corpus(const std::filesystem::path& folder) {
  std::error_code ec;
  return std::filesystem::is_directory(folder, ec) &&
         (std::filesystem::is_empty(folder, ec) ||
          std::filesystem::is_regular_file(folder / detail::kEdgeManifest, ec));
}

}  // namespace

std::vector<std::string> kinds() {
  std::vector<std::string> names;
  for (const auto& kind : kind_table()) names.emplace_back(kind.name);
  return names;
}

bool writes_folder(const std::string& kind) {
  const auto& table = kind_table();
  return std::any_of(table.begin(), table.end(),
                     [&](const Kind& known) { return known.name == kind && known.folder; });
}

void validate(const GenRequest& request) {
  const Kind& kind = find_kind(request.kind);
  if (!request.options.is_object()) throw Error("generate options must be a JSON object");
  for (const auto& [key, value] : request.options.items()) {
    if (is_request_field(key)) continue;
    if (std::find(kind.options.begin(), kind.options.end(), key) == kind.options.end()) {
      throw Error(
          "option " + key + " is not known for kind '" + request.kind + "' (" +
          (kind.options.empty() ? std::string("it has none") : "options: " + join(kind.options)) +
          ")");
    }
  }
  if (!kind.folder && request.size_bytes == 0) {
    throw Error("size must be given and above 0 for kind '" + request.kind + "'");
  }
  if (!kind.folder) compressor_argv(request);
  kind.validate(request);
}

namespace {

// The folder of a folder kind, whole or not at all: written under a temporary name, renamed.
void write_folder_kind(const Kind& kind, const GenRequest& request,
                       const std::filesystem::path& out) {
  std::error_code ec;
  const auto temp = make_temp_folder_beside(out);
  try {
    try {
      kind.write_folder(request, temp);
    } catch (const std::system_error& e) {
      throw_io("write into", temp, e.code().value());
    }
    detail::throw_if_interrupted();
    if (std::filesystem::exists(out, ec)) {
      if (!may_take_corpus(out)) {
        throw Error("'" + out.string() + "' exists and is neither empty nor an edge corpus (no " +
                    std::string(detail::kEdgeManifest) + "); remove it or choose another path");
      }
      std::filesystem::remove_all(out, ec);
      if (ec) throw_io("replace", out, ec.value());
    }
    if (::rename(temp.c_str(), out.c_str()) != 0) throw_io("rename into", out, errno);
  } catch (...) {
    std::filesystem::remove_all(temp, ec);
    throw;
  }
}

}  // namespace

void generate(const GenRequest& request, const std::filesystem::path& given_out) {
  validate(request);
  const Kind& kind = find_kind(request.kind);
  // A folder is written as `corpus/` as often as `corpus`; a file's name cannot end in '/'.
  std::filesystem::path out = given_out;
  if (kind.folder && !out.has_filename() && out.has_parent_path()) out = out.parent_path();
  if (out.empty() || !out.has_filename()) {
    throw Error("output path '" + given_out.string() + "' names no " +
                (kind.folder ? "folder" : "file"));
  }
  std::error_code ec;
  if (out.has_parent_path()) {
    std::filesystem::create_directories(out.parent_path(), ec);
    if (ec) throw_io("create the folder", out.parent_path(), ec.value());
  }
  if (!kind.folder && std::filesystem::is_directory(out, ec)) {
    throw Error("'" + out.string() + "' is a folder; give a file name");
  }
  const detail::InterruptGuard interrupt;
  try {
    if (kind.folder) {
      write_folder_kind(kind, request, out);
      return;
    }
    AtomicFile file(out);
    write_file_kind(kind, request, file);
    detail::throw_if_interrupted();  // a kind that never polled: no output after Ctrl-C
    file.commit();
  } catch (...) {
    // Ctrl-C reaches a compressor too: its death (EPIPE) is the interrupt's, not a failure.
    detail::throw_if_interrupted();
    throw;
  }
}

}  // namespace iobench::gen
