#include "driver/history/series.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace iobench::history {

using ConfigJson = nlohmann::json;
using runfile::strategies_of;

std::string SeriesKey::conditions() const {
  if (!tool.empty()) return fmt::format("({} {})", tool, sink);
  if (input.empty()) return fmt::format("({})", sink);
  return fmt::format("({}, {})", input, sink);
}

std::string SeriesKey::hash() const {
  const std::string joined =
      fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", test, sink, cache_mode, counters,
                  definition_hash, verified ? 1 : 0, input_identity, host_class);
  if (tool.empty()) return hex_hash64(joined);  // a native series keeps its hash
  return hex_hash64(fmt::format("{}\x1f{}\x1f{}\x1f{}", joined, tool, unit, direction));
}

std::string kernel_series(std::string_view kernel) {
  // "Linux 6.1.0-18-amd64": the first two dot-separated numbers of the release.
  const std::size_t release = kernel.find_first_of("0123456789");
  if (release == std::string_view::npos) return std::string(kernel);
  const std::size_t first_dot = kernel.find('.', release);
  if (first_dot == std::string_view::npos) return std::string(kernel);
  std::size_t end = first_dot + 1;
  while (end < kernel.size() && kernel[end] >= '0' && kernel[end] <= '9') ++end;
  return std::string(kernel.substr(0, end));
}

std::int64_t memory_class_gib(std::int64_t memory_kib) {
  constexpr std::int64_t kKibPerGib = 1024 * 1024;
  return std::max<std::int64_t>(1, (memory_kib + kKibPerGib - 1) / kKibPerGib);
}

std::string host_class_of(const RunMetaFacts& facts) {
  return fmt::format(
      "{} | {} CPUs | memory {} | {} | {}", facts.cpu_model.empty() ? "?" : facts.cpu_model,
      facts.cpus_online ? std::to_string(*facts.cpus_online) : "?",
      facts.memory_kib ? fmt::format("{} GiB", memory_class_gib(*facts.memory_kib)) : "?",
      facts.kernel.empty() ? "?" : kernel_series(facts.kernel),
      facts.machine.empty() ? "?" : facts.machine);
}

std::string definition_of(const ConfigJson& config, std::string_view test) {
  ConfigJson definition = ConfigJson::object();
  definition["test"] = test;
  if (const auto index = strategy_for_test(config, test)) {
    ConfigJson strategy = strategies_of(config)[*index];
    strategy.erase("name");
    strategy.erase("description");
    definition["strategy"] = strategy;
  }
  for (const char* key : {"cpus", "pipe_size", "drain"}) {
    if (const auto it = config.find(key); it != config.end()) definition[key] = *it;
  }
  return definition.dump();  // nlohmann::json sorts object keys: one text per definition
}

std::string input_identity_of(const ConfigJson& config, const std::filesystem::path& config_file,
                              std::string_view input) {
  const auto inputs = config.find("inputs");
  const ConfigJson* match = nullptr;
  if (inputs != config.end() && inputs->is_array()) {
    const std::filesystem::path row_path(input);
    const ConfigJson* by_name = nullptr;
    std::size_t same_name = 0;
    for (const auto& entry : *inputs) {
      const std::string written =
          entry.is_string() ? entry.get<std::string>() : entry.value("path", std::string());
      const std::filesystem::path resolved =
          std::filesystem::path(written).is_absolute()
              ? std::filesystem::path(written)
              : (config_file.parent_path() / written).lexically_normal();
      if (written == input || resolved == row_path) {
        match = &entry;
        break;
      }
      if (std::filesystem::path(written).filename() == row_path.filename()) {
        by_name = &entry;
        ++same_name;
      }
    }
    if (match == nullptr && same_name == 1) match = by_name;
  }
  if (match != nullptr && match->is_object()) {
    if (const auto generate = match->find("generate"); generate != match->end()) {
      return "generate:" + generate->dump();
    }
    ConfigJson recorded = ConfigJson::object();
    for (const char* key : {"size_bytes", "xxh3"}) {
      if (const auto it = match->find(key); it != match->end()) recorded[key] = *it;
    }
    if (!recorded.empty()) return fmt::format("path:{} {}", input, recorded.dump());
  }
  return fmt::format("path:{}", input);
}

SeriesIdentity::SeriesIdentity(const RunMetaFacts& facts, std::string counters, ConfigMemo* memo)
    : config_(facts.config),
      config_file_(facts.config_file),
      cache_mode_(facts.cache_mode),
      counters_(std::move(counters)),
      host_class_(host_class_of(facts)),
      config_facts_(memo != nullptr ? &(*memo)[facts.config_fingerprint] : &own_) {}

std::string SeriesIdentity::context_of(const RunMetaFacts& facts, std::string_view counters) {
  return fmt::format("{}\x1f{}\x1f{}\x1f{}", facts.config_fingerprint, facts.cache_mode, counters,
                     host_class_of(facts));
}

const SeriesIdentity::Cell& SeriesIdentity::cell(std::string_view test, std::string_view input,
                                                 std::string_view sink) {
  probe_.clear();
  probe_.append(test).append(1, '\x1f').append(input).append(1, '\x1f').append(sink);
  const auto found = cells_.find(probe_);
  if (found != cells_.end()) return found->second;
  auto test_facts = config_facts_->tests.find(std::string(test));
  if (test_facts == config_facts_->tests.end()) {
    ConfigFacts::Test made{hex_hash64(definition_of(config_, test)), is_verified(config_, test)};
    test_facts = config_facts_->tests.emplace(std::string(test), std::move(made)).first;
  }
  auto identity = config_facts_->input_identities.find(std::string(input));
  if (identity == config_facts_->input_identities.end()) {
    identity = config_facts_->input_identities
                   .emplace(std::string(input), input_identity_of(config_, config_file_, input))
                   .first;
  }
  Cell made;
  SeriesKey& key = made.key;
  key.test = test;
  key.input = input;
  key.sink = sink;
  key.cache_mode = cache_mode_;
  key.counters = counters_;
  key.definition_hash = test_facts->second.definition_hash;
  key.verified = test_facts->second.verified;
  key.input_identity = identity->second;
  key.host_class = host_class_;
  made.hash = key.hash();
  return cells_.emplace(probe_, std::move(made)).first->second;
}

}  // namespace iobench::history
