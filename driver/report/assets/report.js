// The HTML report's one script, inline in every page (driver/report/html_assets.hpp). ES2015, no
// library: sorting by the cells' data-v, and hiding by data-test. The page's CSP carries its hash.
(function () {
  "use strict";
  var doc = document;
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  // Sorting: a header's button sorts its table by that column, numbers by each cell's data-v
  // (empty: no value, last either way), text by the text.
  function sortKey(row, column) {
    var cell = row.cells[column];
    if (!cell) return null;
    var v = cell.getAttribute("data-v");
    if (v !== null) return v === "" ? null : Number(v);
    return cell.textContent.trim();
  }
  function compareKeys(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b));
  }
  function sortBy(table, th, column) {
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    each(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var a = sortKey(x, column), b = sortKey(y, column);
      if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
      return ascending ? compareKeys(a, b) : compareKeys(b, a);
    });
    var fragment = doc.createDocumentFragment();
    rows.forEach(function (r) { fragment.appendChild(r); });
    body.appendChild(fragment);
  }
  each(doc.querySelectorAll("table.sortable"), function (table) {
    each(table.tHead.rows[0].cells, function (th, column) {
      var button = doc.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.title = "sort by this column";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, th, column); });
    });
  });
  // Hiding and showing tests: everything that carries data-test (table rows, chart rows,
  // warnings) follows its test's box in the panel and the name filter.
  var panel = doc.getElementById("tests");
  if (!panel) return;
  panel.hidden = false;
  var boxes = new Map();
  each(panel.querySelectorAll("input[type=checkbox][data-test]"), function (box) {
    boxes.set(box.getAttribute("data-test"), box);
  });
  var filter = doc.getElementById("test-filter");
  var count = doc.getElementById("hidden-count");
  var marked = doc.querySelectorAll("[data-test]:not(input)");
  function apply() {
    var needle = filter.value.toLowerCase();
    var hidden = new Set();
    boxes.forEach(function (box, name) {
      if (!box.checked || (needle !== "" && name.toLowerCase().indexOf(needle) < 0)) hidden.add(name);
    });
    each(marked, function (el) {
      el.classList.toggle("is-hidden", hidden.has(el.getAttribute("data-test")));
    });
    count.textContent = hidden.size === 0 ? "all shown" : hidden.size + " of " + boxes.size + " hidden";
  }
  panel.addEventListener("change", apply);
  filter.addEventListener("input", apply);
  doc.getElementById("show-all").addEventListener("click", function () {
    boxes.forEach(function (box) { box.checked = true; });
    filter.value = "";
    apply();
  });
  each(doc.querySelectorAll("tr[data-test] td.test"), function (cell) {
    var button = doc.createElement("button");
    button.type = "button";
    button.className = "hide";
    button.title = "hide this test everywhere (the Tests panel shows it again)";
    button.textContent = "hide";
    button.addEventListener("click", function () {
      var box = boxes.get(cell.parentNode.getAttribute("data-test"));
      if (box) box.checked = false;
      apply();
    });
    cell.appendChild(button);
  });
  apply();
})();
