#pragma once
// What reader families share: the plain read(2) reader, which mmap and uring fall back to when
// their input or the kernel does not allow them.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "workers/worker.hpp"

struct io_uring;  // liburing.h

namespace iobench::worker {

std::unique_ptr<Reader> make_read_reader(const Options& options);

// Why the mapping readers (mmap, mmap-ahead, parallel) refuse a pipe or terminal; they never fall
// back to read(2). After the reader's name.
inline constexpr const char* kNeedsAFile =
    ": the input is not a regular file (a pipe or terminal) and cannot be mapped; "
    "use --read read or chunk, or give a file";

// [begin, end) of the input's bytes, as file offsets.
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// [begin, end) cut into `parts` ranges of equal size (within a byte), in order; fewer when there
// are fewer bytes than parts (never an empty range), and one when begin == end.
std::vector<ByteRange> split_ranges(std::uint64_t begin, std::uint64_t end, std::size_t parts);

// The input mapped whole, for the mmap readers: [base, end) is the file, reading starts at
// `begin` (stdin may be a file read partly). Refuses a pipe or terminal (kNeedsAFile, after
// `reader`); empty when nothing is left to read. The mapping goes with the object.
class MappedInput {
 public:
  MappedInput(const Input& input, std::string_view reader);
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
