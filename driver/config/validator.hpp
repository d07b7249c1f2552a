#pragma once
// The config's schema checks: each failure is one line naming the file and the JSON path
// (strategies[2].worker) and what is expected. Internal to driver/config.
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/size.hpp"

namespace iobench::config::detail {

using Json = nlohmann::ordered_json;

class Validator {
 public:
  explicit Validator(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw Error(fmt::format("{}: {}: {}", file_, path, message));
  }

  // "$schema" is accepted but not listed.
  void only_keys(const Json& object, const std::string& path,
                 const std::vector<std::string_view>& allowed) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string known;
        for (const auto name : allowed) {
          if (name == "$schema") continue;
          known += known.empty() ? "" : ", ";
          known += name;
        }
        fail(join(path, key), fmt::format("unknown key (known keys: {})", known));
      }
    }
  }

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
  }
  static std::string index(const std::string& path, std::size_t i) {
    return fmt::format("{}[{}]", path, i);
  }

  const Json& require(const Json& object, const std::string& path, std::string_view key) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(join(path, key), "is required");
    return *it;
  }

  std::string string(const Json& value, const std::string& path, bool allow_empty = false) const {
    if (!value.is_string()) fail(path, fmt::format("must be a string, not {}", value.type_name()));
    auto text = value.get<std::string>();
    if (!allow_empty && text.empty()) fail(path, "must not be empty");
    return text;
  }

  bool boolean(const Json& value, const std::string& path) const {
    if (!value.is_boolean())
      fail(path, fmt::format("must be true or false, not {}", value.type_name()));
    return value.get<bool>();
  }

  std::int64_t integer(const Json& value, const std::string& path, std::int64_t min,
                       std::int64_t max) const {
    if (!value.is_number_integer()) {
      fail(path, fmt::format("must be a whole number, not {}", value.type_name()));
    }
    const auto number = value.get<std::int64_t>();
    if (number < min || number > max) fail(path, fmt::format("must be from {} to {}", min, max));
    return number;
  }

  std::vector<std::string> strings(const Json& value, const std::string& path) const {
    if (!value.is_array())
      fail(path, fmt::format("must be a list of strings, not {}", value.type_name()));
    if (value.empty()) fail(path, "must not be an empty list");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(string(value[i], index(path, i), true));
    return out;
  }

  std::uint64_t size(const Json& value, const std::string& path) const {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
      return static_cast<std::uint64_t>(value.get<std::int64_t>());
    }
    std::string error;
    const auto bytes = parse_size(string(value, path), &error);
    if (!bytes) fail(path, error);
    return *bytes;
  }

 private:
  std::string file_;
};

}  // namespace iobench::config::detail
