#pragma once
// The names a config's choice keys take (sinks, cache, order, drain, disturbance), in their enum's
// order, from the one table each that to_string reads: the config key table (config_keys.hpp)
// parses and writes them with these lists, and bench's command line checks its options against
// the same ones (CLI11's IsMember, which the completions offer), so they can never disagree.
#include <string>
#include <vector>

namespace iobench::config {

std::vector<std::string> sink_names();              // null, pipe, file, inherit
std::vector<std::string> cache_mode_names();        // warm, cold, none
std::vector<std::string> order_names();             // interleave, grouped, shuffle, duet
std::vector<std::string> drain_mode_names();        // spin, block
std::vector<std::string> disturbance_mode_names();  // off, flag, rerun

}  // namespace iobench::config
