// Fuzzes the worker's line splitting through the system-call seam: the `read` reader's loop
// (read_some over sys::ops) gets the input back in chunks whose sizes, EINTRs and short reads are
// chosen by the fuzzer, and a LineSplitter is also fed the same chunks directly. Both must produce
// exactly the lines of a trivial reference splitter (split after each '\n'; a last line without one
// is a line too), and each chunk lives in its own exact-size allocation so an over-read is caught.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/sysio.hpp"
#include "workers/lines.hpp"
#include "workers/worker.hpp"

namespace {

using iobench::worker::LineSink;

std::vector<std::string> reference_lines(std::string_view data) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] == '\n') {
      out.emplace_back(data.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  if (start < data.size()) out.emplace_back(data.substr(start));
  return out;
}

class CollectSink final : public LineSink {
 public:
  void lines(std::span<const std::string_view> lines) override {
    for (const auto line : lines) got.emplace_back(line);
  }
  void release() override {}
  std::vector<std::string> got;
};

// The fake read(2): serves `payload` in fuzzer-chosen pieces.
struct Script {
  std::string_view payload;
  std::size_t pos = 0;
  std::string_view control;  // one byte per call: chunk size and faults
  std::size_t cpos = 0;
};
Script* g_script = nullptr;

ssize_t fake_read(int /*fd*/, void* buf, std::size_t count) {
  Script& s = *g_script;
  const unsigned char c =
      s.control.empty() ? 0xff : static_cast<unsigned char>(s.control[s.cpos++ % s.control.size()]);
  if ((c & 0xe0) == 0xe0 && s.cpos % 4 != 0) {  // EINTR, but never forever
    errno = EINTR;
    return -1;
  }
  std::size_t n = (c & 0x1f) + 1U;  // short reads of 1..32 bytes, or
  if ((c & 0x20) != 0) n = count;   // the whole buffer
  n = std::min({n, count, s.payload.size() - s.pos});
  std::memcpy(buf, s.payload.data() + s.pos, n);
  s.pos += n;
  return static_cast<ssize_t>(n);
}

ssize_t no_write(int, const void*, std::size_t) {
  std::abort();
}
ssize_t no_writev(int, const struct iovec*, int) {
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Layout: [buffer size byte][control length byte][control bytes...][payload...]
  if (size < 2) return 0;
  const std::size_t buffer = 1 + data[0];  // 1..256 byte read buffer
  const std::size_t clen = std::min<std::size_t>(data[1], size - 2);
  const std::string_view control(reinterpret_cast<const char*>(data + 2), clen);
  const std::string payload(reinterpret_cast<const char*>(data + 2 + clen), size - 2 - clen);
  const auto expected = reference_lines(payload);

  // 1. The `read` reader's loop (workers/readers_block.cpp ReadReader::run: sys::read_some into
  //    a reused block, LineSplitter::feed, finish) through the seam.
  {
    Script script{payload, 0, control, 0};
    g_script = &script;
    const iobench::sys::ScopedOps scoped({&fake_read, &no_write, &no_writev});
    CollectSink sink;
    iobench::worker::LineSplitter splitter(sink);
    const auto block = std::make_unique<char[]>(buffer);
    for (;;) {
      const std::size_t n = iobench::sys::read_some(0, block.get(), buffer);
      if (n == 0) break;
      splitter.feed(std::string_view(block.get(), n));
      std::memset(block.get(), '#', buffer);  // the block is reused: a kept view would go stale
    }
    splitter.finish();
    g_script = nullptr;
    if (sink.got != expected) std::abort();
  }

  // 2. LineSplitter fed the same kind of chunks directly, each in an exact-size allocation.
  {
    CollectSink sink;
    iobench::worker::LineSplitter splitter(sink);
    std::size_t pos = 0, cpos = 0;
    while (pos < payload.size()) {
      const unsigned char c =
          control.empty() ? 0x3f : static_cast<unsigned char>(control[cpos++ % control.size()]);
      std::size_t n = (c & 0x3f) + 1U;
      if ((c & 0x40) != 0) n *= 17;  // some chunks much larger than the SIMD stride
      n = std::min(n, payload.size() - pos);
      auto chunk = std::make_unique<char[]>(n);
      std::memcpy(chunk.get(), payload.data() + pos, n);
      splitter.feed(std::string_view(chunk.get(), n));
      pos += n;
    }
    splitter.finish();
    if (sink.got != expected) std::abort();
  }
  return 0;
}
