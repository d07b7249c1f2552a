#include "driver/cli/command.hpp"

namespace iobench {

std::vector<Command>& command_registry() {
  static std::vector<Command> commands;
  return commands;
}

}  // namespace iobench
