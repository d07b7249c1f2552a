#pragma once
// The provenance of a run that the history keeps, shared by what `history add` reads
// (RunMetaFacts) and what the store holds (StoredRun).
#include "driver/history/runs_table.hpp"

namespace iobench::history {

// What a run's meta file (or an imported result file) says of where and how it was measured that
// the history keeps: the runs table's PROVENANCE lines (runs_table.hpp), each a member here and a
// column there.
struct RunProvenance {
  IOBENCH_RUNS_TABLE(IOBENCH_RUNS_PROVENANCE_MEMBER)
};

}  // namespace iobench::history
