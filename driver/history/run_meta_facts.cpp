#include "driver/history/run_meta_facts.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/runfile/shard_merge.hpp"

namespace iobench::history {
namespace {

using Json = nlohmann::json;

std::string text_at(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <typename T>
std::optional<T> number_at(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<T>();
}

const Json& object_at(const Json& object, const char* key) {
  static const Json kEmpty = Json::object();
  const auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : kEmpty;
}

}  // namespace

RunMetaFacts parse_run_meta_facts(const std::string& text, const std::filesystem::path& name) {
  Json meta;
  try {
    meta = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw Error(fmt::format("{}: not a meta file: invalid JSON ({})", name.string(), e.what()));
  }
  if (!meta.is_object())
    throw Error(fmt::format("{}: not a meta file: not a JSON object", name.string()));
  RunMetaFacts facts;
  facts.meta_path = name;
  const Json& context = object_at(meta, "context");
  facts.date = text_at(context, "date");
  facts.host = text_at(context, "host");
  facts.kernel = text_at(context, "kernel");
  facts.machine = text_at(context, "machine");
  facts.cpu_model = text_at(context, "cpu_model");
  facts.cpus_online = number_at<std::int64_t>(context, "cpus_online");
  facts.memory_kib = number_at<std::int64_t>(context, "memory_kib");
  facts.iobench_version = text_at(context, "iobench_version");
  facts.iobench_build = text_at(context, "build");
  const Json& provenance = object_at(meta, "provenance");
  if (const auto it = provenance.find("git_commit");
      it != provenance.end() && it->is_string() && !it->get<std::string>().empty()) {
    facts.measured_commit = it->get<std::string>();
  }
  if (const auto it = provenance.find("git_dirty"); it != provenance.end() && it->is_boolean()) {
    facts.measured_dirty = it->get<bool>();
  }
  const Json& worker = object_at(provenance, "worker");
  facts.worker_build = text_at(worker, "build");
  facts.worker_xxh3 = text_at(worker, "xxh3");
  facts.load_average_start = number_at<double>(provenance, "load_average_start");
  facts.load_average_end = number_at<double>(provenance, "load_average_end");
  facts.busy_cpus_start = number_at<double>(provenance, "busy_cpus_start");
  facts.config = object_at(meta, "config");
  facts.config_name = text_at(facts.config, "name");
  facts.config_file = text_at(meta, "config_file");
  if (const auto it = facts.config.find("cache"); it != facts.config.end() && it->is_string()) {
    facts.cache_mode = it->get<std::string>();
  }
  if (const auto it = meta.find("finished"); it != meta.end() && it->is_boolean()) {
    facts.finished = it->get<bool>();
  }
  facts.rows = number_at<std::int64_t>(meta, "rows");
  if (facts.host.empty()) facts.host = text_at(meta, "host");
  return facts;
}

RunMetaFacts read_run_meta_facts(const std::filesystem::path& runs_file) {
  const std::filesystem::path meta_path = runfile::meta_path_for(runs_file);
  std::ifstream in(meta_path, std::ios::binary);
  if (!in) {
    throw Error(fmt::format(
        "{}: no meta file at {}; history add needs the meta file `iobench run` writes beside "
        "each run file",
        runs_file.string(), meta_path.string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_run_meta_facts(text.str(), meta_path);
}

}  // namespace iobench::history
