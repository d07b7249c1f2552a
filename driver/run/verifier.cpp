#include "driver/run/verifier.hpp"

#include <fmt/core.h>

#include "common/error.hpp"

namespace iobench::run {
namespace {

// "test on input"; a run without an input (docs/formats.md "Config") is just its test.
std::string on_input(const std::string& test, const std::string& input) {
  return input.empty() ? test : fmt::format("{} on {}", test, input);
}

}  // namespace

bool Verifier::on_verified_run(const config::Cell& cell, const config::Test& test,
                               const std::string& input_name, const SinkResult& output) {
  const auto class_key = std::make_pair(test.output_class, cell.input);
  auto found = expected_.find(class_key);
  if (found == expected_.end()) {
    std::optional<ExpectedOutput> reference;
    try {
      reference = reference_of_(test.output_class, cell.input);
    } catch (const Error& e) {
      on_unverifiable(cell, test, input_name, e.what());
      return true;
    }
    if (!reference) {
      reference = ExpectedOutput{output.hash, output.bytes.value_or(0), test.name};
    }
    found = expected_.emplace(class_key, *reference).first;
  }
  PairState& pair = pairs_[{cell.test, cell.input}];
  pair.hash = output.hash;
  if (found->second.hash == output.hash) return true;
  pair.mismatch = true;
  warn_(fmt::format("{}: MISMATCH: wrote {} bytes (hash {}), but {} has {} bytes (hash {}); {}",
                    on_input(test.name, input_name), output.bytes.value_or(0), output.hash,
                    found->second.source, found->second.bytes, found->second.hash,
                    mismatch_consequence_));
  return false;
}

void Verifier::on_unverifiable(const config::Cell& cell, const config::Test& test,
                               const std::string& input_name, const std::string& reason) {
  PairState& pair = pairs_[{cell.test, cell.input}];
  pair.unverified_reason = reason;
  warn_(fmt::format("{}: could not be verified ({}); its rows are marked error",
                    on_input(test.name, input_name), reason));
}

void Verifier::check_measured(const config::Cell& cell, const config::Test& test,
                              runfile::RunRow& row, const SinkResult& output) {
  auto it = pairs_.find({cell.test, cell.input});
  if (it == pairs_.end() && cell.verified_by_first_ok_run &&
      row.status == runfile::RunStatus::kOk) {
    on_verified_run(cell, test, row.input, output);
    it = pairs_.find({cell.test, cell.input});
    it->second.verified_by_repeat = row.repeat;
  }
  if (it == pairs_.end()) return;  // not verified by request ("verify": false), or not yet
  PairState& pair = it->second;
  if (row.status != runfile::RunStatus::kOk) return;
  if (!pair.unverified_reason.empty()) {
    row.status = runfile::RunStatus::kError;
    return;
  }
  const bool differs = !row.output_hash.empty() && row.output_hash != pair.hash;
  if (!(pair.mismatch || differs)) return;
  row.status = runfile::RunStatus::kMismatch;
  if (differs && !pair.mismatch) {
    warn_(fmt::format("{} run {}: output differs from {}", on_input(test.name, row.input),
                      row.repeat,
                      pair.verified_by_repeat == 0
                          ? std::string("its verification run")
                          : fmt::format("run {}, which verified it", pair.verified_by_repeat)));
  }
}

}  // namespace iobench::run
