#include "driver/run/data_dir.hpp"

#include <array>
#include <string_view>

namespace iobench::run {

bool is_installed_config(const std::filesystem::path& config_file) {
  std::error_code ec;
  std::filesystem::path folder = std::filesystem::weakly_canonical(config_file, ec).parent_path();
  if (ec) folder = std::filesystem::absolute(config_file).lexically_normal().parent_path();
  constexpr std::array<std::string_view, 3> kTail{"configs", "iobench", "share"};
  for (const std::string_view name : kTail) {
    if (folder.filename() != name) return false;
    folder = folder.parent_path();
  }
  return true;
}

std::optional<std::filesystem::path> choose_data_dir(const std::filesystem::path& option,
                                                     const std::filesystem::path& config_file,
                                                     const EnvLookup& lookup) {
  if (!option.empty()) return option;
  if (const char* env = lookup("IOBENCH_DATA_DIR"); env != nullptr && *env != '\0') {
    return std::filesystem::path(env);
  }
  if (is_installed_config(config_file)) return std::filesystem::path(".");
  return std::nullopt;
}

}  // namespace iobench::run
