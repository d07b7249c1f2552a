// Writing the run record (docs/formats.md "Meta file"), its paths and the shard id; reading it is
// meta_read.cpp.
#include "driver/runfile/meta.hpp"

#include <fmt/format.h>

#include <charconv>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

template <typename T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json cells_json(const std::vector<CellName>& cells) {
  Json out = Json::array();
  for (const CellName& cell : cells) out.push_back({cell.test, cell.input, cell.sink});
  return out;
}

Json to_json(const MachineContext& context) {
  Json out;
  out["date"] = context.date;
  out["host"] = context.host;
  out["kernel"] = context.kernel;
  out["kernel_version"] = context.kernel_version;
  out["machine"] = context.machine;
  out["cpu_model"] = context.cpu_model;
  out["cpus_online"] = context.cpus_online;
  // Only when known: a file written before memory was recorded reads back as it was.
  if (context.memory_kib) out["memory_kib"] = *context.memory_kib;
  out["cpu_governor"] = context.cpu_governor;
  out["pipe_max_size_bytes"] = or_null(context.pipe_max_size_bytes);
  out["build"] = context.build;
  out["iobench_version"] = context.iobench_version;
  if (context.git_commit) out["git_commit"] = *context.git_commit;
  return out;
}

Json to_json(const RunSettings& options) {
  Json out;
  out["filter"] = options.filter;
  out["repeats"] = options.repeats;
  if (options.repeats_min) out["repeats_min"] = *options.repeats_min;
  if (options.ci_pct) out["ci_pct"] = *options.ci_pct;
  out["shard"] = options.shard.text();
  out["order"] = options.order;
  out["seed"] = options.seed;
  out["worker"] = options.worker;
  if (options.fill_s) out["fill_s"] = *options.fill_s;
  return out;
}

Json to_json(const Schedule& schedule) {
  Json cells = Json::array();
  for (const CellName& cell : schedule.cells) {
    cells.push_back({{"test", cell.test}, {"input", cell.input}, {"sink", cell.sink}});
  }
  return {{"cells", cells}, {"runs", schedule.runs}};
}

Json to_json(const CounterAvailability& counters) {
  Json unavailable = Json::object();
  for (const auto& [name, why] : counters.unavailable) unavailable[name] = why;
  return {{"requested", counters.requested},
          {"counted", counters.counted},
          {"unavailable", unavailable}};
}

Json to_json(const MergedShard& shard) {
  return {{"file", shard.file},
          {"shard", shard.shard.text()},
          {"host", shard.host},
          {"row_hosts", shard.row_hosts},
          {"rows", shard.rows}};
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

std::optional<ShardId> ShardId::parse(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  ShardId shard;
  const char* end = text.data() + text.size();
  const char* middle = text.data() + slash;
  const auto number = std::from_chars(text.data(), middle, shard.number);
  const auto count = std::from_chars(middle + 1, end, shard.count);
  const bool whole = number.ec == std::errc() && number.ptr == middle && count.ec == std::errc() &&
                     count.ptr == end;
  if (!whole || shard.count < 1 || shard.number < 1 || shard.number > shard.count) {
    return std::nullopt;
  }
  return shard;
}

std::string ShardId::text() const {
  return fmt::format("{}/{}", number, count);
}

std::string RunMeta::cache_mode() const {
  if (!config.is_object()) return "";
  const auto cache = config.find("cache");
  if (cache == config.end()) return "warm";  // the config's default (docs/formats.md "Config")
  return cache->is_string() ? cache->get<std::string>() : "";
}

std::string RunMeta::baseline() const {
  if (!config.is_object()) return "";
  const auto baseline = config.find("baseline");
  return baseline != config.end() && baseline->is_string() ? baseline->get<std::string>() : "";
}

Json to_json(const Provenance& provenance) {
  Json out;
  out["reference_test"] = provenance.reference_test;
  if (provenance.git_commit) out["git_commit"] = *provenance.git_commit;
  if (provenance.git_dirty) out["git_dirty"] = *provenance.git_dirty;
  if (provenance.worker) {
    out["worker"] = {{"path", provenance.worker->path},
                     {"build", provenance.worker->build},
                     {"xxh3", or_null(provenance.worker->xxh3)}};
  }
  out["load_average_start"] = or_null(provenance.load_average_start);
  out["busy_cpus_start"] = or_null(provenance.busy_cpus_start);
  out["root"] = provenance.root;
  out["load_average_end"] = or_null(provenance.load_average_end);
  return out;
}

Json to_json(const Matrix& matrix) {
  Json out;
  out["hash"] = matrix.hash;
  out["shard"] = matrix.shard.text();
  if (matrix.shard_source) out["shard_source"] = *matrix.shard_source;
  out["repeats"] = matrix.repeats;
  out["cells"] = cells_json(matrix.cells);
  return out;
}

Json to_json(const RunMeta& meta) {
  Json out;
  out["format_version"] = kMetaFormatVersion;  // what to_json writes is always this format
  out["runs_file"] = meta.runs_file;
  out["medians_file"] = meta.medians_file;
  if (meta.context) out["context"] = to_json(*meta.context);
  if (meta.options) out["options"] = to_json(*meta.options);
  if (meta.host) out["host"] = *meta.host;
  if (meta.matrix) out["matrix"] = to_json(*meta.matrix);
  if (meta.config_file) out["config_file"] = *meta.config_file;
  if (!meta.config.is_null()) out["config"] = meta.config;
  if (meta.provenance) out["provenance"] = to_json(*meta.provenance);
  if (meta.drop_caches_available) out["drop_caches_available"] = *meta.drop_caches_available;
  if (meta.schedule) out["schedule"] = to_json(*meta.schedule);
  if (meta.counters) out["counters"] = to_json(*meta.counters);
  if (!meta.merged_from.empty()) {
    Json shards = Json::array();
    for (const MergedShard& shard : meta.merged_from) shards.push_back(to_json(shard));
    out["merged_from"] = shards;
    out["hosts"] = meta.hosts;
  }
  if (meta.end) out["finished"] = meta.end->finished;
  if (meta.rows) out["rows"] = *meta.rows;
  if (meta.end) {
    out["runs_saved_by_ci_pct"] = meta.end->runs_saved_by_ci_pct;
    out["pipe_size_given_bytes"] = or_null(meta.end->pipe_size_given_bytes);
    out["cache_state_warnings"] = meta.end->cache_state_warnings;
    if (!meta.end->warnings.empty()) out["warnings"] = meta.end->warnings;  // absent: none
    if (!meta.end->summary_warnings.empty()) out["summary_warnings"] = meta.end->summary_warnings;
  }
  if (meta.shell_startup) out["shell_startup"] = to_json(*meta.shell_startup);
  return out;
}

void write_meta(const fs::path& path, const RunMeta& meta) {
  write_file_atomically(path, to_json(meta).dump(2) + '\n');
}

}  // namespace iobench::runfile
