#include "driver/run/burst.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace iobench::run {

std::optional<double> SessionCalm::level_cpus() const {
  if (sorted_cpus_.empty()) return std::nullopt;
  return sorted_cpus_[(sorted_cpus_.size() - 1) / 4];
}

void SessionCalm::add(const RunDisturbance& disturbance, double elapsed_s) {
  if (!disturbance.others_measured || !(elapsed_s > 0)) return;
  // The most others can have run: a figure counted in ticks may be a tick short at either end,
  // and a run of a tick or two reads a steady load as 0 as often as not.
  const double cpus = (disturbance.others_cpu_s + disturbance.resolution_s) / elapsed_s;
  sorted_cpus_.insert(std::upper_bound(sorted_cpus_.begin(), sorted_cpus_.end(), cpus), cpus);
}

double burst_excess_s(const RunDisturbance& disturbance, double elapsed_s, double calm_cpus) {
  return disturbance.others_cpu_s - calm_cpus * elapsed_s - disturbance.resolution_s;
}

bool is_burst(const RunDisturbance& disturbance, double elapsed_s, std::optional<double> calm_cpus,
              double threshold_cpus) {
  if (!calm_cpus || !disturbance.others_measured || !(elapsed_s > 0)) return false;
  return burst_excess_s(disturbance, elapsed_s, *calm_cpus) >
         kBurstFactor * threshold_cpus * elapsed_s;
}

std::string burst_phrase(const RunDisturbance& disturbance, double elapsed_s, double calm_cpus) {
  const auto ms = [](double s) { return milliseconds_text(s, 1); };
  return fmt::format(
      "others ran {} ms of its {} ms ({:.2f} of a CPU), where this session's "
      "calm runs saw {:.2f}",
      ms(disturbance.others_cpu_s), ms(elapsed_s),
      disturbance.others_cpu_s / std::max(elapsed_s, 1e-9), calm_cpus);
}

}  // namespace iobench::run
