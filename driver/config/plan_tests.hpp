#pragma once
// The tests of a plan (plan.cpp's first step): each strategy over the cartesian product of the
// params it uses, made with the candidate build, and under --versus each test's base twin.
#include <vector>

#include "driver/config/plan.hpp"

namespace iobench::config {

// Each strategy over its params, in config order, made with --build's folder and worker (else
// options.worker_path, and {build} an error). Throws iobench::Error for two tests of one name.
std::vector<Test> expand_tests(const Config& config, const PlanOptions& options);

// --versus: every test's twin made with the base build, just before it (tests 2k and 2k+1), the
// candidate compared with its twin, whose output must be the same (docs/driver.md, "Two builds").
// Throws iobench::Error with --shard, order grouped, or a twin's name taken.
void add_base_twins(const Config& config, const PlanOptions& options, Plan& plan);

}  // namespace iobench::config
