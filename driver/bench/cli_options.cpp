#include "driver/bench/cli_options.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "driver/bench/options.hpp"

namespace iobench::bench {
namespace {

using Kind = bench::BenchOptionKind;

CLI::Option* add_flag(CLI::App& sub, bench::BenchRequest& request,
                      const bench::BenchOption& option) {
  if (option.kind == Kind::kFlag)
    return sub.add_flag(option.names, request.*std::get<bool bench::BenchRequest::*>(option.field),
                        option.help);
  if (option.kind == Kind::kFlagOff) {
    bool bench::BenchRequest::*field = std::get<bool bench::BenchRequest::*>(option.field);
    return sub.add_flag(
        option.names, [&request, field](std::int64_t) { request.*field = false; }, option.help);
  }
  std::string bench::BenchRequest::*field =
      std::get<std::string bench::BenchRequest::*>(option.field);
  const std::string text = option.flag_text;
  // CLI11 sets a text flag alone to "true" (flag_text), and --name=VALUE to VALUE.
  if (option.kind == Kind::kFlagOrText)
    return sub.add_flag(option.names, request.*field, option.help);
  return sub.add_flag(
      option.names, [&request, field, text](std::int64_t) { request.*field = text; }, option.help);
}

void add_one(CLI::App& sub, bench::BenchRequest& request, const bench::BenchOption& option) {
  if (option.kind == Kind::kFlag || option.kind == Kind::kFlagOff ||
      option.kind == Kind::kFlagText || option.kind == Kind::kFlagOrText) {
    add_flag(sub, request, option);
    return;
  }
  bool is_list = false;
  CLI::Option* added = std::visit(
      [&](auto field) {
        is_list = std::is_same_v<std::decay_t<decltype(request.*field)>, std::vector<std::string>>;
        return sub.add_option(option.names, request.*field, option.help);
      },
      option.field);
  if (option.kind == Kind::kPositional) {
    added->required();
    return;
  }
  if (option.words > 1) added->expected(option.words);
  if (option.delimiter != 0) added->delimiter(option.delimiter);
  // One value an occurrence: the words after it are the commands.
  if (is_list) added->allow_extra_args(false);
  if (option.shows_default) added->capture_default_str();
  if (option.choices != nullptr) added->check(CLI::IsMember(option.choices()));
}

}  // namespace

void add_bench_request_options(CLI::App& sub, bench::BenchRequest& request) {
  for (const bench::BenchOption& option : bench::bench_options()) add_one(sub, request, option);
}

}  // namespace iobench::bench
