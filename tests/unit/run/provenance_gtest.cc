// The meta file's provenance block (docs/formats.md, "Meta file"): the reference test, the config's
// git commit and dirty flag, the worker binary's hash, the load sampled at start.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "driver/run/provenance.hpp"
#include "tests/unit/missing_package.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStrategies =
    R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}])";

nlohmann::ordered_json provenance_of(const fs::path& config_file, const std::string& fields = "",
                                     const fs::path& worker = "/nonexistent/iobench-worker",
                                     const MachineLoad& load = {}) {
  const config::Config config = config::parse_config(
      R"({"name": "n", "inputs": ["in"], )" + fields + kStrategies + "}", config_file);
  config::PlanOptions options;
  options.worker_path = worker.string();
  return runfile::to_json(
      collect_provenance(config, config::build_plan(config, options), worker, load));
}

// `git -C folder ARGS` through the shell, stdout trimmed of its newline; empty on failure.
std::string git(const fs::path& folder, const std::string& args) {
  const std::string command = "git -C '" + folder.string() + "' " + args + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (::pclose(pipe) != 0) return {};
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool have_git() {
  return std::system("git --version >/dev/null 2>&1") == 0;
}

TEST(Provenance, AConfigInAGitRepositoryRecordsItsCommitAndWhetherItIsDirty) {
  if (!have_git()) IOBENCH_SKIP_FOR_MISSING_PACKAGE("git is not installed");
  const iobench::test::TempDir repo("provenance-git");
  std::ofstream(repo / "n.json") << "{}\n";
  ASSERT_EQ(git(repo.path(), "init -q"), "");
  ASSERT_EQ(git(repo.path(), "add n.json"), "");
  ASSERT_NE(git(repo.path(), "-c user.name=t -c user.email=t@t commit -q -m c && echo done"), "");
  const std::string head = git(repo.path(), "rev-parse HEAD");
  ASSERT_EQ(head.size(), 40U);

  const auto clean = provenance_of(repo / "n.json");
  EXPECT_EQ(clean.at("git_commit"), head);
  EXPECT_EQ(clean.at("git_dirty"), false);

  std::ofstream(repo / "n.json", std::ios::app) << "changed\n";
  const auto dirty = provenance_of(repo / "n.json");
  EXPECT_EQ(dirty.at("git_commit"), head);
  EXPECT_EQ(dirty.at("git_dirty"), true);
}

TEST(Provenance, AConfigOutsideAnyRepositoryHasNoGitFields) {
  // GIT_CEILING_DIRECTORIES is not needed: the temp folder's parents are no repository here;
  // make sure of it rather than assume.
  const iobench::test::TempDir outside("provenance-nogit");
  if (have_git()) {
    ASSERT_EQ(git(outside.path(), "rev-parse HEAD"), "");
  }
  const auto provenance = provenance_of(outside / "n.json");
  EXPECT_FALSE(provenance.contains("git_commit"));
  EXPECT_FALSE(provenance.contains("git_dirty"));
}

TEST(Provenance, TheReferenceTestIsTheBaselineOrTheFastest) {
  const iobench::test::TempDir dir("provenance-reference");
  EXPECT_EQ(provenance_of(dir / "n.json", R"("baseline": "b", )").at("reference_test"), "b");
  EXPECT_EQ(provenance_of(dir / "n.json").at("reference_test"),
            "the fastest test of each input and sink");
}

TEST(Provenance, TheWorkerHashIsTheFilesXxh3AndNullWithoutAWorker) {
  const iobench::test::TempDir dir("provenance-worker");
  const fs::path worker = dir / "iobench-worker";
  const std::string bytes = "not really an ELF file\n";
  std::ofstream(worker, std::ios::binary) << bytes;
  char expected[17];
  std::snprintf(expected, sizeof expected, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));

  const auto with_worker = provenance_of(dir / "n.json", "", worker);
  EXPECT_EQ(with_worker.at("worker").at("path"), worker.string());
  EXPECT_EQ(with_worker.at("worker").at("xxh3"), expected);
  EXPECT_TRUE(with_worker.at("worker").at("build").is_string());

  const auto missing = provenance_of(dir / "n.json", "", dir / "missing-worker");
  EXPECT_TRUE(missing.at("worker").at("xxh3").is_null());
}

TEST(Provenance, TheLoadAtStartIsTheSampleGivenOrNull) {
  const iobench::test::TempDir dir("provenance-load");
  MachineLoad load;
  load.load_average_1min = 3.5;
  load.busy_cpus = 0.25;
  const auto sampled = provenance_of(dir / "n.json", "", "/nonexistent", load);
  EXPECT_EQ(sampled.at("load_average_start"), 3.5);
  EXPECT_EQ(sampled.at("busy_cpus_start"), 0.25);
  EXPECT_TRUE(sampled.at("root").is_boolean());
  const auto unknown = provenance_of(dir / "n.json");
  EXPECT_TRUE(unknown.at("load_average_start").is_null());
  EXPECT_TRUE(unknown.at("busy_cpus_start").is_null());
}

}  // namespace
}  // namespace iobench::run
