#pragma once
// What reader families share: the plain read(2) reader, which mmap and uring fall back to when
// their input or the kernel does not allow them.
#include <memory>

#include "workers/worker.hpp"

struct io_uring;  // liburing.h

namespace iobench::worker {

std::unique_ptr<Reader> make_read_reader(const Options& options);

// Why the mmap readers refuse a pipe or terminal (they never fall back to read(2)).
inline constexpr const char* kMmapNeedsAFile =
    "mmap: the input is not a regular file (a pipe or terminal) and cannot be mapped; "
    "use --read read, or give a file";

// The input mapped whole, for the mmap readers: [base, end) is the file, reading starts at
// `begin` (stdin may be a file read partly). Refuses a pipe or terminal (kMmapNeedsAFile); empty
// when nothing is left to read. The mapping goes with the object.
class MappedInput {
 public:
  explicit MappedInput(const Input& input);
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;
  ~MappedInput();
  [[nodiscard]] bool empty() const { return map_ == nullptr; }
  [[nodiscard]] const char* base() const { return static_cast<const char*>(map_); }
  [[nodiscard]] const char* begin() const { return base() + start_; }
  [[nodiscard]] const char* end() const { return base() + size_; }

 private:
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::size_t start_ = 0;
};

// io_uring_queue_init, as a seam: tests make it fail as seccomp or kernel.io_uring_disabled would.
using UringQueueInit = int (*)(unsigned entries, struct io_uring* ring, unsigned flags);
UringQueueInit& uring_queue_init();

}  // namespace iobench::worker
