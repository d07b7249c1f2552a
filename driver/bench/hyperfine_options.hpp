#pragma once
// hyperfine's options of `iobench bench`, with hyperfine's meaning (docs/bench.md, the table),
// turned into the Config: -r/-m/-M into its repeats, -P/-D into a param's values, --show-output
// and --output into the sinks, -S, -s, -p, -C, -c, -i and --output FILE into each strategy's
// fields. Each throws iobench::Error (exit 2) with one line naming the option at fault.
#include <string>
#include <utility>
#include <vector>

#include "driver/bench/request.hpp"

namespace iobench::bench {

// A command line bench cannot take: throws iobench::Error with the message (one line, exit 2).
[[noreturn]] void refuse(const std::string& message);

// -P VAR MIN MAX [-D DELTA] as hyperfine steps it: MIN, MIN + DELTA, ... up to MAX (DELTA 1 for
// whole bounds, required otherwise), the first value as written and the others with as many
// decimals as MIN or DELTA has ("1", "1.25", "1.50"). Empty scan: no param.
std::pair<std::string, std::vector<std::string>> parameter_scan_values(
    const std::vector<std::string>& scan, const std::string& step);

// The repeats: -r N exactly; otherwise hyperfine's count, min..max runs filling 3 s: as many
// runs as fill 3 s, -m defaulting to min(10, -M), -M to max(1000, -m) (hyperfine: no most);
// with --ci-pct P, a precision target of P between -m and -M instead.
void set_bench_repeats(const BenchRequest& request, config::Config& config);

// "sinks" from --sink, --show-output or --output (one of them), by name; default pipe. --output
// is hyperfine's: null, pipe, inherit, or a FILE (the file sink, writing there), one kind for all
// commands.
std::vector<std::string> bench_sinks(const BenchRequest& request);

// The FILEs --output names, once for all or once per command; empty when it names none.
std::vector<std::string> output_files(const BenchRequest& request);

// Sets -S, -s, -p, -C, -c, -i and --output FILE on the strategies, which are the request's commands
// in order, after the reference when `reference_added` (--reference naming no command).
void add_command_keys(std::vector<config::StrategySpec>& strategies, const BenchRequest& request,
                      bool reference_added);

}  // namespace iobench::bench
