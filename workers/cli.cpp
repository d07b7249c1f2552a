#include "workers/cli.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "workers/process.hpp"

namespace iobench::worker {
namespace {

template <class Units>
std::string names(const Units& units) {
  std::string out;
  for (const auto& unit : units) {
    if (!out.empty()) out += ", ";
    out += unit.name;
  }
  return out;
}

void check_names(const Options& o) {
  if (o.reader.empty() || o.writer.empty()) {
    throw UsageError("--read and --write are required (or --list); " + std::string(kWorkerUsage));
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
  if (op->takes_arg) parse_worker_count(o.op_arg, "field number");
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
  Options o = parse_worker_args(args);
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
