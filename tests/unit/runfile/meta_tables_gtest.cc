// The run record's field tables (meta_tables.hpp): every field of every table, set alone to a value
// that is not its default, is written and read back the same. A field added to a table is tested
// by that line alone; a key spelled two ways, a codec that loses its value or a presence that
// drops it fails here.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "driver/runfile/meta_tables.hpp"

namespace iobench::runfile {
namespace {

using json_fields::Json;
using json_fields::Reader;

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsPair : std::false_type {};
template <typename A, typename B>
struct IsPair<std::pair<A, B>> : std::true_type {};

// A value of T that no member has by default. A record that has a table of its own is its
// default here: its table is tested on its own.
template <typename T>
T sample() {
  if constexpr (json_fields::IsOptional<T>::value) {
    return T(sample<typename T::value_type>());
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "x";
  } else if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    return 7;
  } else if constexpr (std::is_floating_point_v<T>) {
    return 1.5;
  } else if constexpr (std::is_same_v<T, Json>) {
    return Json{{"k", 1}};
  } else if constexpr (IsVector<T>::value) {
    return T{sample<typename T::value_type>()};
  } else if constexpr (IsPair<T>::value) {
    return T{sample<typename T::first_type>(), sample<typename T::second_type>()};
  } else if constexpr (std::is_same_v<T, ShardId>) {
    return ShardId{2, 3};
  } else if constexpr (std::is_same_v<T, CellName>) {
    return CellName{"t", "i", "s"};
  } else {
    return T{};
  }
}

template <typename Record, typename Table, typename Field>
void expect_field_round_trips(const Table& table, const Field& field) {
  SCOPED_TRACE(field.key);
  Record record{};
  using Member = std::remove_cvref_t<decltype(record.*field.member)>;
  record.*field.member = sample<Member>();
  ASSERT_FALSE(record.*field.member == Record{}.*field.member) << "the sample is the default";
  const Json json = json_fields::write_object(table, record);
  const Record back = json_fields::read_object<Record>(table, Reader(json, ""));
  EXPECT_TRUE(back.*field.member == record.*field.member) << json.dump();
  EXPECT_TRUE(back == record) << json.dump();
}

template <typename Record, typename Table>
void expect_every_field_round_trips(const Table& table) {
  std::apply([&](const auto&... fields) { (expect_field_round_trips<Record>(table, fields), ...); },
             table);
}

TEST(MetaTables, EveryFieldOfEveryBlockIsWrittenAndReadBack) {
  expect_every_field_round_trips<MachineContext>(meta_tables::kContextFields);
  expect_every_field_round_trips<RunSettings>(meta_tables::kSettingsFields);
  expect_every_field_round_trips<WorkerBinary>(meta_tables::kWorkerFields);
  expect_every_field_round_trips<Provenance>(meta_tables::kProvenanceFields);
  expect_every_field_round_trips<CellName>(meta_tables::kCellFields);
  expect_every_field_round_trips<Schedule>(meta_tables::kScheduleFields);
  expect_every_field_round_trips<Matrix>(meta_tables::kMatrixFields);
  expect_every_field_round_trips<CounterAvailability>(meta_tables::kCounterFields);
  expect_every_field_round_trips<MergedShard>(meta_tables::kMergedShardFields);
  expect_every_field_round_trips<RunEnd>(meta_tables::kEndFields);
  expect_every_field_round_trips<ShellStartup>(meta_tables::kShellStartupFields);
  expect_every_field_round_trips<RunMeta>(meta_tables::kRunMetaFields);
}

// Each key is written once: the end block's two parts share "finished", which says it is there.
TEST(MetaTables, EachKeyOfARecordIsWrittenOnce) {
  RunMeta meta;
  meta.end = RunEnd{};
  meta.rows = 3;
  const Json json = to_json(meta);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"format_version", "runs_file", "medians_file",
                                            "finished", "rows", "runs_saved_by_ci_pct",
                                            "pipe_size_given_bytes", "cache_state_warnings"}));
}

TEST(MetaTables, PresenceRulesWriteAndReadAsTheyAreNamed) {
  using json_fields::Presence;
  struct Record {
    std::string required;
    int defaulted = 4;
    std::optional<int> nullable;
    std::optional<int> omitted;
    bool operator==(const Record&) const = default;
  };
  const auto table =
      std::make_tuple(json_fields::field("required", &Record::required, Presence::kRequired),
                      json_fields::field("defaulted", &Record::defaulted, Presence::kDefault),
                      json_fields::field("nullable", &Record::nullable, Presence::kNullable),
                      json_fields::field("omitted", &Record::omitted, Presence::kOmitted));
  EXPECT_EQ(json_fields::write_object(table, Record{}).dump(),
            R"({"required":"","defaulted":4,"nullable":null})");
  const Json sparse = {{"required", "r"}, {"defaulted", nullptr}};
  EXPECT_EQ(json_fields::read_object<Record>(table, Reader(sparse, "")), (Record{"r", 4, {}, {}}));
  try {
    json_fields::read_object<Record>(table, Reader(Json{{"defaulted", 1}}, "block"));
    ADD_FAILURE() << "a record without its required field was read";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "block.required: expected present");
  }
}

}  // namespace
}  // namespace iobench::runfile
