#pragma once
// The run steps' tests' matrix: a config (JSON fields after "inputs"; one input, in.txt, that
// holds kStepInput) and its plan, in a scratch folder, for the steps to be built on
// (prepare_step_gtest.cc, launch_step_gtest.cc, ...).
#include <fstream>
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run::step_test {

inline const std::string kStepInput = "alpha\nbeta\ngamma\n";

struct Matrix {
  // `inputs`: the config's "inputs" member and a comma; empty: a matrix without an input.
  explicit Matrix(const std::string& fields,
                  const std::string& inputs = R"("inputs": [{"path": "in.txt"}], )") {
    std::ofstream(dir / "in.txt", std::ios::binary) << kStepInput;
    config = config::parse_config(
        R"({"name": "t", )" + inputs + R"("cache": "none", )" + fields + "}", dir / "t.json");
    config::PlanOptions options;
    options.worker_path = "iobench-worker";
    plan = config::build_plan(config, options);
  }
  Matrix(const Matrix&) = delete;  // the steps hold references to its config and plan
  Matrix& operator=(const Matrix&) = delete;

  const iobench::test::TempDir dir{"step"};
  config::Config config;
  config::Plan plan;
};

// Two commands, a and b, that are not verified, two repeats in order a a b b.
inline const std::string kTwoCommands =
    R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                      {"name": "b", "command": ["b"], "verify": false}],
       "repeats": 2, "warmup": 0, "order": "grouped")";

}  // namespace iobench::run::step_test
