// `ngram`: text shaped like a Google Books Ngram Viewer 1-gram file (the dcat experiment's input):
//
//   word<TAB>year<TAB>match_count<TAB>volume_count<LF>
//
// Each word gets a run of consecutive years (1500..2019) as in the real files. A word's rank in a
// vocabulary of 2^23 words sets its frequency (Zipf: count ~ 1/rank), its length (rare words are
// longer) and how many years it spans (common words reach further back). Counts grow towards the
// present, vary from year to year, and volume_count never exceeds match_count. About a fifth of the
// words carry a part-of-speech tag (`_NOUN`), as the 2012 files do; some are capitalised, numbers,
// punctuation, or hold a UTF-8 letter. Unlike the real files the words are not sorted.
//
// The size is exact for sizes >= 11 bytes (the last few lines are shaped to fit); smaller sizes
// give an empty file, which is within one line of the request. The file is made in 4 MiB chunks on
// every CPU, each chunk from its own seed (chunk 0 from the request's), so the bytes depend on the
// seed and size only, never on the number of threads.
#include <algorithm>
#include <bit>
#include <cstring>

#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

constexpr int kFirstYear = 1500;
constexpr int kLastYear = 2019;
constexpr int kYears = kLastYear - kFirstYear + 1;
constexpr std::uint64_t kVocabulary = 1ULL << 23;
constexpr std::uint64_t kTopCount = 3ULL << 30;  // yearly match_count of the rank-1 word, recently
constexpr std::size_t kMaxLine = 128;            // longest line the main loop writes
constexpr std::uint64_t kTail = 256;             // bytes left for the lines shaped to fit
// The file is made of independent chunks of this size (the last one also takes the remainder),
// each from its own seed and ending in its own shaped tail; a file under 8 MiB is one chunk.
constexpr std::uint64_t kChunkBytes = 4ULL << 20;

// Letters by their frequency in English text, so words look plausible and compress like text.
constexpr std::string_view kLetters =
    "eeeeeeeeeeeetttttttttaaaaaaaaooooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummwwffggyy"
    "ppbbvkjxqz";
constexpr std::array<std::string_view, 12> kTags{"_NOUN", "_VERB", "_ADJ",  "_ADV", "_PRON", "_DET",
                                                 "_ADP",  "_NUM",  "_CONJ", "_PRT", "_X",    "_."};
constexpr std::array<std::string_view, 10> kPunctuation{".", ",", "'", "!", "?",
                                                        ";", ":", "(", ")", "--"};
constexpr std::array<std::string_view, 6> kAccented{"\xc3\xa9", "\xc3\xa8", "\xc3\xa0",
                                                    "\xc3\xbc", "\xc3\xb6", "\xc3\xa7"};

struct YearTable {
  std::array<std::array<char, 8>, kYears> text{};  // "1999\t" padded to 8 bytes
  std::array<std::uint32_t, kYears> factor{};  // 16.16 growth factor: halves every 30 years back
  YearTable() {
    for (int i = 0; i < kYears; ++i) {
      const int year = kFirstYear + i;
      auto& t = text[static_cast<std::size_t>(i)];
      format_u64(t.data(), static_cast<std::uint64_t>(year));
      t[4] = '\t';
      factor[static_cast<std::size_t>(i)] = 65536U >> ((kLastYear - year) / 30);
    }
  }
};

class NgramWriter {
 public:
  NgramWriter(std::uint64_t seed, ChunkBuffer& out) : rng_(seed), out_(out) {}

  void write(std::uint64_t size) {
    const std::uint64_t start = out_.bytes_written();
    const std::uint64_t main_end = size > kTail ? start + size - kTail : start;
    new_word();
    while (out_.bytes_written() < main_end) write_line();
    write_tail(size - (out_.bytes_written() - start));
  }

 private:
  void new_word() {
    const std::uint64_t r = rng_.next();
    // Mostly uniform over the vocabulary (each word appears once in a 1-gram file, and most words
    // are rare); one in eight drawn log-uniformly so common words with long runs show up too.
    std::uint64_t rank = 0;
    if ((r & 7) != 0) {
      rank = 1 + rng_.below(kVocabulary);
    } else {
      const unsigned bits = static_cast<unsigned>(rng_.below(23));
      rank = (1ULL << bits) + rng_.below(1ULL << bits);
    }
    base_ = kTopCount / rank;
    const auto magnitude = static_cast<std::uint64_t>(std::bit_width(base_));
    std::uint64_t years = 1 + rng_.below(8) + rng_.below(16);
    if (magnitude > 8) years += (magnitude - 8) * 16;
    years = std::min<std::uint64_t>(years, kYears);
    const std::uint64_t back = (r >> 3) % 8 == 0 ? (r >> 6) % 100 : 0;  // some runs end early
    const auto last =
        static_cast<std::uint64_t>(kYears - 1) - std::min<std::uint64_t>(back, kYears - years);
    year_ = static_cast<std::size_t>(last + 1 - years);
    last_year_ = static_cast<std::size_t>(last);
    ratio_ = 9830 + static_cast<std::uint32_t>(rng_.below(52428));  // volume/match, 0.15..0.95
    make_word(rank, r >> 20);
  }

