#include "driver/runfile/meta_fields.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace iobench::runfile {
namespace {

using Json = nlohmann::ordered_json;

// nlohmann's SAX events made into the document they describe, less the top-level fields not in
// fields_.
class FieldsReadParser {
 public:
  FieldsReadParser(Json& root, std::span<const std::string_view> fields)
      : root_(root), fields_(fields) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(Json::number_integer_t v) { return value(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(v); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return value(v); }
  bool string(Json::string_t& v) { return value(std::move(v)); }
  bool binary(Json::binary_t& v) { return value(Json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(Json::string_t& name) {
    if (skipped_depth_ > 0) return true;
    if (open_.size() == 1 && std::find(fields_.begin(), fields_.end(), name) == fields_.end()) {
      skip_next_ = true;
      return true;
    }
    key_ = std::move(name);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) {
    error_ = error.what();
    return false;
  }
  // nlohmann's message for JSON that does not parse, as Json::parse would throw it.
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool skipping() { return skipped_depth_ > 0 || std::exchange(skip_next_, false); }
  Json* place(Json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    Json& slot = parent[key_];
    slot = std::move(v);
    return &slot;
  }
  bool value(Json&& v) {
    if (!skipping()) place(std::move(v));
    return true;
  }
  bool open(Json&& container) {
    if (skipping()) {
      ++skipped_depth_;
    } else {
      open_.push_back(place(std::move(container)));
    }
    return true;
  }
  bool close() {
    if (skipped_depth_ > 0) {
      --skipped_depth_;
    } else {
      open_.pop_back();
    }
    return true;
  }

  Json& root_;
  std::span<const std::string_view> fields_;  // the top-level fields kept
  std::vector<Json*> open_;                   // the containers being filled, outermost first
  std::string key_;         // the key of the next value of open_.back(), an object
  bool skip_next_ = false;  // the next value is a top-level field not read
  int skipped_depth_ = 0;   // > 0: inside such a field
  std::string error_;
};

}  // namespace

std::optional<Json> parse_top_level_fields(const std::string& text,
                                           std::span<const std::string_view> fields,
                                           std::string& error) {
  Json kept;
  FieldsReadParser parser(kept, fields);
  if (!Json::sax_parse(text, &parser)) {
    error = parser.error();
    return std::nullopt;
  }
  return kept;
}

}  // namespace iobench::runfile
