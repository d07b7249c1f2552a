#pragma once
// Text for other readers: quoting for sh and for people, escaping for HTML, XML and
// markdown tables, a cell's name.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iobench::util {

// Quotes text for sh: '...' with each ' written as '\''.
std::string shell_quote(const std::string& text);

// An argv as a person would type it: each argument bare when safe, else shell-quoted.
std::string join_argv(const std::vector<std::string>& argv);

// Splits a command line into words as sh would, without running a shell: blanks separate words,
// '...' keeps text as it is, "..." keeps text but a backslash escapes " \ $ `, a bare backslash
// escapes the next character. Nothing is expanded ($x, *, ~ stay as written). Returns false
// (words unspecified) for an unterminated quote or a trailing backslash.
bool split_words(const std::string& text, std::vector<std::string>& words);

// Text as HTML and XML (SVG, Atom) content or a quoted attribute: & < > " ' as entities, and
// each control character but tab and newline as a space (XML 1.0 forbids them). Every string
// from a run file, a meta file or a config goes through it, so a test named
// `<script>alert(1)</script>` stays text.
std::string escape_markup(std::string_view text);

// Text as a cell of a markdown (or org-mode, AsciiDoc) table: `|` would end the cell, escaped as
// `\|`; a line break would end the row, written as a space.
std::string escape_table_cell(std::string_view text);

// GitHub's escapes for a workflow command's message (% \r \n) and for a property's value (those
// and : ,), as @actions/core's escapeData and escapeProperty.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

// How every line names a cell: "TEST on INPUT (SINK sink)", "TEST (SINK sink)" without an input;
// the test in single quotes when `quoted`. INPUT as the caller shows it (a file name, as a rule).
std::string cell_name(std::string_view test, std::string_view input, std::string_view sink,
                      bool quoted);

// The name among `names` a mistyped `given` most likely meant, for a "did you mean" hint: the
// nearest by edit distance (insert, delete, replace, or swap two neighbours, each 1), when at
// most 2 and less than `given`'s length (not a guess), and no other name as near; else nullopt.
std::optional<std::string> closest_name(std::string_view given,
                                        const std::vector<std::string>& names);

// The first item, in order, whose name an earlier one has: {that earlier one's index, its own};
// nullopt when the names all differ. Sorts positions rather than filling a set: 100,000 names
// take 0.8 MB, where a set of them took 6.4.
template <typename Items, typename NameOf>
std::optional<std::pair<std::size_t, std::size_t>> first_repeat(const Items& items,
                                                                NameOf name_of) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::string_view(name_of(items[a])) < std::string_view(name_of(items[b]));
  });
  std::optional<std::pair<std::size_t, std::size_t>> first;
  std::size_t group_start = 0;
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (std::string_view(name_of(items[order[k]])) !=
        std::string_view(name_of(items[order[group_start]]))) {
      group_start = k;
    } else if (!first || order[k] < first->second) {
      first = std::pair{order[group_start], order[k]};
    }
  }
  return first;
}

}  // namespace iobench::util
