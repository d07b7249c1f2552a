#pragma once
// Where a run's figures come from, for the meta file (docs/formats.md "meta"): the reference test
// `relative` divides by, the config's commit, the worker binary, the machine's load before and
// after, root or not, and the order the runs were planned in.
#include <filesystem>

#include "driver/config/plan.hpp"
#include "driver/run/machine_load.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::run {

// Reference test, git commit and dirty flag of the config's repository (omitted outside one),
// worker binary (path, build, XXH3 hash; null when missing), the machine's load at the start
// (load average and busy CPUs, null when the kernel does not say or, for busy CPUs, while the
// window is still open: the runner sets it once it closes), run as root.
runfile::Provenance collect_provenance(const config::Config& config, const config::Plan& plan,
                                       const std::filesystem::path& worker,
                                       const MachineLoad& load_at_start);

// The cells and the planned order of runs: "cells" [{test, input, sink}] and "runs", one string
// per run: "v:CELL" (verification), "w:CELL" (warmup), "m:CELL:REPEAT" (measured).
runfile::Schedule plan_schedule(const config::Config& config, const config::Plan& plan);

}  // namespace iobench::run
