// The line-splitting kernel against the obvious implementation: scan_lines, count_newlines and
// LineSplitter over random data, every alignment and block size.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/unit/workers/test_support.hpp"
#include "workers/lines.hpp"

namespace iobench::worker::testing {
namespace {

std::string random_text(std::mt19937_64& rng, std::size_t size, unsigned newline_per_mille) {
  std::string text(size, '\0');
  for (char& c : text) {
    c = rng() % 1000 < newline_per_mille ? '\n' : static_cast<char>(rng() % 256);
    if (c == '\n' && rng() % 1000 >= newline_per_mille) c = 'x';  // random bytes may be '\n' too
  }
  return text;
}

TEST(WorkerLines, ScanLinesFindsEveryCompleteLine) {
  std::mt19937_64 rng(1);
  std::string_view out[16];
  for (int round = 0; round < 400; ++round) {
    const std::string text = random_text(rng, rng() % 700, static_cast<unsigned>(rng() % 300));
    const std::size_t skew = rng() % 8;  // unaligned starts
    const std::string padded = std::string(skew, '\n') + text;
    const char* p = padded.data() + skew;
    const char* const end = padded.data() + padded.size();
    std::vector<std::string_view> got;
    for (;;) {
      std::size_t n = 0;
      p = scan_lines(p, end, out, std::size(out), n);
      got.insert(got.end(), out, out + n);
      if (n < std::size(out)) break;
    }
    std::vector<std::string_view> expected = reference_lines(text);
    std::string_view rest;
    if (!expected.empty() && expected.back().back() != '\n') {
      rest = expected.back();
      expected.pop_back();
    }
    ASSERT_EQ(got, expected) << "round " << round;
    EXPECT_EQ(std::string_view(p, static_cast<std::size_t>(end - p)), rest) << "round " << round;
  }
}

// Every capacity from 1 to 40 (a 64-byte word holds up to 64 lines, so a batch fills up at word
// ends and inside words alike): the lines come out in order, and nothing is written past `cap`.
TEST(WorkerLines, ScanLinesNeverWritesPastItsCapacity) {
  std::mt19937_64 rng(2);
  const std::string_view sentinel("sentinel");
  for (std::size_t cap = 1; cap <= 40; ++cap) {
    for (int round = 0; round < 20; ++round) {
      const std::string text = random_text(rng, 64 * (1 + rng() % 8) + rng() % 64,
                                           static_cast<unsigned>(50 + rng() % 400));
      std::vector<std::string_view> out(cap + 1, sentinel);
      const char* p = text.data();
      const char* const end = p + text.size();
      std::vector<std::string_view> got;
      for (;;) {
        std::size_t n = 0;
        p = scan_lines(p, end, out.data(), cap, n);
        ASSERT_EQ(out[cap], sentinel) << "cap " << cap << " round " << round;
        ASSERT_LE(n, cap);
        got.insert(got.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
        if (n < cap) break;
      }
      std::vector<std::string_view> expected = reference_lines(text);
      if (!expected.empty() && expected.back().back() != '\n') expected.pop_back();
      ASSERT_EQ(got, expected) << "cap " << cap << " round " << round;
    }
  }
}

TEST(WorkerLines, CountNewlinesMatchesStdCount) {
  std::mt19937_64 rng(2);
  for (int round = 0; round < 300; ++round) {
    const std::string text = random_text(rng, rng() % 20000, static_cast<unsigned>(rng() % 1000));
    const std::size_t skew = text.empty() ? 0 : rng() % std::min<std::size_t>(text.size(), 17);
    const auto expected = static_cast<std::uint64_t>(
        std::count(text.begin() + static_cast<std::ptrdiff_t>(skew), text.end(), '\n'));
    EXPECT_EQ(count_newlines(text.data() + skew, text.size() - skew), expected)
        << "round " << round;
    EXPECT_EQ(count_newlines_sse2(text.data() + skew, text.size() - skew), expected)
        << "round " << round;
  }
  // All newlines, long enough to overflow 8-bit counters if they were not flushed in time.
  const std::string all(100000, '\n');
  EXPECT_EQ(count_newlines(all.data(), all.size()), all.size());
  EXPECT_EQ(count_newlines_sse2(all.data(), all.size()), all.size());
}

class CollectingSink : public LineSink {
 public:
  void lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) {
      pending_.push_back(line);
      joined_.append(line);
    }
  }
  // Views must still be intact when released: compare them with what was recorded.
  void release() override {
    std::string check;
    for (const std::string_view line : pending_) check.append(line);
    EXPECT_EQ(check, joined_.substr(joined_.size() - check.size()));
    for (const std::string_view line : pending_) all_.emplace_back(line);
    pending_.clear();
  }
  std::vector<std::string> all_;

 private:
  std::vector<std::string_view> pending_;
  std::string joined_;
};

TEST(WorkerLines, SplitterJoinsLinesAcrossBlocksAndKeepsViewsUntilRelease) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 200; ++round) {
    const std::string text = random_text(rng, rng() % 5000, static_cast<unsigned>(rng() % 200));
    CollectingSink sink;
    LineSplitter splitter(sink);
    std::string block;  // reused and overwritten, as a reader's buffer is
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t n = std::min<std::size_t>(1 + rng() % 300, text.size() - at);
      block.assign(text, at, n);
      splitter.feed(block);
      block.assign(n, '#');  // any view still pointing here would now be wrong
      at += n;
    }
    splitter.finish();
    std::vector<std::string> expected;
    for (const std::string_view line : reference_lines(text)) expected.emplace_back(line);
    ASSERT_EQ(sink.all_, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace iobench::worker::testing
