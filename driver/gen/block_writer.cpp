// The writer thread of every generator: blocks handed over by the generating thread are written
// while the next ones are made (detail.hpp).
#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "common/sysio.hpp"
#include "driver/gen/detail.hpp"
#include "driver/gen/interrupt.hpp"

namespace iobench::gen::detail {

// What the generating thread and the writer thread share: the buffers, which are free, which are
// waiting to be written (with their sizes), and the first write error.
struct BlockWriter::Shared {
  std::array<std::unique_ptr<char[]>, kBuffers> buffers;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<char*> free;
  std::deque<std::pair<char*, std::size_t>> queued;
  std::size_t writing = 0;  // blocks taken by the writer thread and not yet returned
  bool stop = false;
  std::exception_ptr error;
  std::thread thread;

  void run(int fd) {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return stop || !queued.empty(); });
      if (queued.empty()) return;
      const auto [block, size] = queued.front();
      queued.pop_front();
      ++writing;
      lock.unlock();
      std::exception_ptr failed;
      if (!error) {
        try {
          sys::write_all(fd, block, size);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      lock.lock();
      if (failed && !error) error = failed;
      --writing;
      free.push_back(block);
      changed.notify_all();
    }
  }
};

BlockWriter::BlockWriter(int fd) : fd_(fd), shared_(std::make_unique<Shared>()) {
  for (auto& buffer : shared_->buffers) {
    buffer.reset(new char[kBlock + kSlack]);  // NOLINT: left uninitialised on purpose
    shared_->free.push_back(buffer.get());
  }
  current_ = shared_->free.front();
  shared_->free.pop_front();
}

BlockWriter::~BlockWriter() {
  if (shared_->thread.joinable()) {
    {
      const std::lock_guard lock(shared_->mutex);
      shared_->stop = true;
      shared_->queued.clear();
    }
    shared_->changed.notify_all();
    shared_->thread.join();
  }
}

void BlockWriter::hand_over() {
  // Hand over whole blocks (every write(2) is kBlock bytes) and carry the tail to the next block;
  // when reserve() asks for more than the block has left, hand over what there is.
  throw_if_interrupted();  // each MiB: Ctrl-C stops within a block's time
  const std::size_t size = fill_ >= kBlock ? kBlock : fill_;
  if (size == 0) return;
  Shared& shared = *shared_;
  char* next = nullptr;
  {
    std::unique_lock lock(shared.mutex);
    if (shared.error) std::rethrow_exception(shared.error);
    if (!shared.thread.joinable()) {
      shared.thread = std::thread([&shared, fd = fd_] { shared.run(fd); });
    }
    shared.queued.emplace_back(current_, size);
    shared.changed.notify_all();
    shared.changed.wait(lock, [&] { return !shared.free.empty() || shared.error; });
    if (shared.error) std::rethrow_exception(shared.error);
    next = shared.free.front();
    shared.free.pop_front();
  }
  std::memcpy(next, current_ + size, fill_ - size);
  current_ = next;
  fill_ -= size;
  handed_ += size;
}

void BlockWriter::append(const char* data, std::size_t size) {
  while (size > 0) {
    char* p = reserve(1);
    const std::size_t room = kBlock + kSlack - fill_;
    const std::size_t n = std::min(size, room);
    std::memcpy(p, data, n);
    commit(p + n);
    data += n;
    size -= n;
  }
}

void BlockWriter::flush() {
  Shared& shared = *shared_;
  {
    std::unique_lock lock(shared.mutex);
    shared.changed.wait(lock, [&] { return shared.queued.empty() && shared.writing == 0; });
    if (shared.error) std::rethrow_exception(shared.error);
  }
  if (fill_ > 0) sys::write_all(fd_, current_, fill_);
  handed_ += fill_;
  fill_ = 0;
}

void BlockWriter::write_now(const char* data, std::size_t size) {
  throw_if_interrupted();
  flush();
  sys::write_all(fd_, data, size);
  handed_ += size;
}

}  // namespace iobench::gen::detail
