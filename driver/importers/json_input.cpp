#include "driver/importers/json_input.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace iobench::importers {

Json parse_or_discarded(std::string_view bytes) {
  return Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
}

Json parse_json(std::string_view bytes, const std::string& file) {
  try {
    return Json::parse(bytes);
  } catch (const Json::parse_error& e) {
    throw Error(fmt::format("{}: not JSON: {}", file, e.what()));
  }
}

Fields::Fields(const Json& object, const std::string& file, std::string where)
    : object_(object), file_(file), where_(std::move(where)) {
  if (!object_.is_object()) fail("not an object");
}

void Fields::fail(std::string_view what) const {
  throw Error(fmt::format("{}: {}: {}", file_, where_, what));
}

double Fields::number(const char* key) const {
  const auto value = optional_number(key);
  if (!value) fail(fmt::format("no number '{}'", key));
  return *value;
}

std::optional<double> Fields::optional_number(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) fail(fmt::format("'{}' is not a number", key));
  return it->get<double>();
}

std::string Fields::text(const char* key) const {
  auto value = optional_text(key);
  if (!value) fail(fmt::format("no string '{}'", key));
  return std::move(*value);
}

std::optional<std::string> Fields::optional_text(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) fail(fmt::format("'{}' is not a string", key));
  return it->get<std::string>();
}

const Json& Fields::array(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || !it->is_array()) fail(fmt::format("no array '{}'", key));
  return *it;
}

const Json* Fields::optional_object(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  if (!it->is_object()) fail(fmt::format("'{}' is not an object", key));
  return &*it;
}

std::vector<double> numbers_of(const Json& array, const Fields& fields, const char* key) {
  std::vector<double> values;
  values.reserve(array.size());
  for (const Json& value : array) {
    if (!value.is_number())
      fields.fail(fmt::format("'{}' holds a value that is not a number", key));
    values.push_back(value.get<double>());
  }
  return values;
}

bool has_rows(const Json& json, const char* array_key, std::initializer_list<const char*> row_keys,
              bool nonempty) {
  if (!json.is_object()) return false;
  const auto rows = json.find(array_key);
  if (rows == json.end() || !rows->is_array() || (nonempty && rows->empty())) return false;
  for (const Json& row : *rows) {
    if (!row.is_object()) return false;
    for (const char* key : row_keys) {
      if (!row.contains(key)) return false;
    }
  }
  return true;
}

const Json* object_at(const Json& json, const char* key) {
  if (!json.is_object()) return nullptr;
  const auto it = json.find(key);
  return it != json.end() && it->is_object() ? &*it : nullptr;
}

std::string condition_text(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace iobench::importers
