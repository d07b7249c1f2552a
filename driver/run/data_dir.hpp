#pragma once
// Where a config's relative input paths resolve (docs/distributed.md "Installed"): an installed
// config lives in a read-only share folder, so its inputs must not be generated there.
#include <filesystem>
#include <optional>

#include "driver/run/shard.hpp"

namespace iobench::run {

// --data-dir, else $IOBENCH_DATA_DIR, else the current folder for a config installed under
// .../share/iobench/configs, else nothing (the config's own folder, the default).
std::optional<std::filesystem::path> choose_data_dir(const std::filesystem::path& option,
                                                     const std::filesystem::path& config_file,
                                                     const EnvLookup& lookup);

// True when the config file lies in a folder .../share/iobench/configs (an installed copy).
bool is_installed_config(const std::filesystem::path& config_file);

}  // namespace iobench::run
