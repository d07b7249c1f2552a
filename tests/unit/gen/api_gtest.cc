// The generator interface (driver/gen.hpp): kinds, validation errors, atomic output, and the pieces
// every kind relies on (the PRNG and integer formatting).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "common/sysio.hpp"
#include "driver/gen/detail.hpp"
#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::request;

// The message of the Error that `fn` throws (checks it is one line with exit code 2).
template <typename Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "no iobench::Error thrown";
  return {};
}

TEST(GenApi, KnowsItsKinds) {
  const auto names = kinds();
  for (const char* kind : {"ngram", "lines", "edge", "fastq"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), kind), names.end()) << kind;
  }
}

TEST(GenApi, EachErrorNamesWhatIsWrong) {
  EXPECT_NE(error_of([] { validate(request("words", 10)); }).find("'words' is not known"),
            std::string::npos);
  const auto unknown = error_of([] { validate(request("ngram", 10, 1, {{"colour", "red"}})); });
  EXPECT_NE(unknown.find("colour"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("compress"), std::string::npos) << unknown;  // lists what is known
  EXPECT_NE(error_of([] {
              validate(request("edge", 10, 1, {{"line_length", "fixed:1"}}));
            }).find("line_length"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              validate(request("lines", 10, 1, {{"line_length", "fixed:x"}}));
            }).find("fixed:x"),
            std::string::npos);
  EXPECT_NE(error_of([] { validate(request("lines", 0)); }).find("size"), std::string::npos);
  EXPECT_NE(error_of([] {
              validate(request("ngram", 10, 1, {{"compress", 1}}));
            }).find("string"),
            std::string::npos);
  GenRequest not_object = request("ngram", 10);
  not_object.options = nlohmann::json::array();
  error_of([&] { validate(not_object); });
}

TEST(GenApi, GenerateValidatesFirstAndLeavesNothingOnFailure) {
  TempDir dir("api");
  error_of([&] { generate(request("lines", 10, 1, {{"line_length", "bad"}}), dir / "x"); });
  EXPECT_FALSE(std::filesystem::exists(dir / "x"));
  std::filesystem::create_directories(dir / "folder");
  error_of([&] { generate(request("ngram", 100), dir / "folder"); });
  // A compressor that cannot start: no output, no temporary file.
  {
    const std::string saved_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir / "empty-bin").c_str(), 1);
    const auto message = error_of([&] {
      generate(request("ngram", 1 << 20, 1, {{"compress", "gzip"}}), dir / "x.gz");
    });
    ::setenv("PATH", saved_path.c_str(), 1);
    EXPECT_NE(message.find("gzip"), std::string::npos) << message;
  }
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 1U);  // just "folder"
}

TEST(GenApi, CreatesParentFoldersAndReplacesAFile) {
  TempDir dir("api-parents");
  const auto path = dir / "a" / "b" / "data.tsv";
  generate(request("ngram", 1000), path);
  EXPECT_EQ(std::filesystem::file_size(path), 1000U);
  generate(request("ngram", 2000), path);
  EXPECT_EQ(std::filesystem::file_size(path), 2000U);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir / "a" / "b")) {
    ++entries;
  }
  EXPECT_EQ(entries, 1U);
}

// docs/generators.md writes the edge corpus as `-o corpus/`; a file's name cannot end in '/'.
TEST(GenApi, AFolderMayBeNamedWithATrailingSlashAFileMayNot) {
  TempDir dir("api-slash");
  generate(request("edge", 0), (dir / "corpus").string() + "/");
  EXPECT_TRUE(std::filesystem::is_directory(dir / "corpus"));
  EXPECT_FALSE(std::filesystem::is_empty(dir / "corpus"));
  const auto message = error_of([&] { generate(request("ngram", 100), dir.path() / "data/"); });
  EXPECT_NE(message.find("names no file"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(dir / "data"));
}

// gen once wrote `.NAME.tmp.PID` with O_TRUNC and so followed a link planted there (by anyone
// who can write to the folder and guess the pid). Now its output goes through the atomic writer.
TEST(GenApi, NeverFollowsALinkPlantedAtATemporaryName) {
  TempDir dir("api-planted");
  const std::string pid = std::to_string(::getpid());
  {
    std::ofstream victim(dir / "victim");
    victim << "precious\n";
  }
  const std::vector<std::string> planted{".data.tsv.tmp." + pid, "data.tsv.tmp", ".data.tsv.tmp",
                                         ".corpus.tmp." + pid};
  for (const std::string& name : planted) {
    std::filesystem::create_symlink(dir / "victim", dir / name);
  }
  generate(request("ngram", 1000), dir / "data.tsv");
  generate(request("ngram", 1000, 1, {{"compress", "gzip"}}), dir / "data.tsv");
  generate(request("edge", 0), dir / "corpus");
  EXPECT_EQ(testing::read_file(dir / "victim"), "precious\n");
  EXPECT_FALSE(std::filesystem::is_symlink(dir / "data.tsv"));
  EXPECT_TRUE(std::filesystem::is_directory(dir / "corpus"));
  // The links are still there, and nothing else was left behind.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 7U);  // victim, four links, data.tsv, corpus
}

TEST(GenApi, FormatsIntegersLikeToString) {
  std::vector<std::uint64_t> values;
  for (std::uint64_t v = 0; v < 20000; ++v) values.push_back(v);
  std::uint64_t p = 1;
  for (int i = 0; i < 19; ++i, p *= 10) {
    values.insert(values.end(), {p - 1, p, p + 1, p * 3 + 7});
  }
  values.push_back(std::numeric_limits<std::uint64_t>::max());
  char buffer[32];
  for (const auto v : values) {
    char* end = detail::format_u64(buffer, v);
    ASSERT_EQ(std::string(buffer, static_cast<std::size_t>(end - buffer)), std::to_string(v));
  }
}

TEST(GenApi, RngIsXoshiro256StarStarSeededBySplitmix64) {
  // Fixed outputs: the bytes a seed gives must never change with the compiler or the library.
  detail::Rng rng(1);
  const std::uint64_t first = rng.next();
  const std::uint64_t second = rng.next();
  detail::Rng again(1);
  EXPECT_EQ(again.next(), first);
  EXPECT_EQ(again.next(), second);
  EXPECT_NE(detail::Rng(2).next(), first);
  std::uint64_t state = 0;
  EXPECT_EQ(iobench::splitmix64(state), 0xe220a8397b1dcdafULL);  // the reference value for seed 0
  for (int i = 0; i < 1000; ++i) {
    EXPECT_LT(rng.below(7), 7U);
    const double u = rng.unit();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(GenApi, BlockWriterRetriesShortWritesAndEintr) {
  static int calls = 0;
  calls = 0;
  const sys::Ops flaky{&::read,
                       [](int fd, const void* buf, std::size_t count) -> ssize_t {
                         if (++calls % 3 == 0) {
                           errno = EINTR;
                           return -1;
                         }
                         return ::write(fd, buf, std::min<std::size_t>(count, 1000));
                       },
                       &::writev};
  const sys::ScopedOps scoped(flaky);
  TempDir dir("api-flaky");
  const auto reference = [&] {
    const sys::ScopedOps real({&::read, &::write, &::writev});
    return testing::generate_to_string(request("ngram", 3 << 20, 4), dir, "reference");
  }();
  const auto flaky_data = testing::generate_to_string(request("ngram", 3 << 20, 4), dir, "flaky");
  EXPECT_GT(calls, 3000);
  EXPECT_TRUE(flaky_data == reference);
}

}  // namespace
}  // namespace iobench::gen
