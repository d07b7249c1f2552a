#include "driver/runfile/reader.hpp"

#include <fmt/format.h>
#include <string.h>  // memrchr

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <unordered_map>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/error.hpp"
#include "driver/runfile/header.hpp"
#include "driver/runfile/numbers.hpp"

namespace iobench::runfile {
namespace {

constexpr std::array<std::string_view, 4> kDefaultGroupBy{"test", "input", "sink", "host"};

struct StringHash {
  using is_transparent = void;
  // XXH3 inlined: about twice std::hash's speed on keys of tens of bytes, hashed once a row.
  std::size_t operator()(std::string_view s) const noexcept {
    return XXH3_64bits(s.data(), s.size());
  }
};

// What the parser does with one column of a file.
enum class Role : unsigned char {
  kSkip,
  kKey,
  kMetric,
  kStatus,
  kExitCode,
  kInput,
  kCachePct,
  kOthersCpu,
  kSteal
};

struct Column {
  Role role = Role::kSkip;
  std::size_t slot = 0;  // key position or metric index
  std::string_view name;
};

struct FileLayout {
  std::vector<Column> columns;
  std::size_t last_needed = 0;            // highest column index that is read
  std::vector<std::size_t> read_columns;  // those not skipped: the hot loops visit only these
  std::vector<bool> has_key;              // per group-by column: does this file have it
  std::string_view cache_mode;            // the file's cache mode from its meta file, or ""
};

// The cells of one row that are not metrics.
struct RowFields {
  std::size_t status = 0;
  std::string_view input;
  bool has_input = false;
  std::string_view cache_pct;
  int exit_code = 0;
  double others_cpu_s = -1;  // -1: not recorded (no column, or an empty cell)
  double steal_s = -1;
};

// Parses the rows of run files into the groups of one RunSet.
class GroupingParser {
 public:
  explicit GroupingParser(RunSet& set) : set_(set), test_key_(set.key_index("test")) {}

  void read_body(const std::string& file, std::string_view data, std::size_t body_start,
                 const FileLayout& layout);

 private:
  [[noreturn]] void fail(std::size_t line, std::string_view column, const std::string& what) const {
    throw Error(fmt::format("{}:{}: column '{}': {}", *file_, line, column, what));
  }

  RowFields read_row_fields(std::size_t line, const FileLayout& layout);
  // A disturbance cell's seconds; -1 for an empty one (not recorded).
  double disturbance_seconds(std::size_t line, const Column& col, std::string_view f) const {
    double v = -1;
    if (!f.empty() && !(parse_double(f, v) && v >= 0)) {
      fail(line, col.name, fmt::format("'{}' is not a time in seconds", f));
    }
    return v;
  }
  Group& group_of(const RowFields& row);
  // Every metric cell must be a number; ok rows must have every time metric.
  void read_metrics(std::size_t line, const FileLayout& layout, std::size_t status);
  void add_samples(Group& group, const RowFields& row, const FileLayout& layout);

  RunSet& set_;
  std::size_t test_key_;
  std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> index_;
  std::string key_buffer_;
  const std::string* file_ = nullptr;
  std::vector<std::string_view> fields_;
  std::vector<std::string_view> key_values_;
  std::array<double, kMetricCount> values_{};
  std::array<bool, kMetricCount> present_{};
};

void GroupingParser::read_body(const std::string& file, std::string_view data,
                               std::size_t body_start, const FileLayout& layout) {
  const std::size_t ncols = layout.columns.size();
  file_ = &file;
  fields_.assign(layout.last_needed + 1, {});
  key_values_.assign(set_.group_by.size(), {});
  std::size_t line_no = 1;
  for (std::size_t pos = body_start; pos < data.size();) {
    ++line_no;
    const std::size_t count = split_row(data, pos, layout.last_needed, fields_);
    if (count == 0) continue;
    if (count != ncols) {
      throw Error(fmt::format(
          "{}:{}: {} fields, but the header has {} columns{}", file, line_no, count, ncols,
          count < ncols ? fmt::format(" (column '{}' is missing)", layout.columns[count].name)
                        : ""));
    }
    // Status first: non-ok rows are counted, not measured.
    const RowFields row = read_row_fields(line_no, layout);
    Group& group = group_of(row);
    ++group.rows[row.status];
    ++set_.rows;
    read_metrics(line_no, layout, row.status);
    if (row.status == 0) add_samples(group, row, layout);
  }
}

RowFields GroupingParser::read_row_fields(std::size_t line, const FileLayout& layout) {
  RowFields row;
  for (const std::size_t c : layout.read_columns) {
    const Column& col = layout.columns[c];
    const std::string_view f = fields_[c];
    switch (col.role) {
      case Role::kStatus: {
        const auto parsed = parse_run_status(f);
        if (!parsed) {
          fail(line, col.name,
               fmt::format("unknown status '{}' ({})", f, fmt::join(kStatusNames, ", ")));
        }
        row.status = static_cast<std::size_t>(*parsed);
        break;
      }
      case Role::kKey:
        key_values_[col.slot] = f;
        break;
      case Role::kInput:
        row.input = f;
        row.has_input = true;
        break;
      case Role::kCachePct:
        row.cache_pct = f;
        break;
      case Role::kOthersCpu:
        row.others_cpu_s = disturbance_seconds(line, col, f);
        break;
      case Role::kSteal:
        row.steal_s = disturbance_seconds(line, col, f);
        break;
      case Role::kExitCode:
        if (!f.empty()) {
          const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), row.exit_code);
          if (ec != std::errc() || ptr != f.data() + f.size()) {
            fail(line, col.name, fmt::format("'{}' is not an integer", f));
          }
        }
        break;
      default:
        break;
    }
  }
  const std::size_t nkeys = key_values_.size();
  for (std::size_t k = 0; k < nkeys; ++k) {
    if (!layout.has_key[k]) key_values_[k] = {};
  }
  if (test_key_ < nkeys && layout.has_key[test_key_] && key_values_[test_key_].empty()) {
    fail(line, "test", "empty test name");
  }
  return row;
}

