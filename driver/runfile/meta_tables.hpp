#pragma once
// The run record's JSON (docs/formats.md "Meta file"), one table a block: each field's key, its
// member, what its absence means and how it is spelled, in the order the files have them. to_json
// and meta_from_json (meta_json.cpp) are made from these tables alone. The provenance blocks
// (context, provenance, worker) are made from their lists in meta.hpp, which make their structs
// too, so a new field of theirs is one line there; a new field of another block is its member in
// meta.hpp and one line here (MetaTables.EveryMemberOfEveryBlockHasItsEntry checks the pair).
#include <string>
#include <tuple>
#include <vector>

#include "driver/runfile/json_fields.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/shell_startup.hpp"

namespace iobench::runfile::meta_tables {

using json_fields::field;
using json_fields::inline_of;
using json_fields::Json;
using json_fields::list_of;
using json_fields::object_of;
using json_fields::Plain;
using json_fields::Reader;
using enum json_fields::Presence;

// A shard id as "K/N".
struct ShardText {
  [[nodiscard]] Json write(const ShardId& shard) const { return shard.text(); }
  void read(const Reader& in, const char* key, ShardId& shard) const {
    const auto parsed = ShardId::parse(in.as<std::string>(key));
    if (!parsed) in.fail(key, "K/N with 1 <= K <= N");
    shard = *parsed;
  }
};

// The matrix's cells as [test, input, sink] triples (the schedule spells them as objects).
struct CellTriples {
  [[nodiscard]] Json write(const std::vector<CellName>& cells) const {
    Json out = Json::array();
    for (const CellName& cell : cells) out.push_back({cell.test, cell.input, cell.sink});
    return out;
  }
  void read(const Reader& in, const char* key, std::vector<CellName>& cells) const {
    for (const auto& cell : in.as<std::vector<std::vector<std::string>>>(key)) {
      if (cell.size() != 3) in.fail(key, "[test, input, sink] triples");
      cells.push_back({cell[0], cell[1], cell[2]});
    }
  }
};

// Counters that could not be counted, as {counter: why}; a why that is not a text is kept as JSON.
struct WhyByCounter {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  [[nodiscard]] Json write(const Pairs& unavailable) const {
    Json out = Json::object();
    for (const auto& [name, why] : unavailable) out[name] = why;
    return out;
  }
  void read(const Reader& in, const char* key, Pairs& unavailable) const {
    const auto by_counter = in.as<Json>(key);  // kept: items() refers into it
    for (const auto& [name, why] : by_counter.items()) {
      unavailable.emplace_back(name, why.is_string() ? why.get<std::string>() : why.dump());
    }
  }
};

// One table entry a line of a block's list (meta.hpp), each key its member's name; within
// IOBENCH_FIELDS_OF, Record is the block.
#define IOBENCH_META_FIELD(type, member, presence, codec) \
  , std::make_tuple(field(#member, &Record::member, presence, codec))
#define IOBENCH_FIELDS_OF(Block, LINES)                              \
  [] {                                                               \
    using Record = Block;                                            \
    return std::tuple_cat(std::tuple<>() LINES(IOBENCH_META_FIELD)); \
  }()

inline constexpr auto kContextFields =
    IOBENCH_FIELDS_OF(MachineContext, IOBENCH_MACHINE_CONTEXT_FIELDS);

inline constexpr auto kSettingsFields = std::make_tuple(
    field("filter", &RunSettings::filter), field("repeats", &RunSettings::repeats, kRequired),
    field("repeats_min", &RunSettings::repeats_min, kOmitted),
    field("ci_pct", &RunSettings::ci_pct, kOmitted),
    field("shard", &RunSettings::shard, kRequired, ShardText{}),
    field("order", &RunSettings::order), field("seed", &RunSettings::seed),
    field("worker", &RunSettings::worker), field("fill_s", &RunSettings::fill_s, kOmitted),
    field("disturbance", &RunSettings::disturbance, kOmitted),
    field("disturbance_threshold_cpus", &RunSettings::disturbance_threshold_cpus, kOmitted),
    field("disturbance_wait_scope", &RunSettings::disturbance_wait_scope, kOmitted));

inline constexpr auto kWorkerFields = IOBENCH_FIELDS_OF(WorkerBinary, IOBENCH_WORKER_BINARY_FIELDS);

inline constexpr auto kProvenanceFields = IOBENCH_FIELDS_OF(Provenance, IOBENCH_PROVENANCE_FIELDS);

#undef IOBENCH_FIELDS_OF
#undef IOBENCH_META_FIELD

inline constexpr auto kCellFields = std::make_tuple(field("test", &CellName::test, kRequired),
                                                    field("input", &CellName::input, kRequired),
                                                    field("sink", &CellName::sink, kRequired));

inline constexpr auto kScheduleFields =
    std::make_tuple(field("cells", &Schedule::cells, kRequired, list_of(kCellFields)),
                    field("runs", &Schedule::runs, kRequired));

inline constexpr auto kMatrixFields = std::make_tuple(
    field("hash", &Matrix::hash, kRequired), field("shard", &Matrix::shard, kRequired, ShardText{}),
    field("shard_source", &Matrix::shard_source, kOmitted),
    field("repeats", &Matrix::repeats, kRequired),
    field("cells", &Matrix::cells, kRequired, CellTriples{}));

inline constexpr auto kCounterFields = std::make_tuple(
    field("requested", &CounterAvailability::requested),
    field("counted", &CounterAvailability::counted),
    field("unavailable", &CounterAvailability::unavailable, kDefault, WhyByCounter{}));

inline constexpr auto kMergedShardFields = std::make_tuple(
    field("file", &MergedShard::file, kRequired),
    field("shard", &MergedShard::shard, kRequired, ShardText{}), field("host", &MergedShard::host),
    field("row_hosts", &MergedShard::row_hosts), field("rows", &MergedShard::rows));

// The end of a run sits at the top level, where "finished" says it is there; the files have
// "rows" after "finished", so the block is in two parts.
inline constexpr auto kEndFinishedFields =
    std::make_tuple(field("finished", &RunEnd::finished, kRequired));
inline constexpr auto kEndFields = std::make_tuple(
    field("runs_saved_by_ci_pct", &RunEnd::runs_saved_by_ci_pct),
    field("pipe_size_given_bytes", &RunEnd::pipe_size_given_bytes, kNullable),
    field("cache_state_warnings", &RunEnd::cache_state_warnings),
    field("warnings", &RunEnd::warnings, kOmitted),  // absent: none, as before they were kept
    field("summary_warnings", &RunEnd::summary_warnings, kOmitted),
    field("order_taken", &RunEnd::order_taken, kOmitted));

inline constexpr auto kShellStartupFields =
    std::make_tuple(field("command", &ShellStartup::command, kRequired),
                    field("runs", &ShellStartup::runs, kRequired),
                    field("elapsed_s", &ShellStartup::elapsed_s, kRequired),
                    field("user_s", &ShellStartup::user_s, kRequired),
                    field("system_s", &ShellStartup::system_s, kRequired));

// Every field but "format_version", which meta_json.cpp writes first and checks on reading.
inline constexpr auto kRunMetaFields = std::make_tuple(
    field("runs_file", &RunMeta::runs_file), field("medians_file", &RunMeta::medians_file),
    field("context", &RunMeta::context, kOmitted, object_of(kContextFields)),
    field("options", &RunMeta::options, kOmitted, object_of(kSettingsFields)),
    field("host", &RunMeta::host, kOmitted),
    field("matrix", &RunMeta::matrix, kOmitted, object_of(kMatrixFields)),
    field("config_file", &RunMeta::config_file, kOmitted),
    field("config", &RunMeta::config, kOmitted),
    field("provenance", &RunMeta::provenance, kOmitted, object_of(kProvenanceFields)),
    field("drop_caches_available", &RunMeta::drop_caches_available, kOmitted),
    field("schedule", &RunMeta::schedule, kOmitted, object_of(kScheduleFields)),
    field("counters", &RunMeta::counters, kOmitted, object_of(kCounterFields)),
    field("merged_from", &RunMeta::merged_from, kOmitted, list_of(kMergedShardFields)),
    field("hosts", &RunMeta::hosts, kOmitted),
    field("finished", &RunMeta::end, kOmitted, inline_of(kEndFinishedFields)),
    field("rows", &RunMeta::rows, kOmitted),
    field("finished", &RunMeta::end, kOmitted, inline_of(kEndFields)),
    field("shell_startup", &RunMeta::shell_startup, kOmitted, object_of(kShellStartupFields)));

}  // namespace iobench::runfile::meta_tables
