// Where relative input paths resolve: --data-dir, $IOBENCH_DATA_DIR, the current folder for an
// installed config, else the config's own folder.
#include <gtest/gtest.h>

#include "driver/run/data_dir.hpp"

namespace iobench::run {
namespace {

const char* no_env(const char*) {
  return nullptr;
}

TEST(DataDir, InstalledConfigsAreThoseUnderShareIobenchConfigs) {
  EXPECT_TRUE(is_installed_config("/usr/share/iobench/configs/smoke.json"));
  EXPECT_TRUE(is_installed_config("/opt/x/share/iobench/configs/ngram.json"));
  EXPECT_FALSE(is_installed_config("/work/iobench/configs/smoke.json"));
  EXPECT_FALSE(is_installed_config("/usr/share/other/configs/smoke.json"));
  EXPECT_FALSE(is_installed_config("smoke.json"));
}

TEST(DataDir, OptionThenEnvironmentThenCurrentFolderForInstalledConfigs) {
  const auto env = [](const char* name) -> const char* {
    return std::string_view(name) == "IOBENCH_DATA_DIR" ? "/scratch" : nullptr;
  };
  EXPECT_EQ(choose_data_dir("/mine", "/usr/share/iobench/configs/s.json", env),
            std::filesystem::path("/mine"));
  EXPECT_EQ(choose_data_dir("", "configs/s.json", env), std::filesystem::path("/scratch"));
  EXPECT_EQ(choose_data_dir("", "/usr/share/iobench/configs/s.json", no_env),
            std::filesystem::path("."));
  EXPECT_FALSE(choose_data_dir("", "configs/s.json", no_env).has_value());
}

TEST(DataDir, SetDataDirResolvesOnlyRelativeInputs) {
  config::Config config = config::parse_config(
      R"({"name": "d", "inputs": ["data/a.txt", "/abs/b.txt"],
          "strategies": [{"name": "cat", "command": ["cat", "{input}"]}]})",
      "/usr/share/iobench/configs/d.json");
  EXPECT_EQ(config.inputs[0].path, std::filesystem::path("/usr/share/iobench/configs/data/a.txt"));
  config::set_data_dir(config, "/scratch/run1");
  EXPECT_EQ(config.inputs[0].path, std::filesystem::path("/scratch/run1/data/a.txt"));
  EXPECT_EQ(config.inputs[1].path, std::filesystem::path("/abs/b.txt"));
}

}  // namespace
}  // namespace iobench::run
