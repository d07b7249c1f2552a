#pragma once
// What bench says when its commands wrote different bytes and verification was off (docs/bench.md,
// "Verification"): one line per input, each command's byte count and hash, from the
// runs file's first row of each command that has them (a pipe or file sink).
#include <filesystem>
#include <string>
#include <vector>

#include "driver/runfile/written_run.hpp"

namespace iobench::bench {

// "outputs differ (all timed; --verify on fails a command that differs from the reference):
// 'echo a' 2 bytes (hash 0123...), 'echo b' 2 bytes (hash 4567...)"; one such line per input
// whose commands differ. None when every command wrote the same bytes, or when no row has a
// hash (the null sink). `reference` is named first.
std::vector<std::string> outputs_differ_lines(const runfile::WrittenRun& run,
                                              const std::string& reference);

}  // namespace iobench::bench
