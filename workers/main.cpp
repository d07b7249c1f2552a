// iobench-worker: one I/O strategy (reader x writer x op) over one input; see workers/cli.hpp.
#include "workers/cli.hpp"

int main(int argc, char** argv) {
  return iobench::worker::worker_main(argc, argv);
}
