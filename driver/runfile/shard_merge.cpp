#include "driver/runfile/shard_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "common/error.hpp"
#include "driver/runfile/load.hpp"
#include "driver/runfile/rows.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;

// A run file and its record; the record has a matrix block.
struct Shard {
  fs::path runs;
  RunMeta meta;
  const Matrix& matrix() const { return *meta.matrix; }
};

std::string cell_text(const CellName& cell) {
  return fmt::format("test {}, input {}, sink {}", cell.test, cell.input, cell.sink);
}

// "2" or "1-3" or "1,3".
std::string repeats_text(const std::vector<int>& repeats) {
  std::string text;
  for (std::size_t i = 0; i < repeats.size();) {
    std::size_t j = i;
    while (j + 1 < repeats.size() && repeats[j + 1] == repeats[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += j == i ? std::to_string(repeats[i]) : fmt::format("{}-{}", repeats[i], repeats[j]);
    i = j + 1;
  }
  return text;
}

// The shard's record, or the problem that makes it a foreign file.
std::optional<Shard> read_shard(const fs::path& runs, std::vector<std::string>& problems) {
  const fs::path meta_path = meta_path_for(runs);
  try {
    std::optional<RunMeta> meta = read_meta_for(runs);
    if (!meta) {
      problems.push_back(
          fmt::format("{}: foreign file: no meta file {} (merge takes run files of `iobench run`)",
                      runs.string(), meta_path.string()));
      return std::nullopt;
    }
    if (!meta->matrix) throw Error("no matrix block");
    return Shard{runs, std::move(*meta)};
  } catch (const Error& e) {
    problems.push_back(
        fmt::format("{}: foreign file: its meta file {} has no usable matrix block ({})",
                    runs.string(), meta_path.string(), e.what()));
    return std::nullopt;
  }
}

// Step 1: every file is a shard of the first file's matrix, and each shard comes once.
std::vector<Shard> read_shards(const std::vector<fs::path>& runs_files,
                               std::vector<std::string>& problems) {
  std::vector<Shard> shards;
  for (const auto& runs : runs_files) {
    std::optional<Shard> shard = read_shard(runs, problems);
    if (!shard) continue;
    if (!shards.empty()) {
      const Shard& first = shards.front();
      if (shard->matrix().hash != first.matrix().hash) {
        problems.push_back(fmt::format(
            "{}: foreign file: matrix hash {} differs from {}'s {} (another config, filter or "
            "repeat count)",
            runs.string(), shard->matrix().hash, first.runs.string(), first.matrix().hash));
        continue;
      }
      if (shard->matrix().shard.count != first.matrix().shard.count) {
        problems.push_back(fmt::format("{}: shard {}, but {} is one of {} shards", runs.string(),
                                       shard->matrix().shard.text(), first.runs.string(),
                                       first.matrix().shard.count));
        continue;
      }
    }
    const auto same = std::find_if(shards.begin(), shards.end(), [&](const Shard& s) {
      return s.matrix().shard == shard->matrix().shard;
    });
    if (same != shards.end()) {
      // A second file of the same shard is reported once, and its rows are not read.
      problems.push_back(fmt::format("{}: duplicate: shard {} is also {}", runs.string(),
                                     shard->matrix().shard.text(), same->runs.string()));
      continue;
    }
    shards.push_back(std::move(*shard));
  }
  return shards;
}

void report_missing_shards(const std::map<int, const Shard*>& by_number, const Matrix& matrix,
                           std::vector<std::string>& problems) {
  const auto count = static_cast<std::size_t>(matrix.shard.count);
  for (int k = 1; k <= matrix.shard.count; ++k) {
    if (by_number.count(k) != 0) continue;
    std::size_t cells = 0;
    for (auto c = static_cast<std::size_t>(k - 1); c < matrix.cells.size(); c += count) ++cells;
    problems.push_back(fmt::format("missing: shard {}/{} ({} cells x {} repeats): no file given", k,
                                   matrix.shard.count, cells, matrix.repeats));
  }
}

// Step 2: every row is a (cell, repeat) of its own shard, and comes once.
class RowCheck {
 public:
  RowCheck(const Matrix& matrix, MergedShards& merged, std::string first_file)
      : matrix_(matrix), merged_(merged), first_file_(std::move(first_file)) {
    for (std::size_t c = 0; c < matrix.cells.size(); ++c) {
      const CellName& cell = matrix.cells[c];
      cell_index_.emplace(std::make_tuple(cell.test, cell.input, cell.sink), c);
    }
  }

  // Appends the shard's rows to the merged text; returns its entry of merged_from. A row the
  // reader refuses is a problem, as is every other fault of a shard.
  MergedShard add(const Shard& shard) {
    MergedShard entry{
        shard.runs.string(), shard.matrix().shard, shard.meta.host.value_or(""), {}, 0};
    const RunFileData data = load_run_file(shard.runs);
    if (data.text().empty()) {
      problem(fmt::format("{}: empty file, not a run file", shard.runs.string()));
      return entry;
    }
    std::set<std::string> row_hosts;
    try {
      RowReader reader(shard.runs.string(), data.text());
      if (!read_columns(shard, reader.columns())) return entry;
      while (reader.next()) {
        const std::string where = fmt::format("{}:{}", shard.runs.string(), reader.line());
        if (!add_row(shard, reader, where)) continue;
        ++entry.rows;
        const std::string& host = reader.row().host;
        row_hosts.insert(host);
        if (hosts_seen_.insert(host).second) merged_.hosts.push_back(host);
      }
    } catch (const Error& e) {
      problem(e.what());
    }
    entry.row_hosts.assign(row_hosts.begin(), row_hosts.end());
    merged_.rows += entry.rows;
    return entry;
  }

  // (cell, repeat) pairs of the shards given that no row had.
  void report_missing_rows(const std::map<int, const Shard*>& by_number) {
    const auto count = static_cast<std::size_t>(matrix_.shard.count);
    for (std::size_t c = 0; c < matrix_.cells.size(); ++c) {
      const int owner = static_cast<int>(c % count) + 1;
      if (by_number.count(owner) == 0) continue;  // its whole shard is reported missing
      std::vector<int> missing;
      for (int r = 1; r <= matrix_.repeats; ++r) {
        if (seen_.count({c, r}) == 0) missing.push_back(r);
      }
      if (missing.empty()) continue;
      problem(fmt::format("missing: {} repeat {} (shard {}/{}, {})", cell_text(matrix_.cells[c]),
                          repeats_text(missing), owner, matrix_.shard.count,
                          by_number.at(owner)->runs.string()));
    }
  }

  const std::string& header() const { return header_; }

 private:
  void problem(std::string text) { merged_.problems.push_back(std::move(text)); }

  bool read_columns(const Shard& shard, const RunColumns& columns) {
    const std::string header = fmt::format("{}", fmt::join(columns.names(), "\t"));
    if (header_.empty()) {
      header_ = header;
    } else if (header != header_) {
      problem(fmt::format("{}: its header differs from {}'s (other columns)", shard.runs.string(),
                          first_file_));
      return false;
    }
    bool usable = true;
    for (const char* name : {"test", "input", "sink", "repeat", "host"}) {
      if (columns.has(name)) continue;
      problem(fmt::format("{}: foreign file: no '{}' column", shard.runs.string(), name));
      usable = false;
    }
    return usable;
  }

  bool add_row(const Shard& shard, const RowReader& reader, const std::string& where) {
    const RunRow& row = reader.row();
    const CellName cell{row.test, row.input, row.sink};
    const int repeat = row.repeat;
    const auto found = cell_index_.find(std::make_tuple(cell.test, cell.input, cell.sink));
    if (found == cell_index_.end() || repeat < 1 || repeat > matrix_.repeats) {
      problem(fmt::format("{}: extra: {} repeat {} is not in the matrix", where, cell_text(cell),
                          repeat));
      return false;
    }
    const int owner =
        static_cast<int>(found->second % static_cast<std::size_t>(matrix_.shard.count)) + 1;
    if (owner != shard.matrix().shard.number) {
      problem(fmt::format("{}: extra: {} belongs to shard {}/{}, not {}", where, cell_text(cell),
                          owner, matrix_.shard.count, shard.matrix().shard.text()));
      return false;
    }
    // A disturbed row and its re-run share the repeat number (docs/driver.md, "Disturbance"):
    // only the re-run claims it.
    const bool disturbed = row.status == RunStatus::kDisturbed;
    const auto [it, fresh] = disturbed
                                 ? std::make_pair(seen_.end(), true)
                                 : seen_.emplace(std::make_pair(found->second, repeat), where);
    if (!fresh) {
      problem(fmt::format("{}: duplicate: {} repeat {} is also at {}", where, cell_text(cell),
                          repeat, it->second));
      return false;
    }
    merged_.runs_text += reader.text();
    merged_.runs_text += '\n';
    return true;
  }

  const Matrix& matrix_;
  MergedShards& merged_;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> cell_index_;
  std::map<std::pair<std::size_t, int>, std::string> seen_;  // (cell, repeat) -> file:line
  std::string first_file_;  // the first shard's, whose header the others must have
  std::string header_;
  std::set<std::string> hosts_seen_;
};

// The merged file's record: the first shard's matrix (now 1/1) and config, every shard, the hosts.
RunMeta merged_record(const Shard& first, std::vector<MergedShard> shards,
                      const MergedShards& merged) {
  RunMeta meta;
  meta.matrix = first.matrix();
  meta.matrix->shard = ShardId{};
  meta.matrix->shard_source.reset();
  meta.config_file = first.meta.config_file;
  meta.config = first.meta.config;
  meta.merged_from = std::move(shards);
  meta.hosts = merged.hosts;
  meta.rows = merged.rows;
  return meta;
}

}  // namespace

MergedShards merge_shards(const std::vector<fs::path>& runs_files) {
  MergedShards merged;
  std::vector<Shard> shards = read_shards(runs_files, merged.problems);
  if (shards.empty()) {
    if (merged.problems.empty()) merged.problems.push_back("no shard files given");
    return merged;
  }
  const Shard& first = shards.front();
  std::map<int, const Shard*> by_number;
  for (const Shard& shard : shards) by_number.emplace(shard.matrix().shard.number, &shard);
  report_missing_shards(by_number, first.matrix(), merged.problems);

  RowCheck rows(first.matrix(), merged, first.runs.string());
  std::vector<MergedShard> entries;
  entries.reserve(shards.size());
  for (const Shard& shard : shards) entries.push_back(rows.add(shard));
  rows.report_missing_rows(by_number);
  if (!merged.problems.empty()) {
    merged.runs_text.clear();  // nothing of a failed merge may be written
    merged.rows = 0;
    return merged;
  }
  merged.runs_text.insert(0, rows.header() + '\n');
  merged.meta = merged_record(first, std::move(entries), merged);
  merged.baseline = first.meta.baseline();
  return merged;
}

}  // namespace iobench::runfile
