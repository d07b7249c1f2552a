#pragma once
// The reader's choice of group-by (reader.hpp, ReadOptions): the run files with the conditions
// their meta files record (kConditionKeys), which of them the files differ in, and the columns
// the groups are keyed by; and the marks a file's config gives its tests. Internal to the reader.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/reader.hpp"
#include "driver/runfile/rows.hpp"

namespace iobench::runfile {

inline constexpr std::size_t kConditionCount = kConditionKeys.size();

struct LoadedFile {
  RowReader reader;
  std::string_view cache_mode;
  const RunMeta* meta = nullptr;
  std::array<std::string, kConditionCount> conditions;  // each kConditionKeys' value, "" unknown
  bool several_hosts = false;                           // a merged file of several hosts' runs
};

// Position of `key` in kConditionKeys; kConditionCount when it is no condition.
std::size_t condition_index(std::string_view key);
// The file's reader and the conditions its meta file records.
LoadedFile load(const RunFileView& file);
// The group-by columns, explicit (checked) or the default; the default's conditions the files
// differ in go to set.split_by too. Throws iobench::Error for a bad --group-by.
std::vector<std::string> choose_group_by(const std::vector<LoadedFile>& loaded,
                                         const ReadOptions& options, RunSet& set);
// Marks each group whose test some file's config says `"verify": false` of (Group::unverified).
void mark_unverified(const std::vector<LoadedFile>& loaded, RunSet& set);

}  // namespace iobench::runfile
