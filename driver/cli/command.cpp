#include "driver/cli/command.hpp"

#include <memory>
#include <utility>

namespace iobench::cli {
namespace {

// CLI11 prints a command's description first in its help; this adds the examples after it.
// Subcommands created later inherit the formatter, so it checks whose help it is making.
class ExamplesFirstFormatter : public CLI::Formatter {
 public:
  ExamplesFirstFormatter(const CLI::App* owner, std::string examples)
      : owner_(owner), examples_(std::move(examples)) {}

  std::string make_description(const CLI::App* app) const override {
    std::string description = CLI::Formatter::make_description(app);
    if (app == owner_) description += "\nExamples:\n" + examples_ + "\n";
    return description;
  }

 private:
  const CLI::App* owner_;
  std::string examples_;
};

}  // namespace

std::vector<Command>& command_registry() {
  static std::vector<Command> commands;
  return commands;
}

void show_examples_first(CLI::App& app, std::string examples) {
  app.formatter(std::make_shared<ExamplesFirstFormatter>(&app, std::move(examples)));
}

}  // namespace iobench::cli
