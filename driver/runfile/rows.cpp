#include "driver/runfile/rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/error.hpp"
#include "driver/runfile/file_hash.hpp"
#include "driver/runfile/header.hpp"
#include "driver/runfile/load.hpp"
#include "driver/runfile/numbers.hpp"

namespace iobench::runfile {

// The standard columns in kStandardColumns' order, then the optional ones.
enum class RowReader::Kind : unsigned char {
  kTest,
  kElapsed,
  kUser,
  kSystem,
  kCpuPct,
  kMem,
  kInput,
  kSink,
  kRepeat,
  kStatus,
  kExitCode,
  kMinflt,
  kMajflt,
  kNvcsw,
  kNivcsw,
  kInblock,
  kOublock,
  kBytesOut,
  kCachePct,
  kOutputHash,
  kHost,
  kOthersCpu,
  kSteal,
  kWaitCpu,
  kBlockIoWait,
  kCounter,
  kCountedPct,
  kOther,  // a column the schema does not name: its text only (group-by may name it)
};

namespace {

using Kind = RowReader::Kind;
static_assert(static_cast<std::size_t>(Kind::kCounter) == kStandardColumns.size());

constexpr bool is_rusage(Kind kind) {
  return kind >= Kind::kMinflt && kind <= Kind::kOublock;
}

// A whole count: digits, or a decimal that is a whole number ("4e9"); false for anything else.
template <typename T>
bool parse_count(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc() && ptr == end) {
    if constexpr (std::is_signed_v<T>) return value >= 0;
    return true;
  }
  double v = 0;
  if (!parse_double(text, v) || v < 0 || v != std::floor(v) ||
      v > static_cast<double>(std::numeric_limits<T>::max())) {
    return false;
  }
  value = static_cast<T>(v);
  return true;
}

}  // namespace

RunColumns::RunColumns(const std::vector<std::string_view>& names)
    : names_(names.begin(), names.end()) {}

std::size_t RunColumns::find(std::string_view name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? npos : static_cast<std::size_t>(it - names_.begin());
}

std::vector<Counter> RunColumns::counters() const {
  std::vector<Counter> out;
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    if (has(kCounterColumns[c])) out.push_back(static_cast<Counter>(c));
  }
  return out;
}

RowReader::RowReader(std::string name, std::string_view text)
    : name_(std::move(name)), text_(text) {
  const FileHeader header = read_header(name_, text);
  columns_ = RunColumns(header.columns);
  pos_ = header.body_start;
  kinds_.reserve(header.columns.size());
  for (const std::string_view column : header.columns) {
    Column col{Kind::kOther};
    const auto standard = std::find(kStandardColumns.begin(), kStandardColumns.end(), column);
    const auto counter = std::find(kCounterColumns.begin(), kCounterColumns.end(), column);
    if (standard != kStandardColumns.end()) {
      col.kind = static_cast<Kind>(standard - kStandardColumns.begin());
    } else if (counter != kCounterColumns.end()) {
      col = {Kind::kCounter, static_cast<std::size_t>(counter - kCounterColumns.begin())};
    } else if (column == kCountedPctColumn) {
      col.kind = Kind::kCountedPct;
    }
    kinds_.push_back(col);
  }
  select(std::vector<bool>(kinds_.size(), true), {});
}

void RowReader::select(const std::vector<bool>& columns, const std::vector<bool>& text) {
  read_.clear();
  last_needed_ = 0;
  for (std::size_t c = 0; c < kinds_.size(); ++c) {
    if (c < text.size() && text[c]) last_needed_ = c;
    if (c < columns.size() && columns[c]) {
      read_.push_back(c);
      last_needed_ = c;
    }
  }
  // The status decides whether an empty time is allowed, so it is read first.
  std::stable_partition(read_.begin(), read_.end(),
                        [&](std::size_t c) { return kinds_[c].kind == Kind::kStatus; });
  cells_.assign(last_needed_ + 1, {});
  // A figure not read (no column, or not selected) is empty, not the 0 of a run never started.
  std::array<std::optional<std::int64_t>*, 6> rusage{&row_.minflt, &row_.majflt,  &row_.nvcsw,
                                                     &row_.nivcsw, &row_.inblock, &row_.oublock};
  for (std::optional<std::int64_t>* count : rusage) count->reset();
}

void RowReader::fail(std::size_t column, const std::string& what) const {
  throw Error(fmt::format("{}:{}: column '{}': {}", name_, line_, columns_.names()[column], what));
}

bool RowReader::next() {
  while (pos_ < text_.size()) {
    ++line_;
    const std::size_t start = pos_;
    const std::size_t count = split_row(text_, pos_, last_needed_, cells_);
    if (count == 0) continue;
    std::size_t end = std::min(pos_, text_.size());
    if (end > start && text_[end - 1] == '\n') --end;
    row_text_ = strip_cr(text_.substr(start, end - start));
    const std::size_t ncols = kinds_.size();
    if (count != ncols) {
      throw Error(fmt::format(
          "{}:{}: {} fields, but the header has {} columns{}", name_, line_, count, ncols,
          count < ncols ? fmt::format(" (column '{}' is missing)", columns_.names()[count]) : ""));
    }
    parse_row();
    return true;
  }
  return false;
}

void RowReader::parse_row() {
  cpu_pct_unknown_ = false;
  for (const std::size_t c : read_) parse_cell(c);
  if (cpu_pct_unknown_) {
    // GNU time writes "?%" when elapsed was 0.
    row_.cpu_pct = row_.elapsed_s > 0 ? (row_.user_s + row_.system_s) / row_.elapsed_s * 100 : 0;
  }
}

