#include "driver/history/run_record.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "driver/runfile/file_hash.hpp"

namespace iobench::history {
namespace {

std::optional<std::string> first_set(const EnvLookup& lookup,
                                     std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* value = lookup(name);
    if (value != nullptr && *value != '\0') return std::string(value);
  }
  return std::nullopt;
}

}  // namespace

Labels resolve_labels(const Labels& given, const EnvLookup& lookup,
                      const std::optional<std::string>& measured_commit) {
  Labels labels;
  labels.commit = given.commit ? given.commit : first_set(lookup, {"GITHUB_SHA", "CI_COMMIT_SHA"});
  if (!labels.commit) labels.commit = measured_commit;
  labels.branch =
      given.branch ? given.branch : first_set(lookup, {"GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"});
  return labels;
}

std::optional<std::string> ci_target_branch(const EnvLookup& lookup) {
  return first_set(lookup,
                   {"GITHUB_BASE_REF", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "CI_DEFAULT_BRANCH"});
}

std::string current_user(const EnvLookup& lookup) {
  if (auto name = first_set(lookup, {"GITHUB_ACTOR", "GITLAB_USER_LOGIN", "USER", "LOGNAME"})) {
    return *name;
  }
  // getpwuid_r: history add reads its files on several threads.
  const uid_t uid = ::geteuid();
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) {
    return found->pw_name;
  }
  return fmt::format("uid {}", uid);
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string run_hash_of(const RunRecord& run) {
  // Each label with its length, or '-' when unknown: no two label pairs give the same text.
  const auto label = [](const std::optional<std::string>& value) {
    return value ? fmt::format("{}:{}", value->size(), *value) : std::string("-");
  };
  return runfile::file_hash(fmt::format("run\x1f{}\x1f{}\x1f{}", run.file.hash,
                                        label(run.labels.commit), label(run.labels.branch)));
}

StoredRun stored_run_of(const RunRecord& run, std::string added_at) {
  StoredRun stored;
  static_cast<RunProvenance&>(stored) = run.facts;
  stored.run_hash = run_hash_of(run);
  stored.added_at = std::move(added_at);
  stored.added_by = run.added_by;
  stored.labels = run.labels;
  stored.runs_file = run.runs_file;
  stored.row_count = static_cast<std::int64_t>(run.file.rows.size());
  stored.tool = run.tool;
  stored.conditions = run.conditions;
  if (!run.tool.empty()) stored.context = run.context;
  return stored;
}

namespace {

RunRecord record_of(std::string runs_file, RunMetaFacts facts, RunFileRows file,
                    const Labels& given, const EnvLookup& lookup) {
  RunRecord record;
  record.runs_file = std::move(runs_file);
  record.facts = std::move(facts);
  record.file = std::move(file);
  if (record.file.rows.empty()) {
    throw Error(fmt::format("{}: no rows to add", record.runs_file));
  }
  record.labels = resolve_labels(given, lookup, record.facts.measured_commit);
  record.added_by = current_user(lookup);
  return record;
}

}  // namespace

RunRecord load_run_record(const std::filesystem::path& runs_file, const Labels& given,
                          const EnvLookup& lookup) {
  RunMetaFacts facts = read_run_meta_facts(runs_file);
  return record_of(runs_file.string(), std::move(facts), read_run_file(runs_file), given, lookup);
}

RunRecord run_record_of(const runfile::WrittenRun& run, const Labels& given,
                        const EnvLookup& lookup) {
  const std::string name = run.runs_file.string();
  if (!run.meta) throw Error(fmt::format("{}: no meta record to add it with", name));
  return record_of(name, facts_from_meta(*run.meta, runfile::meta_path_for(run.runs_file)),
                   parse_run_file(run.text, name), given, lookup);
}

}  // namespace iobench::history
