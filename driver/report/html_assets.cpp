#include "driver/report/html_assets.hpp"

#include "iobench/report_script.hpp"

namespace iobench::report {
namespace {

constexpr std::string_view kStylesheet =
    R"css(:root { --fg: #222; --muted: #666; --line: #e1e4e8; --alt: #f6f8fa; --bad: #b00020; --good: #2f7d32; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 1320px; padding: 12px 20px 40px; color: var(--fg); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 6px; padding-top: 10px; border-top: 2px solid var(--line); }
h3 { font-size: 15px; margin: 16px 0 6px; }
h4 { font-size: 12px; margin: 0 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
p { margin: 6px 0; }
pre { font: 12.5px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; background: var(--alt); padding: 8px 10px;
  border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: #08519c; }
nav ul, ul.glance { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
ul.glance li { background: var(--alt); border-radius: 4px; padding: 2px 8px; }
.table-wrap { overflow-x: auto; margin: 6px 0 10px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
caption { text-align: left; color: var(--muted); font-size: 12px; padding: 2px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap;
  vertical-align: top; }
th { background: var(--alt); font-weight: 600; }
.text { text-align: left; }
td.notes { white-space: normal; min-width: 9em; }
td.verdict { white-space: normal; min-width: 15em; text-align: left; }
tbody tr:nth-child(even) { background: #fbfcfd; }
td.reference { font-weight: 600; }
/* The test's name stays in view while a wide table scrolls sideways (a phone). */
td.test { position: sticky; left: 0; background: #fff; box-shadow: inset 0 -1px 0 var(--line); }
tbody tr:nth-child(even) td.test { background: #fbfcfd; }
.tag { font-size: 11px; padding: 0 5px; border-radius: 6px; background: #e6f4ea; color: var(--good); font-weight: normal; }
.verdict.faster { color: var(--good); }
.verdict.slower { color: var(--bad); }
.verdict.same { color: var(--muted); }
td.runs { white-space: normal; min-width: 20em; }
.run { display: inline-block; margin: 1px 2px 1px 0; font-size: 12px; color: var(--muted); }
.run.disturbed { color: var(--bad); font-weight: bold; }
.note { display: inline-block; margin: 1px 2px 1px 0; padding: 0 6px; border-radius: 8px; background: #fdecea;
  color: var(--bad); font-size: 12px; white-space: nowrap; }
ul.warnings { margin: 4px 0 10px; padding-left: 20px; font-size: 13px; }
.quiet { color: var(--muted); }
figure { margin: 8px 0; }
figure.chart { overflow-x: auto; }
figure svg { display: block; max-width: 100%; height: auto; }
.is-hidden { display: none; }
/* The history site's trend scales to the screen, down to a width whose labels still read; a
   narrower screen scrolls it, starting at its right end: the newest runs. */
figure.trend { overflow-x: auto; }
figure.trend svg { min-width: 560px; direction: ltr; }
ul.warnings li.slower { color: var(--bad); }
/* A section far off screen is laid out only when it comes near: a page of 1,000 tests opens fast. */
section.place { content-visibility: auto; contain-intrinsic-size: auto 1500px; }
button.sort { all: unset; cursor: pointer; }
button.sort:focus-visible { outline: 2px solid #08519c; }
th[aria-sort=ascending] button.sort::after { content: " \25B2"; font-size: 10px; }
th[aria-sort=descending] button.sort::after { content: " \25BC"; font-size: 10px; }
button.hide, #tests button { font-size: 11px; margin-left: 6px; padding: 0 6px; border: 1px solid var(--line);
  border-radius: 4px; background: #fff; color: var(--muted); cursor: pointer; }
#tests { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 10px 0; }
#tests summary { cursor: pointer; font-weight: 600; }
#tests ul { list-style: none; padding: 0; margin: 6px 0 0; columns: 16em; font-size: 13px; }
#tests input[type=search] { font: inherit; padding: 1px 6px; margin: 6px 0 0; }
.record { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px 24px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; font-size: 13px; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media (max-width: 700px) {
  body { padding: 8px 10px 24px; }
  h1 { font-size: 19px; }
  figure.chart svg, figure.key svg { max-width: none; }
  figure.key { overflow-x: auto; }
  figure.trend { direction: rtl; }
}
@media print {
  @page { margin: 12mm; }
  body { max-width: none; padding: 0; font-size: 11px; }
  nav, #tests, button.hide { display: none !important; }
  .table-wrap, figure.chart { overflow: visible; }
  figure.chart svg { max-width: 100%; width: auto; }
  table { font-size: 9.5px; }
  th, td { padding: 1px 3px; }
  td.verdict { min-width: 11em; }
  td.test { position: static; }
  section.place { content-visibility: visible; }
  section.place + section.place { break-before: page; }
  tr, figure, li, dl { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
)css";

}  // namespace

std::string_view report_stylesheet() {
  return kStylesheet;
}

std::string_view report_script() {
  return generated::kReportScript;
}

}  // namespace iobench::report
