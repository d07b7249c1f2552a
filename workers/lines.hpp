#pragma once
// Line splitting over blocks: the hot path of every block reader (read, fread, uring, mmap, and
// chunk when an op needs lines). Newlines are found 64 bytes at a time as a bit mask (SSE2), so a
// short line costs a few instructions instead of a memchr call.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "workers/worker.hpp"

namespace iobench::worker {

// Fills out[0..cap) with views of the complete lines ('\n' included) that start at `begin`,
// stopping at `end` or when cap views are written. Sets `count`; returns where the first line not
// emitted starts (the unterminated rest, when count < cap).
const char* scan_lines(const char* begin, const char* end, std::string_view* out, std::size_t cap,
                       std::size_t& count) noexcept;

// The number of '\n' bytes in [data, data + size): AVX2 where the CPU has it, else
// count_newlines_sse2 (declared so that tests check both on a machine with AVX2).
std::uint64_t count_newlines(const char* data, std::size_t size) noexcept;
std::uint64_t count_newlines_sse2(const char* data, std::size_t size) noexcept;

// Turns a stream of blocks into lines for a sink. A line split across blocks is joined in a carry
// buffer that grows as needed, so a line longer than any block is still one line.
class LineSplitter {
 public:
  explicit LineSplitter(LineSink& sink) : sink_(sink) {}

  // Emits the complete lines of `block` (joined with the carry). The sink is released before
  // feed returns, so the caller may reuse the block's memory afterwards.
  void feed(std::string_view block);
  // Emits the last line when it had no '\n'.
  void finish();

 private:
  static constexpr std::size_t kBatch = 256;
  // Emits the lines of block after the carry is settled; returns the unterminated rest.
  std::string_view emit_lines(std::string_view block);

  LineSink& sink_;
  std::string carry_;
  std::array<std::string_view, kBatch> batch_{};
};

}  // namespace iobench::worker
