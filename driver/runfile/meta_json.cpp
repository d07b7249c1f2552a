// The run record's JSON, written and read by its field tables (meta_tables.hpp); only the format
// version, which every record opens with, is spelled here.
#include <fmt/format.h>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/meta_tables.hpp"

namespace iobench::runfile {
namespace {

using json_fields::Json;
using json_fields::Reader;

int format_version_of(const Reader& in) {
  const int version = in.has("format_version") ? in.as<int>("format_version") : 1;
  if (version < 1) in.fail("format_version", "a version from 1 up");
  if (version > kMetaFormatVersion) {
    throw Error(fmt::format(
        "format_version {}: written by a newer iobench (this one reads formats 1 to {})", version,
        kMetaFormatVersion));
  }
  return version;
}

}  // namespace

Json to_json(const Provenance& provenance) {
  return json_fields::write_object(meta_tables::kProvenanceFields, provenance);
}

Json to_json(const Matrix& matrix) {
  return json_fields::write_object(meta_tables::kMatrixFields, matrix);
}

Json to_json(const ShellStartup& startup) {
  return json_fields::write_object(meta_tables::kShellStartupFields, startup);
}

Json to_json(const RunMeta& meta) {
  Json out;
  out["format_version"] = kMetaFormatVersion;  // what to_json writes is always this format
  json_fields::write_fields(meta_tables::kRunMetaFields, meta, out);
  return out;
}

ShellStartup shell_startup_from_json(const Json& json) {
  return json_fields::read_object<ShellStartup>(meta_tables::kShellStartupFields,
                                                Reader(json, "shell_startup"));
}

RunMeta meta_from_json(const Json& json) {
  const Reader in(json, "");
  RunMeta meta;
  meta.format_version = format_version_of(in);
  json_fields::read_fields(meta_tables::kRunMetaFields, in, meta);
  // Outside a repository format 1 wrote context.git_commit "": the same as absent.
  if (meta.context && meta.context->git_commit && meta.context->git_commit->empty()) {
    meta.context->git_commit.reset();
  }
  return meta;
}

}  // namespace iobench::runfile
