#include "workers/cli.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "common/fd.hpp"
#include "common/size.hpp"
#include "common/sysio.hpp"
#include "workers/process.hpp"

namespace iobench::worker {
namespace {

constexpr std::string_view kUsage =
    "usage: iobench-worker --list | --read R --write W [--op copy|count|field:N|split] "
    "[--buffer SIZE] [--threads N] [--pipe-size default|max|BYTES] "
    "[--outputs N --prefix P [--compress CMD]] [--decompress CMD] [--verbose] [INPUT|-]";

// Sizes from 16 bytes to 1 GiB: below that a line reader cannot make progress, above it the
// buffer is a mistake.
constexpr std::uint64_t kMinBuffer = 16;
constexpr std::uint64_t kMaxBuffer = std::uint64_t{1} << 30;
// --threads: far above any CPU count this harness runs on; more is a typo, not a plan.
constexpr std::size_t kMaxThreads = 1024;

template <class Units>
std::string names(const Units& units) {
  std::string out;
  for (const auto& unit : units) {
    if (!out.empty()) out += ", ";
    out += unit.name;
  }
  return out;
}

std::size_t parse_count(std::string_view text, std::string_view what) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) {
    throw UsageError("bad " + std::string(what) + " '" + std::string(text) +
                     "': expected a positive integer");
  }
  return value;
}

void check_names(const Options& o) {
  if (o.reader.empty() || o.writer.empty()) {
    throw UsageError("--read and --write are required (or --list); " + std::string(kUsage));
  }
  if (find_reader(o.reader) == nullptr) {
    throw UsageError("unknown reader '" + o.reader + "' (readers: " + names(registry().readers) +
                     ")");
  }
  if (find_writer(o.writer) == nullptr) {
    throw UsageError("unknown writer '" + o.writer + "' (writers: " + names(registry().writers) +
                     ")");
  }
  const OpUnit* op = find_op(o.op);
  if (op == nullptr) {
    throw UsageError("unknown op '" + o.op + "' (ops: copy, count, field:N, split)");
  }
  if (op->takes_arg && o.op_arg.empty()) throw UsageError("--op " + o.op + " needs :N, as field:2");
  if (!op->takes_arg && !o.op_arg.empty()) {
    throw UsageError("--op " + o.op + " takes no argument ('" + o.op_arg + "')");
  }
  if (op->takes_arg) parse_count(o.op_arg, "field number");
  const ReaderUnit& reader = *find_reader(o.reader);
  if (!reader.only_op.empty() && o.op != reader.only_op) {
    throw UsageError("--read " + o.reader + " cannot run --op " + o.op + " (" + o.reader + ": " +
                     std::string(reader.description) + ")");
  }
  if (o.threads != 0 && !reader.takes_threads) {
    throw UsageError("--threads applies to a reader that has threads (parallel), not --read " +
                     o.reader);
  }
  const bool split = o.op == "split";
  if (split && (o.outputs == 0 || o.prefix.empty())) {
    throw UsageError("--op split needs --outputs N and --prefix P");
  }
  if (!split && (o.outputs != 0 || !o.prefix.empty() || !o.compress.empty())) {
    throw UsageError("--outputs, --prefix and --compress apply to --op split only");
  }
  if (!o.compress.empty() && split_command(o.compress).empty())
    throw UsageError("empty --compress");
  if (!o.decompress.empty() && split_command(o.decompress).empty()) {
    throw UsageError("empty --decompress");
  }
}

}  // namespace

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  bool have_input = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    bool inline_value = false;
    if (arg.size() > 2 && arg.starts_with("--")) {
      const std::size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg.resize(eq);
        inline_value = true;
      }
    }
    const auto take = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
      return args[++i];
    };
    if (arg == "--list") {
      o.list = true;
    } else if (arg == "--verbose" || arg == "-v") {
      o.verbose = true;
    } else if (arg == "--help" || arg == "-h") {
      throw UsageError(std::string(kUsage));
    } else if (arg == "--read") {
      o.reader = take();
    } else if (arg == "--write") {
      o.writer = take();
    } else if (arg == "--op") {
      const std::string op = take();
      const std::size_t colon = op.find(':');
      o.op = op.substr(0, colon);
      o.op_arg = colon == std::string::npos ? "" : op.substr(colon + 1);
      if (colon != std::string::npos && o.op_arg.empty()) o.op_arg = ":";  // "field:" is an error
    } else if (arg == "--buffer") {
      const std::string text = take();
      std::string error;
      const auto bytes = parse_size(text, &error);
      if (!bytes || *bytes < kMinBuffer || *bytes > kMaxBuffer) {
        throw UsageError("bad --buffer '" + text + "': expected a size from 16 to 1GiB, as 64KiB" +
                         (error.empty() ? "" : " (" + error + ")"));
      }
      o.buffer_bytes = static_cast<std::size_t>(*bytes);
    } else if (arg == "--threads") {
      o.threads = parse_count(take(), "--threads");
      if (o.threads > kMaxThreads) {
        throw UsageError("bad --threads " + std::to_string(o.threads) + ": at most " +
                         std::to_string(kMaxThreads));
      }
    } else if (arg == "--pipe-size") {
      const std::string text = take();
      if (text == "default") {
        o.pipe_size.kind = PipeSize::Kind::kDefault;
      } else if (text == "max") {
        o.pipe_size.kind = PipeSize::Kind::kMax;
      } else {
        const auto bytes = parse_size(text);
        if (!bytes || *bytes == 0 || *bytes > kMaxBuffer) {
          throw UsageError("bad --pipe-size '" + text + "': expected default, max or a size");
        }
        o.pipe_size = {PipeSize::Kind::kBytes, static_cast<std::size_t>(*bytes)};
      }
    } else if (arg == "--outputs") {
      o.outputs = parse_count(take(), "--outputs");
    } else if (arg == "--prefix") {
      o.prefix = take();
    } else if (arg == "--compress") {
      o.compress = take();
    } else if (arg == "--decompress") {
      o.decompress = take();
    } else if (arg == "-" || !arg.starts_with("-")) {
      if (have_input) throw UsageError("more than one input ('" + o.input + "', '" + arg + "')");
      o.input = arg;
      have_input = true;
    } else {
      throw UsageError("unknown option '" + arg + "'; " + std::string(kUsage));
    }
  }
  if (!o.list) check_names(o);
  return o;
}

