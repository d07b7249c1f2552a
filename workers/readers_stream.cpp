// C++ stream readers: iostream (std::ifstream + std::getline) and cin (std::cin with
// sync_with_stdio(false)). std::getline drops the '\n'; it is put back unless the line ended at
// end of file, so copy stays byte-identical.
#include <unistd.h>

#include <cerrno>
#include <ext/stdio_filebuf.h>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>

#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

void getline_loop(std::istream& in, Op& op) {
  std::string line;
  while (std::getline(in, line)) {
    if (!in.eof()) line.push_back('\n');
    const std::string_view view(line);
    op.lines(std::span<const std::string_view>(&view, 1));
    op.release();
  }
  if (in.bad()) throw std::system_error(EIO, std::generic_category(), "read");
}

class IostreamReader final : public Reader {
 public:
  explicit IostreamReader(std::size_t buffer_bytes) : buffer_(buffer_bytes, '\0') {}

  void run(Input& input, Op& op) override {
    if (!input.path.empty()) {
      std::ifstream in;
      if (!buffer_.empty())
        in.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
      in.open(input.path, std::ios::in | std::ios::binary);
      if (!in) throw std::system_error(errno, std::generic_category(), "open " + input.path);
      getline_loop(in, op);
      return;
    }
    // stdin or a decompressor pipe: a filebuf over a duplicate of the descriptor.
    const int copy = ::dup(input.fd);
    if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup");
    const std::size_t size = buffer_.empty() ? static_cast<std::size_t>(BUFSIZ) : buffer_.size();
    __gnu_cxx::stdio_filebuf<char> buf(copy, std::ios::in | std::ios::binary, size);
    std::istream in(&buf);
    getline_loop(in, op);
  }

 private:
  std::string buffer_;  // empty: the library's default buffer
};

class CinReader final : public Reader {
 public:
  void run(Input& input, Op& op) override {
    // std::cin reads descriptor 0 whatever the input is, so a file is put there.
    if (input.fd != STDIN_FILENO && ::dup2(input.fd, STDIN_FILENO) < 0) {
      throw std::system_error(errno, std::generic_category(), "dup2");
    }
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);  // else every read flushes std::cout
    getline_loop(std::cin, op);
  }
};

const RegisterReader kIostream({"iostream",
                                "std::ifstream + std::getline (--buffer sets the filebuf buffer)",
                                10, [](const Options& o) -> std::unique_ptr<Reader> {
                                  return std::make_unique<IostreamReader>(buffer_or(o, 0));
                                }});
const RegisterReader kCin({"cin", "std::cin + std::getline, sync_with_stdio(false), untied", 20,
                           [](const Options&) -> std::unique_ptr<Reader> {
                             return std::make_unique<CinReader>();
                           }});

}  // namespace
}  // namespace iobench::worker
