#include "driver/history/location.hpp"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>

#include "common/error.hpp"

namespace iobench::history {
namespace {

constexpr std::string_view kKnownForms =
    "a path or sqlite:PATH (SQLite), postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DB (PostgreSQL)";

constexpr std::string_view kSqliteScheme = "sqlite:";

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool is_postgresql_url(std::string_view text) {
  return starts_with(text, "postgresql://") || starts_with(text, "postgres://");
}

// In each URL of `text`, the PASSWORD of `USER:PASSWORD@`: from the first ':' after "://" to the
// last '@' of that line, so that a malformed URL (libpq quotes what it could not parse) or a
// password with an unencoded '@' or space is hidden whole; at worst more than the password goes.
void redact_url_passwords(std::string& text) {
  for (std::size_t from = text.find("://"); from != std::string::npos;
       from = text.find("://", from)) {
    const std::size_t start = from + 3;
    std::size_t line_end = text.find('\n', start);
    if (line_end == std::string::npos) line_end = text.size();
    const std::size_t at = text.rfind('@', line_end == 0 ? 0 : line_end - 1);
    const std::size_t colon = text.find(':', start);
    if (at != std::string::npos && at >= start && colon < at) {
      text.replace(colon + 1, at - colon - 1, "***");
      from = colon + 4;
    } else {
      from = start;
    }
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Each `password = VALUE` (any case; VALUE quoted as libpq quotes it, or up to a space or '&').
void redact_keyword_passwords(std::string& text) {
  constexpr std::string_view kKeyword = "password";
  for (std::size_t i = 0; i + kKeyword.size() <= text.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < kKeyword.size() && match; ++k) {
      match =
          static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + k]))) == kKeyword[k];
    }
    if (!match) continue;
    std::size_t j = i + kKeyword.size();
    while (j < text.size() && is_space(text[j])) ++j;
    if (j >= text.size() || text[j] != '=') continue;
    ++j;
    while (j < text.size() && is_space(text[j])) ++j;
    std::size_t end = j;
    if (end < text.size() && text[end] == '\'') {
      for (++end; end < text.size() && text[end] != '\''; ++end) {
        if (text[end] == '\\') ++end;
      }
      end = std::min(end + 1, text.size());
    } else {
      while (end < text.size() && !is_space(text[end]) && text[end] != '&') ++end;
    }
    text.replace(j, end - j, "***");
    i = j + 2;
  }
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
                            redact_passwords(text), redact_passwords(why)));
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
  location.display = redact_passwords(text);
  return location;
}

}  // namespace

std::string redact_passwords(std::string_view text) {
  std::string redacted(text);
  redact_url_passwords(redacted);
  redact_keyword_passwords(redacted);
  return redacted;
}

StoreLocation parse_store_location(std::string_view text) {
  if (text.empty()) throw Error(fmt::format("--history: empty store name (use {})", kKnownForms));
  if (is_postgresql_url(text)) return parse_postgresql(text);
  StoreLocation location;
  if (starts_with(text, kSqliteScheme)) {
    std::string_view path = text.substr(kSqliteScheme.size());
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

bool has_store_scheme(std::string_view text) {
  return is_postgresql_url(text) || starts_with(text, kSqliteScheme);
}

std::optional<bool> begins_as_sqlite_database(const std::filesystem::path& path) {
  // SQLite's file format: every database begins with these 16 bytes, the NUL included.
  constexpr std::string_view kMagic{"SQLite format 3\0", 16};
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string header(kMagic.size(), '\0');
  in.read(header.data(), static_cast<std::streamsize>(header.size()));
  return in.gcount() == static_cast<std::streamsize>(kMagic.size()) && header == kMagic;
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
