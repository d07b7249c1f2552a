// Writers through a library's own buffering: stdio (fwrite_unlocked), ostream (std::cout, or a
// filebuf on other descriptors) and fmt ({fmt}'s compiled format_to into a memory_buffer).
#include <fmt/compile.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <iostream>
#include <iterator>
#include <memory>
#include <system_error>

#include "common/sysio.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

[[noreturn]] void throw_write_error() {
  throw std::system_error(errno != 0 ? errno : EIO, std::generic_category(), "write");
}

class StdioWriter final : public Writer {
 public:
  StdioWriter(int fd, std::size_t buffer_bytes) {
    if (fd == STDOUT_FILENO) {
      file_ = stdout;
    } else {
      const int copy = ::dup(fd);
      if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup");
      file_ = ::fdopen(copy, "w");
      if (file_ == nullptr) {
        ::close(copy);
        throw std::system_error(errno, std::generic_category(), "fdopen");
      }
      owned_ = true;
    }
    if (buffer_bytes > 0) ::setvbuf(file_, nullptr, _IOFBF, buffer_bytes);
  }
  StdioWriter(const StdioWriter&) = delete;
  StdioWriter& operator=(const StdioWriter&) = delete;
  ~StdioWriter() override {
    if (owned_) ::fclose(file_);
  }

  void write(std::string_view line) override { put(line); }
  void write_lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) put(line);
  }
  void finish() override {
    if (::fflush(file_) != 0 || ::ferror(file_) != 0) throw_write_error();
  }

 private:
  void put(std::string_view line) {
    if (::fwrite_unlocked(line.data(), 1, line.size(), file_) != line.size()) throw_write_error();
  }

  FILE* file_ = nullptr;
  bool owned_ = false;
};

class OstreamWriter final : public Writer {
 public:
  OstreamWriter(int fd, std::size_t buffer_bytes) : buffer_(buffer_bytes, '\0') {
    if (fd == STDOUT_FILENO) {
      std::ios::sync_with_stdio(false);  // std::cout gets its own buffer instead of stdout's
      if (!buffer_.empty()) {
        std::cout.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
      }
      out_ = &std::cout;
      return;
    }
    const int copy = ::dup(fd);
    if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup");
    filebuf_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(
        copy, std::ios::out | std::ios::binary,
        buffer_.empty() ? static_cast<std::size_t>(BUFSIZ) : buffer_.size());
    own_stream_ = std::make_unique<std::ostream>(filebuf_.get());
    out_ = own_stream_.get();
  }

  void write(std::string_view line) override { put(line); }
  void write_lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) put(line);
  }
  void finish() override {
    out_->flush();
    if (!*out_) throw_write_error();
  }

 private:
  void put(std::string_view line) {
    out_->write(line.data(), static_cast<std::streamsize>(line.size()));
  }

  std::string buffer_;
  std::unique_ptr<__gnu_cxx::stdio_filebuf<char>> filebuf_;
  std::unique_ptr<std::ostream> own_stream_;
  std::ostream* out_ = nullptr;
};

class FmtWriter final : public Writer {
 public:
  FmtWriter(int fd, std::size_t flush_bytes) : fd_(fd), flush_bytes_(flush_bytes) {
    buffer_.reserve(flush_bytes);
  }

  void write(std::string_view line) override { put(line); }
  void write_lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) put(line);
  }
  void finish() override { flush(); }

 private:
  void put(std::string_view line) {
    fmt::format_to(std::back_inserter(buffer_), FMT_COMPILE("{}"), line);
    if (buffer_.size() >= flush_bytes_) flush();
  }
  void flush() {
    sys::write_all(fd_, buffer_.data(), buffer_.size());
    buffer_.clear();
  }

  int fd_;
  std::size_t flush_bytes_;
  fmt::memory_buffer buffer_;
};

const RegisterWriter kStdio({"stdio", "fwrite_unlocked(3) to a FILE* (--buffer sets setvbuf)", 20,
                             [](int fd, const Options& o) -> std::unique_ptr<Writer> {
                               return std::make_unique<StdioWriter>(fd, buffer_or(o, 0));
                             }});
const RegisterWriter kOstream({"ostream",
                               "std::cout.write, sync_with_stdio(false) (--buffer sets pubsetbuf)",
                               30, [](int fd, const Options& o) -> std::unique_ptr<Writer> {
                                 return std::make_unique<OstreamWriter>(fd, buffer_or(o, 0));
                               }});
const RegisterWriter kFmt({"fmt",
                           "{fmt} compiled format_to into a memory_buffer, written at --buffer "
                           "(32 KiB, as fmt::output_file)",
                           50, [](int fd, const Options& o) -> std::unique_ptr<Writer> {
                             return std::make_unique<FmtWriter>(fd, buffer_or(o, 32 * 1024));
                           }});

}  // namespace
}  // namespace iobench::worker