namespace {

int run(const Options& o) {
  Input input;
  UniqueFd owned_input;
  if (o.input == "-") {
    input.fd = STDIN_FILENO;
  } else {
    owned_input.reset(::open(o.input.c_str(), O_RDONLY | O_CLOEXEC));
    if (!owned_input) throw RunError("cannot open " + o.input + ": " + std::strerror(errno));
    input.fd = owned_input.get();
    input.path = o.input;
  }
  struct stat st {};
  input.regular = ::fstat(input.fd, &st) == 0 && S_ISREG(st.st_mode);

  UniqueFd decompressed;
  std::optional<child::Helper> decompressor;
  if (!o.decompress.empty()) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) throw RunError(std::string("pipe: ") + std::strerror(errno));
    decompressed.reset(ends[0]);
    UniqueFd write_end(ends[1]);
    apply_pipe_size(decompressed.get(), "decompressor", o);
    decompressor.emplace(spawn_child(split_command(o.decompress), input.fd, write_end.get()));
    input = Input{decompressed.get(), "", false};
  } else if (o.input == "-") {
    apply_pipe_size(STDIN_FILENO, "stdin", o);
  }
  if (o.op != "split") apply_pipe_size(STDOUT_FILENO, "stdout", o);

  verbose_note(o, "reader " + o.reader + ", writer " + o.writer + ", op " + o.op +
                      (o.op_arg.empty() ? "" : ":" + o.op_arg) +
                      (o.buffer_bytes ? ", buffer " + std::to_string(*o.buffer_bytes) : ""));
  const WriterUnit& writer = *find_writer(o.writer);
  std::unique_ptr<Op> op = find_op(o.op)->make(o, writer, STDOUT_FILENO);
  std::unique_ptr<Reader> reader = find_reader(o.reader)->make(o);
  reader->run(input, *op);
  op->end_of_input();
  if (decompressor) {
    decompressed.reset();
    wait_child(*decompressor, "decompressor '" + o.decompress + "'");
  }
  return 0;
}

}  // namespace

int worker_main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    const Options options = parse_args(args);
    if (options.list) {
      const std::string json = list_json();
      sys::write_all(STDOUT_FILENO, json.data(), json.size());
      return 0;
    }
    return run(options);
  } catch (const UsageError& e) {
    note(e.what());
    return 2;
  } catch (const std::exception& e) {
    note(e.what());
    return 1;
  }
}

}  // namespace iobench::worker
