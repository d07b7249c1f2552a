#include "driver/run/run_gate.hpp"

#include <iostream>

#include "driver/report/gate_output.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::run {

void decide_for_gate(config::Config& config, double fail_if_slower_pct) {
  config.decide = true;
  const nlohmann::ordered_json written = config.as_written.tree();
  const bool margin_given = written.is_object() && written.contains("decide_margin_pct");
  if (!margin_given && fail_if_slower_pct > 0 && fail_if_slower_pct < 100)
    config.decide_margin_pct = fail_if_slower_pct;
}

int report_comparisons(const RunResult& result, const config::Config& config,
                       const RunGateOptions& options, std::ostream& out) {
  if (!result.written || (!options.twins && !options.fail_if_slower_pct)) return result.exit_code;
  runfile::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  const runfile::RunSet set = runfile::group_written_run(*result.written, read);
  const report::VersusReference versus =
      options.twins
          ? report::compare_with_base_twins(set, result.rule_decisions)
          : report::compare_with_reference(set, config.baseline, {}, result.rule_decisions);
  if (options.twins) {
    out << '\n';
    report::write_versus_reference(versus, out, report::VersusStyle{});
    out.flush();
  }
  if (!options.fail_if_slower_pct) return result.exit_code;
  const report::Gate gate = report::fail_if_slower(versus, *options.fail_if_slower_pct,
                                                   {"iobench run", "test", "--repeats"});
  const int exit_code = report::finish_gate(gate, result.exit_code, std::cerr);
  if (options.gate_format) {
    report::write_gate(gate, *options.gate_format, out);
    out.flush();
  }
  return exit_code;
}

}  // namespace iobench::run
