#include "driver/report/html_record.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <utility>

#include "driver/report/html.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

template <typename T>
std::string or_empty(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : std::string();
}

std::string yes_no(bool value) {
  return value ? "yes" : "no";
}

using Json = nlohmann::ordered_json;

std::string scalar_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A value on one line, with a space after each comma and colon.
std::string one_line(const Json& value) {
  std::vector<std::string> parts;
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      parts.push_back(scalar_text(Json(key)) + ": " + one_line(item));
    }
    return fmt::format("{{{}}}", fmt::join(parts, ", "));
  }
  if (value.is_array()) {
    for (const auto& item : value) parts.push_back(one_line(item));
    return fmt::format("[{}]", fmt::join(parts, ", "));
  }
  return scalar_text(value);
}

// The config as a person writes one: a top-level key a line, and each strategy or input (an
// array's objects) on a line of its own.
std::string config_text(const Json& config) {
  if (!config.is_object()) return one_line(config);
  std::vector<std::string> lines;
  for (const auto& [key, value] : config.items()) {
    std::string line = "  " + scalar_text(Json(key)) + ": ";
    const bool of_objects = value.is_array() && !value.empty() && value.front().is_object();
    if (!of_objects) {
      lines.push_back(line + one_line(value));
      continue;
    }
    std::vector<std::string> items;
    for (const auto& item : value) items.push_back("    " + one_line(item));
    lines.push_back(fmt::format("{}[\n{}\n  ]", line, fmt::join(items, ",\n")));
  }
  return fmt::format("{{\n{}\n}}", fmt::join(lines, ",\n"));
}

Pairs machine_pairs(const runfile::MachineContext& c) {
  return {{"date (UTC)", c.date},
          {"host", c.host},
          {"kernel", c.kernel + (c.kernel_version.empty() ? "" : " (" + c.kernel_version + ")")},
          {"machine", c.machine},
          {"CPU", c.cpu_model},
          {"CPUs online", std::to_string(c.cpus_online)},
          {"CPU governor", c.cpu_governor},
          {"pipe max size",
           c.pipe_max_size_bytes ? fmt::format("{} bytes", *c.pipe_max_size_bytes) : std::string()},
          {"iobench build", c.build},
          {"iobench version", c.iobench_version},
          {"iobench commit", c.git_commit.value_or("")}};
}

Pairs provenance_pairs(const runfile::RunMeta& meta) {
  Pairs pairs;
  if (const auto& p = meta.provenance) {
    pairs.emplace_back("reference test", p->reference_test);
    if (p->git_commit) {
      pairs.emplace_back("config's commit",
                         *p->git_commit + (p->git_dirty.value_or(false) ? " (dirty)" : ""));
    }
    if (p->worker) {
      pairs.emplace_back(
          "worker",
          p->worker->path + (p->worker->build.empty() ? "" : " (" + p->worker->build + ")"));
      pairs.emplace_back("worker xxh3", p->worker->xxh3.value_or(""));
    }
    pairs.emplace_back(
        "load average at start / end",
        fmt::format("{} / {}", p->load_average_start ? or_empty(p->load_average_start) : "-",
                    p->load_average_end ? or_empty(p->load_average_end) : "-"));
    pairs.emplace_back("busy CPUs (others) at start",
                       p->busy_cpus_start ? fmt::format("{:.2f}", *p->busy_cpus_start) : "-");
    pairs.emplace_back("ran as root", yes_no(p->root));
  }
  if (meta.drop_caches_available) {
    pairs.emplace_back("drop_caches available", yes_no(*meta.drop_caches_available));
  }
  return pairs;
}

