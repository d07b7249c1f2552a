#pragma once
// `iobench bench --compare-with hyperfine` (docs/bench.md): after iobench's runs, the same
// commands run through hyperfine with the same options (runs, warmups, shell, hooks, -i, stdin,
// sink or --output FILE), one hyperfine per input and sink (and output file), so that both
// answers are printed side by side.
// hyperfine is a helper nobody measures: it starts through common/child_process.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "driver/bench/side_by_side.hpp"
#include "driver/config/plan.hpp"

namespace iobench::bench {

// hyperfine's path in $PATH; throws iobench::Error (exit 2) saying it is not installed.
std::string find_hyperfine();

struct HyperfineCall {
  std::vector<std::string> argv;
  std::filesystem::path json;      // its --export-json
  std::vector<std::size_t> cells;  // the plan's cells it measures, in its commands' order
};

// What the installed hyperfine can be asked, from its --version and --help texts.
struct HyperfineAbilities {
  bool input_option = false;     // --input (1.16 on); older ones read the stdin file by the shell
  bool conclude_option = false;  // --conclude (1.19 on); older ones run without the conclude
  bool failure_codes = false;    // --ignore-failure=CODES (1.20 on); older ones ignore every code
};
HyperfineAbilities abilities_of(std::string_view version_text, std::string_view help_text);

// The hyperfine command lines for the plan's cells, their files in `folder`: one per input and
// sink, and per setup and cleanup text (hyperfine takes one of each), each asking only what
// `can` says this hyperfine takes. Throws iobench::Error (exit 2) for what hyperfine cannot be
// asked (a stdin file without a shell or --input).
std::vector<HyperfineCall> hyperfine_calls(const config::Config& config, const config::Plan& plan,
                                           const std::string& hyperfine,
                                           const HyperfineAbilities& can,
                                           const std::filesystem::path& folder);

// Runs those calls and reads their JSON. Throws iobench::Error when hyperfine fails or writes
// no results (exit 3: iobench's own runs are done and kept).
bench::OtherToolRun run_hyperfine(const config::Config& config, const config::Plan& plan,
                                  const std::filesystem::path& folder);

}  // namespace iobench::bench
