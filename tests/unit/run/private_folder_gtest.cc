// The one private temporary folder of the driver (driver/run/outputs.hpp): the run's file sinks
// and bench's runs file when none is asked for. Made 0700 under its parent with its prefix,
// removed with everything in it, and a parent it cannot make it in is one clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "driver/run/outputs.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

TEST(PrivateFolder, IsMadePrivateUnderItsParentAndRemovedWithItsFiles) {
  const iobench::test::TempDir parent("private-folder");
  fs::path made;
  {
    const PrivateFolder folder(parent.path(), "iobench-bench-", "the runs");
    made = folder.path();
    EXPECT_EQ(made.parent_path(), parent.path());
    EXPECT_TRUE(made.filename().string().starts_with("iobench-bench-")) << made;
    EXPECT_EQ(fs::status(made).permissions() & fs::perms::all, fs::perms::owner_all);
    std::ofstream(made / "bench.tsv") << "x\n";
  }
  EXPECT_FALSE(fs::exists(made));
}

TEST(PrivateFolder, AParentThatIsNotThereIsAnErrorNamingItAndThePurpose) {
  const iobench::test::TempDir parent("private-folder");
  try {
    const PrivateFolder folder(parent / "missing", ".sinks-", "file sinks");
    FAIL() << "made a folder under a missing parent";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (parent / "missing").string() +
                                         ": cannot make a private folder for file sinks: No "
                                         "such file or directory");
    EXPECT_EQ(e.exit_code(), kExitUsage);
  }
}

}  // namespace
}  // namespace iobench::run
