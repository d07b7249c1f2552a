#pragma once
// The report's part about where the figures come from (docs/reports.md, "The HTML report"): per
// run file, the machine and build, the provenance, the schedule and counters as its run record
// (the meta file, runfile::RunMeta) holds them, then the config that ran and the command that
// runs it again.
#include <string>

#include "driver/report/html_model.hpp"

namespace iobench::report {

// `iobench run CONFIG [--filter R] [--repeats N] [--shard K/N]`, made from the record's config
// file and options; empty when the record has no config (a merged file).
std::string reproduce_command(const runfile::RunMeta& meta);

// The section "Machine and provenance" (id "record") and the section "Config" (id "config").
std::string render_records(const ReportModel& model);
std::string render_configs(const ReportModel& model);

}  // namespace iobench::report
