// `edge`: a folder of inputs that line readers get wrong: empty, no final newline, CRLF, lone CR,
// NUL bytes, non-UTF-8, every byte value, lines longer than any buffer (with and without a final
// newline), lines at buffer-size boundaries, only newlines, empty fields. `size` sets the long
// lines' length (default 32 MiB, at most 1 GiB). MANIFEST.tsv lists each file with its bytes, its
// line count (a last line without newline counts, as the worker's `count` does) and what it tests.
#include <fcntl.h>
#include <unistd.h>

#include <functional>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

using Fill = std::function<void(BlockWriter&)>;

struct EdgeFile {
  std::string name;
  std::string description;
  Fill fill;
};

Fill text(std::string content) {
  return [content = std::move(content)](BlockWriter& out) { out.append(content); };
}

// `length` bytes of printable text (letters, digits, spaces, TABs), never LF.
void long_text(BlockWriter& out, std::uint64_t length, std::uint64_t seed) {
  static constexpr std::string_view kChars =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t";  // 64 characters
  Rng rng(seed);
  while (length > 0) {
    const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(length, 4096));
    char* p = out.reserve(chunk);
    for (std::size_t i = 0; i < chunk; i += 10) {
      std::uint64_t bits = rng.next();
      for (std::size_t j = i; j < std::min(chunk, i + 10); ++j, bits >>= 6)
        p[j] = kChars[bits & 63];
    }
    out.commit(p + chunk);
    length -= chunk;
  }
}

std::vector<EdgeFile> corpus(std::uint64_t long_length, std::uint64_t seed) {
  std::string non_utf8 =
      "caf\xe9 latin-1\n"                  // ISO-8859-1 e-acute
      "\xff\xfe\xfd invalid lead bytes\n"  // never valid in UTF-8
      "\xc3\x28 bad continuation\n"        // two-byte lead, ASCII after it
      "\xe2\x82 truncated sequence\n"      // three-byte sequence cut short
      "\xed\xa0\x80 surrogate\n"           // UTF-16 surrogate encoded as UTF-8
      "\xc0\xaf overlong slash\n"          // overlong encoding of '/'
      "\x80\x81\x82\x83 lone continuation bytes\n"
      "valid UTF-8: \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\n";
  std::string every_byte;
  for (int round = 0; round < 4; ++round) {
    for (int b = 0; b < 256; ++b) every_byte.push_back(static_cast<char>(b));
  }
  std::string boundaries;
  for (const std::uint64_t size : {1ULL << 12, 1ULL << 13, 1ULL << 16, 1ULL << 17}) {
    for (const std::uint64_t length : {size - 2, size - 1, size, size + 1}) {
      boundaries.append(length, 'b');
      boundaries.push_back('\n');
    }
  }
  const std::uint64_t s1 = seed;
  const std::uint64_t s2 = seed + 1;
  const std::uint64_t s3 = seed + 2;
  return {
      {"empty.txt", "an empty file: zero lines", text("")},
      {"single-newline.txt", "one empty line", text("\n")},
      {"only-newlines.txt", "70000 empty lines, more than a 64 KiB buffer",
       text(std::string(70000, '\n'))},
      {"no-final-newline.txt", "three lines, the last without newline",
       text("alpha\tone\nbeta\ttwo\ngamma\tthree")},
      {"one-byte-no-newline.txt", "a single byte, no newline: one line", text("x")},
      {"crlf.txt", "CRLF line ends; an empty CRLF line; the CR is part of the line",
       text("a\tb\r\nc\td\r\n\r\nlast\tline\r\n")},
      {"crlf-no-final-newline.txt", "CRLF lines, the last ending in a lone CR",
       text("first\r\nsecond\r\nthird\r")},
      {"lone-cr.txt", "CR without LF is not a line end: two lines",
       text("one\rtwo\rthree\nfour\r\n")},
      {"nul-bytes.txt", "NUL bytes inside, alone on lines, and last",
       text(std::string("ab\0cd\n\0\n\0\0\0\nend\0\n\0", 18))},
      {"non-utf8.txt", "invalid UTF-8: Latin-1, bad lead and continuation bytes, surrogates",
       text(std::move(non_utf8))},
      {"every-byte.txt", "every byte value 0..255, four times (LF among them)",
       text(std::move(every_byte))},
      {"buffer-boundaries.txt", "lines of 2^k-2..2^k+1 bytes for 4, 8, 64 and 128 KiB",
       text(std::move(boundaries))},
      {"empty-fields.txt", "TAB-separated lines with empty and missing fields",
       text("a\tb\tc\n\t\t\n\n1\t2\nonly\n\t\n")},
      {"long-line.txt", "a short line, one very long line, a short line",
       [=](BlockWriter& out) {
         out.append("before\n");
         long_text(out, long_length, s1);
         out.append("\nafter\n");
       }},
      {"long-line-no-newline.txt", "a short line, then a very long line without final newline",
       [=](BlockWriter& out) {
         out.append("before\n");
         long_text(out, long_length, s2);
       }},
      {"long-line-only.txt", "one very long line and its newline",
       [=](BlockWriter& out) {
         long_text(out, long_length, s3);
         out.append("\n");
       }},
  };
}

// Bytes and lines of a file as written (a last line without newline counts).
std::pair<std::uint64_t, std::uint64_t> measure(const std::filesystem::path& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw std::system_error(errno, std::generic_category(), "open");
  std::vector<char> buffer(1U << 20);
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  char last = '\n';
  for (;;) {
    const std::size_t n = sys::read_some(fd.get(), buffer.data(), buffer.size());
    if (n == 0) break;
    bytes += n;
    lines += static_cast<std::uint64_t>(
        std::count(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n), '\n'));
    last = buffer[n - 1];
  }
  if (last != '\n') ++lines;
  return {bytes, lines};
}

void write_one(const std::filesystem::path& path, const Fill& fill) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd) throw std::system_error(errno, std::generic_category(), "open");
  BlockWriter out(fd.get());
  fill(out);
  out.flush();
  if (::close(fd.release()) != 0) throw std::system_error(errno, std::generic_category(), "close");
}

std::uint64_t long_length(const GenRequest& request) {
  return request.size_bytes == 0 ? kEdgeDefaultLongLine : request.size_bytes;
}

}  // namespace

void validate_edge(const GenRequest& request) {
  if (long_length(request) > kEdgeMaxLongLine) {
    throw Error("size " + std::to_string(request.size_bytes) +
                " is too large for kind 'edge' (it sets the long lines' length; at most 1GiB)");
  }
}

void write_edge(const GenRequest& request, const std::filesystem::path& folder) {
  std::string manifest = "file\tbytes\tlines\tdescription\n";
  for (const auto& file : corpus(long_length(request), request.seed)) {
    const auto path = folder / file.name;
    write_one(path, file.fill);
    const auto [bytes, lines] = measure(path);
    manifest += file.name + "\t" + std::to_string(bytes) + "\t" + std::to_string(lines) + "\t" +
                file.description + "\n";
  }
  write_one(folder / kEdgeManifest, text(manifest));
}

}  // namespace iobench::gen::detail
