#pragma once
// The config keys that run commands the way hyperfine runs them, which `iobench bench` gives
// (docs/formats.md "Config", docs/bench.md): "stdin"; on a strategy, "shell" naming a shell, the
// unmeasured "setup", "prepare", "conclude" and "cleanup" commands, "ignore_failure" and
// "output_file" (bench --output FILE). Internal to driver/config.
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// A shell's command line ("bash --norc") split into words as sh would; `path` names it in errors.
std::vector<std::string> shell_words_of(const Validator& v, const std::string& text,
                                        const std::string& path);

// "stdin": a path, resolved as the inputs are.
void parse_stdin(const Validator& v, const Json& value, Config& config);

// The keys above of the strategy object at `path`, into `strategy`.
void parse_command_keys(const Validator& v, const Json& value, const std::string& path,
                        StrategySpec& strategy);

// A worker reads its input file: a config without inputs has commands only.
void check_workers_have_an_input(const Validator& v, const Config& config);

// Every {NAME} in a hook is a param the strategy's name uses: the test's own value fills it.
// There is no {input}: setup and cleanup run once per test, whatever its inputs.
void check_hook_placeholders(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
