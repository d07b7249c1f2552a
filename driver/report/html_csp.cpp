#include "driver/report/html_csp.hpp"

#include <fmt/format.h>

#include "iobench/report_script.hpp"

namespace iobench::report {

std::string content_security_policy() {
  return fmt::format(
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{}'; img-src data:",
      generated::kReportScriptSha256);
}

}  // namespace iobench::report
