// Writers that call the kernel directly through the syscall seam: raw (one write(2) per line, as
// dcat's RawOut), buffered (an own buffer flushed when full, tsv-utils' BufferedOutputRange with
// its 10 KiB default) and writev (lines gathered as iovecs, written IOV_MAX at a time).
#include <sys/uio.h>

#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "common/sysio.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

class RawWriter final : public Writer {
 public:
  explicit RawWriter(int fd) : fd_(fd) {}
  void write(std::string_view line) override { sys::write_all(fd_, line.data(), line.size()); }
  void write_lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) sys::write_all(fd_, line.data(), line.size());
  }
  void finish() override {}

 private:
  int fd_;
};

class BufferedWriter final : public Writer {
 public:
  BufferedWriter(int fd, std::size_t capacity)
      : fd_(fd), capacity_(capacity), buffer_(std::make_unique<char[]>(capacity)) {}

  void write(std::string_view line) override { append(line); }
  void write_lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) append(line);
  }
  void finish() override { flush(); }

 private:
  void append(std::string_view line) {
    if (line.size() > capacity_ - used_) {
      flush();
      if (line.size() >= capacity_) {  // would not fit anyway: skip the copy
        sys::write_all(fd_, line.data(), line.size());
        return;
      }
    }
    std::memcpy(buffer_.get() + used_, line.data(), line.size());
    used_ += line.size();
  }
  void flush() {
    if (used_ == 0) return;
    sys::write_all(fd_, buffer_.get(), used_);
    used_ = 0;
  }

  int fd_;
  std::size_t capacity_;
  std::size_t used_ = 0;
  std::unique_ptr<char[]> buffer_;
};

// Gathers lines as iovecs that point at the reader's memory, so a block reader's lines go to the
// kernel without a copy; adjacent lines share one iovec. When the reader is about to reuse that
// memory (release), a small tail of pending lines is copied into an own arena and kept; a large one
// is written out.
class WritevWriter final : public Writer {
 public:
  WritevWriter(int fd, std::size_t arena_bytes)
      : fd_(fd), arena_capacity_(arena_bytes), arena_(std::make_unique<char[]>(arena_bytes)) {
    iov_.reserve(kMaxIov);
  }

  void write(std::string_view line) override { add(line); }
  // A block reader's lines lie back to back: each run of them becomes one view (one iovec) before
  // add() sees it, so the per-line work is a compare and an add.
  void write_lines(std::span<const std::string_view> lines) override {
    const std::string_view* line = lines.data();
    const std::string_view* const last = line + lines.size();
    while (line != last) {
      const char* const run = line->data();
      const char* run_end = run + line->size();
      for (++line; line != last && line->data() == run_end; ++line) run_end += line->size();
      add(std::string_view(run, static_cast<std::size_t>(run_end - run)));
    }
  }
  void release() override {
    std::size_t borrowed = 0;
    for (std::size_t i = borrowed_from_; i < iov_.size(); ++i) borrowed += iov_[i].iov_len;
    if (borrowed == 0) return;
    if (borrowed > kCopyLimit || borrowed > arena_capacity_ - arena_used_) {
      flush();
      return;
    }
    // Copied lines land back to back in the arena, so they join the arena's last iovec.
    std::size_t kept = borrowed_from_;
    for (std::size_t i = borrowed_from_; i < iov_.size(); ++i) {
      char* to = arena_.get() + arena_used_;
      std::memcpy(to, iov_[i].iov_base, iov_[i].iov_len);
      arena_used_ += iov_[i].iov_len;
      if (kept > 0 && static_cast<char*>(iov_[kept - 1].iov_base) + iov_[kept - 1].iov_len == to) {
        iov_[kept - 1].iov_len += iov_[i].iov_len;
      } else {
        iov_[kept++] = iovec{to, iov_[i].iov_len};
      }
    }
    iov_.resize(kept);
    borrowed_from_ = iov_.size();
  }
  void finish() override { flush(); }

 private:
  static constexpr std::size_t kMaxIov = IOV_MAX;
  static constexpr std::size_t kCopyLimit = 4096;

  void add(std::string_view line) {
    // Lines of one block lie back to back: extend the last iovec instead of adding one, which
    // spares the kernel a segment per line. Only borrowed iovecs are extended, so release()
    // never has to split one that is part arena, part reader memory.
    if (iov_.size() > borrowed_from_) {
      iovec& last = iov_.back();
      if (static_cast<const char*>(last.iov_base) + last.iov_len == line.data()) {
        last.iov_len += line.size();
        return;
      }
    }
    if (iov_.size() == kMaxIov) flush();
    iov_.push_back(iovec{const_cast<char*>(line.data()), line.size()});
  }
  void flush() {
    if (!iov_.empty()) sys::writev_all(fd_, iov_.data(), static_cast<int>(iov_.size()));
    iov_.clear();
    borrowed_from_ = 0;
    arena_used_ = 0;
  }

  int fd_;
  std::vector<iovec> iov_;
  std::size_t borrowed_from_ = 0;  // iov_[borrowed_from_..] still point at the reader's memory
  std::size_t arena_capacity_;
  std::size_t arena_used_ = 0;
  std::unique_ptr<char[]> arena_;
};

const RegisterWriter kRaw({"raw", "one write(2) per line, no buffering (dcat's RawOut)", 10,
                           [](int fd, const Options&) -> std::unique_ptr<Writer> {
                             return std::make_unique<RawWriter>(fd);
                           }});
const RegisterWriter kBuffered({"buffered",
                                "own buffer written with write(2) when full (--buffer, 10 KiB as "
                                "tsv-utils' BufferedOutputRange)",
                                40, [](int fd, const Options& o) -> std::unique_ptr<Writer> {
                                  return std::make_unique<BufferedWriter>(fd,
                                                                          buffer_or(o, 10 * 1024));
                                }});
const RegisterWriter kWritev(
    {"writev",
     "lines gathered as iovecs into the reader's memory (adjacent lines merged), "
     "writev(2) IOV_MAX at a time (--buffer sizes the copy arena, 64 KiB)",
     60, [](int fd, const Options& o) -> std::unique_ptr<Writer> {
       return std::make_unique<WritevWriter>(fd, buffer_or(o, 64 * 1024));
     }});

}  // namespace
}  // namespace iobench::worker
