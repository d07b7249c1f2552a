#include "common/line_count.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench {

std::uint64_t count_lines(const std::filesystem::path& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw std::system_error(errno, std::generic_category(), "open");
  std::vector<char> buffer(std::size_t{1} << 20);
  std::uint64_t lines = 0;
  char last = '\n';
  while (const std::size_t got = sys::read_some(fd.get(), buffer.data(), buffer.size())) {
    lines += static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
    last = buffer[got - 1];
  }
  if (last != '\n') ++lines;  // a final line without a newline
  return lines;
}

}  // namespace iobench
