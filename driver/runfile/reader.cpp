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

#include "common/error.hpp"
#include "driver/runfile/header.hpp"
#include "driver/runfile/numbers.hpp"

namespace iobench::results {
namespace {

constexpr std::array<std::string_view, 4> kDefaultGroupBy{"test", "input", "sink", "host"};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

// What the parser does with one column of a file.
enum class Role : unsigned char { kSkip, kKey, kMetric, kStatus, kExitCode, kInput, kCachePct };

struct Column {
  Role role = Role::kSkip;
  std::size_t slot = 0;  // key position or metric index
  std::string_view name;
};

struct FileLayout {
  std::vector<Column> columns;
  std::size_t last_needed = 0;  // highest column index that is read
  std::vector<bool> has_key;    // per group-by column: does this file have it
  std::string_view cache_mode;  // the file's cache mode from its meta file, or ""
};

// Parses the rows of run files into the groups of one RunSet.
class GroupingParser {
 public:
  explicit GroupingParser(RunSet& set) : set_(set), test_key_(set.key_index("test")) {}

  void read_body(const std::string& file, std::string_view data, std::size_t body_start,
                 const FileLayout& layout);

 private:
  [[noreturn]] void fail(const std::string& file, std::size_t line, std::string_view column,
                         const std::string& what) const {
    throw Error(fmt::format("{}:{}: column '{}': {}", file, line, column, what));
  }

  RunSet& set_;
  std::size_t test_key_;
  std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> index_;
  std::string key_buffer_;
};

void GroupingParser::read_body(const std::string& file, std::string_view data,
                               std::size_t body_start, const FileLayout& layout) {
  const std::size_t ncols = layout.columns.size();
  const std::size_t nkeys = set_.group_by.size();
  std::vector<std::string_view> fields(layout.last_needed + 1);
  std::vector<std::string_view> key_values(nkeys);
  std::size_t line_no = 1;
  std::size_t pos = body_start;
  const std::size_t size = data.size();
  const char* const end = data.data() + size;
  while (pos < size) {
    ++line_no;
    // One pass over the line: the fields up to the last one we read, then the tabs of the rest.
    const char* const line_begin = data.data() + pos;
    const char* p = line_begin;
    const char* field_begin = p;
    std::size_t count = 0;
    while (p != end && *p != '\n') {
      if (*p == '\t') {
        fields[count] = std::string_view(field_begin, static_cast<std::size_t>(p - field_begin));
        ++count;
        field_begin = p + 1;
        if (count > layout.last_needed) {
          // The rest of the line is only counted: memchr and a vectorised count are faster.
          const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
          const char* stop = nl ? static_cast<const char*>(nl) : end;
          const auto tabs = std::count(field_begin, stop, '\t');
          count += static_cast<std::size_t>(tabs);
          if (tabs > 0) {
            const void* last_tab =
                ::memrchr(field_begin, '\t', static_cast<std::size_t>(stop - field_begin));
            field_begin = static_cast<const char*>(last_tab) + 1;
          }
          p = stop;
          break;
        }
      }
      ++p;
    }
    const char* line_end = p;
    pos = static_cast<std::size_t>(p - data.data()) + 1;
    if (line_end != line_begin && line_end[-1] == '\r') --line_end;  // CRLF
    if (line_end == line_begin && count == 0) continue;              // blank line
    if (line_end < field_begin) line_end = field_begin;  // a '\r' right after the last tab
    if (count <= layout.last_needed) {
      fields[count] =
          std::string_view(field_begin, static_cast<std::size_t>(line_end - field_begin));
    }
    ++count;
    if (count != ncols) {
      throw Error(fmt::format(
          "{}:{}: {} fields, but the header has {} columns{}", file, line_no, count, ncols,
          count < ncols ? fmt::format(" (column '{}' is missing)", layout.columns[count].name)
                        : ""));
    }

    // Status first: non-ok rows are counted, not measured.
    std::size_t status = 0;
    std::string_view input_value;
    bool has_input = false;
    std::string_view cache_field;
    int exit_code = 0;
    for (std::size_t c = 0; c <= layout.last_needed; ++c) {
      const Column& col = layout.columns[c];
      switch (col.role) {
        case Role::kStatus: {
          const auto parsed = parse_run_status(fields[c]);
          if (!parsed) {
            fail(file, line_no, col.name,
                 fmt::format("unknown status '{}' (ok, failed, signal, timeout, mismatch, error)",
                             fields[c]));
          }
          status = static_cast<std::size_t>(*parsed);
          break;
        }
        case Role::kKey:
          key_values[col.slot] = fields[c];
          break;
        case Role::kInput:
          input_value = fields[c];
          has_input = true;
          break;
        case Role::kCachePct:
          cache_field = fields[c];
          break;
        case Role::kExitCode: {
          const std::string_view f = fields[c];
          if (!f.empty()) {
            const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), exit_code);
            if (ec != std::errc() || ptr != f.data() + f.size()) {
              fail(file, line_no, col.name, fmt::format("'{}' is not an integer", f));
            }
          }
          break;
        }
        default:
          break;
      }
    }
    for (std::size_t k = 0; k < nkeys; ++k) {
      if (!layout.has_key[k]) key_values[k] = {};
    }
    if (test_key_ < nkeys && layout.has_key[test_key_] && key_values[test_key_].empty()) {
      fail(file, line_no, "test", "empty test name");
    }

