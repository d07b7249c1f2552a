#pragma once
// What every importer does with its JSON: parse it, read the fields it needs, and say in one line
// which file and which field is wrong.
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace iobench::importers {

using Json = nlohmann::json;

// The JSON of `bytes`, or a discarded value when they are not JSON (for detection).
Json parse_or_discarded(std::string_view bytes);
// The JSON of `bytes`; throws iobench::Error naming `file` when they are not JSON.
Json parse_json(std::string_view bytes, const std::string& file);

// Reads the fields of one object of a file, throwing iobench::Error "FILE: WHERE: WHAT" for a
// field that is missing or of the wrong type.
class Fields {
 public:
  Fields(const Json& object, const std::string& file, std::string where);
  [[nodiscard]] double number(const char* key) const;
  [[nodiscard]] std::optional<double> optional_number(const char* key) const;
  [[nodiscard]] std::string text(const char* key) const;
  [[nodiscard]] std::optional<std::string> optional_text(const char* key) const;
  [[nodiscard]] const Json& array(const char* key) const;
  [[nodiscard]] const Json* optional_object(const char* key) const;
  [[noreturn]] void fail(std::string_view what) const;
  [[nodiscard]] const std::string& where() const { return where_; }

 private:
  const Json& object_;
  const std::string& file_;
  std::string where_;
};

// The numbers of `array` (a field of `fields`); throws naming the field for any other value.
std::vector<double> numbers_of(const Json& array, const Fields& fields, const char* key);

// Detection's shape test: `json` is an object whose `array_key` is an array of objects that each
// have every one of `row_keys`; `nonempty`: at least one.
bool has_rows(const Json& json, const char* array_key, std::initializer_list<const char*> row_keys,
              bool nonempty);
// The object `json` holds under `key`, or nullptr when it holds none (or not an object).
const Json* object_at(const Json& json, const char* key);

// A JSON value as one condition's text: a string as it is, anything else as JSON writes it.
std::string condition_text(const Json& value);

}  // namespace iobench::importers
