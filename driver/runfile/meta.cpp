// The run record's paths, its shard id, what it says of its config, and writing it (its JSON is
// meta_json.cpp).
#include "driver/runfile/meta.hpp"

#include <fmt/format.h>

#include <charconv>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace iobench::runfile {

namespace fs = std::filesystem;

fs::path meta_path_for(const fs::path& runs_file) {
  const fs::path folder = runs_file.has_parent_path() ? runs_file.parent_path() : fs::path(".");
  return folder / "meta" / (runs_file.stem().string() + ".json");
}

fs::path medians_path_for(const fs::path& runs_file) {
  const fs::path folder = runs_file.has_parent_path() ? runs_file.parent_path() : fs::path(".");
  return folder / "medians" / (runs_file.stem().string() + ".tsv");
}

std::optional<ShardId> ShardId::parse(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  ShardId shard;
  const char* end = text.data() + text.size();
  const char* middle = text.data() + slash;
  const auto number = std::from_chars(text.data(), middle, shard.number);
  const auto count = std::from_chars(middle + 1, end, shard.count);
  const bool whole = number.ec == std::errc() && number.ptr == middle && count.ec == std::errc() &&
                     count.ptr == end;
  if (!whole || shard.count < 1 || shard.number < 1 || shard.number > shard.count) {
    return std::nullopt;
  }
  return shard;
}

std::string ShardId::text() const {
  return fmt::format("{}/{}", number, count);
}

std::string RunMeta::cache_mode() const {
  if (!config.is_object()) return "";
  const auto cache = config.find("cache");
  if (cache == config.end()) return "warm";  // the config's default (docs/formats.md "Config")
  return cache->is_string() ? cache->get<std::string>() : "";
}

std::string RunMeta::baseline() const {
  if (!config.is_object()) return "";
  const auto baseline = config.find("baseline");
  return baseline != config.end() && baseline->is_string() ? baseline->get<std::string>() : "";
}

void write_meta(const fs::path& path, const RunMeta& meta) {
  write_file_atomically(path, to_json(meta).dump(2) + '\n');
}

}  // namespace iobench::runfile
