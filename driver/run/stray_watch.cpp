#include "driver/run/stray_watch.hpp"

#include <fmt/core.h>

namespace iobench::run {

std::string StrayWatch::check(const std::string& test, const spawn::SpawnResult& result,
                              bool& sink_held) {
  sink_held = result.stray_held_sink;
  if (result.strays_killed == 0) return {};
  if (!named_.insert(test).second && !sink_held) return {};
  return fmt::format(
      "{}: left {} process{} running after it ended (a setsid or double-forked child); killed{}",
      test, result.strays_killed, result.strays_killed == 1 ? "" : "es",
      sink_held ? ". One still held the sink open, so the run is an error" : "");
}

}  // namespace iobench::run
