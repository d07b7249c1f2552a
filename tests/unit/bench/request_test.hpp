#pragma once
// The fixture of the tests of `iobench bench`'s command line made into a config
// (driver/bench/request.hpp): each test runs inside a fresh folder holding data/in.txt,
// the current folder while it lives, so relative inputs resolve there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "driver/bench/request.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::test {

class BenchRequestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = std::filesystem::current_path();
    std::filesystem::current_path(folder_.path());
    std::filesystem::create_directories("data");
    std::ofstream("data/in.txt") << "a\nb\n";
  }
  void TearDown() override { std::filesystem::current_path(previous_); }

  // Two commands reading data/in.txt, the first the reference.
  static bench::BenchRequest two_commands() {
    bench::BenchRequest request;
    request.commands = {"cat {input}", "grep -c . {input}"};
    request.inputs = {"data/in.txt"};
    return request;
  }

  // The message of the error building the config throws, which must be one line and exit 2;
  // "(no error)" when it builds.
  static std::string error_of(const bench::BenchRequest& request) {
    try {
      bench::build_bench_config(request);
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
      std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      return message;
    }
    return "(no error)";
  }

 private:
  const TempDir folder_{"bench-request"};
  std::filesystem::path previous_;
};

}  // namespace iobench::test
