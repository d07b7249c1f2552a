#pragma once
// What `run` and `bench` say when a cell's ok runs fell into two levels (docs/reports.md, "Two
// levels"; the rule in two_levels.hpp): one line per such cell with the two levels, the runs
// when each held, and what moved with the time among what the rows recorded (others' CPU time,
// the CPU figures, the context switches, the counters), or that none of it did.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::report {

// One line per cell of the run file's text whose ok runs fell into two levels, in the order the
// cells first appear: "b on data/in.txt (pipe sink): its ok runs fell into two levels, 41.0 ms over
// runs 1-5 (repeats 1-5; 38.0 ms to 44.0 ms), then 56.2 ms over runs 6-10 (...); moved with it:
// others' CPU 0 µs -> 30.0 ms; steady: user, system, ...". Throws iobench::Error for a malformed
// header.
std::vector<std::string> two_level_warnings(std::string_view run_file_text,
                                            const std::string& name);

// The lines to print, as DESIGN's rule for warnings says: the first `named` of `lines`, then one
// that counts the rest and says where all are ("... and 3 more cells fell into two levels; all
// in results/meta/x.json"). Every line stays in the run record.
std::vector<std::string> name_a_few(const std::vector<std::string>& lines, std::size_t named,
                                    const std::string& all_in);

}  // namespace iobench::report
