#pragma once
// `iobench merge`: joins the run files of the shards of one matrix (docs/distributed.md). Each
// shard's meta file (results/meta/<stem>.json beside the run file) holds a "matrix" block written
// by `iobench run`: the matrix hash, the shard K/N, the repeats and every cell of the unsharded
// matrix. From it the merge proves that the files are of one matrix, that every shard is there
// once, and that every (cell, repeat) appears exactly once.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/runfile/meta.hpp"

namespace iobench::runfile {

struct MergedShards {
  // One line each: a missing shard, a duplicate, a foreign file, a missing or extra row.
  // Nothing may be written while this is not empty.
  std::vector<std::string> problems;
  std::string runs_text;           // the merged run file: the header once, then every row
  std::size_t rows = 0;            // data rows in runs_text
  RunMeta meta;                    // the merged run's record (matrix, shards, hosts, config)
  std::string baseline;            // the config's baseline, for the medians' `relative`
  std::vector<std::string> hosts;  // distinct hosts, in order of first appearance
};

// Reads the shards' run and meta files and checks them. Throws iobench::Error (exit 2) only for
// a run file that cannot be read at all; everything else is a problem line.
MergedShards merge_shards(const std::vector<std::filesystem::path>& runs_files);

}  // namespace iobench::runfile
