#pragma once
// The one table of the config's top-level keys (docs/formats.md "Config"): each entry is a key's
// name, the kind of value it takes and where the value goes, a Config field for a plain value or
// the functions of a key with code of its own. From it alone come the keys parse_config knows
// (and lists in its "unknown key" error), the parsing of every key, in the table's order, each
// key's check (check_config) and config_to_json's writing back (bench's --save-config, the run's
// meta record of the config).
// Adding a key is its Config field and one entry here; ConfigKeys.* tests the table is the one
// source. Internal to driver/config.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

enum class KeyKind {
  kText,         // a non-empty string; written when set
  kTextOrEmpty,  // a string, maybe empty; written when not empty
  kWholeNumber,  // an integer from `min` to `max`; always written
  kNumber,       // any number (its range is check_config's), else the error `rule`; always written
  kFlag,         // true or false; always written
  kChoice,       // one of `choices`, which are in the enum's order; always written
  kOwn,          // read and written by the entry's `parse` and `write`
  kIgnored,      // accepted and left alone ("$schema", for editors); not listed as known
};

// The Config field a plain key sets.
using KeyField =
    std::variant<std::monostate, std::string Config::*, int Config::*, std::uint64_t Config::*,
                 double Config::*, bool Config::*, CacheMode Config::*, RunOrder Config::*,
                 DrainMode Config::*, DisturbanceMode Config::*>;

struct ConfigKey {
  const char* name;
  KeyKind kind;
  KeyField field = {};
  std::vector<std::string> (*choices)() = nullptr;  // kChoice: the names, in the enum's order
  std::int64_t min = 0;                             // kWholeNumber's range
  std::int64_t max = 0;
  std::string (*rule)() = nullptr;  // kNumber: what it must be, in the words of its error
  bool required = false;            // absent: "is required"
  // The default when it depends on something else (the environment, an earlier key): set before
  // the key is read, whether it is there or not.
  void (*default_from)(Config&) = nullptr;
  // Code of its own that reads the value (kOwn; or a plain kind's value with more to it); the
  // plain kind's rule then still writes it.
  void (*parse)(const Validator&, const Json&, Config&) = nullptr;
  Json (*write)(const Config&) = nullptr;  // kOwn: its value, or null to leave the key out
  // Its value's range and its rules with other keys (check_config, which bench's Config, made
  // without JSON, passes too); nullptr: none beyond its kind.
  void (*check)(const Validator&, const Config&) = nullptr;
};

// Every top-level key, in the order parse_config reads them and config_to_json writes them.
const std::vector<ConfigKey>& config_keys();

// The keys of `root` (a JSON object), checked against the table and read into `config`.
void parse_keys(const Validator& v, const Json& root, Config& config);

// The keys of `config`, in the table's order.
Json write_keys(const Config& config);

// Each key's check, in the table's order (check_config).
void check_keys(const Validator& v, const Config& config);

// The index of a string `value` among `names`, or the error "'x' is not one of: a, b" at `path`.
std::size_t choice_index(const Validator& v, const Json& value, const std::string& path,
                         const std::vector<std::string>& names);

// The code of the keys that have their own, where it lives: config.cpp (reading), config_json.cpp
// (writing), bench_keys.cpp, repeats.cpp, disturbance_keys.cpp, decide_keys.cpp.
void parse_name(const Validator& v, const Json& value, Config& config);
void parse_inputs(const Validator& v, const Json& value, Config& config);
void parse_strategies(const Validator& v, const Json& value, Config& config);
void parse_params(const Validator& v, const Json& params, Config& config);
void parse_sinks(const Validator& v, const Json& sinks, Config& config);
void parse_cpus(const Validator& v, const Json& cpus, Config& config);
void parse_pipe_size(const Validator& v, const Json& value, Config& config);
void parse_drain(const Validator& v, const Json& value, Config& config);
void parse_counters(const Validator& v, const Json& counters, Config& config);
Json write_inputs(const Config& config);
Json write_strategies(const Config& config);
Json write_params(const Config& config);
Json write_sinks(const Config& config);
Json write_repeats(const Config& config);
Json write_cpus(const Config& config);
Json write_pipe_size(const Config& config);
Json write_counters(const Config& config);
Json write_family_reference(const Config& config);

}  // namespace iobench::config::detail
