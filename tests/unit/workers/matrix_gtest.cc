// The correctness matrix: every registered reader x writer, over a corpus of awkward inputs, for
// every op, compared with a reference implementation (copy must be byte-identical to the input).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "tests/unit/workers/test_support.hpp"
#include "workers/worker.hpp"

namespace iobench::worker::testing {
namespace {

// Where two byte strings first differ, for a readable failure on multi-MiB outputs.
::testing::AssertionResult same_bytes(const std::string& expected, const std::string& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  std::size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
  return ::testing::AssertionFailure() << "outputs differ at byte " << at << " (expected "
                                       << expected.size() << " bytes, got " << actual.size() << ")";
}

struct CorpusFile {
  std::string name;
  std::string path;
  std::string bytes;
  bool long_line = false;
};

std::string ngram_lines(std::mt19937_64& rng, std::size_t target_bytes) {
  static constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyz";
  std::string out;
  while (out.size() < target_bytes) {
    const std::size_t word = 1 + rng() % 12;
    for (std::size_t i = 0; i < word; ++i) out += kLetters[rng() % kLetters.size()];
    out += '\t' + std::to_string(1800 + rng() % 220) + '\t' + std::to_string(rng() % 100000) +
           '\t' + std::to_string(rng() % 300) + '\n';
  }
  return out;
}

class Corpus {
 public:
  Corpus() {
    std::mt19937_64 rng(20240601);
    add("empty", "");
    add("single_newline", "\n");
    add("one_byte_no_newline", "x");
    add("no_final_newline", "alpha\tbeta\ngamma\tdelta\tepsilon\nzeta");
    add("crlf", "one\ttwo\r\nthree\r\n\r\nfour\tfive\tsix\r\nlast\tcr\r");
    add("nul_bytes", std::string("a\0b\tc\0\n\0\n\0\0\0\tx\n\0\0\ttail\0", 23));
    std::string binary;
    for (int i = 0; i < 20000; ++i) {
      const auto byte = static_cast<char>(rng() % 256);
      binary += byte;
    }
    add("non_utf8", binary);
    add("only_newlines", std::string(3000, '\n'));
    add("ngram", ngram_lines(rng, 400 * 1024));  // crosses every default block boundary
    // Lines from 0 to 300 KiB: longer than the stdio, fgets and read blocks, shorter than the
    // carry.
    std::string medium;
    for (int i = 0; i < 24; ++i) {
      medium += std::string(rng() % (300 * 1024), static_cast<char>('a' + i)) +
                (i % 3 ? "\t" : "") + "z\n";
    }
    add("medium_lines", medium);
    // One line longer than any buffer (and than the default pipe), with and without newline.
    const std::string giant(6 * 1024 * 1024 + 13, 'g');
    add("long_line", "head\tx\n" + giant + "\tend\nshort\n", true);
    add("long_line_no_newline", "head\n" + giant + "\tend", true);
  }

  const std::vector<CorpusFile>& files() const { return files_; }
  const TempDir& dir() const { return dir_; }

 private:
  void add(std::string name, std::string bytes, bool long_line = false) {
    const std::string path = (dir_ / name).string();
    write_file(path, bytes);
    files_.push_back({std::move(name), path, std::move(bytes), long_line});
  }

  TempDir dir_;
  std::vector<CorpusFile> files_;
};

class WorkerMatrix : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  static void SetUpTestSuite() { corpus_ = new Corpus(); }
  static void TearDownTestSuite() {
    delete corpus_;
    corpus_ = nullptr;
  }

  std::vector<std::string> base_args() const {
    return {"--read", std::get<0>(GetParam()), "--write", std::get<1>(GetParam())};
  }

  // Runs one op over one file and checks exit status, stderr and output against `expected`.
  void check(const CorpusFile& file, std::vector<std::string> extra, const std::string& expected,
             Feed feed = Feed::kPath) {
    std::vector<std::string> args = base_args();
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_worker(out_dir_, args, file.path, feed);
    std::string what = file.name;
    for (const std::string& a : extra) what += " " + a;
    what += feed == Feed::kPath ? " (path)" : feed == Feed::kPipe ? " (pipe)" : " (stdin file)";
    ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
    EXPECT_TRUE(same_bytes(expected, r.out)) << what;
  }

