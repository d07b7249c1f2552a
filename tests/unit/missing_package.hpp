#pragma once
// A unit test that needs a package (git, perf) the machine lacks skips, with the reason; under
// IOBENCH_TEST_STRICT=1 (scripts/test, so CI, which installs every package the tests use) it fails
// instead, as tests/e2e/lib/common.bash's `skip` does: there a missing package is a broken setup.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace iobench::test {

inline bool strict_about_packages() {
  const char* strict = std::getenv("IOBENCH_TEST_STRICT");
  return strict != nullptr && std::string_view(strict) == "1";
}

}  // namespace iobench::test

// Skips the test (or fails it, strict) saying which package is missing.
#define IOBENCH_SKIP_FOR_MISSING_PACKAGE(reason)                                               \
  do {                                                                                         \
    if (::iobench::test::strict_about_packages()) {                                            \
      FAIL() << (reason) << " (IOBENCH_TEST_STRICT=1: scripts/test installs it; not skipped)"; \
    }                                                                                          \
    GTEST_SKIP() << (reason);                                                                  \
  } while (false)
