#include "driver/runfile/shell_startup.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace iobench::runfile {
namespace {

template <typename T>
T field(const nlohmann::ordered_json& json, const char* key) {
  try {
    return json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw Error(fmt::format("shell_startup.{}: expected a value of its type", key));
  }
}

}  // namespace

nlohmann::ordered_json to_json(const ShellStartup& startup) {
  nlohmann::ordered_json out;
  out["command"] = startup.command;
  out["runs"] = startup.runs;
  out["elapsed_s"] = startup.elapsed_s;
  out["user_s"] = startup.user_s;
  out["system_s"] = startup.system_s;
  return out;
}

ShellStartup shell_startup_from_json(const nlohmann::ordered_json& json) {
  if (!json.is_object()) throw Error("shell_startup: expected an object");
  return ShellStartup{field<std::vector<std::string>>(json, "command"),
                      field<std::size_t>(json, "runs"), field<double>(json, "elapsed_s"),
                      field<double>(json, "user_s"), field<double>(json, "system_s")};
}

}  // namespace iobench::runfile
