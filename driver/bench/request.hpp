#pragma once
// `iobench bench 'CMD'...`: the one-line benchmark. Its options (one table: options.hpp)
// become the same Config a JSON file would give (docs/bench.md), so it runs through the same
// engine, and the JSON it saves reproduces it with `iobench run`.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "driver/config/config.hpp"

namespace iobench::bench {

struct BenchRequest {
  std::vector<std::string> commands;     // each a strategy; {input} and {NAME} placeholders
  std::vector<std::string> names;        // --name, by position; the rest are named by their text
  std::vector<std::string> inputs;       // --input; none: the commands run with no input file
  std::string stdin_file;                // --stdin FILE: every run's stdin; empty: /dev/null
  std::vector<std::string> param_specs;  // -L NAME=V1,V2
  std::string reference;                 // --reference CMD; empty: the first command
  std::string reference_name;            // --reference-name NAME; empty: as -n or its text
  bool shell = true;                     // false: --no-shell, words run directly
  std::string verify = "off";            // --verify on|off (docs/bench.md, "Verification")
  // hyperfine's options, with hyperfine's meaning (docs/bench.md; driver/bench/hyperfine_options).
  std::optional<int> runs;                  // -r: exactly N
  std::optional<int> min_runs;              // -m: at least N, as many as fill 3 s
  std::optional<int> max_runs;              // -M: at most N
  std::optional<double> ci_pct;             // --ci-pct: a precision target between -m and -M
  std::vector<std::string> parameter_scan;  // -P VAR MIN MAX
  std::string parameter_step;               // -D DELTA
  std::string shell_name;                   // -S: a shell's command line, "default" or "none"
  std::string setup;                        // -s: once per test, before its first run
  std::vector<std::string> prepare;         // -p: before every run; once for all or per command
  std::vector<std::string> conclude;        // -C: after every run; once for all or per command
  std::string cleanup;                      // -c: once per test, after its last run
  std::string ignore_failure;               // -i: "true"; --ignore-failure=1,2: "1,2"; "": no
  bool show_output = false;                 // --show-output: the inherit sink
  std::vector<std::string> outputs;  // --output: null, pipe, inherit or FILE; once or per command
  int warmup = 1;
  std::vector<std::string> sinks;  // empty: pipe
  std::string cache;               // empty: warm with an --input, none without
  std::string order = "interleave";
  std::optional<double> timeout_s;
  std::vector<std::string> counters;
  std::string disturbance = "rerun";                 // config key disturbance
  std::optional<double> disturbance_threshold_cpus;  // config key of that name
  std::string decide;  // --decide on|off (config key decide); empty: on without -r, -m or -M
  std::optional<double> decide_margin_pct;  // --decide-margin: config key of that name
  // The time each command's runs fill without -r, -m or -M; empty: hyperfine's 3 s. A gate
  // (--fail-if-slower) sets kGateFillS.
  std::optional<double> fill_s;
  std::string made_by;  // the command line, for the description
};

// The time to fill of a gate, bench --fail-if-slower without -r, -m or -M (docs/bench.md, "A
// gate"): 3 s gave a 52 ms command about 50 runs a side, and found a 3 % slowdown at a 1 % gate
// in 5 of 10 trials on this 2-CPU VM; 250 runs a side found it in 10 of 10 after 81-140 runs, with
// no false alarm (scripts/bench-ab). The rule stops a decided comparison sooner.
inline constexpr double kGateFillS = 15;

// The source of bench's config in messages ("iobench: bench command line: counters[0]: ...")
// and in the meta file's config_file.
inline constexpr const char* kBenchConfigSource = "bench command line";

// The command line that gives this request, every option spelled out ("iobench bench --input
// data/in.txt --runs 10 ... 'cat {input}'"), for the saved config's description (made_by);
// written from the option table (options.cpp).
std::string bench_command_line(const BenchRequest& request);

// The Config the request asks for, built directly and checked by check_config, as a file's is.
// Throws iobench::Error (exit 2) with a one-line message that names the option (or the config
// key) at fault.
config::Config build_bench_config(const BenchRequest& request);

// The config to save at `save_path` (config_to_json): relative input and stdin paths are
// rewritten relative to the saved file's folder (where `iobench run` resolves them), so that
// parse_config(saved, save_path) gives the same Config.
nlohmann::ordered_json config_to_save(const config::Config& config,
                                      const std::filesystem::path& save_path);

}  // namespace iobench::bench