// The row's group, by its interned key.
Group& GroupingParser::group_of(const RowFields& row) {
  key_buffer_.clear();
  for (const std::string_view value : key_values_) {
    key_buffer_.append(value);
    key_buffer_.push_back('\x1f');
  }
  std::size_t gi = 0;
  const auto found = index_.find(std::string_view(key_buffer_));
  if (found != index_.end()) {
    gi = found->second;
  } else {
    gi = set_.groups.size();
    index_.emplace(key_buffer_, gi);
    Group g;
    g.key.assign(key_values_.begin(), key_values_.end());
    if (row.has_input) g.input = std::string(row.input);
    set_.groups.push_back(std::move(g));
  }
  Group& group = set_.groups[gi];
  if (row.has_input && !group.mixed_inputs && group.input != row.input) group.mixed_inputs = true;
  return group;
}

void GroupingParser::read_metrics(std::size_t line, const FileLayout& layout, std::size_t status) {
  values_.fill(0);
  present_.fill(false);
  for (const std::size_t c : layout.read_columns) {
    const Column& col = layout.columns[c];
    if (col.role != Role::kMetric) continue;
    std::string_view f = fields_[c];
    if (f.empty()) {
      // An empty counter cell is "not counted"; an empty time cell is not allowed on ok rows.
      if (status == 0 && col.slot < kTimeMetricCount) {
        fail(line, col.name, "empty, but the run's status is ok");
      }
      continue;
    }
    double v = 0;
    bool ok = false;
    if (col.slot == index(Metric::kCpuPct)) {
      if (f.back() == '%') f.remove_suffix(1);  // GNU time's %P
      if (f == "?") {                           // GNU time: elapsed was 0
        v = std::numeric_limits<double>::quiet_NaN();
        ok = true;
      } else {
        ok = parse_double(f, v) && v >= 0;
      }
    } else if (col.slot == index(Metric::kMem) || col.slot >= kTimeMetricCount) {
      ok = parse_double(f, v) && v >= 0;
    } else {
      ok = parse_seconds(f, v);
    }
    if (!ok) {
      fail(line, col.name,
           fmt::format("'{}' is not a {}", fields_[c],
                       col.slot >= kTimeMetricCount         ? "count"
                       : col.slot == index(Metric::kMem)    ? "size in KiB"
                       : col.slot == index(Metric::kCpuPct) ? "percentage"
                                                            : "time in seconds"));
    }
    values_[col.slot] = v;
    present_[col.slot] = true;
  }
}

void GroupingParser::add_samples(Group& group, const RowFields& row, const FileLayout& layout) {
  double& cpu = values_[index(Metric::kCpuPct)];
  if (std::isnan(cpu)) {
    const double elapsed = values_[index(Metric::kElapsed)];
    cpu = elapsed > 0
              ? (values_[index(Metric::kUser)] + values_[index(Metric::kSystem)]) / elapsed * 100
              : 0;
  }
  for (std::size_t m = 0; m < kMetricCount; ++m) {
    if (m < kTimeMetricCount || present_[m]) group.samples[m].push_back(values_[m]);
  }
  group.exit_codes.push_back(row.exit_code);
  if (row.others_cpu_s >= 0) group.others_cpu_s.push_back(row.others_cpu_s);
  if (row.steal_s >= 0) group.steal_s.push_back(row.steal_s);
  double cache_pct = 0;
  if (layout.cache_mode.empty() || row.cache_pct.empty() ||
      !parse_double(row.cache_pct, cache_pct)) {
    return;
  }
  group.cache.add(layout.cache_mode, cache_pct);
}

}  // namespace

