#pragma once
// The worker's command line (docs/formats.md "Worker CLI"), its one model: the option table, the
// split of argv into options and words, the typed parse `iobench-worker` runs on, and what the
// driver asks of a config's worker arguments (their output class, the reader, writer and op they
// name).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace iobench {

inline constexpr std::string_view kWorkerUsage =
    "usage: iobench-worker --list | --read R --write W [--op copy|count|field:N|split] "
    "[--buffer SIZE] [--threads N] [--pipe-size default|max|BYTES] "
    "[--outputs N --prefix P [--compress CMD]] [--decompress CMD] [--verbose] [INPUT|-]";

// A bad worker command line, or a combination the worker cannot run: it exits 2.
class WorkerUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One row of the option table. Every option may also be written --name=value.
struct WorkerOption {
  std::string_view name;        // "--read"
  std::string_view short_name;  // "-v", or empty
  bool takes_value;
  // False for options that choose how the I/O is done (--read, --write, --buffer, --threads,
  // --pipe-size), where split files go (--prefix) or what goes to stderr (--verbose): the
  // output class leaves them out (docs/driver.md, "Verification").
  bool changes_output;
  std::string_view unit_kind;  // the --list kind its value names ("reader", "writer", "op"), or ""
};

inline constexpr std::array<WorkerOption, 13> kWorkerOptions{{
    {"--list", "", false, true, ""},
    {"--help", "-h", false, true, ""},
    {"--verbose", "-v", false, false, ""},
    {"--read", "", true, false, "reader"},
    {"--write", "", true, false, "writer"},
    {"--op", "", true, true, "op"},
    {"--buffer", "", true, false, ""},
    {"--threads", "", true, false, ""},
    {"--pipe-size", "", true, false, ""},
    {"--outputs", "", true, true, ""},
    {"--prefix", "", true, false, ""},
    {"--compress", "", true, true, ""},
    {"--decompress", "", true, true, ""},
}};

// Its row by long or short name; null for anything else.
const WorkerOption* find_worker_option(std::string_view name) noexcept;

// One argument as given: an option of the table with its value, or anything else (the input, or
// an option the table does not have).
struct WorkerArg {
  std::string text;   // as written ("--op=count"; for a value given apart, the option alone)
  std::string name;   // "--op": the text before any '=' of a "--" argument, else the whole text
  std::string value;  // the option's value; empty for a flag and when missing
  const WorkerOption* option = nullptr;  // null: not an option of the table
  bool value_missing = false;            // a value option last on the line, without "=value"

  // The input (or a stray word): "-", or anything that does not start with '-'.
  [[nodiscard]] bool is_word() const { return name == "-" || !name.starts_with('-'); }
};

// Splits the arguments (without argv[0]); never refuses anything. An option that takes a value
// takes the next argument whatever it is, as the worker does.
std::vector<WorkerArg> split_worker_args(const std::vector<std::string>& args);

// --pipe-size: leave pipes alone, raise them to /proc/sys/fs/pipe-max-size, or a byte count.
struct PipeSize {
  enum class Kind { kDefault, kMax, kBytes };
  Kind kind = Kind::kDefault;
  std::size_t bytes = 0;
};

// The parsed command line, what the worker runs.
struct WorkerArgs {
  bool list = false;
  std::string reader;
  std::string writer;
  std::string op = "copy";
  std::string op_arg;                       // the N of field:N; ":" for "field:" (an error later)
  std::optional<std::size_t> buffer_bytes;  // --buffer, for readers and writers that have one
  PipeSize pipe_size;
  std::size_t outputs = 0;  // --outputs, for split
  std::string prefix;       // --prefix, for split
  std::string compress;     // --compress CMD, for split
  std::string decompress;   // --decompress CMD
  std::size_t threads = 0;  // --threads, for readers that have them (parallel); 0: every CPU
  bool verbose = false;
  std::string input = "-";
};

// --buffer: from 16 bytes (below that a line reader cannot make progress) to 1 GiB (above it the
// buffer is a mistake); --pipe-size: at most 1 GiB too.
inline constexpr std::uint64_t kWorkerMinBufferBytes = 16;
inline constexpr std::uint64_t kWorkerMaxBufferBytes = std::uint64_t{1} << 30;
// --threads: far above any CPU count this harness runs on; more is a typo, not a plan.
inline constexpr std::size_t kWorkerMaxThreads = 1024;

// Parses each option's value, last one winning, in argument order; the first problem throws
// WorkerUsageError (one line). Whether the names exist is the worker's registry's to say.
WorkerArgs parse_worker_args(const std::vector<std::string>& args);

// A positive integer ("bad WHAT 'TEXT': expected a positive integer" otherwise).
std::size_t parse_worker_count(std::string_view text, std::string_view what);

// A reader, writer or op named by the arguments.
struct NamedWorkerUnit {
  std::string_view kind;    // as --list spells it: "reader", "writer", "op"
  std::string_view option;  // "--read"
  std::string value;        // as given: "field:3"
  std::string unit;         // the unit's name: "field" (an op's ":N" is its argument)
};

// A worker command line as a config gives it, read without refusing anything: the driver reads
// it before the worker has judged it, and leaves the refusals to the worker and the catalog.
class WorkerCommandLine {
 public:
  explicit WorkerCommandLine(const std::vector<std::string>& args);

  [[nodiscard]] const std::vector<WorkerArg>& args() const { return args_; }
  // The value the worker takes for `option` ("--read": the last one given); nullopt when none.
  [[nodiscard]] std::optional<std::string> value_of(std::string_view option) const;
  [[nodiscard]] bool gives(std::string_view option) const;
  // The op without its ":N"; "copy" when none is given.
  [[nodiscard]] std::string op_name() const;
  // Every reader, writer and op given, in argument order (an overridden one too).
  [[nodiscard]] std::vector<NamedWorkerUnit> named_units() const;
  // What the worker writes, from the parsed options rather than their spelling: "copy" (the
  // input itself), or "worker" then each option that changes the output with its value (sorted
  // by name, --op included, copy by default), then every other argument as written. So
  // `--op=count` and `--op count`, `-v` or not, in any order, are one class (docs/driver.md).
  [[nodiscard]] std::string output_class() const;

 private:
  std::vector<WorkerArg> args_;
};

}  // namespace iobench
