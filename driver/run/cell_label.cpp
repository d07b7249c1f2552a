#include "driver/run/cell_label.hpp"

#include "driver/util/text.hpp"

namespace iobench::run {

std::string cell_label(const config::Plan& plan, const config::Config& config, std::size_t cell,
                       TestNameQuotes quotes) {
  const config::Cell& c = plan.cells[cell];
  const std::string input =
      c.input < config.inputs.size() ? config.inputs[c.input].path.filename().string() : "";
  const std::string& test = plan.tests[c.test].name;
  return util::cell_name(test, input, to_string(c.sink), quotes == TestNameQuotes::kQuoted);
}

}  // namespace iobench::run
