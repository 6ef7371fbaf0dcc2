/** The report page's inline style and filter script (no network, no dependencies). */

export const PAGE_STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0}h2{font-size:1.1em;margin:1.2em 0 .4em}.meta{color:#666}
#filters label{margin-right:1em}#shown{color:#666}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eee;padding:2px 6px;text-align:left;vertical-align:top}
tr.agent td:nth-child(3){color:#2a6}tr.client td:nth-child(3){color:#26a}
tr.violation{background:#fde8e8}li.violation{color:#a00}.v{color:#a00;font-weight:600}
pre{margin:.3em 0;white-space:pre-wrap;word-break:break-all;background:#f7f7f7;padding:.4em}
summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:12px;color:#555;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:60em}
.session{display:flex;align-items:center;margin:2px 0}.name{width:18em;font-family:ui-monospace,monospace;font-size:12px;overflow:hidden;text-overflow:ellipsis}
.track{position:relative;flex:1;height:14px;background:#f3f3f3}.bar{position:absolute;top:2px;height:10px;background:#26a;opacity:.75}
.bar.agent{background:#2a6}.bar.note{opacity:.35}
td.trace{font-family:ui-monospace,monospace;font-size:11px;color:#666}
`;

export const PAGE_SCRIPT = `
(function () {
  var method = document.getElementById("f-method"), session = document.getElementById("f-session"), trace = document.getElementById("f-trace");
  var dir = document.getElementById("f-dir"), only = document.getElementById("f-violations"), shown = document.getElementById("shown");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#messages tbody tr"));
  function apply() {
    var n = 0;
    rows.forEach(function (r) {
      var ok = (!method.value || r.dataset.method === method.value) && (!session.value || r.dataset.session === session.value)
        && (!trace.value || r.dataset.trace === trace.value)
        && (!dir.value || r.dataset.dir === dir.value) && (!only.checked || r.dataset.violation === "true");
      r.hidden = !ok;
      if (ok) n++;
    });
    document.querySelectorAll("#timeline .session").forEach(function (s) { s.hidden = !!session.value && s.dataset.session !== session.value; });
    shown.textContent = n + " of " + rows.length + " messages";
  }
  [method, session, trace, dir, only].forEach(function (el) { el.addEventListener("change", apply); });
})();
`;
