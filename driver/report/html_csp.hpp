#pragma once
// The report's Content-Security-Policy: nothing may load from anywhere (no fetch, no image, no
// font, no frame), and the one inline script runs only as its SHA-256 says, so the page is
// offline by the browser's own rule and an injected script could not run (docs/reports.md, "The
// HTML report").
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace iobench::report {

// SHA-256 (FIPS 180-4) of `data`.
std::array<std::uint8_t, 32> sha256(std::string_view data);
// Standard base64 with padding (RFC 4648).
std::string base64(const std::uint8_t* data, std::size_t size);

// "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-...'; img-src data:"
std::string content_security_policy(std::string_view script);

}  // namespace iobench::report
