#include "common/worker_args.hpp"

#include <charconv>
#include <map>

#include "common/size.hpp"

namespace iobench {
namespace {

std::size_t parse_buffer(const std::string& text) {
  std::string error;
  const auto bytes = parse_size(text, &error);
  if (!bytes || *bytes < kWorkerMinBufferBytes || *bytes > kWorkerMaxBufferBytes) {
    throw WorkerUsageError("bad --buffer '" + text +
                           "': expected a size from 16 to 1GiB, as 64KiB" +
                           (error.empty() ? "" : " (" + error + ")"));
  }
  return static_cast<std::size_t>(*bytes);
}

std::size_t parse_threads(const std::string& text) {
  const std::size_t threads = parse_worker_count(text, "--threads");
  if (threads > kWorkerMaxThreads) {
    throw WorkerUsageError("bad --threads " + std::to_string(threads) + ": at most " +
                           std::to_string(kWorkerMaxThreads));
  }
  return threads;
}

PipeSize parse_pipe_size(const std::string& text) {
  if (text == "default") return {PipeSize::Kind::kDefault, 0};
  if (text == "max") return {PipeSize::Kind::kMax, 0};
  const auto bytes = parse_size(text);
  if (!bytes || *bytes == 0 || *bytes > kWorkerMaxBufferBytes) {
    throw WorkerUsageError("bad --pipe-size '" + text + "': expected default, max or a size");
  }
  return {PipeSize::Kind::kBytes, static_cast<std::size_t>(*bytes)};
}

// "field:2" is the op "field" with its argument "2"; "field:" keeps ":" so that the check of the
// op's argument refuses it rather than taking it for no argument.
void set_op(WorkerArgs& o, const std::string& value) {
  const std::size_t colon = value.find(':');
  o.op = value.substr(0, colon);
  o.op_arg = colon == std::string::npos ? "" : value.substr(colon + 1);
  if (colon != std::string::npos && o.op_arg.empty()) o.op_arg = ":";
}

void apply_option(WorkerArgs& o, const WorkerArg& arg) {
  const std::string_view name = arg.option->name;
  const std::string& value = arg.value;
  if (name == "--list") {
    o.list = true;
  } else if (name == "--verbose") {
    o.verbose = true;
  } else if (name == "--help") {
    throw WorkerUsageError(std::string(kWorkerUsage));
  } else if (name == "--read") {
    o.reader = value;
  } else if (name == "--write") {
    o.writer = value;
  } else if (name == "--op") {
    set_op(o, value);
  } else if (name == "--buffer") {
    o.buffer_bytes = parse_buffer(value);
  } else if (name == "--threads") {
    o.threads = parse_threads(value);
  } else if (name == "--pipe-size") {
    o.pipe_size = parse_pipe_size(value);
  } else if (name == "--outputs") {
    o.outputs = parse_worker_count(value, "--outputs");
  } else if (name == "--prefix") {
    o.prefix = value;
  } else if (name == "--compress") {
    o.compress = value;
  } else if (name == "--decompress") {
    o.decompress = value;
  }
}

}  // namespace

const WorkerOption* find_worker_option(std::string_view name) noexcept {
  for (const WorkerOption& option : kWorkerOptions) {
    if (name == option.name || (!option.short_name.empty() && name == option.short_name)) {
      return &option;
    }
  }
  return nullptr;
}

std::vector<WorkerArg> split_worker_args(const std::vector<std::string>& args) {
  std::vector<WorkerArg> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    WorkerArg arg;
    arg.text = args[i];
    arg.name = args[i];
    bool inline_value = false;
    if (arg.name.starts_with("--")) {
      if (const std::size_t eq = arg.name.find('='); eq != std::string::npos) {
        arg.value = arg.name.substr(eq + 1);
        arg.name.resize(eq);
        inline_value = true;
      }
    }
    arg.option = find_worker_option(arg.name);
    if (arg.option != nullptr && arg.option->takes_value && !inline_value) {
      if (i + 1 < args.size()) {
        arg.value = args[++i];
      } else {
        arg.value_missing = true;
      }
    }
    out.push_back(std::move(arg));
  }
  return out;
}

std::size_t parse_worker_count(std::string_view text, std::string_view what) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) {
    throw WorkerUsageError("bad " + std::string(what) + " '" + std::string(text) +
                           "': expected a positive integer");
  }
  return value;
}

WorkerArgs parse_worker_args(const std::vector<std::string>& args) {
  WorkerArgs o;
  bool have_input = false;
  for (const WorkerArg& arg : split_worker_args(args)) {
    if (arg.value_missing) throw WorkerUsageError(arg.name + " needs a value");
    if (arg.option != nullptr) {
      apply_option(o, arg);
    } else if (arg.is_word()) {
      if (have_input) {
        throw WorkerUsageError("more than one input ('" + o.input + "', '" + arg.name + "')");
      }
      o.input = arg.name;
      have_input = true;
    } else {
      throw WorkerUsageError("unknown option '" + arg.name + "'; " + std::string(kWorkerUsage));
    }
  }
  return o;
}

WorkerCommandLine::WorkerCommandLine(const std::vector<std::string>& args)
    : args_(split_worker_args(args)) {}

std::optional<std::string> WorkerCommandLine::value_of(std::string_view option) const {
  std::optional<std::string> value;
  for (const WorkerArg& arg : args_) {
    if (arg.option != nullptr && arg.option->name == option) value = arg.value;
  }
  return value;
}

bool WorkerCommandLine::gives(std::string_view option) const {
  for (const WorkerArg& arg : args_) {
    if (arg.option != nullptr && arg.option->name == option) return true;
  }
  return false;
}

std::string WorkerCommandLine::op_name() const {
  const std::string op = value_of("--op").value_or("copy");
  return op.substr(0, op.find(':'));
}

std::vector<NamedWorkerUnit> WorkerCommandLine::named_units() const {
  std::vector<NamedWorkerUnit> units;
  for (const WorkerArg& arg : args_) {
    if (arg.option == nullptr || arg.option->unit_kind.empty()) continue;
    const bool op = arg.option->unit_kind == "op";
    units.push_back(NamedWorkerUnit{arg.option->unit_kind, arg.option->name, arg.value,
                                    op ? arg.value.substr(0, arg.value.find(':')) : arg.value});
  }
  return units;
}

std::string WorkerCommandLine::output_class() const {
  std::map<std::string_view, std::string> kept;  // option -> value, in a fixed (sorted) order
  std::vector<std::string> others;               // flags and words, as written
  for (const WorkerArg& arg : args_) {
    if (arg.option == nullptr || !arg.option->takes_value) {
      if (arg.option == nullptr || arg.option->changes_output) others.push_back(arg.text);
    } else if (arg.option->changes_output) {
      kept[arg.option->name] = arg.value;
    }
  }
  if (kept["--op"].empty()) kept["--op"] = "copy";
  if (kept.size() == 1 && kept["--op"] == "copy" && others.empty()) return "copy";
  std::string joined = "worker";
  for (const auto& [name, value] : kept) joined += " " + std::string(name) + " " + value;
  for (const auto& arg : others) joined += " " + arg;
  return joined;
}

}  // namespace iobench
