// Reading the meta file beside a run file (docs/formats.md "Meta file"); its JSON is
// meta_json.cpp's.
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/read_file.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/meta_fields.hpp"

namespace iobench::runfile {

std::optional<RunMeta> read_meta_for(const std::filesystem::path& runs_file,
                                     std::span<const std::string_view> only) {
  const std::filesystem::path path = meta_path_for(runs_file);
  const std::optional<std::string> text = read_file_bytes_if_present(path);
  if (!text) return std::nullopt;
  try {
    if (only.empty()) return meta_from_json(nlohmann::ordered_json::parse(*text));
    std::string error;
    const std::optional<nlohmann::ordered_json> kept = parse_top_level_fields(*text, only, error);
    if (!kept) throw Error(fmt::format("not JSON ({})", error));
    return meta_from_json(*kept);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: not JSON ({})", path.string(), e.what()));
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

}  // namespace iobench::runfile