void RowReader::parse_time(std::size_t column, double& seconds) {
  const std::string_view f = cells_[column];
  seconds = 0;
  if (f.empty()) {
    // Only a run that did not end ok may lack its times.
    if (row_.status == RunStatus::kOk) fail(column, "empty, but the run's status is ok");
    return;
  }
  if (!parse_seconds(f, seconds)) fail(column, fmt::format("'{}' is not a time in seconds", f));
}

void RowReader::parse_cpu_pct(std::size_t column) {
  std::string_view f = cells_[column];
  row_.cpu_pct = 0;
  if (f.empty()) {
    if (row_.status == RunStatus::kOk) fail(column, "empty, but the run's status is ok");
    return;
  }
  if (f.back() == '%') f.remove_suffix(1);  // GNU time's %P
  if (f == "?") {
    cpu_pct_unknown_ = true;
  } else if (!parse_double(f, row_.cpu_pct) || row_.cpu_pct < 0) {
    fail(column, fmt::format("'{}' is not a percentage", cells_[column]));
  }
}

void RowReader::parse_cell(std::size_t column) {
  const std::string_view f = cells_[column];
  const Kind kind = kinds_[column].kind;
  switch (kind) {
    case Kind::kTest:
      if (f.empty()) fail(column, "empty test name");
      row_.test.assign(f);
      return;
    case Kind::kInput:
      row_.input.assign(f);
      return;
    case Kind::kSink:
      row_.sink.assign(f);
      return;
    case Kind::kOutputHash:
      row_.output_hash.assign(f);
      return;
    case Kind::kHost:
      row_.host.assign(f);
      return;
    case Kind::kStatus: {
      const auto status = parse_run_status(f);
      if (!status) {
        fail(column, fmt::format("unknown status '{}' ({})", f, fmt::join(kStatusNames, ", ")));
      }
      row_.status = *status;
      return;
    }
    case Kind::kOther:
      return;
    default:
      parse_figure(column);
  }
}

void RowReader::parse_figure(std::size_t column) {
  const std::string_view f = cells_[column];
  const auto count = [&](auto& value, std::string_view what) {
    if (!parse_count(f, value)) fail(column, fmt::format("'{}' is not a {}", f, what));
  };
  const auto optional_count = [&](auto& slot) {
    slot.reset();
    if (f.empty()) return;
    typename std::remove_reference_t<decltype(slot)>::value_type value{};
    count(value, "count");
    slot = value;
  };
  const auto optional_real = [&](std::optional<double>& slot, std::string_view what) {
    slot.reset();
    double value = 0;
    if (f.empty()) return;
    if (!parse_double(f, value) || value < 0)
      fail(column, fmt::format("'{}' is not a {}", f, what));
    slot = value;
  };
  const Kind kind = kinds_[column].kind;
  if (is_rusage(kind)) {
    const std::size_t i = static_cast<std::size_t>(kind) - static_cast<std::size_t>(Kind::kMinflt);
    std::int64_t value = 0;
    count(value, "count");
    *std::array{
        &row_.minflt, &row_.majflt, &row_.nvcsw, &row_.nivcsw, &row_.inblock, &row_.oublock}[i] =
        value;
    return;
  }
  switch (kind) {
    case Kind::kElapsed:
      return parse_time(column, row_.elapsed_s);
    case Kind::kUser:
      return parse_time(column, row_.user_s);
    case Kind::kSystem:
      return parse_time(column, row_.system_s);
    case Kind::kCpuPct:
      return parse_cpu_pct(column);
    case Kind::kMem:
      row_.max_rss_kib = 0;
      if (!f.empty()) return count(row_.max_rss_kib, "size in KiB");
      if (row_.status == RunStatus::kOk) fail(column, "empty, but the run's status is ok");
      return;
    case Kind::kRepeat:
      return count(row_.repeat, "repeat number");
    case Kind::kExitCode: {
      row_.exit_code.reset();
      if (f.empty()) return;
      int code = 0;
      const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), code);
      if (ec != std::errc() || ptr != f.data() + f.size()) {
        fail(column, fmt::format("'{}' is not an integer", f));
      }
      row_.exit_code = code;
      return;
    }
    case Kind::kBytesOut:
      return optional_count(row_.bytes_out);
    case Kind::kCachePct:
      return optional_real(row_.cache_pct, "percentage");
    case Kind::kOthersCpu:
      return optional_real(row_.others_cpu_s, "time in seconds");
    case Kind::kSteal:
      return optional_real(row_.steal_s, "time in seconds");
    case Kind::kWaitCpu:
      return optional_real(row_.wait_cpu_s, "time in seconds");
    case Kind::kBlockIoWait:
      return optional_real(row_.block_io_wait_s, "time in seconds");
    case Kind::kCounter:
      return optional_count(row_.counters[kinds_[column].slot]);
    case Kind::kCountedPct:
      return optional_real(row_.counted_pct, "percentage");
    default:
      return;
  }
}

RunFile parse_run_file(std::string_view text, std::string name) {
  RowReader reader(std::move(name), text);
  RunFile file;
  file.name = reader.name();
  file.columns = reader.columns();
  file.counters = file.columns.counters();
  while (reader.next()) {
    file.rows.push_back(reader.row());
    file.lines.push_back(reader.line());
  }
  file.hash = file_hash(text);
  return file;
}

std::string file_hash(std::string_view bytes) {
  const XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

RunFile read_run_file(const std::filesystem::path& path) {
  const RunFileData data = load_run_file(path);
  return parse_run_file(data.text(), path == "-" ? "<stdin>" : path.string());
}

}  // namespace iobench::runfile
