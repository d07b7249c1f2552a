// Chunked generation (driver/gen/chunks.cpp): the bytes depend on the seed and size only, never on
// the number of threads, and the pipeline writes every chunk in order and reports a maker's error.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "driver/gen/detail.hpp"
#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::lines_of;
using testing::request;
using testing::split;

TEST(GenChunks, NgramBytesDoNotDependOnThreads) {
  TempDir dir("chunks-threads");
  // Three chunks, the last with a remainder: 4 MiB, 4 MiB, 5 MiB + 77 bytes.
  const std::uint64_t size = (13ULL << 20) + 77;
  GenRequest one = request("ngram", size, 5);
  one.threads = 1;
  const auto single = testing::generate_to_string(one, dir, "one");
  ASSERT_EQ(single.size(), size);
  for (const unsigned threads : {2U, 3U, 8U}) {
    GenRequest many = one;
    many.threads = threads;
    const auto parallel = testing::generate_to_string(many, dir, "many");
    EXPECT_TRUE(parallel == single) << threads << " threads";
  }
  // Every line is whole, across the chunk boundaries too.
  for (const auto line : lines_of(single)) ASSERT_EQ(split(line, '\t').size(), 4U) << line;
}

TEST(GenChunks, ChunksHaveTheirOwnSeeds) {
  TempDir dir("chunks-seeds");
  GenRequest r = request("ngram", 12ULL << 20, 9);
  const auto data = testing::generate_to_string(r, dir);
  const std::string_view all(data);
  const std::size_t chunk = 4U << 20;
  EXPECT_NE(all.substr(0, 4096), all.substr(chunk, 4096));
  EXPECT_NE(all.substr(chunk, 4096), all.substr(2 * chunk, 4096));
  // The first chunk is what a one-chunk file of the same seed gives, up to its shaped tail.
  const auto small = testing::generate_to_string(request("ngram", chunk, 9), dir, "small");
  EXPECT_EQ(all.substr(0, chunk - 256), std::string_view(small).substr(0, chunk - 256));
}

// Writes chunk i as bytes of value 'a' + i % 26, on `threads` threads, into a file.
std::string letters_in_chunks(const TempDir& dir, std::uint64_t size, std::uint64_t chunk,
                              unsigned threads) {
  const auto path = dir / "letters";
  {
    const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    detail::BlockWriter out(fd.get());
    detail::write_in_chunks(out, size, chunk, threads, 0,
                            [](std::uint64_t index, std::uint64_t bytes, detail::ChunkBuffer& b) {
                              char* p = b.reserve(bytes);
                              std::memset(p, static_cast<int>('a' + index % 26), bytes);
                              b.commit(p + bytes);
                            });
    out.flush();
  }
  return testing::read_file(path);
}

TEST(GenChunks, WritesEveryChunkInOrderWithTheRemainderLast) {
  TempDir dir("chunks-order");
  for (const unsigned threads : {1U, 2U, 4U}) {
    const auto data = letters_in_chunks(dir, 100 * 10 + 7, 10, threads);
    ASSERT_EQ(data.size(), 1007U);
    for (std::size_t i = 0; i < 990; ++i) {
      ASSERT_EQ(data[i], static_cast<char>('a' + (i / 10) % 26)) << i << " threads " << threads;
    }
    EXPECT_EQ(data.substr(990), std::string(17, static_cast<char>('a' + 99 % 26)));
  }
  EXPECT_EQ(letters_in_chunks(dir, 7, 10, 4), std::string(7, 'a'));  // under one chunk: one
}

TEST(GenChunks, AMakersErrorStopsEveryThreadAndIsRethrown) {
  TempDir dir("chunks-error");
  const auto path = dir / "x";
  const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  for (const unsigned threads : {1U, 3U}) {
    detail::BlockWriter out(fd.get());
    EXPECT_THROW(
        detail::write_in_chunks(out, 1000, 10, threads, 0,
                                [](std::uint64_t index, std::uint64_t, detail::ChunkBuffer&) {
                                  if (index == 17) throw std::runtime_error("chunk 17");
                                }),
        std::runtime_error);
  }
}

// The threads that make the chunks write them (no thread only writes): with two threads, writes
// come from both, the calling thread among them.
TEST(GenChunks, EachThreadWritesTheChunksItMade) {
  static std::mutex mutex;
  static std::set<pid_t> writers;
  writers.clear();
  const sys::Ops recording{&::read,
                           [](int fd, const void* buf, std::size_t count) -> ssize_t {
                             {
                               const std::lock_guard lock(mutex);
                               writers.insert(::gettid());
                             }
                             return ::write(fd, buf, count);
                           },
                           &::writev};
  const sys::ScopedOps scoped(recording);
  TempDir dir("chunks-writers");
  // Slow makers, so that both threads take chunks whatever the scheduler does.
  const auto path = dir / "slow";
  const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  detail::BlockWriter out(fd.get());
  detail::write_in_chunks(out, 64 * 10, 10, 2, 0,
                          [](std::uint64_t, std::uint64_t bytes, detail::ChunkBuffer& b) {
                            std::this_thread::sleep_for(std::chrono::milliseconds(2));
                            char* p = b.reserve(bytes);
                            std::memset(p, 'x', bytes);
                            b.commit(p + bytes);
                          });
  out.flush();
  EXPECT_EQ(writers.size(), 2U);
  EXPECT_EQ(writers.count(::gettid()), 1U) << "the calling thread makes and writes chunks too";
  EXPECT_EQ(testing::read_file(path), std::string(640, 'x'));
}

}  // namespace
}  // namespace iobench::gen
