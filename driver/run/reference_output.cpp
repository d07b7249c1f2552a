#include "driver/run/reference_output.hpp"

#include <fcntl.h>
#include <fmt/core.h>

#include <system_error>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/hash.hpp"
#include "common/line_count.hpp"
#include "common/sysio.hpp"
#include "driver/config/output_class.hpp"
#include "driver/run/sink.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

Error cannot_read(const fs::path& path, const std::system_error& e) {
  return Error(fmt::format("{}: cannot read input: {}", path.string(), e.code().message()));
}

// Calls on_line(line) for each line of the file, without its '\n' (a last line without one too).
template <typename OnLine>
void for_each_line(const fs::path& path, OnLine on_line) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw cannot_read(path, std::system_error(errno, std::generic_category()));
  std::vector<char> buffer(1 << 16);
  std::string line;
  try {
    for (;;) {
      const std::size_t n = sys::read_some(fd.get(), buffer.data(), buffer.size());
      if (n == 0) break;
      std::size_t start = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (buffer[i] != '\n') continue;
        line.append(buffer.data() + start, i - start);
        on_line(line);
        line.clear();
        start = i + 1;
      }
      line.append(buffer.data() + start, n - start);
    }
  } catch (const std::system_error& e) {
    throw cannot_read(path, e);
  }
  if (!line.empty()) on_line(line);
}

ExpectedOutput from_text(const std::string& text, const std::string& source) {
  StreamHash hash;
  hash.update(text.data(), text.size());
  return ExpectedOutput{hash.hex(), text.size(), source};
}

}  // namespace

std::optional<ExpectedOutput> reference_output(const std::string& output_class,
                                               const fs::path& input) {
  const std::optional<config::IndependentReference> reference =
      config::independent_reference_of(output_class);
  if (!reference) return std::nullopt;
  switch (reference->kind) {
    case config::IndependentReference::Kind::kCopy: {
      ExpectedOutput copy;
      copy.hash = hash_file(input, &copy.bytes);
      copy.source = "the input";
      return copy;
    }
    case config::IndependentReference::Kind::kCount: {
      std::uint64_t lines = 0;
      try {
        lines = count_lines(input);
      } catch (const std::system_error& e) {
        throw cannot_read(input, e);
      }
      return from_text(fmt::format("{}\n", lines), "the input's line count");
    }
    case config::IndependentReference::Kind::kField:
      break;
  }
  const std::size_t field = reference->field;
  std::string text;
  for_each_line(input, [&](const std::string& line) {
    std::size_t start = 0;
    for (std::size_t i = 1; i < field && start != std::string::npos; ++i) {
      const std::size_t tab = line.find('\t', start);
      start = tab == std::string::npos ? std::string::npos : tab + 1;
    }
    if (start != std::string::npos) text += line.substr(start, line.find('\t', start) - start);
    text += '\n';
  });
  return from_text(text, fmt::format("field {} of the input", field));
}

}  // namespace iobench::run