    // The group, by its interned key.
    key_buffer_.clear();
    for (std::size_t k = 0; k < nkeys; ++k) {
      key_buffer_.append(key_values[k]);
      key_buffer_.push_back('\x1f');
    }
    std::size_t gi;
    const auto found = index_.find(std::string_view(key_buffer_));
    if (found != index_.end()) {
      gi = found->second;
    } else {
      gi = set_.groups.size();
      index_.emplace(key_buffer_, gi);
      Group g;
      g.key.reserve(nkeys);
      for (std::size_t k = 0; k < nkeys; ++k) g.key.emplace_back(key_values[k]);
      if (has_input) g.input = std::string(input_value);
      set_.groups.push_back(std::move(g));
    }
    Group& group = set_.groups[gi];
    if (has_input && !group.mixed_inputs && group.input != input_value) group.mixed_inputs = true;
    ++group.rows[status];
    ++set_.rows;

    // Metrics: every field must be a number; ok rows must have them all.
    std::array<double, kMetricCount> values{};
    std::array<bool, kMetricCount> present{};
    for (std::size_t c = 0; c <= layout.last_needed; ++c) {
      const Column& col = layout.columns[c];
      if (col.role != Role::kMetric) continue;
      std::string_view f = fields[c];
      if (f.empty()) {
        // An empty counter cell is "not counted"; an empty time cell is not allowed on ok rows.
        if (status == 0 && col.slot < kTimeMetricCount) {
          fail(file, line_no, col.name, "empty, but the run's status is ok");
        }
        continue;
      }
      double v = 0;
      bool ok;
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
        fail(file, line_no, col.name,
             fmt::format("'{}' is not a {}", fields[c],
                         col.slot >= kTimeMetricCount         ? "count"
                         : col.slot == index(Metric::kMem)    ? "size in KiB"
                         : col.slot == index(Metric::kCpuPct) ? "percentage"
                                                              : "time in seconds"));
      }
      values[col.slot] = v;
      present[col.slot] = true;
    }
    if (status != 0) continue;
    double& cpu = values[index(Metric::kCpuPct)];
    if (std::isnan(cpu)) {
      const double elapsed = values[index(Metric::kElapsed)];
      cpu = elapsed > 0
                ? (values[index(Metric::kUser)] + values[index(Metric::kSystem)]) / elapsed * 100
                : 0;
    }
    for (std::size_t m = 0; m < kMetricCount; ++m) {
      if (m < kTimeMetricCount || present[m]) group.samples[m].push_back(values[m]);
    }
    group.exit_codes.push_back(exit_code);
    double cache_pct = 0;
    if (!layout.cache_mode.empty() && !cache_field.empty() &&
        parse_double(cache_field, cache_pct)) {
      group.cache.add(layout.cache_mode, cache_pct);
    }
  }
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

RunSet parse_runs(std::string_view text, std::string name, const ReadOptions& options) {
  std::vector<RunFileText> texts;
  texts.push_back({std::move(name), std::string(text), ""});
  return parse_runs(texts, options);
}

RunSet parse_runs(const std::vector<RunFileText>& files, const ReadOptions& options) {
  RunSet set;
  if (files.empty()) throw Error("no run files given");
  struct Loaded {
    std::string_view name;
    std::string_view data;
    std::vector<std::string_view> header;
    std::size_t body_start = 0;
    std::string_view cache_mode;
  };
  std::vector<Loaded> loaded;
  loaded.reserve(files.size());
  for (const RunFileText& file : files) {
    Loaded l;
    l.name = file.name;
    l.data = file.text;
    l.cache_mode = file.cache_mode;
    const FileHeader header = read_header(l.name, l.data);
    l.header = header.columns;
    l.body_start = header.body_start;
    loaded.push_back(std::move(l));
  }

  const auto present_anywhere = [&](std::string_view column) {
    return std::any_of(loaded.begin(), loaded.end(), [&](const Loaded& l) {
      return std::find(l.header.begin(), l.header.end(), column) != l.header.end();
    });
  };
  if (options.group_by.empty()) {
    for (std::string_view column : kDefaultGroupBy) {
      if (present_anywhere(column)) set.group_by.emplace_back(column);
    }
  } else {
    for (const auto& column : options.group_by) {
      if (std::find(set.group_by.begin(), set.group_by.end(), column) != set.group_by.end()) {
        throw Error(fmt::format("--group-by: column '{}' named twice", column));
      }
      if (!options.allow_missing_columns && !present_anywhere(column)) {
        throw Error(fmt::format("--group-by: no file has a column '{}' (the first has: {})", column,
                                fmt::join(loaded.front().header, " ")));
      }
      set.group_by.push_back(column);
    }
  }

  GroupingParser parser(set);
  for (const Loaded& l : loaded) {
    FileLayout layout;
    layout.cache_mode = l.cache_mode;
    layout.columns.resize(l.header.size());
    layout.has_key.assign(set.group_by.size(), false);
    for (std::size_t c = 0; c < l.header.size(); ++c) {
      Column& col = layout.columns[c];
      col.name = l.header[c];
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
      }
      if (col.role != Role::kSkip) layout.last_needed = c;
    }
    parser.read_body(std::string(l.name), l.data, l.body_start, layout);
    set.files.emplace_back(l.name);
  }
  // A grouped-by input column also names the group's input.
  const std::size_t input_key = set.key_index("input");
  if (input_key != std::string_view::npos) {
    for (Group& g : set.groups) g.input = g.key[input_key];
  }
  return set;
}

}  // namespace iobench::results
