#pragma once
// Each format's importer (one file each), listed by registry.cpp.
#include "driver/importers/importer.hpp"

namespace iobench::importers {

extern const Importer kHyperfine;
extern const Importer kGbench;
extern const Importer kPytestBenchmark;
extern const Importer kBmf;
extern const Importer kCriterion;

}  // namespace iobench::importers
