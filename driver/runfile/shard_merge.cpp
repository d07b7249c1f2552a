#include "driver/runfile/shard_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "common/error.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;

// What a shard's meta file says about its matrix.
struct ShardMeta {
  std::string hash;
  int index = 0;  // 1-based K of K/N
  int count = 0;  // N
  int repeats = 0;
  std::vector<std::tuple<std::string, std::string, std::string>> cells;  // test, input, sink
  std::string host;
  nlohmann::ordered_json whole;
};

struct Shard {
  fs::path runs;
  ShardMeta meta;
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

bool parse_shard_text(const std::string& text, int& index, int& count) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  const char* end = text.data() + text.size();
  return std::from_chars(text.data(), text.data() + slash, index).ptr == text.data() + slash &&
         std::from_chars(text.data() + slash + 1, end, count).ptr == end && count >= 1 &&
         index >= 1 && index <= count;
}

// Reads the meta file's matrix block; returns the problem or "".
std::string read_shard_meta(const fs::path& runs, ShardMeta& meta) {
  const fs::path meta_path = meta_path_for(runs);
  std::ifstream in(meta_path);
  if (!in) {
    return fmt::format("{}: foreign file: no meta file {} (merge takes run files of `iobench run`)",
                       runs.string(), meta_path.string());
  }
  try {
    meta.whole = nlohmann::ordered_json::parse(in);
    const auto& matrix = meta.whole.at("matrix");
    meta.hash = matrix.at("hash").get<std::string>();
    meta.repeats = matrix.at("repeats").get<int>();
    if (!parse_shard_text(matrix.at("shard").get<std::string>(), meta.index, meta.count)) {
      return fmt::format("{}: matrix.shard is '{}', not K/N", meta_path.string(),
                         matrix.at("shard").get<std::string>());
    }
    for (const auto& cell : matrix.at("cells")) {
      meta.cells.emplace_back(cell.at(0).get<std::string>(), cell.at(1).get<std::string>(),
                              cell.at(2).get<std::string>());
    }
    meta.host = meta.whole.value("host", std::string());
  } catch (const nlohmann::json::exception& e) {
    return fmt::format("{}: foreign file: its meta file {} has no usable matrix block ({})",
                       runs.string(), meta_path.string(), e.what());
  }
  return {};
}

std::string cell_text(const std::tuple<std::string, std::string, std::string>& cell) {
  return fmt::format("test {}, input {}, sink {}", std::get<0>(cell), std::get<1>(cell),
                     std::get<2>(cell));
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

}  // namespace

fs::path meta_path_for(const fs::path& runs_file) {
  const fs::path folder = runs_file.has_parent_path() ? runs_file.parent_path() : fs::path(".");
  return folder / "meta" / (runs_file.stem().string() + ".json");
}

fs::path medians_path_for(const fs::path& runs_file) {
  const fs::path folder = runs_file.has_parent_path() ? runs_file.parent_path() : fs::path(".");
  return folder / "medians" / (runs_file.stem().string() + ".tsv");
}

