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

std::string auto_order_interleaves_because(const config::Config& config, std::size_t allowed_cpus) {
  if (allowed_cpus < 2)
    return fmt::format("iobench may run on {} CPU{}", allowed_cpus, allowed_cpus == 1 ? "" : "s");
  if (!config.cpus.empty()) return "the config pins the runs (\"cpus\")";
  if (config.cache == config::CacheMode::kCold) return "the cache is cold";
  if (config.disturbance == config::DisturbanceMode::kOff)
    return "disturbance is off, so a pair kept from a CPU would not be seen";
  return {};
}

DuetChoice DuetPartner::for_config(const config::Config& config) {
  DuetChoice choice;
  if (config.order != config::RunOrder::kDuet && config.order != config::RunOrder::kAuto)
    return choice;
  const std::vector<int> allowed = allowed_cpus();
  const auto cpus = duet_cpus_among(allowed);
  if (config.order == config::RunOrder::kAuto) {
    const std::string because = auto_order_interleaves_because(config, allowed.size());
    if (!because.empty()) {
      choice.note = fmt::format("order auto: one run at a time, interleaved, as {}", because);
      return choice;
    }
    choice.note = fmt::format(
        "order auto: a duet, each pair at the same moment on CPUs {} and {} (until pairs keep "
        "being left out)",
        (*cpus)[0], (*cpus)[1]);
  } else if (!cpus) {
    choice.warning = fmt::format(
        "order duet needs two CPUs and iobench may run on {}: the runs go one at a time, "
        "interleaved",
        allowed.size());
    return choice;
  }
  choice.partner = std::make_unique<DuetPartner>(*cpus, spawn::spawner_beside_self());
  return choice;
}

DuetPartner::DuetPartner(std::array<int, 2> cpus, const std::string& spawner_executable)
    : cpus_(cpus), spawner_(spawner_executable), launcher_(spawner_) {}

}  // namespace iobench::run
