// common/worker_args: the worker's command line, one model for the worker and the driver. Its
// split (never refusing), the typed parse with the worker's one-line refusals, and what the driver
// asks of a config's arguments: the output class (was config/plan.cpp's own parser), the reader,
// writer and op named (was run/worker_catalog.cpp's), the reader (was run/pre_run.cpp's).
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "common/worker_args.hpp"

namespace iobench {
namespace {

using Args = std::vector<std::string>;

std::string class_of(const Args& args) {
  return WorkerCommandLine(args).output_class();
}

std::string refusal_of(const Args& args) {
  try {
    parse_worker_args(args);
  } catch (const WorkerUsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(WorkerOptions, TheTableHasEveryOptionOfTheUsageAndNoOther) {
  const std::string usage(kWorkerUsage);
  const std::regex option("--[a-z-]+");
  std::size_t in_usage = 0;
  for (auto it = std::sregex_iterator(usage.begin(), usage.end(), option);
       it != std::sregex_iterator(); ++it, ++in_usage) {
    EXPECT_NE(find_worker_option(it->str()), nullptr) << it->str();
  }
  EXPECT_EQ(in_usage + 1, kWorkerOptions.size()) << "all but --help are in the usage line";
  EXPECT_EQ(find_worker_option("-v"), find_worker_option("--verbose"));
  EXPECT_EQ(find_worker_option("-h"), find_worker_option("--help"));
  EXPECT_EQ(find_worker_option("--frobnicate"), nullptr);
  EXPECT_EQ(find_worker_option("-"), nullptr);
}

TEST(SplitWorkerArgs, TakesValuesInlineOrApartAndNeverRefuses) {
  const std::vector<WorkerArg> args = split_worker_args(
      {"--read=mmap", "--write", "raw", "-v", "--prefix", "-x", "--frob=1", "in.txt", "--op"});
  ASSERT_EQ(args.size(), 7U);
  EXPECT_EQ(args[0].name, "--read");
  EXPECT_EQ(args[0].value, "mmap");
  EXPECT_EQ(args[0].text, "--read=mmap");
  EXPECT_EQ(args[1].name, "--write");
  EXPECT_EQ(args[1].value, "raw");
  EXPECT_EQ(args[2].option, find_worker_option("--verbose"));
  EXPECT_EQ(args[3].value, "-x") << "a value option takes the next argument whatever it is";
  EXPECT_EQ(args[4].option, nullptr);
  EXPECT_EQ(args[4].name, "--frob");
  EXPECT_EQ(args[4].text, "--frob=1");
  EXPECT_FALSE(args[4].is_word());
  EXPECT_TRUE(args[5].is_word());
  EXPECT_EQ(args[5].name, "in.txt");
  EXPECT_TRUE(args[6].value_missing);
  EXPECT_EQ(args[6].value, "");
  EXPECT_TRUE(split_worker_args({"-"})[0].is_word());
}

TEST(ParseWorkerArgs, ReadsEveryValueTheLastOneWinning) {
  const WorkerArgs o = parse_worker_args(
      {"--read",      "read",     "--read=getline", "--write",    "buffered",    "--buffer=64KiB",
       "--op",        "field:3",  "--threads",      "4",          "--pipe-size", "256K",
       "--outputs=2", "--prefix", "p-{}",           "--compress", "gzip -1",     "--decompress",
       "zcat",        "-v",       "in.tsv"});
  EXPECT_EQ(o.reader, "getline");
  EXPECT_EQ(o.writer, "buffered");
  EXPECT_EQ(o.buffer_bytes, 64U * 1024);
  EXPECT_EQ(o.op, "field");
  EXPECT_EQ(o.op_arg, "3");
  EXPECT_EQ(o.threads, 4U);
  EXPECT_EQ(o.pipe_size.kind, PipeSize::Kind::kBytes);
  EXPECT_EQ(o.pipe_size.bytes, 256U * 1024);
  EXPECT_EQ(o.outputs, 2U);
  EXPECT_EQ(o.prefix, "p-{}");
  EXPECT_EQ(o.compress, "gzip -1");
  EXPECT_EQ(o.decompress, "zcat");
  EXPECT_TRUE(o.verbose);
  EXPECT_EQ(o.input, "in.tsv");
  EXPECT_FALSE(o.list);
  EXPECT_TRUE(parse_worker_args({"--list"}).list);
  EXPECT_EQ(parse_worker_args({}).op, "copy");
  EXPECT_EQ(parse_worker_args({}).input, "-");
  EXPECT_EQ(parse_worker_args({"--pipe-size=max"}).pipe_size.kind, PipeSize::Kind::kMax);
  EXPECT_EQ(parse_worker_args({"--op", "field:"}).op_arg, ":") << "refused later, not dropped";
}

TEST(ParseWorkerArgs, RefusesBadValuesInArgumentOrderWithOneLine) {
  EXPECT_EQ(refusal_of({"--buffer"}), "--buffer needs a value");
  EXPECT_EQ(refusal_of({"--buffer", "8"}).rfind("bad --buffer '8': expected a size from 16", 0),
            0U);
  EXPECT_EQ(refusal_of({"--buffer", "2GiB"}).rfind("bad --buffer '2GiB'", 0), 0U);
  EXPECT_EQ(refusal_of({"--threads", "0"}), "bad --threads '0': expected a positive integer");
  EXPECT_EQ(refusal_of({"--threads", "1025"}), "bad --threads 1025: at most 1024");
  EXPECT_EQ(refusal_of({"--outputs", "x"}), "bad --outputs 'x': expected a positive integer");
  EXPECT_EQ(refusal_of({"--pipe-size", "0"}),
            "bad --pipe-size '0': expected default, max or a size");
  EXPECT_EQ(refusal_of({"a", "b"}), "more than one input ('a', 'b')");
  EXPECT_EQ(refusal_of({"--frob=1"}).rfind("unknown option '--frob'; usage: iobench-worker", 0),
            0U);
  EXPECT_EQ(refusal_of({"-h"}), std::string(kWorkerUsage));
  EXPECT_EQ(refusal_of({"--buffer", "8", "--frob"}).rfind("bad --buffer", 0), 0U) << "first first";
  for (const Args& args : {Args{"--buffer", "8"}, Args{"--frob"}, Args{"--help"}}) {
    EXPECT_EQ(refusal_of(args).find('\n'), std::string::npos);
  }
  // Names are not the command line's to judge: the worker's registry says which exist.
  EXPECT_EQ(refusal_of({"--read", "nosuch", "--op", "nosuch"}), "(accepted)");
}

TEST(WorkerOutputClass, ComesFromTheParsedOptionsNotTheirSpelling) {
  const std::string count = class_of({"--read", "read", "--write", "raw", "--op", "count"});
  EXPECT_EQ(count, "worker --op count");
  EXPECT_EQ(class_of({"--op=count", "-v", "--write=raw", "--read", "mmap"}), count);
  EXPECT_EQ(class_of({"--verbose", "--op", "count", "--buffer=4KiB", "--read=getc"}), count);
  EXPECT_EQ(class_of({"--read", "parallel", "--op", "count", "--threads", "2"}), count)
      << "--threads is how, not what";
  EXPECT_EQ(class_of({"--pipe-size", "max", "--op", "copy", "--op", "count"}), count);
  EXPECT_EQ(class_of({"--read", "read", "--write", "raw", "--op=copy", "--verbose"}), "copy");
  EXPECT_EQ(class_of({}), "copy");
  EXPECT_EQ(class_of({"--op", "field:2"}), "worker --op field:2");
  EXPECT_EQ(class_of({"--decompress", "gzip -dc"}), "worker --decompress gzip -dc --op copy")
      << "a decompressed input is not the input";
  // Sorted by option; the split files' --prefix is where, not what.
  EXPECT_EQ(
      class_of({"--prefix", "x-{}", "--outputs", "3", "--compress", "gzip -1", "--op", "split"}),
      "worker --compress gzip -1 --op split --outputs 3");
  // What the table does not know stays, as written and in order; a missing value is empty.
  EXPECT_EQ(class_of({"--frob=1", "--list", "in"}), "worker --op copy --frob=1 --list in");
  EXPECT_EQ(class_of({"--read", "read", "--op"}), "copy");
}

TEST(WorkerCommandLine, NamesEveryReaderWriterAndOpGiven) {
  const WorkerCommandLine line(
      {"--read", "bad", "--write=raw", "--op", "field:3", "--read=read", "--buffer", "--read"});
  const std::vector<NamedWorkerUnit> units = line.named_units();
  ASSERT_EQ(units.size(), 4U) << "--buffer took the last --read as its value";
  EXPECT_EQ(units[0].kind, "reader");
  EXPECT_EQ(units[0].option, "--read");
  EXPECT_EQ(units[0].value, "bad");
  EXPECT_EQ(units[1].kind, "writer");
  EXPECT_EQ(units[1].unit, "raw");
  EXPECT_EQ(units[2].kind, "op");
  EXPECT_EQ(units[2].value, "field:3");
  EXPECT_EQ(units[2].unit, "field");
  EXPECT_EQ(units[3].value, "read") << "an overridden one is named too";
  const std::vector<NamedWorkerUnit> missing = WorkerCommandLine({"--read"}).named_units();
  ASSERT_EQ(missing.size(), 1U);
  EXPECT_EQ(missing[0].value, "") << "the catalog check must not pass it";
}

TEST(WorkerCommandLine, AnswersWithTheValueTheWorkerTakes) {
  const WorkerCommandLine line({"--read", "read", "--read=mmap", "--op", "split:2", "-v"});
  EXPECT_EQ(line.value_of("--read"), "mmap");
  EXPECT_EQ(line.value_of("--write"), std::nullopt);
  EXPECT_TRUE(line.gives("--verbose"));
  EXPECT_FALSE(line.gives("--prefix"));
  EXPECT_TRUE(WorkerCommandLine({"--prefix=x"}).gives("--prefix"));
  EXPECT_FALSE(WorkerCommandLine({"--compress", "--prefix"}).gives("--prefix")) << "a value";
  EXPECT_EQ(line.op_name(), "split");
  EXPECT_EQ(WorkerCommandLine({}).op_name(), "copy");
}

}  // namespace
}  // namespace iobench
