// `fastq`: 4-line FASTQ records in Illumina 1.8+ style (Phred+33), the pipe-size experiment's data:
//
//   @IOBENCH:1:FC00001:2:1101:01234:05678 1:N:0:ACGTACGT
//   GATTACA...            read_length bases (A, C, G, T; now and then N)
//   +
//   FFF:FF,F...           one quality per base; qualities fall towards the read's end; N has '#'
//
// The header has a fixed width (zero-padded coordinates), so sizes are exact: the last one or two
// records are shortened to fit (and one index base is added when the parity needs it). Sizes below
// one header plus a base give fewer bytes. `compress: gzip` writes the same bytes through gzip -n.
#include <algorithm>

#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

constexpr std::uint64_t kDefaultReadLength = 150;
constexpr std::uint64_t kMaxReadLength = 30000;
constexpr std::string_view kBases = "ACGT";
// Qualities in the first two thirds of a read, then in the last third (binned like a NovaSeq).
constexpr std::string_view kEarly = "FFFFFFFFFFFFFFFFFFFFFFFFFFFF:::,";
constexpr std::string_view kLate = "FFFFFFFFFFFFFFFFFF:::::::,,,,###";

class FastqWriter {
 public:
  FastqWriter(std::uint64_t seed, std::uint64_t read_length, BlockWriter& out)
      : rng_(seed), read_length_(read_length), out_(out) {}

  void write(std::uint64_t size) {
    std::uint64_t left = size;
    const std::uint64_t full = record_size(read_length_);
    while (left >= 2 * full) {
      write_record(read_length_, false);
      left -= full;
    }
    // Fewer than two full records' bytes left: one or two shortened records fill them exactly.
    std::uint64_t count = (left + full - 1) / full;
    while (count > 0 && left < count * record_size(1)) --count;
    if (count == 0) return;
    const std::uint64_t bases_bytes = left - count * record_size(0);
    const bool pad = bases_bytes % 2 != 0;  // an odd remainder: one header gets one more byte
    const std::uint64_t bases = (bases_bytes - (pad ? 1 : 0)) / 2;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t n = bases / count + (i < bases % count ? 1 : 0);
      write_record(n, pad && i == 0);
    }
  }

 private:
  static constexpr std::uint64_t kHeader = 52;  // "@IOBENCH:...:ACGTACGT" without the LF
  static std::uint64_t record_size(std::uint64_t bases) { return kHeader + 2 * bases + 5; }

  void write_record(std::uint64_t bases, bool longer_index) {
    const std::uint64_t r = rng_.next();
    if (++y_ > 99999 || (r & 63) == 0) {
      y_ = r % 2000;
      x_ = (x_ + 1 + (r >> 11) % 50) % 100000;
    }
    if ((r >> 20) % 100000 == 0) tile_ = tile_ == 2678 ? 1101 : tile_ + 1;
    char* p = out_.reserve(128);
    p = append(p, "@IOBENCH:1:FC00001:");
    *p++ = static_cast<char>('1' + (r >> 40) % 4);  // lane
    *p++ = ':';
    p = format_u64(p, tile_);
    *p++ = ':';
    p = padded(p, x_);
    *p++ = ':';
    p = padded(p, y_);
    p = append(p, " 1:N:0:");
    for (int i = 0; i < (longer_index ? 9 : 8); ++i) *p++ = kBases[(r >> (2 * i)) & 3];
    *p++ = '\n';
    out_.commit(p);

    // Bases, then "+", then qualities, each written in pieces that fit the writer's slack.
    n_at_.clear();
    write_line_in_pieces(bases, [this](char* to, std::uint64_t done, std::uint64_t chunk) {
      return write_bases(to, done, chunk);
    });
    out_.append("+\n", 2);
    const std::uint64_t late_from = bases - bases / 3;
    std::size_t next_n = 0;
    write_line_in_pieces(bases, [&](char* to, std::uint64_t done, std::uint64_t chunk) {
      return write_qualities(to, done, chunk, late_from, next_n);
    });
  }

  // A line of `length` bytes and its '\n', in pieces of at most 4 KiB (the writer's slack):
  // fill(p, done, chunk) writes the chunk bytes from offset `done` at p and returns their end.
  template <typename Fill>
  void write_line_in_pieces(std::uint64_t length, Fill fill) {
    for (std::uint64_t done = 0; done < length;) {
      const std::uint64_t chunk = std::min<std::uint64_t>(length - done, 4096);
      char* p = fill(out_.reserve(chunk + 1), done, chunk);
      if (done + chunk == length) *p++ = '\n';
      out_.commit(p);
      done += chunk;
    }
    if (length == 0) out_.append("\n", 1);
  }

  // `chunk` random bases from offset `done`; now and then one uncalled (N), noted in n_at_.
  char* write_bases(char* p, std::uint64_t done, std::uint64_t chunk) {
    for (std::uint64_t i = 0; i < chunk; i += 32) {
      std::uint64_t bits = rng_.next();
      const std::uint64_t n = std::min<std::uint64_t>(32, chunk - i);
      for (std::uint64_t j = 0; j < n; ++j, bits >>= 2) *p++ = kBases[bits & 3];
    }
    if (rng_.below(256) == 0) {
      const std::uint64_t at = rng_.below(chunk);
      *(p - static_cast<std::ptrdiff_t>(chunk - at)) = 'N';
      n_at_.push_back(done + at);
    }
    return p;
  }

  // `chunk` qualities from offset `done`: '#' for an N (next_n, the next of n_at_), lower from
  // `late_from` on.
  char* write_qualities(char* p, std::uint64_t done, std::uint64_t chunk, std::uint64_t late_from,
                        std::size_t& next_n) {
    for (std::uint64_t i = 0; i < chunk; i += 10) {
      std::uint64_t bits = rng_.next();
      const std::uint64_t n = std::min<std::uint64_t>(10, chunk - i);
      for (std::uint64_t j = 0; j < n; ++j, bits >>= 5) {
        const std::uint64_t at = done + i + j;
        if (next_n < n_at_.size() && n_at_[next_n] == at) {
          *p++ = '#';
          ++next_n;
        } else {
          *p++ = (at < late_from ? kEarly : kLate)[bits & 31];
        }
      }
    }
    return p;
  }

  static char* append(char* p, std::string_view text) {
    std::memcpy(p, text.data(), text.size());
    return p + text.size();
  }
  static char* padded(char* p, std::uint64_t v) {  // 5 digits, zero-padded
    for (int i = 4; i >= 0; --i, v /= 10) p[i] = static_cast<char>('0' + v % 10);
    return p + 5;
  }

  Rng rng_;
  std::uint64_t read_length_;
  BlockWriter& out_;
  std::uint64_t tile_ = 1101;
  std::uint64_t x_ = 1000;
  std::uint64_t y_ = 0;
  std::vector<std::uint64_t> n_at_;
};

}  // namespace

void validate_fastq(const GenRequest& request) {
  uint_option(request, "read_length", kDefaultReadLength, 1, kMaxReadLength);
}

void write_fastq(const GenRequest& request, BlockWriter& out) {
  const auto read_length =
      uint_option(request, "read_length", kDefaultReadLength, 1, kMaxReadLength);
  FastqWriter writer(request.seed, read_length, out);
  writer.write(request.size_bytes);
}

}  // namespace iobench::gen::detail
