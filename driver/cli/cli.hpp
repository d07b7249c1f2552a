#pragma once

namespace iobench::cli {

// Parses argv against the registered subcommands, runs one, and returns the process exit code
// (docs/formats.md "Exit codes").
int run_cli(int argc, char** argv);

}  // namespace iobench::cli
