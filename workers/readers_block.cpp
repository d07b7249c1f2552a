// Block readers over file descriptors: read (read(2) + line split), chunk (read(2), no split: the
// byte-copy ceiling) and mmap (the whole file mapped, split in place).
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "common/sysio.hpp"
#include "workers/lines.hpp"
#include "workers/readers.hpp"

namespace iobench::worker {
namespace {

class ReadReader final : public Reader {
 public:
  explicit ReadReader(std::size_t block_bytes)
      : size_(block_bytes), block_(std::make_unique_for_overwrite<char[]>(block_bytes)) {}

  void run(Input& input, Op& op) override {
    LineSplitter splitter(op);
    for (;;) {
      const std::size_t n = sys::read_some(input.fd, block_.get(), size_);
      if (n == 0) break;
      splitter.feed(std::string_view(block_.get(), n));
    }
    splitter.finish();
  }

 private:
  std::size_t size_;
  std::unique_ptr<char[]> block_;
};

class ChunkReader final : public Reader {
 public:
  explicit ChunkReader(std::size_t block_bytes)
      : size_(block_bytes), block_(std::make_unique_for_overwrite<char[]>(block_bytes)) {}

  void run(Input& input, Op& op) override {
    for (;;) {
      const std::size_t n = sys::read_some(input.fd, block_.get(), size_);
      if (n == 0) break;
      op.block(std::string_view(block_.get(), n));
      op.release();
    }
  }

 private:
  std::size_t size_;
  std::unique_ptr<char[]> block_;
};

// Maps the whole file and splits it in place: no copy into user memory at all. Pages already
// consumed are dropped from the mapping every kDropBytes, so max RSS stays near that window
// instead of the file size (the data stays in the page cache; only this process' mapping goes).
class MmapReader final : public Reader {
 public:
  void run(Input& input, Op& op) override {
    const MappedInput mapped(input, "mmap");
    if (mapped.empty()) return;
    const char* const base = mapped.base();
    const char* const end = mapped.end();
    const char* p = mapped.begin();
    const char* dropped = base;  // page-aligned: everything before it is unmapped from RSS
    std::string_view batch[256];
    for (;;) {
      std::size_t n = 0;
      const char* next = scan_lines(p, end, batch, std::size(batch), n);
      if (n > 0) op.lines(std::span<const std::string_view>(batch, n));
      p = next;
      if (n < std::size(batch)) break;
      if (p - dropped >= kDropBytes) {
        op.release();  // writers may hold views into the pages about to go
        const auto keep = static_cast<std::size_t>(p - base) & ~(kPage - 1);
        ::madvise(const_cast<char*>(dropped), static_cast<std::size_t>(base + keep - dropped),
                  MADV_DONTNEED);
        dropped = base + keep;
      }
    }
    if (p < end) {
      const std::string_view last(p, static_cast<std::size_t>(end - p));
      op.lines(std::span<const std::string_view>(&last, 1));
    }
    op.release();
    ::lseek(input.fd, 0, SEEK_END);
  }

 private:
  static constexpr std::ptrdiff_t kDropBytes = 1 << 20;
  static constexpr std::size_t kPage = 4096;
};

const RegisterReader kRead({"read",
                            "read(2) into a block, lines split in place with a SIMD newline scan",
                            70, [](const Options& o) -> std::unique_ptr<Reader> {
                              return std::make_unique<ReadReader>(buffer_or(o, kDefaultReadBlock));
                            }});
const RegisterReader kMmap(
    {"mmap",
     "mmap(2) the whole file (madvise SEQUENTIAL), split in place; a regular "
     "file only",
     80, [](const Options& /*options*/) -> std::unique_ptr<Reader> {
       return std::make_unique<MmapReader>();
     }});
const RegisterReader kChunk({"chunk", "read(2) raw blocks, no line split: the byte-copy ceiling",
                             100, [](const Options& o) -> std::unique_ptr<Reader> {
                               return std::make_unique<ChunkReader>(
                                   buffer_or(o, kDefaultReadBlock));
                             }});

}  // namespace

std::unique_ptr<Reader> make_read_reader(const Options& options) {
  return std::make_unique<ReadReader>(buffer_or(options, kDefaultReadBlock));
}

MappedInput::MappedInput(const Input& input, std::string_view reader) {
  // A pipe cannot be mapped. Reading it with read(2) instead would measure another strategy
  // under the mmap readers' names, so the run fails and says why (docs/driver.md, "What ok
  // guarantees").
  if (!input.regular) throw RunError(std::string(reader) + kNeedsAFile);
  struct stat st {};
  if (::fstat(input.fd, &st) != 0) throw std::system_error(errno, std::generic_category(), "fstat");
  const off_t start = ::lseek(input.fd, 0, SEEK_CUR);
  if (start < 0 || st.st_size <= start) return;
  size_ = static_cast<std::size_t>(st.st_size);
  start_ = static_cast<std::size_t>(start);
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, input.fd, 0);
  if (map == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  map_ = map;
  ::madvise(map_, size_, MADV_SEQUENTIAL);
}

MappedInput::~MappedInput() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

}  // namespace iobench::worker
