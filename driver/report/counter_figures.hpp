#pragma once
// Figures derived from the kernel counters' medians that explain a time (docs/reports.md):
// system calls per MiB of input and per line, instructions per byte, instructions per cycle.
#include <cstdint>
#include <optional>

namespace iobench::report {

struct CounterFigures {
  std::optional<double> syscalls_per_mib;       // syscalls median / (input bytes / 2^20)
  std::optional<double> syscalls_per_line;      // syscalls median / input lines
  std::optional<double> instructions_per_byte;  // instructions median / input bytes
  std::optional<double> ipc;                    // instructions median / cycles median
};

// NaN or a missing input gives an empty figure; so does a zero divisor.
CounterFigures derive_counter_figures(double syscalls_median, double instructions_median,
                                      double cycles_median,
                                      std::optional<std::uint64_t> input_bytes,
                                      std::optional<std::uint64_t> input_lines);

}  // namespace iobench::report
