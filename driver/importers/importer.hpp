#pragma once
// The formats of other harnesses that `history add` reads (docs/history.md, "Other harnesses"),
// in one explicit list (registry.cpp): a static library drops self-registering objects that
// nothing references.
#include <span>
#include <string>
#include <string_view>

#include "driver/importers/imported_run.hpp"

namespace iobench::importers {

struct Importer {
  std::string_view name;  // as --format names it
  // Whether `bytes` are this format, strictly: a file another format also fits is no one's.
  bool (*detects)(std::string_view bytes);
  // Reads `bytes`; throws iobench::Error (exit 2), one line naming `file` and what is wrong.
  ImportedRun (*parse)(std::string_view bytes, const std::string& file);
};

std::span<const Importer> all_importers();
// The importer --format names; nullptr when none has that name.
const Importer* importer_named(std::string_view name);
// The one importer that detects `bytes`; nullptr when none does.
const Importer* detect_importer(std::string_view bytes);
// "hyperfine, gbench, pytest-benchmark, bmf, criterion".
std::string importer_names();

}  // namespace iobench::importers
