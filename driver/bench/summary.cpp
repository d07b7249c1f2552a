#include "driver/bench/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "driver/report/export.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using report::format_time;
using report::TimeUnit;

std::string environment_line(const runfile::RunMeta& meta) {
  std::vector<std::string> parts;
  if (meta.context) {
    parts.push_back(
        fmt::format("CPU {} ({} online)", meta.context->cpu_model, meta.context->cpus_online));
    const std::string& governor = meta.context->cpu_governor;
    if (!governor.empty() && !governor.starts_with("unknown")) {
      parts.push_back("governor " + governor);
    }
  }
  if (meta.provenance) {
    const auto& load = meta.provenance->load_average_start;
    const auto& busy = meta.provenance->busy_cpus_start;
    parts.push_back(load ? fmt::format("load {:.2f}", *load) : "load unknown");
    parts.push_back(busy ? fmt::format("busy CPUs {:.2f}", *busy) : "busy CPUs not measured");
  }
  const bool has_input = meta.config.is_object() && meta.config.contains("inputs");
  parts.push_back("cache " + meta.cache_mode() + (has_input ? "" : " (no input)"));
  std::vector<std::string> sinks{"pipe"};  // the config's default
  if (meta.config.is_object() && meta.config.contains("sinks")) {
    sinks = meta.config["sinks"].get<std::vector<std::string>>();
  }
  parts.push_back(fmt::format("sink {}", fmt::join(sinks, ", ")));
  return fmt::format("Environment: {}", fmt::join(parts, ", "));
}

void write_shell_corrected(const runfile::RunSet& corrected, const runfile::ShellStartup& startup,
                           TimeUnit unit, std::ostream& out) {
  out << fmt::format(
      "Shell start-up subtracted: {} took {} elapsed, {} user, {} system (medians of {} runs, "
      "spawned as the commands are; the raw figures are above and in the runs file):\n",
      util::join_argv(startup.command), format_time(startup.elapsed_s, unit),
      format_time(startup.user_s, unit), format_time(startup.system_s, unit), startup.runs);
  const std::size_t input_key = corrected.key_index("input");
  const bool with_input =
      std::any_of(corrected.groups.begin(), corrected.groups.end(), [&](const runfile::Group& g) {
        return input_key < g.key.size() && !g.key[input_key].empty();
      });
  report::Table table;
  table.header = {"test"};
  if (with_input) table.header.emplace_back("input");
  table.header.insert(table.header.end(), {"sink", "n", "elapsed", "user", "system"});
  table.numeric.assign(table.header.size(), true);
  table.numeric[0] = false;
  table.numeric[1] = false;
  if (with_input) table.numeric[2] = false;
  const std::size_t sink_key = corrected.key_index("sink");
  for (const runfile::Group& group : corrected.groups) {
    std::vector<std::string> row{group.key[0] +
                                 (group.from_disturbed_runs ? " (every run disturbed)" : "")};
    if (with_input) row.push_back(group.key[input_key]);
    row.push_back(sink_key < group.key.size() ? group.key[sink_key] : "");
    row.push_back(std::to_string(group.ok_count()));
    for (const runfile::Metric m :
         {runfile::Metric::kElapsed, runfile::Metric::kUser, runfile::Metric::kSystem}) {
      row.push_back(group.ok_count() == 0 ? "-"
                                          : format_time(stats::median(group.metric(m)), unit));
    }
    table.rows.push_back(std::move(row));
  }
  report::write_table(table, report::Format::kPretty, out);
}

}  // namespace iobench::bench
