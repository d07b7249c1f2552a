#pragma once
// How the driver writes figures for people (progress line, tables, charts).
#include <string>

namespace iobench {

// "1:05", "12:03:09": a wall-clock duration, for the progress line.
std::string format_duration(double seconds);

}  // namespace iobench
