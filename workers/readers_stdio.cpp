// C stdio readers: fgets, getline(3), getc_unlocked and fread (block + line split). Each reads a
// FILE* opened on a duplicate of the input descriptor, so fclose leaves the input to its owner.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "workers/lines.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

class StdioFile {
 public:
  // `buffer_bytes` 0 keeps stdio's own choice (st_blksize).
  StdioFile(int fd, std::size_t buffer_bytes) {
    const int copy = ::dup(fd);
    if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup");
    file_ = ::fdopen(copy, "r");
    if (file_ == nullptr) {
      const int error = errno;
      ::close(copy);
      throw std::system_error(error, std::generic_category(), "fdopen");
    }
    if (buffer_bytes > 0) ::setvbuf(file_, nullptr, _IOFBF, buffer_bytes);
  }
  StdioFile(const StdioFile&) = delete;
  StdioFile& operator=(const StdioFile&) = delete;
  ~StdioFile() { ::fclose(file_); }

  FILE* get() const { return file_; }
  // Throws when the stream ended on an error rather than end of file.
  void check() const {
    if (::ferror(file_) != 0) throw std::system_error(EIO, std::generic_category(), "read");
  }

 private:
  FILE* file_ = nullptr;
};

void emit_one(Op& op, std::string_view line) {
  op.lines(std::span<const std::string_view>(&line, 1));
  op.release();
}

// fgets into a fixed buffer. fgets returns a C string, which cannot tell a NUL byte of the data
// from its terminator, so the buffer is pre-filled with '\n': after the call, the first '\n'
// is either the line's own (followed by fgets' NUL) or filler (preceded by fgets' NUL). Lines
// longer than the buffer arrive in pieces and are joined.
class FgetsReader final : public Reader {
 public:
  explicit FgetsReader(std::size_t buffer_bytes)
      : buffer_(std::min<std::size_t>(std::max<std::size_t>(buffer_bytes, 2), INT_MAX), '\n') {}

  void run(Input& input, Op& op) override {
    StdioFile file(input.fd, 0);
    char* const buf = buffer_.data();
    const std::size_t size = buffer_.size();
    std::size_t dirty = size;  // bytes that may no longer hold filler
    std::string joined;
    for (;;) {
      std::memset(buf, '\n', dirty);
      if (::fgets_unlocked(buf, static_cast<int>(size), file.get()) == nullptr) break;
      std::size_t length = 0;
      bool complete = false;
      const auto* newline = static_cast<const char*>(std::memchr(buf, '\n', size));
      if (newline == nullptr) {
        length = size - 1;  // buffer full, no newline yet
      } else {
        const auto at = static_cast<std::size_t>(newline - buf);
        if (at + 1 < size && buf[at + 1] == '\0') {
          length = at + 1;
          complete = true;
        } else {
          length = at - 1;  // filler newline after fgets' NUL: end of file without newline
        }
      }
      dirty = std::min(length + 2, size);
      const std::string_view piece(buf, length);
      if (complete && joined.empty()) {
        emit_one(op, piece);
      } else if (complete) {
        joined.append(piece);
        emit_one(op, joined);
        joined.clear();
      } else {
        joined.append(piece);
      }
    }
    file.check();
    if (!joined.empty()) emit_one(op, joined);
  }

 private:
  std::string buffer_;
};

class GetlineReader final : public Reader {
 public:
  explicit GetlineReader(std::size_t stdio_buffer) : stdio_buffer_(stdio_buffer) {}

  void run(Input& input, Op& op) override {
    StdioFile file(input.fd, stdio_buffer_);
    char* line = nullptr;
    std::size_t capacity = 0;
    struct Free {
      char*& p;
      ~Free() { std::free(p); }
    } free_line{line};
    for (;;) {
      const ssize_t n = ::getline(&line, &capacity, file.get());
      if (n < 0) break;
      emit_one(op, std::string_view(line, static_cast<std::size_t>(n)));
    }
    file.check();
  }

 private:
  std::size_t stdio_buffer_;
};

class GetcReader final : public Reader {
 public:
  explicit GetcReader(std::size_t stdio_buffer) : stdio_buffer_(stdio_buffer) {}

  void run(Input& input, Op& op) override {
    StdioFile file(input.fd, stdio_buffer_);
    std::string line;
    line.reserve(256);
    int c = 0;
    while ((c = ::getc_unlocked(file.get())) != EOF) {
      line.push_back(static_cast<char>(c));
      if (c == '\n') {
        emit_one(op, line);
        line.clear();
      }
    }
    file.check();
    if (!line.empty()) emit_one(op, line);
  }

 private:
  std::size_t stdio_buffer_;
};

class FreadReader final : public Reader {
 public:
  explicit FreadReader(std::size_t block_bytes)
      : size_(block_bytes), block_(std::make_unique_for_overwrite<char[]>(block_bytes)) {}

  void run(Input& input, Op& op) override {
    StdioFile file(input.fd, 0);
    LineSplitter splitter(op);
    for (;;) {
      const std::size_t n = ::fread_unlocked(block_.get(), 1, size_, file.get());
      if (n > 0) splitter.feed(std::string_view(block_.get(), n));
      if (n < size_) break;
    }
    file.check();
    splitter.finish();
  }

 private:
  std::size_t size_;
  std::unique_ptr<char[]> block_;
};

const RegisterReader kFgets(
    {"fgets", "fgets_unlocked(3) into a fixed buffer (--buffer, 64 KiB), long lines joined", 30,
     [](const Options& o) -> std::unique_ptr<Reader> {
       return std::make_unique<FgetsReader>(buffer_or(o, 64 * 1024));
     }});
const RegisterReader kGetline({"getline",
                               "POSIX getline(3) on a FILE* (--buffer sets its stdio buffer)", 40,
                               [](const Options& o) -> std::unique_ptr<Reader> {
                                 return std::make_unique<GetlineReader>(buffer_or(o, 0));
                               }});
const RegisterReader kGetc({"getc", "getc_unlocked(3) byte by byte into a reused line string", 50,
                            [](const Options& o) -> std::unique_ptr<Reader> {
                              return std::make_unique<GetcReader>(buffer_or(o, 0));
                            }});
const RegisterReader kFread({"fread",
                             "fread_unlocked(3) blocks (--buffer, 128 KiB), lines split in place",
                             60, [](const Options& o) -> std::unique_ptr<Reader> {
                               return std::make_unique<FreadReader>(
                                   buffer_or(o, kDefaultReadBlock));
                             }});

}  // namespace
}  // namespace iobench::worker
