#pragma once
// How the run's warnings and closing lines name a cell, written once: "'TEST' on INPUT (SINK
// sink)". The report's warnings about a row name it the same way (report/two_levels_warnings.cpp),
// so a reader finds the rows a line concerns.
#include <cstddef>
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"

namespace iobench::run {

enum class TestNameQuotes { kQuoted, kBare };

// INPUT is the input's file name; " on INPUT" is left out for a cell without an input. kBare
// leaves the test's name unquoted, as the disturbed runs' budget warning has always read.
std::string cell_label(const config::Plan& plan, const config::Config& config, std::size_t cell,
                       TestNameQuotes quotes = TestNameQuotes::kQuoted);

}  // namespace iobench::run
