#include "driver/config/output_class.hpp"

#include <charconv>
#include <string_view>

namespace iobench::config {

std::optional<IndependentReference> independent_reference_of(const std::string& output_class) {
  using Kind = IndependentReference::Kind;
  if (output_class == "copy") return IndependentReference{Kind::kCopy, 0};
  if (output_class == "worker --op count") return IndependentReference{Kind::kCount, 0};
  constexpr std::string_view kField = "worker --op field:";
  if (!output_class.starts_with(kField)) return std::nullopt;
  std::size_t field = 0;
  const char* first = output_class.data() + kField.size();
  const char* last = output_class.data() + output_class.size();
  if (std::from_chars(first, last, field).ptr != last || field == 0) return std::nullopt;
  return IndependentReference{Kind::kField, field};
}

}  // namespace iobench::config
