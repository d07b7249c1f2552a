#pragma once
// What reader families share: the plain read(2) reader, which mmap and uring fall back to when
// their input or the kernel does not allow them.
#include <memory>

#include "workers/worker.hpp"

namespace iobench::worker {

std::unique_ptr<Reader> make_read_reader(const Options& options);

}  // namespace iobench::worker
