#pragma once
// Numbers as run files write them (ours and GNU time's).
#include <string_view>

namespace iobench::runfile {

// A non-negative-or-not finite decimal ("0.512497", "2249", "1e-3", "+5"); false on anything
// else (trailing text, not finite). Plain decimals of up to 15 digits take an exact fast path.
bool parse_double(std::string_view text, double& value);

// Parses seconds as GNU time and our files write them: "1.25", or "[h:]m:ss[.ss]" (%E).
// Returns false on anything else (negative, not finite, trailing text).
bool parse_seconds(std::string_view text, double& seconds);

}  // namespace iobench::runfile
