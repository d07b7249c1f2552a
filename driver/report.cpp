// The medians report that `iobench run` prints at its end (driver/report.hpp).
#include "driver/report.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>
#include <system_error>

#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "driver/error.hpp"
#include "driver/export.hpp"
#include "driver/results_reader.hpp"
#include "driver/summary.hpp"

namespace iobench::report {
namespace {

// Writes beside the target and renames, so a reader never sees half a medians file.
void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    throw Error(
        fmt::format("{}: cannot create the folder: {}", path.parent_path().string(), ec.message()));
  }
  // A fresh name made with mkstemp (O_EXCL): a symlink planted at a fixed "X.tmp" is never
  // followed (issue 7). rename() replaces a link at the target itself without following it.
  std::string temp_name = path.string() + ".tmp.XXXXXX";
  {
    const UniqueFd fd(::mkostemp(temp_name.data(), O_CLOEXEC));
    int err = fd ? 0 : errno;
    if (fd) {
      try {
        ::fchmod(fd.get(), 0644);
        sys::write_all(fd.get(), content.data(), content.size());
      } catch (const std::system_error& e) {
        err = e.code().value();
        ::unlink(temp_name.c_str());
      }
    }
    if (err != 0) {
      throw Error(
          fmt::format("{}: cannot write the medians file: {}", path.string(), std::strerror(err)));
    }
  }
  const std::filesystem::path temp = temp_name;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw Error(fmt::format("{}: cannot write the medians file: {}", path.string(), ec.message()));
  }
}

}  // namespace

void write_run_report(const RunReportRequest& request, std::ostream& table_out,
                      std::ostream& warnings_out) {
  results::ReadOptions read_options;
  read_options.group_by = {"test", "input", "sink"};
  const results::RunSet set = results::read_runs({request.runs_tsv}, read_options);
  summary::Options options;
  options.baseline = request.baseline;
  const summary::Summary summary = summary::summarize(set, options);

  if (!request.medians_tsv.empty()) {
    std::ostringstream medians;
    exporter::write_medians_tsv(summary, medians);
    write_file_atomically(request.medians_tsv, medians.str());
  }
  exporter::write_summary(summary, exporter::Format::kPretty, table_out);
  exporter::write_warnings(summary.warnings, warnings_out);
}

}  // namespace iobench::report
