#pragma once
// A file's identity in the history: the hex XXH3-128 of its bytes, for a run file (RunFile::hash)
// and an imported result file alike, so the same file added twice is stored once.
#include <string>
#include <string_view>

namespace iobench::runfile {

std::string file_hash(std::string_view bytes);

}  // namespace iobench::runfile