std::size_t Group::excluded_count() const {
  std::size_t n = 0;
  for (std::size_t s = 1; s < kStatusCount; ++s) n += rows[s];
  return n;
}

std::size_t RunSet::key_index(std::string_view column) const {
  for (std::size_t i = 0; i < group_by.size(); ++i) {
    if (group_by[i] == column) return i;
  }
  return std::string_view::npos;
}

namespace {

struct LoadedFile {
  std::string_view name;
  std::string_view data;
  std::vector<std::string_view> header;
  std::size_t body_start = 0;
  std::string_view cache_mode;
};

std::vector<std::string> choose_group_by(const std::vector<LoadedFile>& loaded,
                                         const ReadOptions& options) {
  const auto present_anywhere = [&](std::string_view column) {
    return std::any_of(loaded.begin(), loaded.end(), [&](const LoadedFile& l) {
      return std::find(l.header.begin(), l.header.end(), column) != l.header.end();
    });
  };
  std::vector<std::string> group_by;
  if (options.group_by.empty()) {
    for (std::string_view column : kDefaultGroupBy) {
      if (present_anywhere(column)) group_by.emplace_back(column);
    }
    return group_by;
  }
  for (const auto& column : options.group_by) {
    if (std::find(group_by.begin(), group_by.end(), column) != group_by.end()) {
      throw Error(fmt::format("--group-by: column '{}' named twice", column));
    }
    if (!options.allow_missing_columns && !present_anywhere(column)) {
      throw Error(fmt::format("--group-by: no file has a column '{}' (the first has: {})", column,
                              fmt::join(loaded.front().header, " ")));
    }
    group_by.push_back(column);
  }
  return group_by;
}

// What the parser does with each column of one file.
FileLayout layout_of(const LoadedFile& file, RunSet& set) {
  FileLayout layout;
  layout.cache_mode = file.cache_mode;
  layout.columns.resize(file.header.size());
  layout.has_key.assign(set.group_by.size(), false);
  for (std::size_t c = 0; c < file.header.size(); ++c) {
    Column& col = layout.columns[c];
    col.name = file.header[c];
    const auto key = std::find(set.group_by.begin(), set.group_by.end(), col.name);
    const std::optional<Metric> metric = parse_metric(col.name);
    if (key != set.group_by.end()) {
      col.role = Role::kKey;
      col.slot = static_cast<std::size_t>(key - set.group_by.begin());
      layout.has_key[col.slot] = true;
    } else if (metric) {
      col.role = Role::kMetric;
      col.slot = index(*metric);
      set.has_metric[col.slot] = true;
    } else if (col.name == "status") {
      col.role = Role::kStatus;
    } else if (col.name == "exit_code") {
      col.role = Role::kExitCode;
    } else if (col.name == "input") {
      col.role = Role::kInput;
    } else if (col.name == "cache_pct") {
      col.role = Role::kCachePct;
    } else if (col.name == "others_cpu_s" || col.name == "steal_s") {
      col.role = col.name == "steal_s" ? Role::kSteal : Role::kOthersCpu;
      set.has_disturbance = true;
    }
    if (col.role == Role::kSkip) continue;
    layout.last_needed = c;
    layout.read_columns.push_back(c);
  }
  return layout;
}

}  // namespace

RunSet parse_run_views(const std::vector<RunFileView>& files, const ReadOptions& options) {
  if (files.empty()) throw Error("no run files given");
  std::vector<LoadedFile> loaded;
  loaded.reserve(files.size());
  for (const RunFileView& file : files) {
    const FileHeader header = read_header(file.name, file.text);
    loaded.push_back({file.name, file.text, header.columns, header.body_start, file.cache_mode});
  }
  RunSet set;
  set.group_by = choose_group_by(loaded, options);
  GroupingParser parser(set);
  for (const LoadedFile& file : loaded) {
    parser.read_body(std::string(file.name), file.data, file.body_start, layout_of(file, set));
    set.files.emplace_back(file.name);
  }
  // A grouped-by input column also names the group's input.
  const std::size_t input_key = set.key_index("input");
  if (input_key != std::string_view::npos) {
    for (Group& g : set.groups) g.input = g.key[input_key];
  }
  return set;
}

}  // namespace iobench::runfile
