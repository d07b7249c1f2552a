// parallel: a line count on every CPU. The file is mapped once (MappedInput, as `mmap`) and cut
// into one byte range per thread; each thread counts the newlines of its range and the sums are
// added at the end. One CPU cannot move 1 GiB out of the page cache faster than `wc -l` does (the
// read copy, or mmap's page faults and TLB misses, bound both); two can. Only `--op count` is
// exact when ranges are read out of order, so the CLI refuses every other op
// (ReaderUnit::only_op).
//
// Why mmap rather than pread(2) into a private block per thread: both were measured on
// ngram-1g.tsv (docs/workers.md, "Counting on every CPU"); the pread copy cost about 15 % more
// CPU than the page faults of the mapping.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "common/cpus.hpp"
#include "workers/lines.hpp"
#include "workers/readers.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

// Counted, this range's pages are dropped from RSS every kDropBytes (the data stays in the page
// cache), as `mmap` does every MiB, so max RSS stays near threads x kDropBytes instead of the
// file size. Steps of 16 MiB cost no measurable CPU over never dropping; 1 MiB steps did.
constexpr std::size_t kDropBytes = std::size_t{16} << 20;
constexpr std::uint64_t kPage = 4096;

// Counts the newlines of `range` of the mapping at `base` (page-aligned), dropping its pages.
std::uint64_t count_and_drop(const char* base, ByteRange range) {
  std::uint64_t newlines = 0;
  // The page holding range.begin may be another thread's last: leave it to that thread.
  std::uint64_t dropped = (range.begin + kPage - 1) & ~(kPage - 1);
  for (std::uint64_t at = range.begin; at < range.end;) {
    const std::uint64_t n = std::min<std::uint64_t>(kDropBytes, range.end - at);
    newlines += count_newlines(base + at, static_cast<std::size_t>(n));
    at += n;
    if (const std::uint64_t keep = at & ~(kPage - 1); keep > dropped) {
      ::madvise(const_cast<char*>(base + dropped), static_cast<std::size_t>(keep - dropped),
                MADV_DONTNEED);
      dropped = keep;
    }
  }
  return newlines;
}

class ParallelCountReader final : public Reader {
 public:
  explicit ParallelCountReader(std::size_t threads) : threads_(threads) {}

  void run(Input& input, Op& op) override {
    {
      const MappedInput mapped(input, "parallel");  // a pipe is refused, never read(2) instead
      if (mapped.empty()) return;
      const char* const base = mapped.base();
      const std::vector<ByteRange> ranges =
          split_ranges(static_cast<std::uint64_t>(mapped.begin() - base),
                       static_cast<std::uint64_t>(mapped.end() - base), threads_);
      std::vector<std::uint64_t> newlines(ranges.size(), 0);
      std::vector<std::exception_ptr> errors(ranges.size());
      const auto count = [&](std::size_t i) {
        try {
          newlines[i] = count_and_drop(base, ranges[i]);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      };
      {
        std::vector<std::jthread> helpers;  // joined before the mapping goes
        helpers.reserve(ranges.size() - 1);
        for (std::size_t i = 1; i < ranges.size(); ++i) helpers.emplace_back(count, i);
        count(0);  // this thread takes the first range
      }
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (errors[i]) std::rethrow_exception(errors[i]);
        total += newlines[i];
      }
      // The last byte's page may have been dropped; reading it faults it back from the cache.
      op.counted(total, mapped.end()[-1] != '\n');
    }
    ::lseek(input.fd, 0, SEEK_END);
  }

 private:
  std::size_t threads_;
};

const RegisterReader kParallel(
    {"parallel",
     "newlines counted on every CPU at once (--threads N), each thread its own range of the "
     "mapped file, summed: --op count only (ranges are read out of order); a regular file only",
     110,  // last in --list: it runs one op only
     [](const Options& o) -> std::unique_ptr<Reader> {
       return std::make_unique<ParallelCountReader>(o.threads != 0 ? o.threads : usable_cpus());
     },
     "count", true});

}  // namespace

std::vector<ByteRange> split_ranges(std::uint64_t begin, std::uint64_t end, std::size_t parts) {
  const std::uint64_t bytes = end - begin;
  const std::uint64_t n = std::max<std::uint64_t>(1, std::min<std::uint64_t>(parts, bytes));
  std::vector<ByteRange> ranges;
  ranges.reserve(static_cast<std::size_t>(n));
  // bytes * i cannot overflow: n is a CPU count or --threads (<= 1024), a file below 2^50 bytes.
  for (std::uint64_t i = 0; i < n; ++i)
    ranges.push_back({begin + bytes * i / n, begin + bytes * (i + 1) / n});
  return ranges;
}

}  // namespace iobench::worker
