#pragma once
// The one table of `iobench bench`'s options that describe what runs (docs/bench.md): each entry
// is an option's names, its help, the BenchRequest field it sets and how the made_by line writes
// it back. cli_options adds the CLI11 options from it in a loop, bench_command_line writes the
// made_by line from it, and the request becomes the Config (request.hpp). Adding an option
// takes an entry here, its BenchRequest field and its use in build_bench_config; one backed by a
// new config key also takes its Config field and its entry in the config's key table
// (driver/config/config_keys.cpp: parsing, checks, --save-config), and the hyperfine
// side-by-side where hyperfine has the option (docs/architecture.md). Options about the output
// (-o, the exports, --style) are not the config's and stay in cmd_bench.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "driver/bench/request.hpp"

namespace iobench::bench {

// The request field an option sets.
using BenchField =
    std::variant<std::string BenchRequest::*, std::vector<std::string> BenchRequest::*,
                 std::optional<int> BenchRequest::*, std::optional<double> BenchRequest::*,
                 int BenchRequest::*, bool BenchRequest::*>;

enum class BenchOptionKind {
  kValue,       // takes a value (one per occurrence for a list)
  kPositional,  // the commands: required, written last on the made_by line
  kFlag,        // sets its bool field true
  kFlagOff,     // sets its bool field false (--no-shell)
  kFlagText,    // sets its text field to `flag_text` (--no-verify)
  kFlagOrText,  // alone sets its text field to "true" (`flag_text`), with =VALUE to VALUE
};

struct BenchOption {
  const char* names;  // CLI11's spelling: "-r,--runs"
  const char* help;
  BenchField field;
  // Its name on the made_by line; nullptr: never written (a flag that another option spells).
  const char* written_as = nullptr;
  BenchOptionKind kind = BenchOptionKind::kValue;
  std::vector<std::string> (*choices)() = nullptr;  // the values it accepts; nullptr: any
  char delimiter = 0;               // a list given as "a,b" (and written so); 0: one value a word
  int words = 1;                    // values per occurrence (-P VAR MIN MAX: 3)
  bool shows_default = false;       // --help shows its default
  const char* flag_text = nullptr;  // kFlagText, kFlagOrText: the text it sets alone
  const char* unwritten = nullptr;  // a text value left off the made_by line (the default)
  // The value the made_by line writes, when it is not the field's own ("" writes nothing).
  std::string (*written_value)(const BenchRequest&) = nullptr;
};

// Every option, in the order of the made_by line.
const std::vector<BenchOption>& bench_options();

}  // namespace iobench::bench
