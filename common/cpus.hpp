#pragma once
// How many CPUs this process may run on: what "every CPU" means for `gen --threads 0` and the
// worker's `parallel` reader.
#include <cstddef>

namespace iobench {

// The CPUs of this process' affinity mask (which taskset and cpusets narrow); the online CPUs
// when the mask cannot be read; at least 1.
std::size_t usable_cpus();

}  // namespace iobench
