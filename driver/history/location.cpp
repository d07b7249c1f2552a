#include "driver/history/location.hpp"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <memory>

#include "common/error.hpp"

namespace iobench::history {
namespace {

constexpr std::string_view kKnownForms =
    "a path or sqlite:PATH (SQLite), postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DB (PostgreSQL)";

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The URL with the password of its user part, if any, replaced: messages never show it.
std::string without_password(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  const std::size_t at = url.find('@');
  if (scheme_end == std::string_view::npos || at == std::string_view::npos) return std::string(url);
  const std::size_t colon = url.find(':', scheme_end + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(url);
  return fmt::format("{}***{}", url.substr(0, colon + 1), url.substr(at));
}

StoreLocation parse_postgresql(std::string_view text) {
  const std::string url(text);
  char* message = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &message);
  if (options == nullptr) {
    std::string why = message != nullptr ? message : "out of memory";
    PQfreemem(message);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    throw Error(fmt::format("--history {}: not a PostgreSQL URL libpq can read: {}",
                            without_password(text), why));
  }
  StoreLocation location;
  for (const PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
    if (option->val == nullptr) continue;
    std::string quoted;
    for (const char* c = option->val; *c != '\0'; ++c) {
      if (*c == '\\' || *c == '\'') quoted += '\\';
      quoted += *c;
    }
    if (!location.postgresql_conninfo.empty()) location.postgresql_conninfo += ' ';
    location.postgresql_conninfo += fmt::format("{}='{}'", option->keyword, quoted);
  }
  PQconninfoFree(options);
  location.backend = Backend::kPostgresql;
  location.postgresql_url = url;
  location.display = without_password(text);
  return location;
}

}  // namespace

StoreLocation parse_store_location(std::string_view text) {
  if (text.empty()) throw Error(fmt::format("--history: empty store name (use {})", kKnownForms));
  if (starts_with(text, "postgresql://") || starts_with(text, "postgres://")) {
    return parse_postgresql(text);
  }
  StoreLocation location;
  if (starts_with(text, "sqlite:")) {
    std::string_view path = text.substr(7);
    if (starts_with(path, "//")) path.remove_prefix(2);  // sqlite:///abs/path
    if (path.empty()) throw Error(fmt::format("--history {}: no path after sqlite:", text));
    location.sqlite_path = std::filesystem::path(path);
  } else {
    const std::size_t scheme_end = text.find("://");
    if (scheme_end != std::string_view::npos) {
      throw Error(fmt::format("--history {}: unknown store scheme '{}' (known: {})", text,
                              text.substr(0, scheme_end), kKnownForms));
    }
    location.sqlite_path = std::filesystem::path(text);
  }
  location.display = location.sqlite_path.string();
  return location;
}

StoreLocation choose_store_location(const std::optional<std::string>& given,
                                    const EnvLookup& lookup,
                                    const std::filesystem::path& base_dir) {
  if (given && !given->empty()) {
    StoreLocation location = parse_store_location(*given);
    if (location.backend == Backend::kSqlite && location.sqlite_path.is_relative() &&
        !base_dir.empty()) {
      location.sqlite_path = (base_dir / location.sqlite_path).lexically_normal();
      location.display = location.sqlite_path.string();
    }
    return location;
  }
  if (const char* from_environment = lookup(kStoreEnvironmentVariable.data());
      from_environment != nullptr && *from_environment != '\0') {
    return parse_store_location(from_environment);
  }
  return parse_store_location(kDefaultStorePath);
}

}  // namespace iobench::history
