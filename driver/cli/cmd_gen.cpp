// `iobench gen KIND --size SIZE [--seed N] [kind options] -o PATH`: writes test data
// (driver/gen.hpp).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/size.hpp"
#include "driver/cli/command.hpp"
#include "driver/gen/gen.hpp"

namespace iobench::cli {
namespace {

struct GenOptions {
  std::string kind;
  std::string size;
  std::uint64_t seed = 1;
  std::string line_length;
  std::string read_length;
  std::string compress;
  std::string output;
  unsigned threads = 0;
  bool quiet = false;
};

int run_gen(const GenOptions& options) {
  gen::GenRequest request;
  request.kind = options.kind;
  request.seed = options.seed;
  request.threads = options.threads;
  if (!options.size.empty()) {
    std::string error;
    const auto size = parse_size(options.size, &error);
    if (!size) throw Error("--size: " + error);
    request.size_bytes = *size;
  } else if (options.kind != "edge") {
    throw Error("--size is required for kind '" + options.kind + "' (e.g. --size 1GiB)");
  }
  if (!options.line_length.empty()) request.options["line_length"] = options.line_length;
  if (!options.read_length.empty()) request.options["read_length"] = options.read_length;
  if (!options.compress.empty()) request.options["compress"] = options.compress;

  const auto start = std::chrono::steady_clock::now();
  gen::generate(request, options.output);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  if (!options.quiet) {
    std::error_code ec;
    const std::filesystem::path out(options.output);
    if (std::filesystem::is_regular_file(out, ec)) {
      const auto bytes = std::filesystem::file_size(out, ec);
      fmt::print(stderr, "iobench gen: wrote {} bytes of {} to {} in {:.3f} s ({:.0f} MB/s)\n",
                 bytes, options.kind, options.output, took.count(),
                 took.count() > 0 ? static_cast<double>(bytes) / took.count() / 1e6 : 0.0);
    } else {
      fmt::print(stderr, "iobench gen: wrote the {} corpus to {} in {:.3f} s\n", options.kind,
                 options.output, took.count());
    }
  }
  return kExitOk;
}

void setup_gen(CLI::App& sub, int& exit_code) {
  auto options = std::make_shared<GenOptions>();
  std::string kinds;
  for (const auto& kind : gen::kinds()) kinds += (kinds.empty() ? "" : ", ") + kind;
  sub.add_option("kind", options->kind, "What to write: " + kinds)->required();
  sub.add_option("--size", options->size,
                 "Bytes to write, e.g. 1GiB (exact within one line); edge: the long lines' length "
                 "(default 32MiB)");
  sub.add_option("--seed", options->seed, "Seed: the same seed gives the same bytes (default 1)");
  sub.add_option("--line-length", options->line_length,
                 "lines: fixed:N | uniform:A-B | lognormal:MU,SIGMA (default uniform:0-200)");
  sub.add_option("--read-length", options->read_length, "fastq: bases per read (default 150)");
  sub.add_option("--compress", options->compress,
                 "ngram, lines, fastq: gzip (through gzip -1 -n; --size is the uncompressed size) "
                 "or none");
  sub.add_option("-o,--output", options->output,
                 "File to write (edge: a folder, new, empty or an edge corpus; corpus/ or corpus)")
      ->required();
  sub.add_option("--threads", options->threads,
                 "ngram: threads that generate (default 0: every CPU); the bytes never depend on "
                 "it");
  sub.add_flag("-q,--quiet", options->quiet, "Print nothing on success");
  sub.callback([options, &exit_code] { exit_code = run_gen(*options); });
}

const RegisterCommand kRegisterGen{
    "gen", "Write deterministic test data: ngram, lines, edge (a folder), fastq", &setup_gen, 50};

}  // namespace
}  // namespace iobench::cli
