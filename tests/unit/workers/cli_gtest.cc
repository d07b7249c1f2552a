// The worker's command line as a process: --list, usage errors (exit 2), run errors (exit 1),
// --decompress, split with --compress and --pipe-size.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/unit/workers/test_support.hpp"
#include "workers/cli.hpp"

namespace iobench::worker::testing {
namespace {

bool one_error_line(const std::string& err) {
  return err.starts_with("iobench-worker: ") && err.ends_with("\n") &&
         std::count(err.begin(), err.end(), '\n') == 1;
}

class WorkerCli : public ::testing::Test {
 protected:
  void SetUp() override {
    input_ = (dir_ / "input.tsv").string();
    text_ = "a\t1\tx\nb\t2\ny\t3\tz\r\nno newline\t4";
    write_file(input_, text_);
  }
  RunResult run(std::vector<std::string> args, const std::string& input = "") {
    return run_worker(dir_, std::move(args), input);
  }

  TempDir dir_;
  std::string input_;
  std::string text_;
};

TEST_F(WorkerCli, ListShowsEveryStrategyOfTheDesign) {
  const RunResult r = run({"--list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json list = nlohmann::json::parse(r.out);
  ASSERT_TRUE(list.is_array());
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& unit : list) {
    ASSERT_TRUE(unit.contains("name") && unit.contains("kind") && unit.contains("description"));
    EXPECT_FALSE(unit["description"].get<std::string>().empty()) << unit.dump();
    EXPECT_TRUE(seen.emplace(unit["kind"], unit["name"]).second) << "listed twice: " << unit.dump();
  }
  for (const char* name : {"iostream", "cin", "fgets", "getline", "getc", "fread", "read", "mmap",
                           "mmap-ahead", "uring", "chunk", "parallel"}) {
    EXPECT_TRUE(seen.contains({"reader", name})) << name;
  }
  for (const char* name : {"raw", "stdio", "ostream", "buffered", "fmt", "writev"}) {
    EXPECT_TRUE(seen.contains({"writer", name})) << name;
  }
  for (const char* name : {"copy", "count", "field:N", "split"}) {
    EXPECT_TRUE(seen.contains({"op", name})) << name;
  }
  EXPECT_EQ(seen.size(), 22u);
}

TEST_F(WorkerCli, UsageErrorsExitTwoWithOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--read", "nosuch", "--write", "raw"}, "unknown reader 'nosuch'"},
      {{"--read", "read", "--write", "nosuch"}, "unknown writer 'nosuch'"},
      {{"--read", "read", "--write", "raw", "--op", "nosuch"}, "unknown op 'nosuch'"},
      {{"--read", "read", "--write", "raw", "--buffer", "12XB"}, "bad --buffer '12XB'"},
      {{"--read", "read", "--write", "raw", "--buffer", "0"}, "bad --buffer '0'"},
      {{"--read", "read", "--write", "raw", "--buffer", "8"}, "bad --buffer '8'"},
      {{"--read", "read", "--write", "raw", "--buffer", "2GiB"}, "bad --buffer '2GiB'"},
      {{"--read", "read", "--write", "raw", "--buffer"}, "--buffer needs a value"},
      {{"--read", "read", "--write", "raw", "--op", "field:0"}, "bad field number '0'"},
      {{"--read", "read", "--write", "raw", "--op", "field:x"}, "bad field number 'x'"},
      {{"--read", "read", "--write", "raw", "--op", "field"}, "needs :N"},
      {{"--read", "read", "--write", "raw", "--op", "copy:2"}, "takes no argument"},
      {{"--read", "read", "--write", "raw", "--op", "split"}, "needs --outputs N and --prefix P"},
      {{"--read", "read", "--write", "raw", "--outputs", "2"}, "apply to --op split only"},
      {{"--read", "read", "--write", "raw", "--pipe-size", "huge"}, "bad --pipe-size 'huge'"},
      {{"--read", "read"}, "--read and --write are required"},
      {{"--read", "read", "--write", "raw", "--frobnicate"}, "unknown option '--frobnicate'"},
      {{"--read", "read", "--write", "raw", "one", "two"}, "more than one input"},
  };
  for (const auto& [args, message] : cases) {
    const RunResult r = run(args);
    std::string what;
    for (const std::string& a : args) what += a + " ";
    EXPECT_EQ(r.exit_code, 2) << what;
    EXPECT_TRUE(one_error_line(r.err)) << what << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << what << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << what;
  }
}

TEST_F(WorkerCli, MissingInputIsARunError) {
  const std::string missing = (dir_ / "does-not-exist.tsv").string();
  const RunResult r = run({"--read", "read", "--write", "raw", missing});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("cannot open " + missing), std::string::npos) << r.err;
}

TEST_F(WorkerCli, ParseArgsReadsInlineValuesAndSizes) {
  const Options o = parse_args({"--read=getline", "--write", "buffered", "--buffer=64KiB", "--op",
                                "field:3", "--pipe-size", "max", "--verbose", "in.tsv"});
  EXPECT_EQ(o.reader, "getline");
  EXPECT_EQ(o.writer, "buffered");
  EXPECT_EQ(o.buffer_bytes, 64u * 1024);
  EXPECT_EQ(o.op, "field");
  EXPECT_EQ(o.op_arg, "3");
  EXPECT_EQ(o.pipe_size.kind, PipeSize::Kind::kMax);
  EXPECT_TRUE(o.verbose);
  EXPECT_EQ(o.input, "in.tsv");
  const Options bytes = parse_args({"--read", "read", "--write", "raw", "--pipe-size", "256K"});
  EXPECT_EQ(bytes.pipe_size.kind, PipeSize::Kind::kBytes);
  EXPECT_EQ(bytes.pipe_size.bytes, 256u * 1024);
  EXPECT_EQ(parse_args({"--read", "read", "--write", "raw"}).input, "-");
  EXPECT_THROW(parse_args({"--read", "read", "--write", "raw", "--op", "field:"}), UsageError);
}

TEST_F(WorkerCli, DecompressReadsThroughTheCommand) {
  const std::string gz = (dir_ / "input.tsv.gz").string();
  ASSERT_EQ(std::system(("gzip -c " + input_ + " > " + gz).c_str()), 0);
  for (const char* reader : {"read", "getline", "uring", "iostream"}) {
    const RunResult r =
        run({"--read", reader, "--write", "buffered", "--decompress", "gzip -dc"}, gz);
    EXPECT_EQ(r.exit_code, 0) << reader << ": " << r.err;
    EXPECT_EQ(r.out, text_) << reader;
  }
  // The decompressor's output is a pipe, which mmap cannot map: refused (refusals_gtest.cc).
  const RunResult mmap =
      run({"--read", "mmap", "--write", "buffered", "--decompress", "gzip -dc"}, gz);
  EXPECT_NE(mmap.exit_code, 0);
  // A failing decompressor fails the run, as does one that cannot start.
  const RunResult bad =
      run({"--read", "read", "--write", "raw", "--decompress", "gzip -dc"}, input_);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("decompressor 'gzip -dc' exited with status"), std::string::npos)
      << bad.err;
  const RunResult missing =
      run({"--read", "read", "--write", "raw", "--decompress", "no-such-command-xyz"}, input_);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot start 'no-such-command-xyz'"), std::string::npos)
      << missing.err;
}

