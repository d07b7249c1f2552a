#pragma once
// Bursts: others ran far more during a run than in the calm of its session (docs/driver.md,
// "Disturbance", "Bursts"). A steady load is the same for every run of a session, and the
// comparisons cancel it; a burst that leaves the run its CPU still slows it (bench-noise's pinned
// bursts: copies of 56 ms took 72 ms while a burst overlapped them) and falls on some runs only.
// So a run is judged against its session's calm level: the 25th percentile of the most others can
// have run per second over the session's measured runs so far (their figure plus its resolution),
// which a steady load raises and bursts on half the runs do not. The upper bound, not the figure:
// others are counted in 4 ms ticks, so a steady busy loop reads as 0 in many runs of 2-5 ms,
// and a calm level of 0 then condemned every run that read two ticks.
#include <optional>
#include <string>
#include <vector>

#include "driver/run/disturbance.hpp"

namespace iobench::run {

// The session's measured runs so far, as others' CPU per second of each (others_cpu_s / elapsed).
class SessionCalm {
 public:
  // Its 25th percentile (the lower of the two order statistics around it), in CPUs; empty
  // before any run whose others were measured.
  [[nodiscard]] std::optional<double> level_cpus() const;
  // Counts a run whose others were measured (others_measured) and whose elapsed time is above 0,
  // by (others_cpu_s + resolution_s) / elapsed.
  void add(const RunDisturbance& disturbance, double elapsed_s);

 private:
  std::vector<double> sorted_cpus_;
};

// The burst rule's threshold in CPUs beyond the calm level: twice the wait rule's
// (disturbance_threshold_cpus), so 0.2 by default: over the quiet and steadily loaded runs that
// bench-load kept, 8 of 4,357 runs went past it, and half of bench-noise's burst runs.
inline constexpr double kBurstFactor = 2.0;

// Others' CPU time during the run beyond the calm level, less the figure's resolution.
double burst_excess_s(const RunDisturbance& disturbance, double elapsed_s, double calm_cpus);

// Others ran more than kBurstFactor × threshold_cpus beyond the calm level over the run's
// elapsed time. Never without a calm level or a measured figure of others.
bool is_burst(const RunDisturbance& disturbance, double elapsed_s, std::optional<double> calm_cpus,
              double threshold_cpus);

// "others ran 55.3 ms of its 57.0 ms (0.97 of a CPU), where this session's calm runs saw 0.02"
std::string burst_phrase(const RunDisturbance& disturbance, double elapsed_s, double calm_cpus);

}  // namespace iobench::run
