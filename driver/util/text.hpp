#pragma once
// Command lines as text: quoting for sh and for people.
#include <string>
#include <vector>

namespace iobench {

// Quotes text for sh: '...' with each ' written as '\''.
std::string shell_quote(const std::string& text);

// An argv as a person would type it: each argument bare when safe, else shell-quoted.
std::string join_argv(const std::vector<std::string>& argv);

}  // namespace iobench
