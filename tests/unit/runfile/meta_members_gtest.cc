// Every member of every block of the run record has its entry in the block's JSON table
// (meta_tables.hpp): a member added to a struct of meta.hpp without its line would be neither
// written nor read, and fails here. Boost.PFR lists a struct's members, which C++ cannot.
#include <gtest/gtest.h>

#include <boost/pfr.hpp>
#include <set>
#include <string>
#include <tuple>

#include "driver/runfile/meta_tables.hpp"

namespace iobench::runfile {
namespace {

// The addresses, in `record`, of the members the tables' entries name.
template <typename Record, typename... Tables>
std::set<const void*> members_in_tables(const Record& record, const Tables&... tables) {
  std::set<const void*> named;
  const auto add = [&](const auto& field) {
    if constexpr (requires { record.*field.member; }) named.insert(&(record.*field.member));
  };
  (std::apply([&](const auto&... fields) { (add(fields), ...); }, tables), ...);
  return named;
}

// The indexes of Record's members that no entry of `tables` names (" #1 #4"); `left_out` are
// indexes that are written another way, and must then be named by no table.
template <typename Record, typename... Tables>
std::string members_missing(const std::set<std::size_t>& left_out, const Tables&... tables) {
  const Record record{};
  const std::set<const void*> named = members_in_tables(record, tables...);
  std::string missing;
  std::size_t index = 0;
  boost::pfr::for_each_field(record, [&](const auto& member) {
    const bool in_table = named.contains(&member);
    if (in_table == left_out.contains(index)) missing += " #" + std::to_string(index);
    ++index;
  });
  return missing;
}

TEST(MetaTables, EveryMemberOfEveryBlockHasItsEntry) {
  using namespace meta_tables;
  EXPECT_EQ(members_missing<MachineContext>({}, kContextFields), "");
  EXPECT_EQ(members_missing<RunSettings>({}, kSettingsFields), "");
  EXPECT_EQ(members_missing<WorkerBinary>({}, kWorkerFields), "");
  EXPECT_EQ(members_missing<Provenance>({}, kProvenanceFields), "");
  EXPECT_EQ(members_missing<CellName>({}, kCellFields), "");
  EXPECT_EQ(members_missing<Schedule>({}, kScheduleFields), "");
  EXPECT_EQ(members_missing<Matrix>({}, kMatrixFields), "");
  EXPECT_EQ(members_missing<CounterAvailability>({}, kCounterFields), "");
  EXPECT_EQ(members_missing<MergedShard>({}, kMergedShardFields), "");
  EXPECT_EQ(members_missing<RunEnd>({}, kEndFinishedFields, kEndFields), "");
  EXPECT_EQ(members_missing<ShellStartup>({}, kShellStartupFields), "");
  // format_version (member 0) is written first and checked by meta_json.cpp, not by the table.
  EXPECT_EQ(members_missing<RunMeta>({0}, kRunMetaFields), "");
}

// The check itself: a struct with a member its table does not name is caught, by index.
struct TwoFields {
  int named = 0;
  int forgotten = 0;
};

TEST(MetaTables, AMemberWithoutItsEntryIsFound) {
  const auto table = std::make_tuple(json_fields::field("named", &TwoFields::named));
  EXPECT_EQ(members_missing<TwoFields>({}, table), " #1");
  EXPECT_EQ(members_missing<TwoFields>({1}, table), "");
  EXPECT_EQ(members_missing<TwoFields>({0, 1}, table), " #0");
}

}  // namespace
}  // namespace iobench::runfile
