#pragma once
// The names a config's choice keys take (sinks, cache, order), from the one table each that
// parse_config reads them with: bench's command line checks its options against the same lists
// (CLI11's IsMember, which the completions offer), so the three can never disagree.
#include <string>
#include <vector>

namespace iobench::config {

std::vector<std::string> sink_names();        // null, pipe, file, inherit
std::vector<std::string> cache_mode_names();  // warm, cold, none
std::vector<std::string> order_names();       // interleave, grouped, shuffle

}  // namespace iobench::config
