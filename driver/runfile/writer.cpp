#include "driver/runfile/writer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>
#include <system_error>
#include <type_traits>

#include "common/error.hpp"
#include "common/sysio.hpp"

namespace iobench::runfile {
namespace {

void append_field(std::string& line, std::string_view field) {
  const std::size_t start = line.size();
  line.append(field);
  std::replace_if(
      line.begin() + static_cast<std::ptrdiff_t>(start), line.end(),
      [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
}

// One standard column's value as its codec writes it (schema.hpp, RunCodec).
void write_value(std::string& line, RunCodec /*codec*/, const std::string& text) {
  append_field(line, text);
}
void write_value(std::string& line, RunCodec codec, double value) {
  switch (codec) {
    case RunCodec::kCpuPct:
    case RunCodec::kPercent:
      fmt::format_to(std::back_inserter(line), "{:.1f}", value);
      return;
    case RunCodec::kMilliseconds:
      fmt::format_to(std::back_inserter(line), "{:.3f}", value);
      return;
    default:
      fmt::format_to(std::back_inserter(line), "{:.6f}", value);
  }
}
template <typename Integer>
requires std::is_integral_v<Integer>
void write_value(std::string& line, RunCodec /*codec*/, Integer value) {
  fmt::format_to(std::back_inserter(line), "{}", value);
}
void write_value(std::string& line, RunCodec /*codec*/, RunStatus status) {
  line += to_string(status);
}
template <typename T>
void write_value(std::string& line, RunCodec codec, const std::optional<T>& value) {
  if (value) write_value(line, codec, *value);
}

}  // namespace

std::string run_tsv_header(const std::vector<Counter>& counters) {
  return fmt::format("{}\n", fmt::join(run_columns(counters), "\t"));
}

std::string format_run_row(const RunRow& row, const std::vector<Counter>& counters) {
  std::string line;
  line.reserve(256);
#define IOBENCH_WRITE_RUN_COLUMN(type, member, name, codec, initial, need) \
  write_value(line, RunCodec::codec, row.member);                          \
  line += '\t';
  IOBENCH_RUN_COLUMNS(IOBENCH_WRITE_RUN_COLUMN)
#undef IOBENCH_WRITE_RUN_COLUMN
  line.pop_back();  // the tab after the last standard column
  const std::vector<Counter> ordered = in_schema_order(counters);
  for (Counter c : ordered) {
    line += '\t';
    if (const auto& count = row.counters[index(c)]) line += std::to_string(*count);
  }
  if (!ordered.empty()) {
    line += '\t';
    if (row.counted_pct) line += fmt::format("{:.1f}", *row.counted_pct);
  }
  line += '\n';
  return line;
}

RunTsvWriter::RunTsvWriter(const std::filesystem::path& path, std::vector<Counter> counters)
    : path_(path), counters_(in_schema_order(std::move(counters))) {
  fd_.reset(
      sys::ops().open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd_) {
    const int err = errno;
    throw Error(
        fmt::format("{}: cannot create results file: {}{}", path.string(), std::strerror(err),
                    err == EEXIST ? " (results are never overwritten; choose another -o)" : ""));
  }
  const std::string header = run_tsv_header(counters_);
  try {
    sys::write_all(fd_.get(), header.data(), header.size());
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot write results: {}", path.string(), e.code().message()));
  }
  written_ = header;
}

void RunTsvWriter::append(const RunRow& row) {
  const std::string line = format_run_row(row, counters_);
  // A write that fails part way (a full disk takes the first bytes, refuses the rest) would leave
  // half a row at the end of the file; cut it back so every line in the file is a whole row.
  const off_t before = ::lseek(fd_.get(), 0, SEEK_CUR);
  try {
    sys::write_all(fd_.get(), line.data(), line.size());
  } catch (const std::system_error& e) {
    if (before >= 0 && ::ftruncate(fd_.get(), before) == 0) ::lseek(fd_.get(), before, SEEK_SET);
    throw Error(fmt::format("{}: cannot write results: {}", path_.string(), e.code().message()));
  }
  written_ += line;
}

}  // namespace iobench::runfile
