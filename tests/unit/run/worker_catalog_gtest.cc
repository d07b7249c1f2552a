// driver/run/worker_catalog: a config naming a reader, writer or op the worker does not have is
// refused before anything runs, with the known names (check_worker_args), and the real worker's
// --list parses into that catalog.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/run/worker_catalog.hpp"

namespace iobench::run {
namespace {

const std::vector<WorkerEntry> kCatalog{{"getline", "reader", ""}, {"read", "reader", ""},
                                        {"raw", "writer", ""},     {"buffered", "writer", ""},
                                        {"copy", "op", ""},        {"field:N", "op", ""},
                                        {"split", "op", ""}};

TEST(CheckWorkerArgs, KnownNamesPass) {
  EXPECT_EQ(check_worker_args({"--read", "getline", "--write", "raw"}, kCatalog), "");
  EXPECT_EQ(check_worker_args({"--read=read", "--write=buffered", "--buffer", "64KiB"}, kCatalog),
            "");
  EXPECT_EQ(check_worker_args({"--read", "read", "--write", "raw", "--op", "copy"}, kCatalog), "");
  // An op with an argument is listed as field:N and written as field:3.
  EXPECT_EQ(check_worker_args({"--read", "read", "--write", "raw", "--op", "field:3"}, kCatalog),
            "");
  EXPECT_EQ(check_worker_args({"--op=field:1"}, kCatalog), "");
  EXPECT_EQ(check_worker_args({}, kCatalog), "");
}

TEST(CheckWorkerArgs, UnknownReaderNamesItAndTheKnownOnes) {
  EXPECT_EQ(check_worker_args({"--read", "nosuch", "--write", "raw"}, kCatalog),
            "--read 'nosuch' is not a worker reader (known: getline, read)");
  EXPECT_EQ(check_worker_args({"--read=nosuch"}, kCatalog),
            "--read 'nosuch' is not a worker reader (known: getline, read)");
}

TEST(CheckWorkerArgs, UnknownWriterAndOp) {
  EXPECT_EQ(check_worker_args({"--read", "read", "--write", "nope"}, kCatalog),
            "--write 'nope' is not a worker writer (known: raw, buffered)");
  EXPECT_EQ(check_worker_args({"--read", "read", "--write", "raw", "--op", "count"}, kCatalog),
            "--op 'count' is not a worker op (known: copy, field:N, split)");
  EXPECT_EQ(check_worker_args({"--op", "fields:2"}, kCatalog),
            "--op 'fields:2' is not a worker op (known: copy, field:N, split)");
}

TEST(CheckWorkerArgs, KindsDoNotMix) {
  // A writer's name given as a reader is still unknown as a reader.
  EXPECT_NE(check_worker_args({"--read", "raw"}, kCatalog), "");
  EXPECT_NE(check_worker_args({"--write", "getline"}, kCatalog), "");
}

TEST(CheckWorkerArgs, TheFirstUnknownIsNamed) {
  EXPECT_EQ(check_worker_args({"--read", "bad1", "--write", "bad2"}, kCatalog).rfind("--read", 0),
            0U);
}

TEST(CheckWorkerArgs, AMissingValueIsAnEmptyName) {
  // The worker itself reports "--read needs a value"; the catalog check only must not pass it.
  EXPECT_EQ(check_worker_args({"--write", "raw", "--read"}, kCatalog),
            "--read '' is not a worker reader (known: getline, read)");
}

TEST(CheckWorkerArgs, OtherOptionsAndTheirValuesAreLeftAlone) {
  EXPECT_EQ(check_worker_args({"--pipe-size", "max", "--verbose", "-"}, kCatalog), "");
}

TEST(WorkerCatalog, TheBuiltWorkerListsWhatTheChecksUse) {
  const auto catalog = load_worker_catalog(std::string(IOBENCH_BIN_DIR) + "/iobench-worker");
  EXPECT_EQ(check_worker_args({"--read", "getline", "--write", "raw", "--op", "field:2"}, catalog),
            "");
  EXPECT_NE(check_worker_args({"--read", "nosuch"}, catalog), "");
}

}  // namespace
}  // namespace iobench::run
