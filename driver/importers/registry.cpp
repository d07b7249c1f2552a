#include <fmt/format.h>

#include <array>

#include "driver/importers/formats.hpp"

namespace iobench::importers {
namespace {

const std::array<Importer, 5>& importers() {
  static const std::array<Importer, 5> kAll{kHyperfine, kGbench, kPytestBenchmark, kBmf,
                                            kCriterion};
  return kAll;
}

}  // namespace

std::string_view to_string(Direction direction) {
  return direction == Direction::kHigherIsBetter ? "higher" : "lower";
}

std::span<const Importer> all_importers() {
  return importers();
}

const Importer* importer_named(std::string_view name) {
  for (const Importer& importer : importers()) {
    if (importer.name == name) return &importer;
  }
  return nullptr;
}

const Importer* detect_importer(std::string_view bytes) {
  for (const Importer& importer : importers()) {
    if (importer.detects(bytes)) return &importer;
  }
  return nullptr;
}

std::string importer_names() {
  std::vector<std::string_view> names;
  for (const Importer& importer : importers()) names.push_back(importer.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace iobench::importers
