#pragma once

namespace iobench {

// Parses argv against the registered subcommands, runs one, and returns the process exit code
// (DESIGN.md: 0 ok, 1 some run failed, 2 usage/config/input error, 130 interrupted).
int run_cli(int argc, char** argv);

}  // namespace iobench
