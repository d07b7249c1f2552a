#include "driver/runfile/group_by.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "common/error.hpp"
#include "common/size.hpp"
#include "driver/runfile/config_strategies.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::runfile {
namespace {

constexpr std::array<std::string_view, 4> kDefaultGroupBy{"test", "input", "sink", "host"};

}  // namespace

std::size_t condition_index(std::string_view key) {
  return static_cast<std::size_t>(std::find(kConditionKeys.begin(), kConditionKeys.end(), key) -
                                  kConditionKeys.begin());
}

// The file's conditions as its meta file records them.
LoadedFile load(const RunFileView& file) {
  LoadedFile l{RowReader(file.name, file.text), file.cache_mode, file.meta, {}, false};
  l.conditions[condition_index(kCacheKey)] = file.cache_mode;
  const RunMeta* meta = file.meta;
  if (meta == nullptr) return l;
  l.conditions[condition_index("host")] =
      meta->context ? meta->context->host : meta->host.value_or("");
  l.several_hosts = meta->hosts.size() > 1;
  if (meta->context) l.conditions[condition_index("build")] = meta->context->build;
  if (meta->counters) {
    l.conditions[condition_index("counters")] =
        fmt::format("{}", fmt::join(meta->counters->counted, ","));
  }
  if (meta->end && meta->end->pipe_size_given_bytes) {
    l.conditions[condition_index("pipe_size")] = format_size(*meta->end->pipe_size_given_bytes);
  }
  return l;
}

namespace {

bool has_column(const LoadedFile& file, std::string_view column) {
  return file.reader.columns().has(column);
}

// Whether the files differ in condition c. An unknown cache mode or host differs from a known one
// (a GNU time file beside a run's); a build, counters or pipe size that an older meta file or a
// run without a pipe sink does not record differs from none.
bool files_differ(const std::vector<LoadedFile>& loaded, std::size_t c) {
  if (kConditionKeys[c] == "host" &&
      std::any_of(loaded.begin(), loaded.end(),
                  [](const LoadedFile& l) { return l.several_hosts; }))
    return true;
  const bool unknown_differs = kConditionKeys[c] == kCacheKey || kConditionKeys[c] == "host";
  const std::string* first = nullptr;
  for (const LoadedFile& l : loaded) {
    if (!unknown_differs && l.conditions[c].empty()) continue;
    if (first == nullptr) first = &l.conditions[c];
    if (l.conditions[c] != *first) return true;
  }
  return false;
}

// The default group-by: the default columns, then each condition the files differ in. Runs of
// another cache state, host or build are never pooled by default (a warm 12 ms and a cold 84 ms
// make a median of neither).
std::vector<std::string> default_group_by(const std::vector<LoadedFile>& loaded,
                                          const ReadOptions& options, RunSet& set) {
  const auto present_anywhere = [&](std::string_view column) {
    return std::any_of(loaded.begin(), loaded.end(),
                       [&](const LoadedFile& l) { return has_column(l, column); });
  };
  std::vector<std::string> group_by;
  if (options.default_columns.empty()) {
    for (std::string_view column : kDefaultGroupBy) {
      if (present_anywhere(column)) group_by.emplace_back(column);
    }
  } else {
    for (const std::string& column : options.default_columns) {
      if (options.allow_missing_columns || present_anywhere(column)) group_by.push_back(column);
    }
  }
  for (std::size_t c = 0; c < kConditionCount; ++c) {
    if (!files_differ(loaded, c)) continue;
    set.split_by.emplace_back(kConditionKeys[c]);
    if (std::find(group_by.begin(), group_by.end(), kConditionKeys[c]) == group_by.end()) {
      group_by.emplace_back(kConditionKeys[c]);
    }
  }
  return group_by;
}

}  // namespace

std::vector<std::string> choose_group_by(const std::vector<LoadedFile>& loaded,
                                         const ReadOptions& options, RunSet& set) {
  if (options.group_by.empty()) return default_group_by(loaded, options, set);
  std::vector<std::string> group_by;
  for (const auto& column : options.group_by) {
    if (std::find(group_by.begin(), group_by.end(), column) != group_by.end()) {
      throw Error(fmt::format("--group-by: column '{}' named twice", column));
    }
    const bool condition = condition_index(column) < kConditionCount;
    if (!options.allow_missing_columns && !condition &&
        !std::any_of(loaded.begin(), loaded.end(),
                     [&](const LoadedFile& l) { return has_column(l, column); })) {
      throw Error(fmt::format("--group-by: no file has a column '{}' (the first has: {})", column,
                              fmt::join(loaded.front().reader.columns().names(), " ")));
    }
    group_by.push_back(column);
  }
  return group_by;
}

// Marks each group whose test some file's config says `"verify": false` of: its config read once
// a file, each test once.
void mark_unverified(const std::vector<LoadedFile>& loaded, RunSet& set) {
  const std::size_t test_key = set.key_index("test");
  if (test_key == std::string_view::npos) return;
  for (const LoadedFile& file : loaded) {
    if (file.meta == nullptr || !file.meta->config.is_object()) continue;
    const nlohmann::json config(file.meta->config);  // ordered as written; matched alike
    std::unordered_map<std::string_view, bool> verified;
    for (Group& g : set.groups) {
      const auto [it, inserted] = verified.try_emplace(g.key[test_key], true);
      if (inserted) it->second = is_verified(config, g.key[test_key]);
      if (!it->second) g.unverified = true;
    }
  }
}

}  // namespace iobench::runfile
