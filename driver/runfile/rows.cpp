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

namespace {

using Kind = RowReader::Kind;

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

template <typename T>
void clear_optional(std::optional<T>& value) {
  value.reset();
}
template <typename T>
void clear_optional(T& /*value*/) {}

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

RowReader::Column RowReader::column_of(std::string_view name) {
  // One parser a standard column, made from its line of IOBENCH_RUN_COLUMNS.
  static constexpr std::array<Parse, kStandardColumnCount> kParsers{
#define IOBENCH_READ_RUN_COLUMN(type, member, name, codec, initial, need) \
  [](RowReader& reader, std::size_t column) {                             \
    reader.parse_value(column, RunCodec::codec, reader.row_.member);      \
  },
      IOBENCH_RUN_COLUMNS(IOBENCH_READ_RUN_COLUMN)
#undef IOBENCH_READ_RUN_COLUMN
  };
  if (const std::size_t c = standard_column(name); c < kStandardColumnCount)
    return {Kind::kStandard, c, kParsers[c]};
  const auto counter = std::find(kCounterColumns.begin(), kCounterColumns.end(), name);
  if (counter != kCounterColumns.end()) {
    return {Kind::kCounter, static_cast<std::size_t>(counter - kCounterColumns.begin()),
            [](RowReader& reader, std::size_t column) {
              reader.parse_value(column, RunCodec::kCount,
                                 reader.row_.counters[reader.kinds_[column].slot]);
            }};
  }
  if (name == kCountedPctColumn) {
    return {Kind::kCountedPct, 0, [](RowReader& reader, std::size_t column) {
              reader.parse_value(column, RunCodec::kPercent, reader.row_.counted_pct);
            }};
  }
  return {};
}

RowReader::RowReader(std::string name, std::string_view text)
    : name_(std::move(name)), text_(text) {
  const FileHeader header = read_header(name_, text);
  columns_ = RunColumns(header.columns);
  pos_ = header.body_start;
  kinds_.reserve(header.columns.size());
  for (const std::string_view column : header.columns) kinds_.push_back(column_of(column));
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
  constexpr std::size_t kStatus = standard_column(column("status"));
  std::stable_partition(read_.begin(), read_.end(), [&](std::size_t c) {
    return kinds_[c].kind == Kind::kStandard && kinds_[c].slot == kStatus;
  });
  cells_.assign(last_needed_ + 1, {});
  // A figure not read (no column, or not selected) is empty, not the 0 of a run never started.
#define IOBENCH_CLEAR_RUN_COLUMN(type, member, name, codec, initial, need) \
  clear_optional(row_.member);
  IOBENCH_RUN_COLUMNS(IOBENCH_CLEAR_RUN_COLUMN)
#undef IOBENCH_CLEAR_RUN_COLUMN
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
  for (const std::size_t c : read_) {
    if (const Parse parse = kinds_[c].parse) parse(*this, c);
  }
  if (cpu_pct_unknown_) {
    // GNU time writes "?%" when elapsed was 0.
    row_.cpu_pct = row_.elapsed_s > 0 ? (row_.user_s + row_.system_s) / row_.elapsed_s * 100 : 0;
  }
}

void RowReader::parse_value(std::size_t column, RunCodec codec, std::string& text) {
  const std::string_view f = cells_[column];
  if (codec == RunCodec::kName && f.empty()) fail(column, "empty test name");
  text.assign(f);
}

void RowReader::parse_value(std::size_t column, RunCodec codec, double& value) {
  std::string_view f = cells_[column];
  value = 0;
  if (f.empty()) {
    // Only a run that did not end ok may lack its times.
    if (row_.status == RunStatus::kOk) fail(column, "empty, but the run's status is ok");
    return;
  }
  if (codec == RunCodec::kSeconds) {
    if (!parse_seconds(f, value)) fail(column, fmt::format("'{}' is not a time in seconds", f));
    return;
  }
  if (f.back() == '%') f.remove_suffix(1);  // GNU time's %P
  if (f == "?") {
    cpu_pct_unknown_ = true;
  } else if (!parse_double(f, value) || value < 0) {
    fail(column, fmt::format("'{}' is not a percentage", cells_[column]));
  }
}

void RowReader::parse_value(std::size_t column, RunCodec /*codec*/, std::int64_t& kib) {
  const std::string_view f = cells_[column];
  kib = 0;
  if (f.empty()) {
    if (row_.status == RunStatus::kOk) fail(column, "empty, but the run's status is ok");
    return;
  }
  if (!parse_count(f, kib)) fail(column, fmt::format("'{}' is not a size in KiB", f));
}

void RowReader::parse_value(std::size_t column, RunCodec /*codec*/, int& repeat) {
  const std::string_view f = cells_[column];
  if (!parse_count(f, repeat)) fail(column, fmt::format("'{}' is not a repeat number", f));
}

void RowReader::parse_value(std::size_t column, RunCodec /*codec*/, RunStatus& status) {
  const std::string_view f = cells_[column];
  const auto parsed = parse_run_status(f);
  if (!parsed)
    fail(column, fmt::format("unknown status '{}' ({})", f, fmt::join(kStatusNames, ", ")));
  status = *parsed;
}

void RowReader::parse_value(std::size_t column, RunCodec /*codec*/, std::optional<int>& exit_code) {
  const std::string_view f = cells_[column];
  exit_code.reset();
  if (f.empty()) return;
  int code = 0;
  const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), code);
  if (ec != std::errc() || ptr != f.data() + f.size())
    fail(column, fmt::format("'{}' is not an integer", f));
  exit_code = code;
}

void RowReader::parse_value(std::size_t column, RunCodec codec,
                            std::optional<std::int64_t>& count) {
  const std::string_view f = cells_[column];
  count.reset();
  if (f.empty() && codec != RunCodec::kRusage) return;
  std::int64_t value = 0;
  if (!parse_count(f, value)) fail(column, fmt::format("'{}' is not a count", f));
  count = value;
}

void RowReader::parse_value(std::size_t column, RunCodec /*codec*/,
                            std::optional<std::uint64_t>& count) {
  const std::string_view f = cells_[column];
  count.reset();
  if (f.empty()) return;
  std::uint64_t value = 0;
  if (!parse_count(f, value)) fail(column, fmt::format("'{}' is not a count", f));
  count = value;
}

void RowReader::parse_value(std::size_t column, RunCodec codec, std::optional<double>& value) {
  const std::string_view f = cells_[column];
  value.reset();
  if (f.empty()) return;
  double parsed = 0;
  if (!parse_double(f, parsed) || parsed < 0) {
    fail(column, fmt::format("'{}' is not a {}", f,
                             codec == RunCodec::kPercent ? "percentage" : "time in seconds"));
  }
  value = parsed;
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
