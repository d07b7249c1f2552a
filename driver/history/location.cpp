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

// A URL's scheme at the start of `text` (RFC 3986: a letter, then letters, digits, '+', '-' or
// '.'), two characters or more, with the ':' after it; empty when there is none.
std::string_view leading_scheme(std::string_view text) {
  const auto scheme_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
  };
  if (text.empty() || std::isalpha(static_cast<unsigned char>(text[0])) == 0) return {};
  std::size_t end = 1;
  while (end < text.size() && scheme_char(text[end])) ++end;
  if (end < 2 || end >= text.size() || text[end] != ':') return {};
  return text.substr(0, end);
}

// The PASSWORD of `USER:PASSWORD@` after `start`: from the first ':' to the last '@' of that line,
// so that a malformed URL (libpq quotes what it could not parse) or a password with an unencoded
// '@' or space is hidden whole; at worst more than the password goes. Where to look on from.
std::size_t redact_user_password(std::string& text, std::size_t start) {
  std::size_t line_end = text.find('\n', start);
  if (line_end == std::string::npos) line_end = text.size();
  const std::size_t at = text.rfind('@', line_end == 0 ? 0 : line_end - 1);
  const std::size_t colon = text.find(':', start);
  if (at == std::string::npos || at < start || colon >= at) return start;
  text.replace(colon + 1, at - colon - 1, "***");
  return colon + 4;
}

// Each URL's password: after every "://", and after a leading scheme written with one slash or
// none ("postgresql:/ci:pw@db/x", a typo that must not show the password either).
void redact_url_passwords(std::string& text) {
  if (const std::string_view scheme = leading_scheme(text);
      !scheme.empty() && text.compare(scheme.size(), 3, "://") != 0) {
    std::size_t start = scheme.size() + 1;
    while (start < text.size() && text[start] == '/') ++start;
    redact_user_password(text, start);
  }
  for (std::size_t from = text.find("://"); from != std::string::npos;
       from = text.find("://", from)) {
    from = redact_user_password(text, from + 3);
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

struct FreeConninfo {
  void operator()(PQconninfoOption* options) const { PQconninfoFree(options); }
};
using ConninfoOptions = std::unique_ptr<PQconninfoOption, FreeConninfo>;

// libpq's own parse of a URL or a keyword=value string (PQconninfoParse: the parser the connection
// uses, so nothing connects first); empty, with libpq's reason in `why`, when it cannot read it.
ConninfoOptions parse_conninfo(std::string_view text, std::string& why) {
  const std::string given(text);
  char* message = nullptr;
  ConninfoOptions options(PQconninfoParse(given.c_str(), &message));
  if (!options) why = message != nullptr ? message : "out of memory";
  PQfreemem(message);
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  return options;
}

// The store at what libpq parsed `text` into.
StoreLocation postgresql_location(std::string_view text, const ConninfoOptions& options) {
  StoreLocation location;
  for (const PQconninfoOption* option = options.get(); option->keyword != nullptr; ++option) {
    if (option->val == nullptr) continue;
    std::string quoted;
    for (const char* c = option->val; *c != '\0'; ++c) {
      if (*c == '\\' || *c == '\'') quoted += '\\';
      quoted += *c;
    }
    if (!location.postgresql_conninfo.empty()) location.postgresql_conninfo += ' ';
    location.postgresql_conninfo += fmt::format("{}='{}'", option->keyword, quoted);
  }
  location.backend = Backend::kPostgresql;
  location.postgresql_url = std::string(text);
  location.display = redact_passwords(text);
  return location;
}

StoreLocation parse_postgresql(std::string_view text) {
  std::string why;
  const ConninfoOptions options = parse_conninfo(text, why);
  if (!options) {
    throw Error(fmt::format("--history {}: not a PostgreSQL URL libpq can read: {}",
                            redact_passwords(text), redact_passwords(why)));
  }
  return postgresql_location(text, options);
}

// A name with a URL's scheme other than the known ones ("mysql://", "pg://", "postgresq://",
// "postgresql:/" with one slash, "https://") is a mistyped store, not a path: refused, its
// password hidden.
void refuse_what_is_no_path(std::string_view text) {
  const std::string_view scheme = leading_scheme(text);
  const bool url_like = text.find("://") != std::string_view::npos ||
                        (!scheme.empty() && (text.substr(scheme.size() + 1, 1) == "/" ||
                                             text.find('@') != std::string_view::npos));
  if (!url_like) return;
  const std::string_view named = scheme.empty() ? text.substr(0, text.find("://")) : scheme;
  if (named == "postgresql" || named == "postgres") {
    throw Error(fmt::format("--history {}: a PostgreSQL store's URL begins {}:// (two slashes)",
                            redact_passwords(text), named));
  }
  const bool postgresql_typo = starts_with(named, "postgre") || named == "pg" || named == "pgsql";
  throw Error(fmt::format("--history {}: unknown store scheme '{}'{} (known: {})",
                          redact_passwords(text), named, postgresql_typo ? ", not postgresql" : "",
                          kKnownForms));
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
    refuse_what_is_no_path(text);
    // A keyword=value string libpq reads ("host=db dbname=bench") is a server, never a file of
    // that name; any other text with '=' is a path.
    if (std::string why; text.find('=') != std::string_view::npos) {
      if (const ConninfoOptions options = parse_conninfo(text, why))
        return postgresql_location(text, options);
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
