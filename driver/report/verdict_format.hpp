#pragma once
// The formats a gate's verdicts are written in, the same for `history check --format` and
// `bench --gate-format` (docs/history.md, "Formats"): text, markdown, json, github.
#include <string>

namespace iobench::report {

enum class VerdictFormat { kText, kMarkdown, kJson, kGithub };
// "text", "markdown", "json", "github"; throws iobench::Error (exit 2) for anything else, naming
// `option` ("--format").
VerdictFormat parse_verdict_format(const std::string& option, const std::string& name);

}  // namespace iobench::report
