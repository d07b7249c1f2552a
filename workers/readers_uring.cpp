// io_uring reader (liburing): two blocks, one being filled by the kernel while the other is split,
// so the read of block n+1 overlaps the line work on block n. Falls back to read(2) with a note
// when io_uring is unavailable (old kernel, seccomp, io_uring_disabled).
#include <liburing.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "workers/lines.hpp"
#include "workers/readers.hpp"

namespace iobench::worker {
namespace {

class UringReader final : public Reader {
 public:
  explicit UringReader(const Options& options) : size_(buffer_or(options, kDefaultReadBlock)) {
    for (auto& block : blocks_) block = std::make_unique_for_overwrite<char[]>(size_);
  }

  void run(Input& input, Op& op) override {
    io_uring ring{};
    // Refused (seccomp, kernel.io_uring_disabled, RLIMIT_MEMLOCK): fail and say why. Reading
    // with read(2) instead would be measured as `uring`.
    if (const int error = uring_queue_init()(2, &ring, 0); error < 0) {
      throw RunError(std::string("uring: io_uring refused (") + std::strerror(-error) +
                     "); this reader cannot run here");
    }
    struct Exit {
      io_uring& ring;
      ~Exit() { ::io_uring_queue_exit(&ring); }  // before the blocks go (members outlive it)
    } exit{ring};

    // A regular file is read at explicit offsets; a pipe at its current position (-1).
    std::int64_t offset = -1;
    if (input.regular) offset = ::lseek(input.fd, 0, SEEK_CUR);
    const bool positioned = offset >= 0;

    LineSplitter splitter(op);
    std::size_t current = 0;
    submit(ring, input.fd, current, positioned ? offset : -1);
    for (;;) {
      const int n = wait(ring);
      if (n == -EINTR || n == -EAGAIN) {
        submit(ring, input.fd, current, positioned ? offset : -1);
        continue;
      }
      if (n < 0) throw std::system_error(-n, std::generic_category(), "io_uring read");
      if (n == 0) break;
      if (positioned) offset += n;
      // Ask for the next block before splitting this one.
      submit(ring, input.fd, 1 - current, positioned ? offset : -1);
      splitter.feed(std::string_view(blocks_[current].get(), static_cast<std::size_t>(n)));
      current = 1 - current;
    }
    splitter.finish();
    if (positioned) ::lseek(input.fd, offset, SEEK_SET);
  }

 private:
  void submit(io_uring& ring, int fd, std::size_t block, std::int64_t offset) {
    io_uring_sqe* sqe = ::io_uring_get_sqe(&ring);
    if (sqe == nullptr) throw std::runtime_error("io_uring: no submission entry free");
    // -1 as an unsigned offset means "the file position", which is what a pipe needs.
    ::io_uring_prep_read(sqe, fd, blocks_[block].get(), static_cast<unsigned>(size_),
                         static_cast<std::uint64_t>(offset));
    const int submitted = ::io_uring_submit(&ring);
    if (submitted < 0)
      throw std::system_error(-submitted, std::generic_category(), "io_uring_submit");
  }

  static int wait(io_uring& ring) {
    io_uring_cqe* cqe = nullptr;
    int error = 0;
    while ((error = ::io_uring_wait_cqe(&ring, &cqe)) == -EINTR) {
    }
    if (error < 0) throw std::system_error(-error, std::generic_category(), "io_uring_wait_cqe");
    const int result = cqe->res;
    ::io_uring_cqe_seen(&ring, cqe);
    return result;
  }

  std::size_t size_;
  std::array<std::unique_ptr<char[]>, 2> blocks_;
};

const RegisterReader kUring({"uring",
                             "io_uring reads (liburing), double-buffered so the next block is read "
                             "while this one is split (--buffer, 128 KiB each)",
                             90, [](const Options& o) -> std::unique_ptr<Reader> {
                               return std::make_unique<UringReader>(o);
                             }});

}  // namespace

UringQueueInit& uring_queue_init() {
  static UringQueueInit init = &::io_uring_queue_init;
  return init;
}

}  // namespace iobench::worker