MergedShards merge_shards(const std::vector<fs::path>& runs_files) {
  MergedShards merged;
  auto& problems = merged.problems;

  // 1. Every file is a shard of the first file's matrix, and each shard comes once.
  std::vector<Shard> shards;
  for (const auto& runs : runs_files) {
    Shard shard{runs, {}};
    if (std::string problem = read_shard_meta(runs, shard.meta); !problem.empty()) {
      problems.push_back(std::move(problem));
      continue;
    }
    if (!shards.empty()) {
      const Shard& first = shards.front();
      if (shard.meta.hash != first.meta.hash) {
        problems.push_back(fmt::format(
            "{}: foreign file: matrix hash {} differs from {}'s {} (another config, filter or "
            "repeat count)",
            runs.string(), shard.meta.hash, first.runs.string(), first.meta.hash));
        continue;
      }
      if (shard.meta.count != first.meta.count) {
        problems.push_back(fmt::format("{}: shard {}/{}, but {} is one of {} shards", runs.string(),
                                       shard.meta.index, shard.meta.count, first.runs.string(),
                                       first.meta.count));
        continue;
      }
    }
    shards.push_back(std::move(shard));
  }
  if (shards.empty()) {
    if (problems.empty()) problems.push_back("no shard files given");
    return merged;
  }
  // A second file of the same shard is reported once, and its rows are not read.
  std::vector<Shard> unique_shards;
  for (Shard& shard : shards) {
    const auto same = std::find_if(unique_shards.begin(), unique_shards.end(), [&](const Shard& s) {
      return s.meta.index == shard.meta.index;
    });
    if (same != unique_shards.end()) {
      problems.push_back(fmt::format("{}: duplicate: shard {}/{} is also {}", shard.runs.string(),
                                     shard.meta.index, shard.meta.count, same->runs.string()));
      continue;
    }
    unique_shards.push_back(std::move(shard));
  }
  shards = std::move(unique_shards);
  const ShardMeta& matrix = shards.front().meta;
  std::map<int, const Shard*> by_index;
  for (const Shard& shard : shards) by_index.emplace(shard.meta.index, &shard);
  for (int k = 1; k <= matrix.count; ++k) {
    if (by_index.count(k) == 0) {
      std::size_t cells = 0;
      for (std::size_t c = static_cast<std::size_t>(k - 1); c < matrix.cells.size();
           c += static_cast<std::size_t>(matrix.count)) {
        ++cells;
      }
      problems.push_back(fmt::format("missing: shard {}/{} ({} cells x {} repeats): no file given",
                                     k, matrix.count, cells, matrix.repeats));
    }
  }

  // 2. Every row is a (cell, repeat) of its own shard, and comes once.
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> cell_index;
  for (std::size_t c = 0; c < matrix.cells.size(); ++c) cell_index.emplace(matrix.cells[c], c);
  std::map<std::pair<std::size_t, int>, std::string> seen;  // (cell, repeat) -> file:line
  std::string header;
  std::set<std::string> hosts_seen;
  nlohmann::ordered_json shard_list = nlohmann::ordered_json::array();
  for (const Shard& shard : shards) {
    std::ifstream in(shard.runs);
    if (!in) throw Error(fmt::format("{}: cannot read the run file", shard.runs.string()));
    std::string line;
    if (!std::getline(in, line)) {
      problems.push_back(fmt::format("{}: empty file, not a run file", shard.runs.string()));
      continue;
    }
    const std::vector<std::string> columns = split_tabs(line);
    if (header.empty()) {
      header = line;
    } else if (line != header) {
      problems.push_back(fmt::format("{}: its header differs from {}'s (other columns)",
                                     shard.runs.string(), shards.front().runs.string()));
      continue;
    }
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < columns.size(); ++i) column.emplace(columns[i], i);
    for (const char* name : {"test", "input", "sink", "repeat", "host"}) {
      if (column.count(name) == 0) {
        problems.push_back(
            fmt::format("{}: foreign file: no '{}' column", shard.runs.string(), name));
      }
    }
    if (column.size() != columns.size() || column.count("host") == 0 ||
        column.count("repeat") == 0 || column.count("test") == 0 || column.count("input") == 0 ||
        column.count("sink") == 0) {
      continue;
    }
    std::size_t rows = 0;
    std::set<std::string> shard_hosts;
    for (std::size_t line_number = 2; std::getline(in, line); ++line_number) {
      if (line.empty()) continue;
      const std::string where = fmt::format("{}:{}", shard.runs.string(), line_number);
      const std::vector<std::string> fields = split_tabs(line);
      if (fields.size() != columns.size()) {
        problems.push_back(fmt::format("{}: {} fields where the header has {}", where,
                                       fields.size(), columns.size()));
        continue;
      }
      const auto key =
          std::make_tuple(fields[column["test"]], fields[column["input"]], fields[column["sink"]]);
      int repeat = 0;
      const std::string& repeat_text = fields[column["repeat"]];
      const auto parsed =
          std::from_chars(repeat_text.data(), repeat_text.data() + repeat_text.size(), repeat);
      const auto found = cell_index.find(key);
      if (found == cell_index.end() || parsed.ptr != repeat_text.data() + repeat_text.size() ||
          repeat < 1 || repeat > matrix.repeats) {
        problems.push_back(fmt::format("{}: extra: {} repeat {} is not in the matrix", where,
                                       cell_text(key), repeat_text));
        continue;
      }
      const int owner =
          static_cast<int>(found->second % static_cast<std::size_t>(matrix.count)) + 1;
      if (owner != shard.meta.index) {
        problems.push_back(fmt::format("{}: extra: {} belongs to shard {}/{}, not {}/{}", where,
                                       cell_text(key), owner, matrix.count, shard.meta.index,
                                       matrix.count));
        continue;
      }
      const auto [it, fresh] = seen.emplace(std::make_pair(found->second, repeat), where);
      if (!fresh) {
        problems.push_back(fmt::format("{}: duplicate: {} repeat {} is also at {}", where,
                                       cell_text(key), repeat, it->second));
        continue;
      }
      merged.runs_text += line;
      merged.runs_text += '\n';
      ++rows;
      const std::string& host = fields[column["host"]];
      shard_hosts.insert(host);
      if (hosts_seen.insert(host).second) merged.hosts.push_back(host);
    }
    merged.rows += rows;
    nlohmann::ordered_json entry;
    entry["file"] = shard.runs.string();
    entry["shard"] = fmt::format("{}/{}", shard.meta.index, shard.meta.count);
    entry["host"] = shard.meta.host;
    entry["row_hosts"] = std::vector<std::string>(shard_hosts.begin(), shard_hosts.end());
    entry["rows"] = rows;
    shard_list.push_back(entry);
  }

  // 3. Rows missing from the shards that are there (an interrupted or failed task).
  for (std::size_t c = 0; c < matrix.cells.size(); ++c) {
    const int owner = static_cast<int>(c % static_cast<std::size_t>(matrix.count)) + 1;
    if (by_index.count(owner) == 0) continue;  // its whole shard is reported missing
    std::vector<int> missing;
    for (int r = 1; r <= matrix.repeats; ++r) {
      if (seen.count({c, r}) == 0) missing.push_back(r);
    }
    if (!missing.empty()) {
      problems.push_back(fmt::format("missing: {} repeat {} (shard {}/{}, {})",
                                     cell_text(matrix.cells[c]), repeats_text(missing), owner,
                                     matrix.count, by_index[owner]->runs.string()));
    }
  }
  if (!problems.empty()) {
    merged.runs_text.clear();  // nothing of a failed merge may be written
    merged.rows = 0;
    return merged;
  }

  merged.runs_text.insert(0, header + '\n');
  const nlohmann::ordered_json& first = matrix.whole;
  nlohmann::ordered_json& meta = merged.meta;
  meta["merged_from"] = shard_list;
  meta["hosts"] = merged.hosts;
  meta["rows"] = merged.rows;
  nlohmann::ordered_json merged_matrix = first.at("matrix");
  merged_matrix["shard"] = "1/1";
  meta["matrix"] = merged_matrix;
  if (first.contains("config_file")) meta["config_file"] = first["config_file"];
  if (first.contains("config")) {
    meta["config"] = first["config"];
    merged.baseline = first["config"].value("baseline", std::string());
  }
  return merged;
}

}  // namespace iobench::runfile
