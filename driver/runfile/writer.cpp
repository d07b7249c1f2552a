#include "driver/runfile/writer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

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

}  // namespace

std::string run_tsv_header(const std::vector<Counter>& counters) {
  return fmt::format("{}\n", fmt::join(run_columns(counters), "\t"));
}

std::string format_run_row(const RunRow& row, const std::vector<Counter>& counters) {
  std::string line;
  line.reserve(256);
  append_field(line, row.test);
  line += fmt::format("\t{:.6f}\t{:.6f}\t{:.6f}\t{:.1f}\t{}\t", row.elapsed_s, row.user_s,
                      row.system_s, row.cpu_pct, row.max_rss_kib);
  append_field(line, row.input);
  line += '\t';
  append_field(line, row.sink);
  line += fmt::format("\t{}\t{}\t", row.repeat, to_string(row.status));
  if (row.exit_code) line += std::to_string(*row.exit_code);
  for (const auto& count :
       {row.minflt, row.majflt, row.nvcsw, row.nivcsw, row.inblock, row.oublock}) {
    line += '\t';
    if (count) line += std::to_string(*count);
  }
  line += '\t';
  if (row.bytes_out) line += std::to_string(*row.bytes_out);
  line += '\t';
  if (row.cache_pct) line += fmt::format("{:.1f}", *row.cache_pct);
  line += '\t';
  append_field(line, row.output_hash);
  line += '\t';
  append_field(line, row.host);
  line += '\t';
  if (row.others_cpu_s) line += fmt::format("{:.3f}", *row.others_cpu_s);
  line += '\t';
  if (row.steal_s) line += fmt::format("{:.3f}", *row.steal_s);
  line += '\t';
  if (row.wait_cpu_s) line += fmt::format("{:.6f}", *row.wait_cpu_s);
  line += '\t';
  if (row.block_io_wait_s) line += fmt::format("{:.6f}", *row.block_io_wait_s);
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
  fd_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
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
}

}  // namespace iobench::runfile