  static Corpus* corpus_;
  TempDir out_dir_;
};

Corpus* WorkerMatrix::corpus_ = nullptr;

TEST_P(WorkerMatrix, CopyIsByteIdenticalFromPath) {
  for (const CorpusFile& f : corpus_->files()) check(f, {"--op", "copy"}, f.bytes);
}

TEST_P(WorkerMatrix, CopyIsByteIdenticalFromPipeAndStdin) {
  for (const CorpusFile& f : corpus_->files()) {
    if (f.name == "empty" || f.name == "no_final_newline" || f.name == "ngram" ||
        f.name == "nul_bytes" || f.name == "long_line_no_newline") {
      // The mmap readers refuse a pipe (tests/unit/workers/refusals_gtest.cc).
      if (std::string(std::get<0>(GetParam())).rfind("mmap", 0) != 0)
        check(f, {}, f.bytes, Feed::kPipe);
    }
    if (f.name == "crlf" || f.name == "medium_lines") check(f, {}, f.bytes, Feed::kStdin);
  }
}

TEST_P(WorkerMatrix, CopyWithTinyBuffers) {
  // 16 bytes: every block, stdio buffer and write buffer is smaller than most lines.
  for (const CorpusFile& f : corpus_->files()) {
    if (f.long_line) continue;
    check(f, {"--buffer", "16"}, f.bytes);
  }
}

TEST_P(WorkerMatrix, CountMatchesReference) {
  for (const CorpusFile& f : corpus_->files())
    check(f, {"--op", "count"}, reference_count(f.bytes));
}

TEST_P(WorkerMatrix, FieldMatchesReference) {
  for (const CorpusFile& f : corpus_->files()) {
    check(f, {"--op", "field:2"}, reference_field(f.bytes, 2));
    if (!f.long_line) {
      check(f, {"--op", "field:1"}, reference_field(f.bytes, 1));
      check(f, {"--op", "field:4"}, reference_field(f.bytes, 4));
    }
  }
}

TEST_P(WorkerMatrix, SplitDealsLinesRoundRobin) {
  for (const CorpusFile& f : corpus_->files()) {
    if (f.long_line) continue;
    const std::string prefix = (out_dir_ / "part-").string();
    check(f, {"--op", "split", "--outputs", "3", "--prefix", prefix}, "");
    const std::vector<std::string> expected = reference_split(f.bytes, 3);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_TRUE(same_bytes(expected[i], read_file(prefix + std::to_string(i))))
          << f.name << " output " << i;
    }
  }
}

// Readers that run one op only (parallel: count) get the corpus for that op alone; the CLI refuses
// the others (tests/unit/workers/parallel_gtest.cc).
class CountOnlyMatrix : public WorkerMatrix {};

TEST_P(CountOnlyMatrix, CountMatchesReference) {
  for (const CorpusFile& f : corpus_->files())
    check(f, {"--op", "count"}, reference_count(f.bytes));
}

// Every reader x writer pair; `only_op`: the readers limited to that op, else those that run any.
std::vector<std::tuple<std::string, std::string>> all_pairs(std::string_view only_op = {}) {
  std::vector<std::tuple<std::string, std::string>> pairs;
  for (const ReaderUnit& r : registry().readers) {
    if (r.only_op != only_op) continue;
    for (const WriterUnit& w : registry().writers) pairs.emplace_back(r.name, w.name);
  }
  return pairs;
}

std::string pair_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& test) {
  // gtest names take letters, digits and '_' only (mmap-ahead).
  std::string name = std::get<0>(test.param) + "_" + std::get<1>(test.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllReadersAllWriters, WorkerMatrix, ::testing::ValuesIn(all_pairs()),
                         pair_name);
INSTANTIATE_TEST_SUITE_P(CountOnlyReadersAllWriters, CountOnlyMatrix,
                         ::testing::ValuesIn(all_pairs("count")), pair_name);

}  // namespace
}  // namespace iobench::worker::testing
