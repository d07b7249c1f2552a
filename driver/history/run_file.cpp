#include "driver/history/run_file.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/runfile/header.hpp"
#include "driver/runfile/numbers.hpp"

namespace iobench::history {
namespace {

// Where each column of the file is, by name (the schema's spelling).
struct Layout {
  std::array<std::size_t, kStandardColumns.size()> standard{};
  std::array<std::size_t, kCounterCount> counter{};
  std::size_t counted_pct = SIZE_MAX;
  std::size_t columns = 0;
};

// Position of a standard column in kStandardColumns, at compile time.
constexpr std::size_t standard(std::string_view column) {
  for (std::size_t i = 0; i < kStandardColumns.size(); ++i)
    if (kStandardColumns[i] == column) return i;
  throw "not a standard column";  // a compile error in a constant expression
}

class RowParser {
 public:
  RowParser(const std::string& name, const Layout& layout) : name_(name), layout_(layout) {}
  RunRow parse(const std::vector<std::string_view>& fields, std::size_t line);

 private:
  [[noreturn]] void fail(std::string_view column, const std::string& what) const {
    throw Error(fmt::format("{}:{}: column '{}': {}", name_, line_, column, what));
  }
  template <std::size_t kColumn>
  [[nodiscard]] std::string_view text() const {
    return (*fields_)[layout_.standard[kColumn]];
  }
  template <std::size_t kColumn>
  double real() {
    double value = 0;
    if (!runfile::parse_double(text<kColumn>(), value))
      fail(kStandardColumns[kColumn], "not a number");
    return value;
  }
  template <typename T>
  T whole(std::string_view field, std::string_view column) const {
    T value{};
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size()) fail(column, "not a whole number");
    return value;
  }
  template <typename T, std::size_t kColumn>
  T whole() const {
    return whole<T>(text<kColumn>(), kStandardColumns[kColumn]);
  }
  template <typename T, std::size_t kColumn>
  std::optional<T> optional_whole() const {
    if (text<kColumn>().empty()) return std::nullopt;
    return whole<T, kColumn>();
  }

  const std::string& name_;
  const Layout& layout_;
  const std::vector<std::string_view>* fields_ = nullptr;
  std::size_t line_ = 0;
};

RunRow RowParser::parse(const std::vector<std::string_view>& fields, std::size_t line) {
  fields_ = &fields;
  line_ = line;
  RunRow row;
  row.test = text<standard("test")>();
  row.elapsed_s = real<standard("elapsed")>();
  row.user_s = real<standard("user")>();
  row.system_s = real<standard("system")>();
  row.cpu_pct = real<standard("cpu_pct")>();
  row.max_rss_kib = whole<std::int64_t, standard("mem")>();
  row.input = text<standard("input")>();
  row.sink = text<standard("sink")>();
  row.repeat = whole<int, standard("repeat")>();
  const auto status = parse_run_status(text<standard("status")>());
  if (!status) fail("status", fmt::format("unknown status '{}'", text<standard("status")>()));
  row.status = *status;
  row.exit_code = optional_whole<int, standard("exit_code")>();
  row.minflt = whole<std::int64_t, standard("minflt")>();
  row.majflt = whole<std::int64_t, standard("majflt")>();
  row.nvcsw = whole<std::int64_t, standard("nvcsw")>();
  row.nivcsw = whole<std::int64_t, standard("nivcsw")>();
  row.inblock = whole<std::int64_t, standard("inblock")>();
  row.oublock = whole<std::int64_t, standard("oublock")>();
  row.bytes_out = optional_whole<std::uint64_t, standard("bytes_out")>();
  if (!text<standard("cache_pct")>().empty()) row.cache_pct = real<standard("cache_pct")>();
  row.output_hash = text<standard("output_hash")>();
  row.host = text<standard("host")>();
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    if (layout_.counter[c] == SIZE_MAX || fields[layout_.counter[c]].empty()) continue;
    row.counters[c] = whole<std::uint64_t>(fields[layout_.counter[c]], kCounterColumns[c]);
  }
  if (layout_.counted_pct != SIZE_MAX && !fields[layout_.counted_pct].empty()) {
    double value = 0;
    if (!runfile::parse_double(fields[layout_.counted_pct], value)) {
      fail(kCountedPctColumn, "not a number");
    }
    row.counted_pct = value;
  }
  return row;
}

Layout layout_of(const std::vector<std::string_view>& columns, const std::string& name) {
  Layout layout;
  layout.columns = columns.size();
  layout.counter.fill(SIZE_MAX);
  const auto find = [&](std::string_view column) {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == column) return i;
    return std::size_t{SIZE_MAX};
  };
  for (std::size_t i = 0; i < kStandardColumns.size(); ++i) {
    layout.standard[i] = find(kStandardColumns[i]);
    if (layout.standard[i] == SIZE_MAX) {
      throw Error(
          fmt::format("{}: no column '{}': the history takes run files written by iobench "
                      "run (docs/formats.md \"Run file\")",
                      name, kStandardColumns[i]));
    }
  }
  for (std::size_t c = 0; c < kCounterCount; ++c) layout.counter[c] = find(kCounterColumns[c]);
  layout.counted_pct = find(kCountedPctColumn);
  return layout;
}

}  // namespace

RunFileRows parse_run_file(std::string_view text, const std::string& name) {
  const runfile::FileHeader header = runfile::read_header(name, text);
  const Layout layout = layout_of(header.columns, name);
  RunFileRows parsed;
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    if (layout.counter[c] != SIZE_MAX) parsed.counters.push_back(static_cast<Counter>(c));
  }
  RowParser parser(name, layout);
  std::size_t line_no = 1;
  std::size_t pos = header.body_start;
  while (pos < text.size()) {
    ++line_no;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = runfile::strip_cr(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = runfile::split_tabs(line);
    if (fields.size() != layout.columns) {
      throw Error(fmt::format("{}:{}: {} fields, but the header has {} columns", name, line_no,
                              fields.size(), layout.columns));
    }
    parsed.rows.push_back(parser.parse(fields, line_no));
  }
  const XXH128_hash_t hash = XXH3_128bits(text.data(), text.size());
  parsed.hash = fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
  return parsed;
}

RunFileRows read_run_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  return parse_run_file(text.str(), path);
}

}  // namespace iobench::history
