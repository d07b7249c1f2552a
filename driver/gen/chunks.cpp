// Chunked generation (detail::write_in_chunks): a file's chunks are made on every CPU, each from
// its own seed, and written in order by the thread that made each while the others make the next
// ones, so `gen` runs at the pace of the disk rather than of one core (docs/generators.md).
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/cpus.hpp"
#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

// The chunks' sizes: every chunk chunk_bytes, the last one also the remainder.
struct ChunkPlan {
  std::uint64_t count;
  std::uint64_t chunk_bytes;
  std::uint64_t size;
  [[nodiscard]] std::uint64_t bytes(std::uint64_t index) const noexcept {
    return index + 1 < count ? chunk_bytes : size - (count - 1) * chunk_bytes;
  }
};

// Each thread makes a chunk into its own buffer, waits for its turn (every chunk before it
// written) and writes the chunk itself, then takes the next one. No thread only writes: a third
// thread beside two generating ones on two CPUs was woken late and left the generators waiting on
// a full ring, about a fifth of the elapsed time (docs/generators.md, "Speed"). While one thread
// writes, the others make their chunks, so writes never overlap and come in order, which a pipe
// (gen --compress) needs.
class ChunkPipeline {
 public:
  ChunkPipeline(const ChunkPlan& plan, std::size_t capacity, const ChunkMaker& make,
                BlockWriter& out)
      : plan_(plan), capacity_(capacity), make_(make), out_(out) {}

  // Runs `threads` threads, the calling one included; rethrows the first maker's or writer's
  // error once every thread has stopped.
  void run(unsigned threads) {
    {
      std::vector<std::jthread> helpers;
      helpers.reserve(threads - 1);
      for (unsigned i = 1; i < threads; ++i) helpers.emplace_back([this] { make_and_write(); });
      make_and_write();
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void make_and_write() {
    ChunkBuffer buffer(capacity_);
    std::unique_lock lock(mutex_);
    for (;;) {
      const std::uint64_t index = next_;
      if (error_ || index >= plan_.count) return;
      ++next_;
      lock.unlock();
      std::exception_ptr failed;
      try {
        buffer.clear();
        make_(index, plan_.bytes(index), buffer);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      if (!failed) {
        turn_.wait(lock, [&] { return written_ == index || error_; });
        if (error_) return;
        lock.unlock();  // the other threads go on making their chunks meanwhile
        try {
          out_.write_now(buffer.data(), buffer.bytes_written());
        } catch (...) {
          failed = std::current_exception();
        }
        lock.lock();
      }
      if (failed && !error_) error_ = failed;
      written_ = index + 1;
      turn_.notify_all();
    }
  }

  const ChunkPlan plan_;
  const std::size_t capacity_;
  const ChunkMaker& make_;
  BlockWriter& out_;
  std::mutex mutex_;
  std::condition_variable turn_;
  std::uint64_t next_ = 0;     // the next chunk a thread takes
  std::uint64_t written_ = 0;  // chunks written so far, in order
  std::exception_ptr error_;
};

}  // namespace

std::uint64_t chunk_seed(std::uint64_t seed, std::uint64_t index) noexcept {
  if (index == 0) return seed;
  std::uint64_t state = seed ^ (index * 0xd1b54a32d192ed03ULL);
  return splitmix64(state);
}

void write_in_chunks(BlockWriter& out, std::uint64_t size, std::uint64_t chunk_bytes,
                     unsigned threads, std::size_t slack_bytes, const ChunkMaker& make) {
  const ChunkPlan plan{std::max<std::uint64_t>(1, size / chunk_bytes), chunk_bytes, size};
  const std::size_t capacity =
      static_cast<std::size_t>(std::min(size, 2 * chunk_bytes)) + slack_bytes;
  if (threads == 0) threads = static_cast<unsigned>(usable_cpus());
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, plan.count));
  if (threads <= 1) {
    ChunkBuffer buffer(capacity);
    for (std::uint64_t index = 0; index < plan.count; ++index) {
      buffer.clear();
      make(index, plan.bytes(index), buffer);
      out.write_now(buffer.data(), buffer.bytes_written());
    }
    return;
  }
  ChunkPipeline(plan, capacity, make, out).run(threads);
}

}  // namespace iobench::gen::detail
