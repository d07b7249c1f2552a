// Reading the run record (docs/formats.md "Meta file"): every field checked for its type, every
// format from 1 up, a wrong field named by its path.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/meta_fields.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Reading: every field checked for its type, a wrong one named by its path ("provenance.root").
class Fields {
 public:
  Fields(const Json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail("", "an object");
  }

  bool has(const char* key) const { return object_.contains(key); }
  const Json* find(const char* key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }

  // Absent or null: nullopt. Otherwise the value, of type T.
  template <typename T>
  std::optional<T> optional(const char* key) const {
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    return as<T>(*value, key);
  }
  template <typename T>
  T required(const char* key) const {
    const Json* value = find(key);
    if (value == nullptr) fail(key, "present");
    return as<T>(*value, key);
  }
  template <typename T>
  T value_or(const char* key, T fallback) const {
    return optional<T>(key).value_or(std::move(fallback));
  }
  Fields object(const char* key) const { return Fields(object_.at(key), name(key)); }
  std::string name(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  [[noreturn]] void fail(const char* key, const char* expected) const {
    throw Error(fmt::format("{}: expected {}", *key ? name(key) : path_, expected));
  }

 private:
  template <typename T>
  T as(const Json& value, const char* key) const {
    try {
      return value.get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(key, "a value of another type");
    }
  }

  const Json& object_;
  std::string path_;
};

ShardId shard_field(const Fields& fields, const char* key) {
  const auto shard = ShardId::parse(fields.required<std::string>(key));
  if (!shard) fields.fail(key, "K/N with 1 <= K <= N");
  return *shard;
}

std::vector<CellName> cells_from(const Fields& fields, const char* key) {
  std::vector<CellName> cells;
  for (const auto& cell : fields.required<std::vector<std::vector<std::string>>>(key)) {
    if (cell.size() != 3) fields.fail(key, "[test, input, sink] triples");
    cells.push_back({cell[0], cell[1], cell[2]});
  }
  return cells;
}

MachineContext context_from(const Fields& in) {
  MachineContext context;
  context.date = in.value_or<std::string>("date", "");
  context.host = in.value_or<std::string>("host", "");
  context.kernel = in.value_or<std::string>("kernel", "");
  context.kernel_version = in.value_or<std::string>("kernel_version", "");
  context.machine = in.value_or<std::string>("machine", "");
  context.cpu_model = in.value_or<std::string>("cpu_model", "");
  context.cpus_online = in.value_or<long>("cpus_online", 0);
  context.memory_kib = in.optional<std::int64_t>("memory_kib");
  context.cpu_governor = in.value_or<std::string>("cpu_governor", "");
  context.pipe_max_size_bytes = in.optional<std::int64_t>("pipe_max_size_bytes");
  context.build = in.value_or<std::string>("build", "");
  context.iobench_version = in.value_or<std::string>("iobench_version", "");
  context.git_commit = in.optional<std::string>("git_commit");
  if (context.git_commit && context.git_commit->empty()) context.git_commit.reset();  // format 1
  return context;
}

RunSettings options_from(const Fields& in) {
  RunSettings options;
  options.filter = in.value_or<std::string>("filter", "");
  options.repeats = in.required<int>("repeats");
  options.repeats_min = in.optional<int>("repeats_min");
  options.ci_pct = in.optional<double>("ci_pct");
  options.shard = shard_field(in, "shard");
  options.order = in.value_or<std::string>("order", "");
  options.seed = in.value_or<std::uint64_t>("seed", 0);
  options.worker = in.value_or<std::string>("worker", "");
  options.fill_s = in.optional<double>("fill_s");
  return options;
}

Provenance provenance_from(const Fields& in) {
  Provenance provenance;
  provenance.reference_test = in.value_or<std::string>("reference_test", "");
  provenance.git_commit = in.optional<std::string>("git_commit");
  provenance.git_dirty = in.optional<bool>("git_dirty");
  if (const Json* worker = in.find("worker"); worker != nullptr && !worker->is_null()) {
    const Fields fields(*worker, in.name("worker"));
    provenance.worker = WorkerBinary{fields.value_or<std::string>("path", ""),
                                     fields.value_or<std::string>("build", ""),
                                     fields.optional<std::string>("xxh3")};
  }
  provenance.load_average_start = in.optional<double>("load_average_start");
  provenance.busy_cpus_start = in.optional<double>("busy_cpus_start");
  provenance.root = in.value_or<bool>("root", false);
  provenance.load_average_end = in.optional<double>("load_average_end");
  return provenance;
}

Schedule schedule_from(const Fields& in) {
  Schedule schedule;
  for (const Json& cell : in.required<Json>("cells")) {
    const Fields fields(cell, in.name("cells[]"));
    schedule.cells.push_back({fields.required<std::string>("test"),
                              fields.required<std::string>("input"),
                              fields.required<std::string>("sink")});
  }
  schedule.runs = in.required<std::vector<std::string>>("runs");
  return schedule;
}

Matrix matrix_from(const Fields& in) {
  Matrix matrix;
  matrix.hash = in.required<std::string>("hash");
  matrix.shard = shard_field(in, "shard");
  matrix.shard_source = in.optional<std::string>("shard_source");
  matrix.repeats = in.required<int>("repeats");
  matrix.cells = cells_from(in, "cells");
  return matrix;
}

CounterAvailability counters_from(const Fields& in) {
  CounterAvailability counters;
  counters.requested = in.value_or<std::vector<std::string>>("requested", {});
  counters.counted = in.value_or<std::vector<std::string>>("counted", {});
  const Json unavailable = in.value_or<Json>("unavailable", Json::object());
  for (const auto& [name, why] : unavailable.items()) {
    counters.unavailable.emplace_back(name, why.is_string() ? why.get<std::string>() : why.dump());
  }
  return counters;
}

MergedShard merged_shard_from(const Fields& in) {
  return {in.required<std::string>("file"), shard_field(in, "shard"),
          in.value_or<std::string>("host", ""),
          in.value_or<std::vector<std::string>>("row_hosts", {}),
          in.value_or<std::size_t>("rows", 0)};
}

// The end-of-run fields sit at the top level of the JSON, beside "rows".
void read_end(const Fields& in, RunMeta& meta) {
  if (!in.has("finished")) return;
  RunEnd end;
  end.finished = in.required<bool>("finished");
  end.runs_saved_by_ci_pct = in.value_or<std::size_t>("runs_saved_by_ci_pct", 0);
  end.pipe_size_given_bytes = in.optional<std::uint64_t>("pipe_size_given_bytes");
  end.cache_state_warnings = in.value_or<std::vector<std::string>>("cache_state_warnings", {});
  end.warnings = in.value_or<std::vector<std::string>>("warnings", {});
  end.summary_warnings = in.value_or<std::vector<std::string>>("summary_warnings", {});
  meta.end = end;
}

int format_version_of(const Fields& in) {
  const int version = in.value_or<int>("format_version", 1);
  if (version < 1) in.fail("format_version", "a version from 1 up");
  if (version > kMetaFormatVersion) {
    throw Error(fmt::format(
        "format_version {}: written by a newer iobench (this one reads formats 1 to {})", version,
        kMetaFormatVersion));
  }
  return version;
}
}  // namespace

