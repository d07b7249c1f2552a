#include "driver/report/counter_figures.hpp"

#include <cmath>

namespace iobench::report {
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

}  // namespace iobench::report
