#pragma once
// Streaming 64-bit hash of a byte stream (XXH3, from Debian's libxxhash): fast enough that the
// driver's pipe drain never becomes the bottleneck it is measuring.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace iobench {

// 16 lowercase hex digits of a 64-bit hash, as the output_hash column and every hash id write it.
inline std::string hex64(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

// XXH3-64 of a text, in hex64's form.
inline std::string hex_hash64(std::string_view text) {
  return hex64(XXH3_64bits(text.data(), text.size()));
}

class StreamHash {
 public:
  StreamHash() : state_(XXH3_createState(), &XXH3_freeState) { XXH3_64bits_reset(state_.get()); }
  void update(const void* data, std::size_t size) { XXH3_64bits_update(state_.get(), data, size); }
  [[nodiscard]] std::uint64_t digest() const { return XXH3_64bits_digest(state_.get()); }
  // 16 lowercase hex digits, as written to the output_hash column.
  [[nodiscard]] std::string hex() const { return hex64(digest()); }

 private:
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state_;
};

}  // namespace iobench