  void make_word(std::uint64_t rank, std::uint64_t r) {
    char* p = word_.data();
    const std::uint64_t kind = r % 1000;
    r /= 1000;
    if (kind < 20) {  // a number: 1..4 digits
      p = format_u64(p, 1 + rng_.below(kind < 10 ? 2100 : 100));
    } else if (kind < 25) {  // punctuation
      const auto& mark = kPunctuation[r % kPunctuation.size()];
      std::memcpy(p, mark.data(), mark.size());
      p += mark.size();
    } else {
      // Rare words are longer: 1 + log2(rank)/4 + 0..6 letters (mean about 9 for most entries).
      const auto length = static_cast<std::size_t>(1 + std::bit_width(rank) / 4 + rng_.below(7));
      const std::uint64_t letters = rng_.next();
      for (std::size_t i = 0; i < length; ++i) {
        const std::uint64_t pick = (i < 8) ? (letters >> (i * 8)) : rng_.next();
        *p++ = kLetters[(pick & 0xFF) % kLetters.size()];
      }
      if (kind < 145) word_[0] = static_cast<char>(word_[0] - 'a' + 'A');  // capitalised
      if (kind >= 990) {  // one accented (two-byte UTF-8) letter
        const auto& accent = kAccented[r % kAccented.size()];
        const std::size_t at = (r / 8) % length;
        std::memmove(word_.data() + at + 2, word_.data() + at + 1, length - at - 1);
        std::memcpy(word_.data() + at, accent.data(), 2);
        ++p;
      }
    }
    if (kind % 5 == 0) {  // a part-of-speech tag on a fifth of the words
      const auto& tag = kTags[(r >> 10) % kTags.size()];
      std::memcpy(p, tag.data(), tag.size());
      p += tag.size();
    }
    *p++ = '\t';
    word_length_ = static_cast<std::size_t>(p - word_.data());
  }

  void write_line() {
    const std::uint64_t r = rng_.next();
    const std::uint64_t yearly = (base_ * years_.factor[year_]) >> 16;
    const std::uint64_t match = std::max<std::uint64_t>(1, (yearly * (160 + (r & 191))) >> 8);
    std::int64_t ratio =
        static_cast<std::int64_t>(ratio_) + static_cast<std::int64_t>((r >> 8) & 0x1FFF) - 0x1000;
    ratio = std::clamp<std::int64_t>(ratio, 0, 65535);
    const std::uint64_t volume = 1 + (((match - 1) * static_cast<std::uint64_t>(ratio)) >> 16);

    char* p = out_.reserve(kMaxLine);
    std::memcpy(p, word_.data(), kWordCopy);
    p += word_length_;
    std::memcpy(p, years_.text[year_].data(), 8);
    p += 5;
    p = format_u64(p, match);
    *p++ = '\t';
    p = format_u64(p, volume);
    *p++ = '\n';
    out_.commit(p);
    if (++year_ > last_year_) new_word();
  }

  // Fills exactly `left` bytes with well-formed lines (nothing when left < 11, the shortest line).
  void write_tail(std::uint64_t left) {
    while (left >= 11) {
      const std::uint64_t length = left > 30 ? 20 : left;  // 20-byte lines, then one that fits
      write_shaped_line(length);
      left -= length;
    }
  }

  // One line of exactly `length` bytes (11..30): word + TAB + year + TAB + match + TAB + 1 + LF.
  void write_shaped_line(std::uint64_t length) {
    const std::uint64_t match_digits = length >= 13 ? std::min<std::uint64_t>(length - 12, 5) : 1;
    const std::uint64_t word_length = length - 9 - match_digits;
    char* p = out_.reserve(kMaxLine);
    for (std::uint64_t i = 0; i < word_length; ++i) {
      *p++ = kLetters[rng_.below(kLetters.size())];
    }
    *p++ = '\t';
    p = format_u64(p, static_cast<std::uint64_t>(kFirstYear) + rng_.below(kYears));
    *p++ = '\t';
    *p++ = static_cast<char>('1' + rng_.below(9));
    for (std::uint64_t i = 1; i < match_digits; ++i) *p++ = static_cast<char>('0' + rng_.below(10));
    *p++ = '\t';
    *p++ = '1';
    *p++ = '\n';
    out_.commit(p);
  }

  static constexpr std::size_t kWordCopy = 32;  // fixed-size copy: the word is at most 24 bytes

  Rng rng_;
  ChunkBuffer& out_;
  YearTable years_;
  std::array<char, kWordCopy + 16> word_{};
  std::size_t word_length_ = 0;  // including the TAB
  std::uint64_t base_ = 1;
  std::uint32_t ratio_ = 0;
  std::size_t year_ = 0;  // index into the year table
  std::size_t last_year_ = 0;
};

}  // namespace

void validate_ngram(const GenRequest& /*request*/) {}

void write_ngram(const GenRequest& request, BlockWriter& out) {
  write_in_chunks(out, request.size_bytes, kChunkBytes, request.threads, kMaxLine,
                  [&](std::uint64_t index, std::uint64_t bytes, ChunkBuffer& chunk) {
                    NgramWriter writer(chunk_seed(request.seed, index), chunk);
                    writer.write(bytes);
                  });
}

}  // namespace iobench::gen::detail
