#include "workers/lines.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace iobench::worker {
namespace {

#if defined(__SSE2__)
// Bit i is set when p[i] == '\n', for i in [0, 64).
inline std::uint64_t newline_mask64(const char* p) noexcept {
  const __m128i newline = _mm_set1_epi8('\n');
  const auto mask16 = [&](int offset) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + offset));
    return static_cast<std::uint64_t>(
        static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, newline))));
  };
  return mask16(0) | (mask16(16) << 16) | (mask16(32) << 32) | (mask16(48) << 48);
}
#endif

}  // namespace

// The scan loop, instantiated once per instruction set: Mask64 yields the newline bits of 64 bytes.
#define IOBENCH_SCAN_LINES_BODY(Mask64)                                                \
  std::size_t n = 0;                                                                   \
  const char* line = begin;                                                            \
  const char* p = begin;                                                               \
  while (end - p >= 64) {                                                              \
    std::uint64_t mask = Mask64(p);                                                    \
    while (mask != 0) {                                                                \
      const char* newline = p + __builtin_ctzll(mask);                                 \
      out[n++] = std::string_view(line, static_cast<std::size_t>(newline + 1 - line)); \
      line = newline + 1;                                                              \
      if (n == cap) {                                                                  \
        count = n;                                                                     \
        return line;                                                                   \
      }                                                                                \
      mask &= mask - 1;                                                                \
    }                                                                                  \
    p += 64;                                                                           \
  }                                                                                    \
  return scan_tail(p, line, end, out, cap, n, count);

namespace {

// The last bytes (under 64) with memchr.
inline const char* scan_tail(const char* p, const char* line, const char* end,
                             std::string_view* out, std::size_t cap, std::size_t n,
                             std::size_t& count) noexcept {
  while (p < end && n < cap) {
    const auto* newline =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (newline == nullptr) break;
    out[n++] = std::string_view(line, static_cast<std::size_t>(newline + 1 - line));
    line = p = newline + 1;
  }
  count = n;
  return line;
}

#if defined(__SSE2__)
const char* scan_lines_sse2(const char* begin, const char* end, std::string_view* out,
                            std::size_t cap, std::size_t& count) noexcept {
  IOBENCH_SCAN_LINES_BODY(newline_mask64)
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2,bmi"))) inline std::uint64_t newline_mask64_avx2(
    const char* p) noexcept {
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const auto low_bits =
      static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, newline)));
  const auto high_bits =
      static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, newline)));
  return low_bits | (static_cast<std::uint64_t>(high_bits) << 32);
}

__attribute__((target("avx2,bmi"))) const char* scan_lines_avx2(const char* begin, const char* end,
                                                                std::string_view* out,
                                                                std::size_t cap,
                                                                std::size_t& count) noexcept {
  IOBENCH_SCAN_LINES_BODY(newline_mask64_avx2)
}

// Static initialisation runs before the CPU model is set up on its own, hence __builtin_cpu_init.
const bool kHaveAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
}();
#endif

}  // namespace

const char* scan_lines(const char* begin, const char* end, std::string_view* out, std::size_t cap,
                       std::size_t& count) noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kHaveAvx2) return scan_lines_avx2(begin, end, out, cap, count);
#endif
#if defined(__SSE2__)
  return scan_lines_sse2(begin, end, out, cap, count);
#else
  return scan_tail(begin, begin, end, out, cap, 0, count);
#endif
}

std::uint64_t count_newlines_sse2(const char* data, std::size_t size) noexcept {
  std::uint64_t total = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i zero = _mm_setzero_si128();
  while (size >= 64) {
    // Byte counters count down by one per match (cmpeq yields -1); 63 rounds of 4 cannot overflow.
    __m128i counts = zero;
    std::size_t rounds = size / 64 < 63 ? size / 64 : 63;
    size -= rounds * 64;
    while (rounds-- > 0) {
      for (int i = 0; i < 4; ++i) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
        counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(bytes, newline));
        data += 16;
      }
    }
    const __m128i sums = _mm_sad_epu8(counts, zero);
    total += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (std::size_t i = 0; i < size; ++i) total += data[i] == '\n' ? 1 : 0;
  return total;
}

#if defined(__x86_64__) && defined(__GNUC__)
namespace {
// As count_newlines_sse2, 32 bytes at a time: about a sixth less CPU for a 1 GiB mapped count
// (docs/workers.md, "Counting on every CPU"), where the loop, not the page faults, is the cost.
__attribute__((target("avx2"))) std::uint64_t count_newlines_avx2(const char* data,
                                                                  std::size_t size) noexcept {
  std::uint64_t total = 0;
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i zero = _mm256_setzero_si256();
  while (size >= 128) {
    // Byte counters count down by one per match; 63 rounds of 4 cannot overflow.
    __m256i counts = zero;
    std::size_t rounds = size / 128 < 63 ? size / 128 : 63;
    size -= rounds * 128;
    while (rounds-- > 0) {
      for (int i = 0; i < 4; ++i) {
        const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data));
        counts = _mm256_sub_epi8(counts, _mm256_cmpeq_epi8(bytes, newline));
        data += 32;
      }
    }
    const __m256i sums = _mm256_sad_epu8(counts, zero);
    total += static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 0)) +
             static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 1)) +
             static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 2)) +
             static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 3));
  }
  return total + count_newlines_sse2(data, size);
}
}  // namespace
#endif

std::uint64_t count_newlines(const char* data, std::size_t size) noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kHaveAvx2) return count_newlines_avx2(data, size);
#endif
  return count_newlines_sse2(data, size);
}

std::string_view LineSplitter::emit_lines(std::string_view block) {
  const char* p = block.data();
  const char* const end = p + block.size();
  for (;;) {
    std::size_t n = 0;
    p = scan_lines(p, end, batch_.data(), kBatch, n);
    if (n > 0) sink_.lines(std::span<const std::string_view>(batch_.data(), n));
    if (n < kBatch) break;
  }
  return std::string_view(p, static_cast<std::size_t>(end - p));
}

void LineSplitter::feed(std::string_view block) {
  if (block.empty()) return;
  if (!carry_.empty()) {
    const auto* newline = static_cast<const char*>(std::memchr(block.data(), '\n', block.size()));
    if (newline == nullptr) {
      carry_.append(block);  // still inside a long line; nothing was handed out
      return;
    }
    const auto head = static_cast<std::size_t>(newline + 1 - block.data());
    carry_.append(block.data(), head);
    const std::string_view joined(carry_);
    sink_.lines(std::span<const std::string_view>(&joined, 1));
    block.remove_prefix(head);
  }
  const std::string_view rest = emit_lines(block);
  sink_.release();  // only now may the carry (and the caller's block) change
  carry_.assign(rest);
}

void LineSplitter::finish() {
  if (carry_.empty()) return;
  const std::string_view last(carry_);
  sink_.lines(std::span<const std::string_view>(&last, 1));
  sink_.release();
  carry_.clear();
}

}  // namespace iobench::worker
