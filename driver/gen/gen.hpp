#pragma once
// Test-data generators (`iobench gen`, and a config input's "generate"). Deterministic by seed.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace iobench::gen {

struct GenRequest {
  std::string kind;              // ngram, lines, edge, fastq
  std::uint64_t size_bytes = 0;  // target size (edge: ignored or per-file cap, kind's choice)
  std::uint64_t seed = 1;
  nlohmann::json options = nlohmann::json::object();  // the kind's own options, e.g. line_length
  unsigned threads = 0;  // generating threads (ngram), 0: every CPU; never changes the bytes
  bool operator==(const GenRequest&) const = default;
};

// Kinds this build knows.
std::vector<std::string> kinds();

// Whether `kind` writes a folder of files (edge) rather than one file; false for an unknown kind.
bool writes_folder(const std::string& kind);

// Throws iobench::Error naming the bad field when the request cannot be generated
// (unknown kind, unknown or malformed option). Called by config validation before any run.
void validate(const GenRequest& request);

// Writes the data to `out` (a file; for `edge`, a folder). Writes to a temporary name beside it
// and renames on success, so an interrupted generation never leaves a partial input behind.
// Throws iobench::Error on failure.
void generate(const GenRequest& request, const std::filesystem::path& out);

}  // namespace iobench::gen
