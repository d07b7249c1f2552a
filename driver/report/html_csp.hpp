#pragma once
// The report's Content-Security-Policy: nothing may load from anywhere (no fetch, no image, no
// font, no frame), and the one inline script runs only as its SHA-256 says, so the page is
// offline by the browser's own rule and an injected script could not run (docs/reports.md, "The
// HTML report"). The hash is computed when the code is built (cmake/EmbedScript.cmake, from the
// same file that report_script() returns).
#include <string>

namespace iobench::report {

// "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-...'; img-src data:"
std::string content_security_policy();

}  // namespace iobench::report
