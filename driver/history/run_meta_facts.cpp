#include "driver/history/run_meta_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "driver/history/series.hpp"

namespace iobench::history {
namespace {

using Json = nlohmann::ordered_json;

// The meta file's top-level fields facts_from_meta reads. The rest (the schedule, the matrix, the
// warnings: nine tenths of the bytes) is checked as JSON and not kept: building it was most of
// reading a meta file, itself most of an add's parsing (docs/history.md, "Performance").
constexpr std::array<std::string_view, 8> kFieldsRead = {
    "format_version", "context", "provenance", "config", "config_file", "host", "finished", "rows"};

// nlohmann's SAX events made into the document they describe, less the top-level fields not in
// kFieldsRead.
class FieldsReadParser {
 public:
  explicit FieldsReadParser(Json& root) : root_(root) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(Json::number_integer_t v) { return value(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(v); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return value(v); }
  bool string(Json::string_t& v) { return value(std::move(v)); }
  bool binary(Json::binary_t& v) { return value(Json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(Json::string_t& name) {
    if (skipped_depth_ > 0) return true;
    if (open_.size() == 1 &&
        std::find(kFieldsRead.begin(), kFieldsRead.end(), name) == kFieldsRead.end()) {
      skip_next_ = true;
      return true;
    }
    key_ = std::move(name);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) {
    error_ = error.what();
    return false;
  }
  // nlohmann's message for JSON that does not parse, as Json::parse would throw it.
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool skipping() { return skipped_depth_ > 0 || std::exchange(skip_next_, false); }
  Json* place(Json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    Json& slot = parent[key_];
    slot = std::move(v);
    return &slot;
  }
  bool value(Json&& v) {
    if (!skipping()) place(std::move(v));
    return true;
  }
  bool open(Json&& container) {
    if (skipping()) {
      ++skipped_depth_;
    } else {
      open_.push_back(place(std::move(container)));
    }
    return true;
  }
  bool close() {
    if (skipped_depth_ > 0) {
      --skipped_depth_;
    } else {
      open_.pop_back();
    }
    return true;
  }

  Json& root_;
  std::vector<Json*> open_;  // the containers being filled, outermost first
  std::string key_;          // the key of the next value of open_.back(), an object
  bool skip_next_ = false;   // the next value is a top-level field not read
  int skipped_depth_ = 0;    // > 0: inside such a field
  std::string error_;
};

// runfile::read_meta_for, the fields not read left out; the same messages.
std::optional<runfile::RunMeta> read_meta_fields_for(const std::filesystem::path& runs_file) {
  const std::filesystem::path path = runfile::meta_path_for(runs_file);
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    throw Error(fmt::format("{}: cannot open", path.string()));
  }
  std::stringstream text;
  text << in.rdbuf();
  Json fields;
  FieldsReadParser parser(fields);
  if (!Json::sax_parse(text.str(), &parser)) {
    throw Error(fmt::format("{}: not JSON ({})", path.string(), parser.error()));
  }
  try {
    return runfile::meta_from_json(fields);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: not JSON ({})", path.string(), e.what()));
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

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
  if (const std::string mode = meta.cache_mode(); !mode.empty()) facts.cache_mode = mode;
  if (meta.end) facts.finished = meta.end->finished;
  if (meta.rows) facts.rows = static_cast<std::int64_t>(*meta.rows);
  if (facts.host.empty() && meta.host) facts.host = *meta.host;
  return facts;
}

RunMetaFacts read_run_meta_facts(const std::filesystem::path& runs_file) {
  const std::optional<runfile::RunMeta> meta = read_meta_fields_for(runs_file);
  if (!meta) {
    throw Error(fmt::format(
        "{}: no meta file at {}; history add needs the meta file `iobench run` writes beside "
        "each run file",
        runs_file.string(), runfile::meta_path_for(runs_file).string()));
  }
  return facts_from_meta(*meta, runfile::meta_path_for(runs_file));
}

}  // namespace iobench::history