Pairs run_pairs(const RunRecord& record) {
  const runfile::RunMeta& meta = *record.meta;
  Pairs pairs{{"run file", record.runs_file}, {"meta format", std::to_string(meta.format_version)}};
  if (meta.rows) pairs.emplace_back("rows", std::to_string(*meta.rows));
  if (meta.end) {
    pairs.emplace_back("finished", yes_no(meta.end->finished));
    pairs.emplace_back("runs saved by the precision target",
                       std::to_string(meta.end->runs_saved_by_ci_pct));
    pairs.emplace_back("pipe size given",
                       meta.end->pipe_size_given_bytes
                           ? fmt::format("{} bytes", *meta.end->pipe_size_given_bytes)
                           : "");
  }
  if (const auto& o = meta.options) {
    pairs.emplace_back(
        "repeats", o->ci_pct.value_or(0) > 0
                       ? fmt::format("{} to {}, until the median is within {} %",
                                     o->repeats_min.value_or(o->repeats), o->repeats, *o->ci_pct)
                       : std::to_string(o->repeats));
    pairs.emplace_back("order", fmt::format("{} (seed {})", o->order, o->seed));
    pairs.emplace_back("filter", o->filter);
    pairs.emplace_back("shard", o->shard.text());
    if (o->disturbance) {
      // docs/driver.md, "Disturbance": the rule every row's status was judged by.
      pairs.emplace_back(
          "disturbance",
          *o->disturbance == "off"
              ? std::string("off: no run was judged (the figures were recorded)")
              : fmt::format("{}: a run whose own processes waited for a CPU more than {} of a "
                            "CPU over it; measured for {}",
                            *o->disturbance, o->disturbance_threshold_cpus.value_or(0),
                            o->disturbance_wait_scope.value_or("?")));
    }
  }
  if (meta.matrix) {
    pairs.emplace_back(
        "matrix", fmt::format("{} cells, hash {}", meta.matrix->cells.size(), meta.matrix->hash));
  }
  if (meta.schedule) {
    pairs.emplace_back("schedule", fmt::format("{} runs planned (verification, warmup, measured)",
                                               meta.schedule->runs.size()));
  }
  if (meta.counters) {
    pairs.emplace_back("counters counted",
                       fmt::format("{}", fmt::join(meta.counters->counted, ", ")));
  }
  for (const auto& shard : meta.merged_from) {
    pairs.emplace_back("merged shard " + shard.shard.text(),
                       fmt::format("{} ({} rows, host {})", shard.file, shard.rows, shard.host));
  }
  return pairs;
}

}  // namespace

std::string reproduce_command(const runfile::RunMeta& meta) {
  if (!meta.config_file || !meta.options) return "";
  const runfile::RunSettings& o = *meta.options;
  std::vector<std::string> argv{"iobench", "run", *meta.config_file};
  if (!o.filter.empty()) argv.insert(argv.end(), {"--filter", o.filter});
  // --repeats N replaced the config's repeats (5 when it has none) with exactly N
  // (docs/formats.md, "Config").
  const nlohmann::ordered_json* repeats = nullptr;
  if (meta.config.is_object() && meta.config.contains("repeats"))
    repeats = &*meta.config.find("repeats");
  const bool overridden = repeats == nullptr             ? o.repeats != 5
                          : repeats->is_number_integer() ? repeats->get<int>() != o.repeats
                          : repeats->is_object()
                              ? o.ci_pct.value_or(0) == 0 && o.fill_s.value_or(0) == 0
                              : false;
  if (overridden) argv.insert(argv.end(), {"--repeats", std::to_string(o.repeats)});
  if (o.shard.count > 1) argv.insert(argv.end(), {"--shard", o.shard.text()});
  std::string command = util::join_argv(argv);
  // The disturbance mode from the environment, where the config does not say it: the run was
  // judged by it, and would not be without it.
  if (o.disturbance && !(meta.config.is_object() && meta.config.contains("disturbance")) &&
      *o.disturbance != "rerun")
    command = "IOBENCH_DISTURBANCE=" + *o.disturbance + " " + command;
  return command;
}

std::string render_records(const ReportModel& model) {
  std::string out = "<section id=\"record\">\n<h2>Machine and provenance</h2>\n";
  for (const RunRecord& record : model.records) {
    out += "<h3>" + util::escape_markup(record.runs_file) + "</h3>\n";
    if (!record.meta) {
      out += "<p class=\"quiet\">" + util::escape_markup(record.problem) + "</p>\n";
      continue;
    }
    out += "<div class=\"record\">";
    out += "<div><h4>Run</h4>" + html::definition_list(run_pairs(record)) + "</div>";
    if (record.meta->context) {
      out += "<div><h4>Machine</h4>" + html::definition_list(machine_pairs(*record.meta->context)) +
             "</div>";
    }
    out += "<div><h4>Provenance</h4>" + html::definition_list(provenance_pairs(*record.meta)) +
           "</div></div>\n";
  }
  return out + "</section>\n";
}

std::string render_configs(const ReportModel& model) {
  std::string out = "<section id=\"config\">\n<h2>Config and the command that runs it again</h2>\n";
  for (const RunRecord& record : model.records) {
    if (!record.meta || record.meta->config.is_null()) continue;
    const runfile::RunMeta& meta = *record.meta;
    out += "<h3>" + util::escape_markup(meta.config_file.value_or(record.runs_file)) + "</h3>\n";
    const std::string command = reproduce_command(meta);
    if (!command.empty()) {
      const bool on_disk = std::filesystem::is_regular_file(*meta.config_file);
      out += "<pre class=\"command\">" + util::escape_markup(command) + "</pre>\n";
      if (!on_disk) {
        out +=
            "<p class=\"quiet\">The config file is not there (a config `iobench bench` made, or "
            "another folder): save the config below under that name first.</p>\n";
      }
    }
    out += "<details open><summary>the config as it ran</summary><pre class=\"config\">" +
           util::escape_markup(config_text(meta.config)) + "</pre></details>\n";
  }
  return out + "</section>\n";
}

}  // namespace iobench::report