RunMeta meta_from_json(const Json& json) {
  const Fields in(json, "");
  RunMeta meta;
  meta.format_version = format_version_of(in);
  meta.runs_file = in.value_or<std::string>("runs_file", "");
  meta.medians_file = in.value_or<std::string>("medians_file", "");
  if (in.has("context")) meta.context = context_from(in.object("context"));
  if (in.has("options")) meta.options = options_from(in.object("options"));
  meta.host = in.optional<std::string>("host");
  if (in.has("matrix")) meta.matrix = matrix_from(in.object("matrix"));
  meta.config_file = in.optional<std::string>("config_file");
  meta.config = in.value_or<Json>("config", nullptr);
  if (in.has("provenance")) meta.provenance = provenance_from(in.object("provenance"));
  meta.drop_caches_available = in.optional<bool>("drop_caches_available");
  if (in.has("schedule")) meta.schedule = schedule_from(in.object("schedule"));
  if (in.has("counters")) meta.counters = counters_from(in.object("counters"));
  for (const Json& shard : in.value_or<Json>("merged_from", Json::array())) {
    meta.merged_from.push_back(merged_shard_from(Fields(shard, "merged_from[]")));
  }
  meta.hosts = in.value_or<std::vector<std::string>>("hosts", {});
  meta.rows = in.optional<std::size_t>("rows");
  read_end(in, meta);
  if (in.has("shell_startup"))
    meta.shell_startup = shell_startup_from_json(json.at("shell_startup"));
  return meta;
}

std::optional<RunMeta> read_meta_for(const fs::path& runs_file,
                                     std::span<const std::string_view> only) {
  const fs::path path = meta_path_for(runs_file);
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    throw Error(fmt::format("{}: cannot open", path.string()));
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    if (only.empty()) return meta_from_json(Json::parse(text.str()));
    std::string error;
    const std::optional<Json> kept = parse_top_level_fields(text.str(), only, error);
    if (!kept) throw Error(fmt::format("not JSON ({})", error));
    return meta_from_json(*kept);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: not JSON ({})", path.string(), e.what()));
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

}  // namespace iobench::runfile
