#include "driver/run/cell_label.hpp"

#include <fmt/core.h>

namespace iobench::run {

std::string cell_label(const config::Plan& plan, const config::Config& config, std::size_t cell,
                       TestNameQuotes quotes) {
  const config::Cell& c = plan.cells[cell];
  const std::string input =
      c.input < config.inputs.size() ? config.inputs[c.input].path.filename().string() : "";
  const std::string& test = plan.tests[c.test].name;
  return fmt::format("{}{} ({} sink)", quotes == TestNameQuotes::kQuoted ? "'" + test + "'" : test,
                     input.empty() ? "" : " on " + input, to_string(c.sink));
}

}  // namespace iobench::run
