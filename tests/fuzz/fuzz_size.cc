// Fuzzes parse_size: any text either parses or is rejected with a message; never UB or a crash.
// A parsed value must survive format_size -> parse_size unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/size.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);  // exact-size heap copy
  std::string error;
  const auto value = iobench::parse_size(text, &error);
  if (!value) {
    if (error.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::string formatted = iobench::format_size(*value);
  const auto again = iobench::parse_size(formatted);
  if (!again || *again != *value) std::abort();  // format_size must read back exactly
  return 0;
}