TEST_F(WorkerCli, SplitThroughCompressorsWaitsForThem) {
  const std::string prefix = (dir_ / "part-{}.gz").string();
  const RunResult r = run({"--read", "read", "--write", "buffered", "--op", "split", "--outputs",
                           "3", "--prefix", prefix, "--compress", "gzip -1"},
                          input_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> expected = reference_split(text_, 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string part = (dir_ / ("part-" + std::to_string(i) + ".gz")).string();
    const std::string plain = (dir_ / ("plain" + std::to_string(i))).string();
    // Complete files right after the worker exits: it waited for its compressors.
    std::string unzip = "gzip -dc ";
    unzip += part;
    unzip += " > ";
    unzip += plain;
    ASSERT_EQ(std::system(unzip.c_str()), 0) << part;
    EXPECT_EQ(read_file(plain), expected[i]) << part;
  }
  const RunResult failing = run({"--read", "read", "--write", "raw", "--op", "split", "--outputs",
                                 "2", "--prefix", (dir_ / "f").string(), "--compress", "false"},
                                input_);
  EXPECT_EQ(failing.exit_code, 1);
  EXPECT_TRUE(one_error_line(failing.err)) << failing.err;
}

TEST_F(WorkerCli, PipeSizeIsSetAndReported) {
  // The decompressor pipe is a pipe whatever the test harness does with stdout.
  const RunResult max = run({"--read", "read", "--write", "raw", "--decompress", "cat",
                             "--pipe-size", "max", "--verbose"},
                            input_);
  ASSERT_EQ(max.exit_code, 0) << max.err;
  EXPECT_EQ(max.out, text_);
  const std::string wanted = "decompressor pipe size: " + read_file("/proc/sys/fs/pipe-max-size");
  EXPECT_NE(max.err.find(wanted.substr(0, wanted.size() - 1) + " bytes"), std::string::npos)
      << max.err;
  const RunResult bytes = run({"--read", "read", "--write", "raw", "--decompress", "cat",
                               "--pipe-size", "256KiB", "--verbose"},
                              input_);
  ASSERT_EQ(bytes.exit_code, 0) << bytes.err;
  EXPECT_NE(bytes.err.find("decompressor pipe size: 262144 bytes"), std::string::npos) << bytes.err;
}

TEST_F(WorkerCli, CountAndFieldOutputs) {
  const RunResult count = run({"--read", "chunk", "--write", "raw", "--op", "count"}, input_);
  EXPECT_EQ(count.out, "4\n");
  const RunResult field = run({"--read", "read", "--write", "raw", "--op", "field:3"}, input_);
  EXPECT_EQ(field.out, "x\n\nz\r\n\n");
}

}  // namespace
}  // namespace iobench::worker::testing
