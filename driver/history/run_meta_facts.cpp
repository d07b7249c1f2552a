#include "driver/history/run_meta_facts.hpp"

#include <fmt/format.h>

#include <array>

#include "common/error.hpp"
#include "driver/history/series.hpp"

namespace iobench::history {
namespace {

// The meta file's top-level fields facts_from_meta reads. The rest (the schedule, the matrix, the
// warnings: nine tenths of the bytes) is checked as JSON and not kept: building it was most of
// reading a meta file, itself most of an add's parsing (docs/history.md, "Performance").
constexpr std::array<std::string_view, 8> kFieldsRead = {
    "format_version", "context", "provenance", "config", "config_file", "host", "finished", "rows"};

}  // namespace

RunMetaFacts facts_from_meta(const runfile::RunMeta& meta, const std::filesystem::path& name) {
  RunMetaFacts facts;
  facts.meta_path = name;
  if (meta.context) {
    const runfile::MachineContext& c = *meta.context;
    facts.date = c.date;
    facts.host = c.host;
    facts.kernel = c.kernel;
    facts.machine = c.machine;
    facts.cpu_model = c.cpu_model;
    if (c.cpus_online > 0) facts.cpus_online = c.cpus_online;
    facts.memory_kib = c.memory_kib;
    facts.iobench_version = c.iobench_version;
    facts.iobench_build = c.build;
  }
  if (meta.provenance) {
    const runfile::Provenance& p = *meta.provenance;
    facts.measured_commit = p.git_commit;
    if (facts.measured_commit && facts.measured_commit->empty()) facts.measured_commit.reset();
    facts.measured_dirty = p.git_dirty;
    if (p.worker) {
      facts.worker_build = p.worker->build;
      facts.worker_xxh3 = p.worker->xxh3.value_or("");
    }
    facts.load_average_start = p.load_average_start;
    facts.load_average_end = p.load_average_end;
    facts.busy_cpus_start = p.busy_cpus_start;
  }
  if (meta.config.is_object()) facts.config = nlohmann::json(meta.config);
  facts.config_file = meta.config_file.value_or("");
  facts.config_fingerprint =
      hex_hash64(fmt::format("{}\x1f{}", facts.config_file.string(), meta.config.dump()));
  if (const auto it = facts.config.find("name"); it != facts.config.end() && it->is_string()) {
    facts.config_name = it->get<std::string>();
  }
  const std::string mode = meta.cache_mode();
  facts.cache_mode = mode.empty() ? "warm" : mode;  // the config's default
  if (meta.end) facts.finished = meta.end->finished;
  if (meta.rows) facts.rows = static_cast<std::int64_t>(*meta.rows);
  if (facts.host.empty() && meta.host) facts.host = *meta.host;
  return facts;
}

RunMetaFacts read_run_meta_facts(const std::filesystem::path& runs_file) {
  const std::optional<runfile::RunMeta> meta = runfile::read_meta_for(runs_file, kFieldsRead);
  if (!meta) {
    throw Error(fmt::format(
        "{}: no meta file at {}; history add needs the meta file `iobench run` writes beside "
        "each run file",
        runs_file.string(), runfile::meta_path_for(runs_file).string()));
  }
  return facts_from_meta(*meta, runfile::meta_path_for(runs_file));
}

}  // namespace iobench::history
