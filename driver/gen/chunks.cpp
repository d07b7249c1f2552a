// Chunked generation (detail::write_in_chunks): a file's chunks are made on every CPU, each from
// its own seed, and written in order by the calling thread while the next ones are made, so `gen`
// runs at the pace of the disk rather than of one core (docs/generators.md).
#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  return std::max(1U, std::thread::hardware_concurrency());
}

// The chunks' sizes: every chunk chunk_bytes, the last one also the remainder.
struct ChunkPlan {
  std::uint64_t count;
  std::uint64_t chunk_bytes;
  std::uint64_t size;
  [[nodiscard]] std::uint64_t bytes(std::uint64_t index) const noexcept {
    return index + 1 < count ? chunk_bytes : size - (count - 1) * chunk_bytes;
  }
};

// The generating threads and the writer share a ring of buffers: chunk k is made in slot
// k % slots, once chunk k - slots has been written out of it.
class ChunkPipeline {
 public:
  ChunkPipeline(const ChunkPlan& plan, unsigned threads, std::size_t capacity,
                const ChunkMaker& make)
      : plan_(plan), make_(make), ready_(threads + 2, kNone) {
    for (std::size_t i = 0; i < ready_.size(); ++i) buffers_.emplace_back(capacity);
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { generate(); });
  }
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;
  ~ChunkPipeline() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  // Writes every chunk in order; rethrows the first maker's or writer's error.
  void write_all(BlockWriter& out) {
    for (std::uint64_t index = 0; index < plan_.count; ++index) {
      const std::size_t slot = index % buffers_.size();
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return ready_[slot] == index || error_; });
        if (error_) std::rethrow_exception(error_);
      }
      out.write_now(buffers_[slot].data(), buffers_[slot].bytes_written());
      {
        const std::lock_guard lock(mutex_);
        written_ = index + 1;
      }
      changed_.notify_all();
    }
  }

 private:
  static constexpr std::uint64_t kNone = ~0ULL;

  void generate() {
    std::unique_lock lock(mutex_);
    for (;;) {
      const std::uint64_t index = next_;
      if (stop_ || error_ || index >= plan_.count) return;
      ++next_;
      const std::size_t slot = index % buffers_.size();
      changed_.wait(lock, [&] { return stop_ || error_ || index < written_ + buffers_.size(); });
      if (stop_ || error_) return;
      lock.unlock();
      std::exception_ptr failed;
      try {
        buffers_[slot].clear();
        make_(index, plan_.bytes(index), buffers_[slot]);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      if (failed && !error_) error_ = failed;
      ready_[slot] = index;
      changed_.notify_all();
    }
  }

  const ChunkPlan plan_;
  const ChunkMaker& make_;
  std::vector<ChunkBuffer> buffers_;
  std::vector<std::uint64_t> ready_;  // the chunk each slot holds, once made
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t next_ = 0;     // the next chunk a thread takes
  std::uint64_t written_ = 0;  // chunks written so far
  bool stop_ = false;
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
  if (threads == 0) threads = usable_cpus();
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
  ChunkPipeline pipeline(plan, threads, capacity, make);
  pipeline.write_all(out);
}

}  // namespace iobench::gen::detail
