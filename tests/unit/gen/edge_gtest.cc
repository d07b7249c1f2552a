// `iobench gen edge`: the corpus holds what its manifest says, deterministically.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "common/error.hpp"
#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::read_file;
using testing::request;
using testing::split;

std::map<std::string, std::string> corpus_files(const std::filesystem::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    files[entry.path().filename().string()] = read_file(entry.path());
  }
  return files;
}

TEST(GenEdge, CorpusHoldsEveryEdgeCase) {
  TempDir dir("edge");
  constexpr std::uint64_t kLong = 3 << 20;  // longer than any 1 MiB buffer
  generate(request("edge", kLong, 1), dir / "corpus");
  const auto files = corpus_files(dir / "corpus");

  EXPECT_TRUE(files.at("empty.txt").empty());
  EXPECT_EQ(files.at("single-newline.txt"), "\n");
  const auto& newlines = files.at("only-newlines.txt");
  EXPECT_GT(newlines.size(), 65536U);
  EXPECT_EQ(newlines.find_first_not_of('\n'), std::string::npos);
  EXPECT_NE(files.at("no-final-newline.txt").back(), '\n');
  EXPECT_EQ(files.at("one-byte-no-newline.txt"), "x");
  EXPECT_NE(files.at("crlf.txt").find("\r\n\r\n"), std::string::npos);
  EXPECT_EQ(files.at("crlf-no-final-newline.txt").back(), '\r');
  EXPECT_NE(files.at("lone-cr.txt").find("one\rtwo"), std::string::npos);
  const auto& nul = files.at("nul-bytes.txt");
  EXPECT_GE(std::count(nul.begin(), nul.end(), '\0'), 5);
  EXPECT_EQ(nul.back(), '\0');
  const auto& non_utf8 = files.at("non-utf8.txt");
  EXPECT_NE(non_utf8.find("\xff\xfe"), std::string::npos);
  EXPECT_NE(non_utf8.find("caf\xe9"), std::string::npos);
  EXPECT_EQ(files.at("every-byte.txt").size(), 1024U);
  EXPECT_NE(files.at("empty-fields.txt").find("\t\t\n"), std::string::npos);

  const auto& boundaries = files.at("buffer-boundaries.txt");
  std::vector<std::size_t> lengths;
  for (const auto line : testing::lines_of(boundaries)) lengths.push_back(line.size());
  EXPECT_NE(std::find(lengths.begin(), lengths.end(), 65536U), lengths.end());
  EXPECT_NE(std::find(lengths.begin(), lengths.end(), 4095U), lengths.end());

  const auto& long_line = files.at("long-line.txt");
  EXPECT_EQ(long_line.size(),
            std::string("before\n").size() + kLong + std::string("\nafter\n").size());
  EXPECT_TRUE(long_line.starts_with("before\n"));
  EXPECT_TRUE(long_line.ends_with("\nafter\n"));
  EXPECT_EQ(std::count(long_line.begin(), long_line.end(), '\n'), 3);
  const auto& no_newline = files.at("long-line-no-newline.txt");
  EXPECT_EQ(no_newline.size(), 7 + kLong);
  EXPECT_NE(no_newline.back(), '\n');
  EXPECT_EQ(std::count(no_newline.begin(), no_newline.end(), '\n'), 1);
  const auto& only = files.at("long-line-only.txt");
  EXPECT_EQ(only.size(), kLong + 1);
  EXPECT_EQ(only.find('\n'), kLong);

  // The manifest lists every other file with its size and line count.
  const auto manifest = testing::lines_of(files.at("MANIFEST.tsv"));
  ASSERT_EQ(manifest.size(), files.size());  // a header line, and every file but itself
  EXPECT_EQ(manifest[0], "file\tbytes\tlines\tdescription");
  for (std::size_t i = 1; i < manifest.size(); ++i) {
    const auto fields = split(manifest[i], '\t');
    ASSERT_EQ(fields.size(), 4U);
    const auto& content = files.at(std::string(fields[0]));
    EXPECT_EQ(std::to_string(content.size()), fields[1]) << fields[0];
    auto lines = static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n'));
    if (!content.empty() && content.back() != '\n') ++lines;
    EXPECT_EQ(std::to_string(lines), fields[2]) << fields[0];
    EXPECT_FALSE(fields[3].empty());
  }
}

TEST(GenEdge, DeterministicAndReplacesItsOwnCorpusOnly) {
  TempDir dir("edge-det");
  generate(request("edge", 100000, 1), dir / "a");
  generate(request("edge", 100000, 1), dir / "b");
  EXPECT_TRUE(corpus_files(dir / "a") == corpus_files(dir / "b"));
  generate(request("edge", 100000, 2), dir / "b");  // over an existing corpus: replaced
  EXPECT_FALSE(corpus_files(dir / "a") == corpus_files(dir / "b"));

  std::filesystem::create_directories(dir / "mine");
  { std::ofstream(dir / "mine" / "keep.txt") << "precious\n"; }
  EXPECT_THROW(generate(request("edge", 1000, 1), dir / "mine"), Error);
  EXPECT_EQ(read_file(dir / "mine" / "keep.txt"), "precious\n");
  // Nothing left behind by the failed attempt.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 3U);
}

// `mkdir corpus; iobench gen edge -o corpus/` was refused ("not an edge corpus"): a folder made
// for the corpus takes it, with or without the trailing slash; one holding anything else does not.
TEST(GenEdge, AnEmptyFolderTakesTheCorpus) {
  TempDir dir("edge-empty");
  std::filesystem::create_directories(dir / "slash");
  std::filesystem::create_directories(dir / "plain");
  generate(request("edge", 1000, 1), (dir / "slash").string() + "/");
  generate(request("edge", 1000, 1), dir / "plain");
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "slash" / "MANIFEST.tsv"));
  EXPECT_TRUE(corpus_files(dir / "slash") == corpus_files(dir / "plain"));
  std::size_t entries = 0;  // no temporary folder left beside them
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 2U);
}

TEST(GenEdge, SizeCapsTheLongLines) {
  EXPECT_NO_THROW(validate(request("edge", 0)));  // 0: the default, 32 MiB
  EXPECT_NO_THROW(validate(request("edge", 1ULL << 30)));
  EXPECT_THROW(validate(request("edge", (1ULL << 30) + 1)), Error);
  EXPECT_THROW(validate(request("edge", 10, 1, {{"compress", "gzip"}})), Error);
}

}  // namespace
}  // namespace iobench::gen
