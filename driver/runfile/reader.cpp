#include "driver/runfile/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/error.hpp"
#include "driver/runfile/group_by.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/rows.hpp"

namespace iobench::runfile {
namespace {

struct StringHash {
  using is_transparent = void;
  // XXH3 inlined: about twice std::hash's speed on keys of tens of bytes, hashed once a row.
  std::size_t operator()(std::string_view s) const noexcept {
    return XXH3_64bits(s.data(), s.size());
  }
};

// What the grouping does with one column of a file; the row reader parses it.
enum class Role : unsigned char { kSkip, kKey };

struct FileLayout {
  std::vector<Role> roles;
  std::vector<std::size_t> key_column;  // per group-by column: its column in this file, or npos
  std::size_t input_column = RunColumns::npos;
  std::string_view cache_mode;  // the file's cache mode from its meta file, or ""
  // Per group-by column the file has no column of: its value in every row (a condition's, or "").
  std::vector<std::string_view> fixed_value;
};

// Groups the typed rows of run files into one RunSet.
class GroupingParser {
 public:
  explicit GroupingParser(RunSet& set) : set_(set) {}

  void read_body(RowReader& reader, const FileLayout& layout);
  // Gives each group without an ok run its disturbed runs' samples, marked.
  void finish();

 private:
  Group& group_of(std::string_view input, const FileLayout& layout);
  void add_samples(Group& group, const RunRow& row, const FileLayout& layout);

  RunSet& set_;
  std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> index_;
  std::string key_buffer_;
  std::vector<std::string_view> key_values_;
  // Per group index: the samples of its disturbed runs, kept until it is known whether the group
  // has an ok run.
  std::unordered_map<std::size_t, Group> disturbed_;
};

void GroupingParser::read_body(RowReader& reader, const FileLayout& layout) {
  key_values_.assign(set_.group_by.size(), {});
  while (reader.next()) {
    const std::size_t nkeys = key_values_.size();
    for (std::size_t k = 0; k < nkeys; ++k) {
      const std::size_t c = layout.key_column[k];
      key_values_[k] = c == RunColumns::npos ? layout.fixed_value[k] : reader.cell(c);
    }
    const RunRow& row = reader.row();
    const std::string_view input = layout.input_column == RunColumns::npos
                                       ? std::string_view()
                                       : reader.cell(layout.input_column);
    Group& group = group_of(input, layout);
    ++group.rows[static_cast<std::size_t>(row.status)];
    ++set_.rows;
    if (row.status == RunStatus::kOk) {
      add_samples(group, row, layout);
    } else if (row.status == RunStatus::kDisturbed && group.ok_count() == 0) {
      add_samples(disturbed_[static_cast<std::size_t>(&group - set_.groups.data())], row, layout);
    }
  }
}

void GroupingParser::finish() {
  for (auto& [index, stash] : disturbed_) {
    Group& group = set_.groups[index];
    if (group.ok_count() > 0) continue;
    group.samples = std::move(stash.samples);
    group.exit_codes = std::move(stash.exit_codes);
    group.others_cpu_s = std::move(stash.others_cpu_s);
    group.steal_s = std::move(stash.steal_s);
    group.wait_cpu_s = std::move(stash.wait_cpu_s);
    group.cache = stash.cache;
    group.from_disturbed_runs = true;
  }
  disturbed_.clear();
}

// The row's group, by its interned key.
Group& GroupingParser::group_of(std::string_view input, const FileLayout& layout) {
  const bool has_input = layout.input_column != RunColumns::npos;
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
    if (has_input) g.input = std::string(input);
    set_.groups.push_back(std::move(g));
  }
  Group& group = set_.groups[gi];
  if (has_input && !group.mixed_inputs && group.input != input) {
    group.mixed_inputs = true;
  }
  return group;
}

void GroupingParser::add_samples(Group& group, const RunRow& row, const FileLayout& layout) {
  group.samples[index(Metric::kElapsed)].push_back(row.elapsed_s);
  group.samples[index(Metric::kUser)].push_back(row.user_s);
  group.samples[index(Metric::kSystem)].push_back(row.system_s);
  group.samples[index(Metric::kCpuPct)].push_back(row.cpu_pct);
  group.samples[index(Metric::kMem)].push_back(static_cast<double>(row.max_rss_kib));
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    // An empty cell is "not counted": no sample, not 0.
    if (const auto& count = row.counters[c]) {
      group.samples[kTimeMetricCount + c].push_back(static_cast<double>(*count));
    }
  }
  group.exit_codes.push_back(row.exit_code.value_or(0));
  if (row.others_cpu_s) group.others_cpu_s.push_back(*row.others_cpu_s);
  if (row.steal_s) group.steal_s.push_back(*row.steal_s);
  if (row.wait_cpu_s) group.wait_cpu_s.push_back(*row.wait_cpu_s);
  if (layout.cache_mode.empty() || !row.cache_pct) return;
  group.cache.add(layout.cache_mode, *row.cache_pct);
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

std::vector<Metric> RunSet::counter_metrics() const {
  std::vector<Metric> metrics;
  for (std::size_t c = 0; c < kCounterCount; ++c) {
    const Metric m = metric_of(static_cast<Counter>(c));
    if (has_metric[index(m)]) metrics.push_back(m);
  }
  return metrics;
}

namespace {

// What the grouping reads of each column of one file: the group-by columns' text, and the figures
// a summary is made of; the row reader is told to read only those (docs/reports.md, "Speed").
FileLayout layout_of(LoadedFile& file, RunSet& set) {
  const RunColumns& columns = file.reader.columns();
  FileLayout layout;
  layout.cache_mode = file.cache_mode;
  layout.roles.assign(columns.size(), Role::kSkip);
  layout.key_column.assign(set.group_by.size(), RunColumns::npos);
  layout.fixed_value.assign(set.group_by.size(), {});
  for (std::size_t k = 0; k < set.group_by.size(); ++k) {
    // A condition is the file's, but for a column of that name (host: each row's).
    const std::size_t c = condition_index(set.group_by[k]);
    layout.key_column[k] =
        set.group_by[k] == kCacheKey ? RunColumns::npos : columns.find(set.group_by[k]);
    if (layout.key_column[k] != RunColumns::npos) {
      layout.roles[layout.key_column[k]] = Role::kKey;
    } else if (c < kConditionCount) {
      layout.fixed_value[k] = file.conditions[c];
    }
  }
  std::vector<bool> parsed(columns.size(), false);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns.names()[c];
    if (const std::optional<Metric> metric = parse_metric(name)) {
      set.has_metric[index(*metric)] = true;
      parsed[c] = true;
    } else if (name == "others_cpu_s" || name == "steal_s" || name == "wait_cpu_s" ||
               name == "block_io_wait_s") {
      set.has_disturbance = true;
      parsed[c] = true;
    } else {
      // cache_pct only where a cache mode is known to check it against.
      // test too, whose reading refuses an empty name.
      parsed[c] = name == "test" || name == "status" || name == "exit_code" ||
                  (name == "cache_pct" && !layout.cache_mode.empty());
    }
  }
  // The group-by columns and the input are wanted as text: no copy into the row.
  layout.input_column = columns.find(column("input"));
  std::vector<bool> text(columns.size(), false);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    text[c] = layout.roles[c] == Role::kKey || c == layout.input_column;
  }
  file.reader.select(parsed, text);
  return layout;
}

}  // namespace

