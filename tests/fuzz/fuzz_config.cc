// Fuzzes the config parser and validator (parse_config calls gen::validate). iobench::Error is
// the documented way to reject bad input; any other exception, a crash, a leak or UB is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const iobench::config::Config config =
        iobench::config::parse_config(text, "/fuzz/configs/fuzz.json");
    (void)config;
  } catch (const iobench::Error&) {
    // rejected with a message: fine
  }
  // Anything else escapes and libFuzzer reports it as a crash (uncaught exception -> abort).
  return 0;
}
