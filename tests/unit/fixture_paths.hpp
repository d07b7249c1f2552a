#pragma once
// Where the unit tests' fixture files are: tests/fixtures/ of the source tree.
#include <filesystem>

namespace iobench::test {

inline const std::filesystem::path kReportFixtures =
    std::filesystem::path(IOBENCH_SOURCE_DIR) / "tests/fixtures/reports";
inline const std::filesystem::path kRunFileFixtures =
    std::filesystem::path(IOBENCH_SOURCE_DIR) / "tests/fixtures/runfiles";

}  // namespace iobench::test