namespace {

// Groups the loaded files into `set`, whose group_by is chosen.
void group_files(std::vector<LoadedFile>& loaded, RunSet& set) {
  GroupingParser parser(set);
  for (LoadedFile& file : loaded) {
    const FileLayout layout = layout_of(file, set);
    parser.read_body(file.reader, layout);
    set.files.push_back(file.reader.name());
    const bool filtered = file.meta != nullptr && file.meta->options;
    set.filters.push_back(filtered ? file.meta->options->filter : std::string());
    set.baselines.push_back(file.meta != nullptr ? file.meta->baseline() : std::string());
  }
  parser.finish();
  // A grouped-by input column also names the group's input.
  const std::size_t input_key = set.key_index("input");
  if (input_key != std::string_view::npos) {
    for (Group& g : set.groups) g.input = g.key[input_key];
  }
  mark_unverified(loaded, set);
}

std::vector<LoadedFile> load_all(const std::vector<RunFileView>& files) {
  std::vector<LoadedFile> loaded;
  loaded.reserve(files.size());
  for (const RunFileView& file : files) loaded.push_back(load(file));
  return loaded;
}

}  // namespace

ReadOptions cell_grouping() {
  ReadOptions options;
  options.default_columns = {"test", "input", "sink"};
  options.allow_missing_columns = true;  // GNU time files have neither input nor sink
  return options;
}

RunSet parse_run_views(const std::vector<RunFileView>& files, const ReadOptions& options) {
  if (files.empty()) throw Error("no run files given");
  std::vector<LoadedFile> loaded = load_all(files);
  RunSet set;
  set.group_by = choose_group_by(loaded, options, set);
  group_files(loaded, set);
  return set;
}

std::vector<RunSet> parse_run_sides(const std::vector<std::vector<RunFileView>>& sides,
                                    const ReadOptions& options) {
  std::vector<std::vector<LoadedFile>> loaded;
  std::vector<LoadedFile> headers;  // every side's files, for the group-by
  for (const auto& side : sides) {
    if (side.empty()) throw Error("no run files given");
    loaded.push_back(load_all(side));
    for (const RunFileView& file : side) headers.push_back(load(file));
  }
  RunSet chosen;
  chosen.group_by = choose_group_by(headers, options, chosen);
  std::vector<RunSet> sets(sides.size());
  for (std::size_t s = 0; s < sides.size(); ++s) {
    sets[s].group_by = chosen.group_by;
    sets[s].split_by = chosen.split_by;
    group_files(loaded[s], sets[s]);
  }
  return sets;
}

}  // namespace iobench::runfile
