#pragma once
// Command lines as text: quoting for sh and for people.
#include <string>
#include <vector>

namespace iobench {

// Quotes text for sh: '...' with each ' written as '\''.
std::string shell_quote(const std::string& text);

// An argv as a person would type it: each argument bare when safe, else shell-quoted.
std::string join_argv(const std::vector<std::string>& argv);

// Splits a command line into words as sh would, without running a shell: blanks separate words,
// '...' keeps text as it is, "..." keeps text but a backslash escapes " \ $ `, a bare backslash
// escapes the next character. Nothing is expanded ($x, *, ~ stay as written). Returns false
// (words unspecified) for an unterminated quote or a trailing backslash.
bool split_words(const std::string& text, std::vector<std::string>& words);

}  // namespace iobench
