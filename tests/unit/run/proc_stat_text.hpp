#pragma once
// A /proc/stat text for the disturbance tests: two CPUs, the aggregate line's user, system, idle
// and steal as given (user nice system idle iowait irq softirq steal guest guest_nice).
#include <string>

namespace iobench::run::test {

inline std::string proc_stat(unsigned user, unsigned system, unsigned idle, unsigned steal = 0) {
  return "cpu  " + std::to_string(user) + " 0 " + std::to_string(system) + " " +
         std::to_string(idle) + " 0 0 0 " + std::to_string(steal) +
         " 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 1 2 3\n";
}

}  // namespace iobench::run::test
