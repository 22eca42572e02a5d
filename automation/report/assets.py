"""The report page's own style sheet and script, inlined into every report
(no external file, font or network request)."""

CSS = """
:root { --ink: #1d2327; --muted: #5f6b73; --line: #d5dade; --band: #f3f5f6; --accent: #2f5d7c; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0;
       line-height: 1.45; font-size: 15px; }
header, main, nav { max-width: 1100px; margin: 0 auto; padding: 0 12px; }
header { padding-top: 16px; }
h1 { font-size: 1.5em; margin: 0.2em 0; }
h2 { font-size: 1.25em; border-bottom: 2px solid var(--accent); padding-bottom: 4px; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: 1.1em 0 0.3em; }
h4 { font-size: 0.98em; margin: 1em 0 0.2em; }
.meta { color: var(--muted); margin: 0; }
nav { position: sticky; top: 0; background: white; border-bottom: 1px solid var(--line); padding: 6px 12px;
      z-index: 2; overflow-x: auto; white-space: nowrap; }
nav a { margin-right: 12px; color: var(--accent); text-decoration: none; font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.86em; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
thead th { background: var(--band); position: sticky; top: 0; }
tbody tr:nth-child(even) { background: #fafbfb; }
svg.chart { max-width: 100%; height: auto; display: block; margin: 6px 0; }
details.date { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; margin: 6px 0; }
details.date > summary { cursor: pointer; font-weight: 600; }
.story-side { margin: 4px 0 8px; }
.story-side ul { margin: 2px 0 4px 18px; padding: 0; }
.cat { color: var(--muted); font-size: 0.9em; font-weight: 600; }
.reading { background: var(--band); padding: 6px 10px; border-radius: 4px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin: 8px 0; }
.filters label { display: flex; flex-direction: column; font-size: 0.85em; color: var(--muted); }
.filters input, .filters select { font-size: 1em; padding: 4px; min-width: 8em; }
.where { color: var(--muted); font-size: 0.8em; }
code { background: var(--band); padding: 1px 4px; border-radius: 3px; word-break: break-all; }
.fit { margin-bottom: 18px; }
.scroll table th:first-child, .scroll table td:first-child { white-space: nowrap; }
summary .counts { color: var(--muted); font-weight: normal; }
.pair { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.pair svg.chart { flex: 0 1 420px; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  nav { white-space: normal; overflow-x: visible; }
  nav a { display: inline-block; margin: 1px 10px 1px 0; }
  th, td { padding: 2px 4px; }
  .filters input, .filters select { min-width: 6em; }
}
@media print {
  nav, .filters { display: none; }
  .scroll { overflow: visible; }
  thead th { position: static; }
  details.date { break-inside: avoid; }
  svg.chart, .fit { break-inside: avoid; }
  body { font-size: 11px; }
}
"""

JS = r"""
(function () {
  var table = document.getElementById('roll-table');
  if (!table) { return; }
  var head = Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.textContent.trim(); });
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var count = document.getElementById('roll-count');
  var fields = {date: 'Date', table: 'Table', side: 'Side'};
  function column(name) { return head.indexOf(name); }
  function fill(id, name) {
    var select = document.getElementById(id), i = column(name), seen = {};
    rows.forEach(function (r) {
      var v = r.cells[i].textContent;
      if (!seen[v]) { seen[v] = true; var o = document.createElement('option'); o.value = v; o.textContent = v; select.appendChild(o); }
    });
  }
  Object.keys(fields).forEach(function (k) { fill('f-' + k, fields[k]); });
  function apply() {
    var want = {}, unit = document.getElementById('f-unit').value.trim().toLowerCase();
    var text = document.getElementById('f-text').value.trim().toLowerCase();
    Object.keys(fields).forEach(function (k) { want[k] = document.getElementById('f-' + k).value; });
    var shown = 0, iu = column('Subject');
    rows.forEach(function (r) {
      var ok = Object.keys(fields).every(function (k) { return !want[k] || r.cells[column(fields[k])].textContent === want[k]; });
      ok = ok && (!unit || r.cells[iu].textContent.toLowerCase().indexOf(unit) >= 0);
      ok = ok && (!text || r.textContent.toLowerCase().indexOf(text) >= 0);
      r.style.display = ok ? '' : 'none';
      if (ok) { shown += 1; }
    });
    count.textContent = shown + ' of ' + rows.length + ' roll(s) shown';
  }
  var hash = window.location.hash;
  if (hash.indexOf('#rolls?') === 0) {
    hash.slice(7).split('&').forEach(function (pair) {
      var kv = pair.split('='), el = document.getElementById('f-' + decodeURIComponent(kv[0]));
      if (el && kv.length === 2) { el.value = decodeURIComponent(kv[1].replace(/\+/g, ' ')); }
    });
  }
  ['f-date', 'f-table', 'f-side', 'f-unit', 'f-text'].forEach(function (id) {
    var el = document.getElementById(id);
    el.addEventListener('input', apply);
    el.addEventListener('change', apply);
  });
  apply();
})();
function openDate() {
  var hash = window.location.hash;
  if (hash.indexOf('#date-') !== 0) { return; }
  var fold = document.getElementById(hash.slice(1));
  if (fold) { fold.open = true; fold.scrollIntoView(); }
}
window.addEventListener('hashchange', openDate);
openDate();
window.addEventListener('beforeprint', function () {
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
});
"""
