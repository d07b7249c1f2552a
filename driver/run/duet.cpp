#include "driver/run/duet.hpp"

#include <fmt/core.h>
#include <sched.h>

#include <vector>

namespace iobench::run {

std::optional<std::array<int, 2>> duet_cpus_among(std::span<const int> allowed) {
  if (allowed.size() < 2) return std::nullopt;
  return std::array<int, 2>{allowed[0], allowed[1]};
}

std::vector<int> allowed_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(static_cast<std::size_t>(cpu), &allowed)) cpus.push_back(cpu);
  }
  return cpus;
}

std::unique_ptr<DuetPartner> DuetPartner::for_config(const config::Config& config,
                                                     std::string& warning) {
  if (config.order != config::RunOrder::kDuet) return nullptr;
  const std::vector<int> allowed = allowed_cpus();
  const auto cpus = duet_cpus_among(allowed);
  if (!cpus) {
    warning = fmt::format(
        "order duet needs two CPUs and iobench may run on {}: the runs go one at a time, "
        "interleaved",
        allowed.size());
    return nullptr;
  }
  return std::make_unique<DuetPartner>(*cpus, spawn::spawner_beside_self());
}

DuetPartner::DuetPartner(std::array<int, 2> cpus, const std::string& spawner_executable)
    : cpus_(cpus), spawner_(spawner_executable), launcher_(spawner_) {}

}  // namespace iobench::run
