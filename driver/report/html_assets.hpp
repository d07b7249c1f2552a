#pragma once
// The report's stylesheet (screen, phone width and print) and its one script (sorting, hiding
// tests), inline in every page: the page opens from disk with no network (docs/reports.md, "The
// HTML report"). The script only adds to a page that is whole without it.
#include <string_view>

namespace iobench::report {

std::string_view report_stylesheet();
std::string_view report_script();

}  // namespace iobench::report
