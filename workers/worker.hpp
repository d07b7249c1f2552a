#pragma once
// The worker's building blocks. A Reader pulls bytes from an Input and hands whole lines (as
// string_views into its own memory) to an Op; the Op hands what it produces to one or more
// Writers. Each reader, writer and op is a small unit registered by name (fio's engines are the
// model): a descriptor with a name, a one-line description and a factory, kept in a registry.
//
// Lifetime rule for views: a view handed to Op::lines or Writer::write stays valid until the next
// release() call that follows it. Readers that reuse memory call release() before they do;
// writers that keep views (writev) must copy or write them out in release().
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/worker_args.hpp"

namespace iobench::worker {

// A bad command line or a combination the worker cannot run: exit status 2.
using UsageError = WorkerUsageError;

// Any failure while running (I/O, a child process): exit status 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The parsed command line (common/worker_args.hpp, which the driver reads configs with too).
using Options = WorkerArgs;

// An opened input. `path` is empty when reading stdin or a decompressor's pipe.
struct Input {
  int fd = -1;
  std::string path;
  bool regular = false;  // a regular file: mmap and positioned reads work
};

// Writes one output stream (stdout or a split output).
class Writer {
 public:
  virtual ~Writer() = default;
  // One line, its '\n' included when it has one (a last line may have none).
  virtual void write(std::string_view line) = 0;
  virtual void write_lines(std::span<const std::string_view> lines) {
    for (const std::string_view line : lines) write(line);
  }
  // The views handed in so far are about to become invalid.
  virtual void release() {}
  // Flushes everything; called once, at the end.
  virtual void finish() = 0;
};

// Receives lines from a reader.
class LineSink {
 public:
  virtual ~LineSink() = default;
  virtual void lines(std::span<const std::string_view> lines) = 0;
  virtual void release() = 0;
};

class LineSplitter;

// An operation over the input's lines.
class Op : public LineSink {
 public:
  Op();
  ~Op() override;
  // Raw bytes from a reader that does not split lines (chunk). By default the op splits them.
  virtual void block(std::string_view bytes);
  // A count a reader made itself (parallel): `newlines` more '\n' bytes, the input read so far
  // ending inside a line when `open_line`. Only count takes it; the CLI refuses other ops for
  // such a reader (ReaderUnit::only_op), so by default it is a RunError.
  virtual void counted(std::uint64_t newlines, bool open_line);
  // The input is exhausted: emit what is left, flush writers, wait for children.
  void end_of_input();

 protected:
  virtual void finish() = 0;

 private:
  std::unique_ptr<LineSplitter> splitter_;
};

// Reads a whole input and hands its lines (or blocks) to an op.
class Reader {
 public:
  virtual ~Reader() = default;
  virtual void run(Input& input, Op& op) = 0;
};

using ReaderFactory = std::unique_ptr<Reader> (*)(const Options&);
using WriterFactory = std::unique_ptr<Writer> (*)(int fd, const Options&);
struct WriterUnit;
using OpFactory = std::unique_ptr<Op> (*)(const Options&, const WriterUnit& writer, int out_fd);

struct ReaderUnit {
  std::string_view name;
  std::string_view description;
  int order;  // position in --list, so the listing follows docs/formats.md rather than link order
  ReaderFactory make;
  std::string_view only_op = {};  // the one op it can run (parallel: count); empty: any
  bool takes_threads = false;     // --threads applies
};
struct WriterUnit {
  std::string_view name;
  std::string_view description;
  int order;
  WriterFactory make;
};
struct OpUnit {
  std::string_view name;  // "field" for field:N
  std::string_view description;
  int order;
  OpFactory make;
  bool takes_arg;  // field:N
};

struct Registry {
  std::vector<ReaderUnit> readers;
  std::vector<WriterUnit> writers;
  std::vector<OpUnit> ops;
};

// The registry, sorted by order once registration is over (first use after main starts).
const Registry& registry();
const ReaderUnit* find_reader(std::string_view name);
const WriterUnit* find_writer(std::string_view name);
const OpUnit* find_op(std::string_view name);
// --list: a JSON array of {"name", "kind", "description"}.
std::string list_json();

// Self-registration at static-initialisation time (the library is linked whole).
struct RegisterReader {
  explicit RegisterReader(const ReaderUnit& unit);
};
struct RegisterWriter {
  explicit RegisterWriter(const WriterUnit& unit);
};
struct RegisterOp {
  explicit RegisterOp(const OpUnit& unit);
};

// One line on stderr, "iobench-worker: ...".
void note(std::string_view message);
// Like note, but only with --verbose.
void verbose_note(const Options& options, std::string_view message);

// The buffer size a unit uses: --buffer when given, else its own default.
inline std::size_t buffer_or(const Options& options, std::size_t default_bytes) {
  return options.buffer_bytes ? *options.buffer_bytes : default_bytes;
}

// The default block size of the block readers (read, fread, chunk, uring). 128 KiB keeps the block
// in L2 while making system calls rare; the benchmark in docs/workers.md shows the effect.
inline constexpr std::size_t kDefaultReadBlock = 128 * 1024;

}  // namespace iobench::worker
