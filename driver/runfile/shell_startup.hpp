#pragma once
// What a shell costs before it runs anything (docs/formats.md "Meta file", shell_startup): an
// empty `SHELL -c ''` spawned as `iobench bench`'s commands are, so that bench can subtract it
// from their figures as hyperfine subtracts its shell's spawning time (docs/bench.md).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace iobench::runfile {

struct ShellStartup {
  std::vector<std::string> command;  // {"sh", "-c", ""}
  std::size_t runs = 0;              // measured runs, the medians' sample
  double elapsed_s = 0;              // medians, seconds
  double user_s = 0;
  double system_s = 0;
  bool operator==(const ShellStartup&) const = default;
};

// Both are meta_json.cpp's, made from meta_tables.hpp.
nlohmann::ordered_json to_json(const ShellStartup& startup);
// Throws iobench::Error naming the field ("shell_startup.elapsed_s") for a record it cannot read.
ShellStartup shell_startup_from_json(const nlohmann::ordered_json& json);

}  // namespace iobench::runfile
