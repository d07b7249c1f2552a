#include "driver/run/prepare_step.hpp"

#include <fmt/core.h>

#include <system_error>

#include "common/error.hpp"
#include "driver/run/page_cache.hpp"

namespace iobench::run {

namespace fs = std::filesystem;

PrepareStep::PrepareStep(const config::Config& config, bool allow_drop_caches, Progress& progress)
    : cache_(config.cache), allow_drop_caches_(allow_drop_caches), progress_(progress) {
  for (const auto& spec : config.inputs) {
    InputState state;
    state.path = spec.path;
    std::error_code ec;
    const auto size = fs::file_size(spec.path, ec);
    if (!ec) state.size_bytes = size;
    inputs_.push_back(state);
  }
}

PrepareStep::Check PrepareStep::prepare(std::size_t input, runfile::RunRow& row) {
  InputState& state = inputs_[input];
  if (!still_there(state)) return Check{false, {}};
  try {
    row.cache_pct = prepare_cache(state.path);
  } catch (const Error& e) {
    if (!state.read_error_reported) progress_.warn(e.what());
    state.read_error_reported = true;
    return Check{false, e.what()};
  }
  return Check{};
}

void PrepareStep::measure_cache_again(std::size_t input, runfile::RunRow& row) const {
  if (!inputs_[input].path.empty()) row.cache_pct = resident_pct(inputs_[input].path);
}

// The input may have been removed or changed since the start: say so, never assume.
bool PrepareStep::still_there(InputState& input) {
  if (input.path.empty()) return true;  // no input (docs/formats.md "Config")
  std::error_code ec;
  const auto size_now = fs::file_size(input.path, ec);
  if (ec) {
    if (!input.missing_reported) {
      progress_.warn(
          fmt::format("input {} is gone or unreadable: {}", input.path.string(), ec.message()));
      input.missing_reported = true;
    }
    return false;
  }
  if (input.size_bytes && size_now != *input.size_bytes && !input.size_change_reported) {
    progress_.warn(
        fmt::format("input {} changed size during the run: {} -> {} bytes; later runs read "
                    "different data",
                    input.path.string(), *input.size_bytes, size_now));
    input.size_change_reported = true;
  }
  return true;
}

// Brings the input into the configured cache state and returns its measured residency.
std::optional<double> PrepareStep::prepare_cache(const fs::path& path) const {
  if (path.empty()) return std::nullopt;  // no input, no cache step
  switch (cache_) {
    case config::CacheMode::kWarm:
      if (const auto resident = resident_pct(path); resident && *resident >= 100.0) return resident;
      warm_page_cache(path);
      return resident_pct(path);
    case config::CacheMode::kCold:
      return evict_page_cache(path, allow_drop_caches_);
    case config::CacheMode::kNone:
      break;
  }
  return resident_pct(path);
}

}  // namespace iobench::run
