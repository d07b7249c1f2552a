#pragma once
// A record's JSON as a table of its fields: each entry names the key, the member, what its absence
// means and how its value is spelled, and the one table both writes the record and reads it back
// (meta_tables.hpp). Reading checks every field's type and names a wrong one by its path
// ("provenance.root"), as iobench::Error.
#include <fmt/format.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/error.hpp"

namespace iobench::runfile::json_fields {

using Json = nlohmann::ordered_json;

// How a field is written, and what reading makes of its absence.
enum class Presence {
  kRequired,  // always written; a record without it is refused
  kDefault,   // always written; absent or null reads as the member's default
  kNullable,  // an optional, written as null when empty; absent or null reads as empty
  kOmitted,   // written only when it holds something; absent or null reads as empty
};

// One object being read, with its path for messages.
class Reader {
 public:
  Reader(const Json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail("", "an object");
  }

  [[nodiscard]] bool has(const char* key) const { return object_.contains(key); }
  [[nodiscard]] const Json* find(const char* key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  // The value at `key`, which is present, as a T.
  template <typename T>
  T as(const char* key) const {
    try {
      return object_.at(key).template get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(key, "a value of another type");
    }
  }
  [[nodiscard]] Reader object(const char* key) const { return {object_.at(key), name(key)}; }
  [[nodiscard]] std::string name(const char* key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  [[noreturn]] void fail(const char* key, const char* expected) const {
    throw Error(fmt::format("{}: expected {}", *key ? name(key) : path_, expected));
  }

 private:
  const Json& object_;
  std::string path_;
};

// A codec spells a value: write(value) gives its JSON; read(in, key, value) reads the value at
// `key`, which is present and not null. This one is nlohmann's own spelling of the type.
struct Plain {
  template <typename T>
  Json write(const T& value) const {
    return Json(value);
  }
  template <typename T>
  void read(const Reader& in, const char* key, T& value) const {
    value = in.as<T>(key);
  }
};

template <typename Record, typename Member, typename Codec>
struct Field {
  const char* key;
  Member Record::*member;
  Presence presence;
  Codec codec;
};

template <typename Record, typename Member, typename Codec = Plain>
constexpr Field<Record, Member, Codec> field(const char* key, Member Record::*member,
                                             Presence presence = Presence::kDefault,
                                             Codec codec = {}) {
  return {key, member, presence, codec};
}

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// Whether a kOmitted field is written: an optional that is set, a JSON value that is not null, a
// container that is not empty; anything else always is.
template <typename T>
bool holds(const T& value) {
  if constexpr (IsOptional<T>::value) {
    return value.has_value();
  } else if constexpr (std::is_same_v<T, Json>) {
    return !value.is_null();
  } else if constexpr (requires { value.empty(); }) {
    return !value.empty();
  } else {
    return true;
  }
}

template <typename Record, typename Member, typename Codec>
void write_field(const Field<Record, Member, Codec>& field, const Record& record, Json& out) {
  const Member& value = record.*field.member;
  if constexpr (requires { field.codec.write_into(value, out); }) {
    field.codec.write_into(value, out);  // a block whose fields sit in the parent object
  } else if constexpr (IsOptional<Member>::value) {
    if (value) {
      out[field.key] = field.codec.write(*value);
    } else if (field.presence == Presence::kNullable) {
      out[field.key] = nullptr;
    }
  } else if (field.presence != Presence::kOmitted || holds(value)) {
    out[field.key] = field.codec.write(value);
  }
}

template <typename Record, typename Member, typename Codec>
void read_field(const Field<Record, Member, Codec>& field, const Reader& in, Record& record) {
  Member& value = record.*field.member;
  if constexpr (requires { field.codec.read_from(in, field.key, value); }) {
    field.codec.read_from(in, field.key, value);
  } else {
    const Json* json = in.find(field.key);
    if (json == nullptr) {
      if (field.presence == Presence::kRequired) in.fail(field.key, "present");
      return;  // the member keeps its default
    }
    if (json->is_null() && field.presence != Presence::kRequired) return;
    if constexpr (IsOptional<Member>::value) {
      typename Member::value_type read{};
      field.codec.read(in, field.key, read);
      value = std::move(read);
    } else {
      field.codec.read(in, field.key, value);
    }
  }
}

// Every field of `table` written into `out`, in the table's order.
template <typename Table, typename Record>
void write_fields(const Table& table, const Record& record, Json& out) {
  std::apply([&](const auto&... fields) { (write_field(fields, record, out), ...); }, table);
}

template <typename Table, typename Record>
void read_fields(const Table& table, const Reader& in, Record& record) {
  std::apply([&](const auto&... fields) { (read_field(fields, in, record), ...); }, table);
}

template <typename Record, typename Table>
Json write_object(const Table& table, const Record& record) {
  Json out = Json::object();
  write_fields(table, record, out);
  return out;
}

template <typename Record, typename Table>
Record read_object(const Table& table, const Reader& in) {
  Record record;
  read_fields(table, in, record);
  return record;
}

// A record spelled as an object by its own table.
template <typename Table>
struct Object {
  const Table* table;
  template <typename T>
  Json write(const T& value) const {
    return write_object(*table, value);
  }
  template <typename T>
  void read(const Reader& in, const char* key, T& value) const {
    value = read_object<T>(*table, in.object(key));
  }
};

// A list of records, each an object by its table; an element is named "key[]" in messages.
template <typename Table>
struct ObjectList {
  const Table* table;
  template <typename T>
  Json write(const T& values) const {
    Json out = Json::array();
    for (const auto& value : values) out.push_back(write_object(*table, value));
    return out;
  }
  template <typename T>
  void read(const Reader& in, const char* key, T& values) const {
    const Json& list = *in.find(key);
    if (!list.is_array()) in.fail(key, "a list");
    const std::string element = in.name(key) + "[]";
    for (const Json& item : list) {
      values.push_back(read_object<typename T::value_type>(*table, Reader(item, element)));
    }
  }
};

// An optional record whose fields sit in the parent object beside the parent's own, set when the
// parent has the field's key. The record may be spread over several entries, in the order its
// fields are written, each with a table of some of its fields.
template <typename Table>
struct Inline {
  const Table* table;
  template <typename T>
  void write_into(const std::optional<T>& value, Json& out) const {
    if (value) write_fields(*table, *value, out);
  }
  template <typename T>
  void read_from(const Reader& in, const char* key, std::optional<T>& value) const {
    if (!in.has(key)) return;
    if (!value) value.emplace();
    read_fields(*table, in, *value);
  }
};

template <typename Table>
constexpr Object<Table> object_of(const Table& table) {
  return {&table};
}
template <typename Table>
constexpr ObjectList<Table> list_of(const Table& table) {
  return {&table};
}
template <typename Table>
constexpr Inline<Table> inline_of(const Table& table) {
  return {&table};
}

}  // namespace iobench::runfile::json_fields
