#include "driver/report/counters.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <vector>

#include "common/fd.hpp"

namespace iobench::summary {
namespace {

std::optional<double> ratio(double numerator, double denominator) {
  if (std::isnan(numerator) || !(denominator > 0)) return std::nullopt;
  return numerator / denominator;
}

}  // namespace

CounterFigures derive_counter_figures(double syscalls_median, double instructions_median,
                                      double cycles_median,
                                      std::optional<std::uint64_t> input_bytes,
                                      std::optional<std::uint64_t> input_lines) {
  CounterFigures f;
  if (input_bytes) {
    const auto bytes = static_cast<double>(*input_bytes);
    f.syscalls_per_mib = ratio(syscalls_median, bytes / (1024.0 * 1024.0));
    f.instructions_per_byte = ratio(instructions_median, bytes);
  }
  if (input_lines) f.syscalls_per_line = ratio(syscalls_median, static_cast<double>(*input_lines));
  f.ipc = ratio(instructions_median, cycles_median);
  return f;
}

std::optional<std::uint64_t> count_lines(const std::filesystem::path& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::vector<char> buffer(std::size_t{1} << 20);
  std::uint64_t lines = 0;
  char last = '\n';
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (got == 0) break;
    lines += static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
    last = buffer[static_cast<std::size_t>(got) - 1];
  }
  if (last != '\n') ++lines;  // a final line without a newline
  return lines;
}

}  // namespace iobench::summary
