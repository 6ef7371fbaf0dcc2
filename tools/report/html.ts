/**
 * Renders the report model as one self-contained HTML page: inline CSS and
 * script, no network. Sections: violations (linked to their message and to
 * the spec line), filters (method, session, direction, violations only), a
 * timeline per session of requests and their durations, and every message
 * with its pairing, its hop (a chain's trace), its W3C trace id and
 * collapsible JSON. The page is static HTML; the
 * script only hides rows that the filters exclude.
 */
import type { ReportMessage, ReportModel, ReportViolation } from "./model.ts";
import { PAGE_SCRIPT, PAGE_STYLE } from "./page.ts";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Longest JSON excerpt in a row's summary line. */
const EXCERPT = 120;

export function renderReport(model: ReportModel): string {
  const byIndex = new Map<number, ReportViolation[]>();
  for (const v of model.violations) {
    const list = byIndex.get(v.index) ?? [];
    list.push(v);
    byIndex.set(v.index, list);
  }
  const methods = [...new Set(model.messages.map((m) => m.method).filter((m) => m !== ""))].sort();
  const sessions = [...new Set(model.messages.map((m) => m.session).filter((s) => s !== ""))];
  const traces = [...new Set(model.messages.map((m) => m.traceId).filter((t) => t !== ""))];
  const options = (values: readonly string[]) => values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ACP trace report</title><style>${PAGE_STYLE}</style></head>
<body>
<h1>ACP trace report</h1>
<p class="meta">${escapeHtml(model.title)}${model.started ? ` — recorded ${escapeHtml(model.started)}` : ""} — ${model.messages.length} messages, ${model.violations.length} violations — ${escapeHtml(model.table)}</p>${model.notes.map((n) => `<p class="meta">note: ${escapeHtml(n)}</p>`).join("")}
<section id="violations"><h2>Violations</h2>${model.violations.length === 0 ? "<p>None.</p>" : `<ul>${model.violations.map(violationItem).join("")}</ul>`}</section>
<section id="filters"><h2>Filters</h2>
<label>method <select id="f-method"><option value="">all</option>${options(methods)}</select></label>
<label>session <select id="f-session"><option value="">all</option>${options(sessions)}</select></label>
<label>trace id <select id="f-trace"><option value="">all</option>${options(traces)}</select></label>
<label>direction <select id="f-dir"><option value="">both</option><option value="client">client → agent</option><option value="agent">agent → client</option></select></label>
<label><input type="checkbox" id="f-violations"> violations only</label>
<span id="shown">${model.messages.length} of ${model.messages.length} messages</span></section>
<section id="timeline"><h2>Timeline per session</h2>${sessions.map((s) => timeline(model, s)).join("") || "<p>No session.</p>"}</section>
<section><h2>Messages</h2><table id="messages"><thead><tr><th>#</th><th>ms</th><th>direction</th><th>kind</th><th>id</th><th>method</th><th>session</th><th>trace id</th><th>answer</th><th>message</th></tr></thead><tbody>
${model.messages.map((m) => row(m, byIndex.get(m.index) ?? [])).join("\n")}
</tbody></table></section>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

function violationItem(v: ReportViolation): string {
  const id = v.url ? `<a class="spec" href="${escapeHtml(v.url)}">${v.requirement}</a>` : `<span class="spec">${v.requirement}</span>`;
  const at = v.index >= 0 ? `<a href="#m-${v.index}">#${v.index}</a>` : "at end";
  return `<li class="violation">${at} ${id} (${escapeHtml(v.tier)}) <b>${escapeHtml(v.rule)}</b> by the ${v.by}: ${escapeHtml(v.message)}</li>`;
}

function row(m: ReportMessage, violations: readonly ReportViolation[]): string {
  const answer = m.pair === undefined ? (m.kind === "request" ? "unanswered" : "") : `<a href="#m-${m.pair}">${m.kind === "request" ? "→" : "←"} #${m.pair}</a> ${m.ms?.toFixed(2) ?? ""} ms${m.error !== undefined && m.kind === "request" ? ` (error ${m.error})` : ""}`;
  let pretty = m.json;
  try {
    pretty = JSON.stringify(JSON.parse(m.json), null, 2);
  } catch {
    // not JSON: shown as is
  }
  const excerpt = m.json.length > EXCERPT ? `${m.json.slice(0, EXCERPT)}…` : m.json;
  const marks = violations.map((v) => `<div class="v">✗ ${v.url ? `<a class="spec" href="${escapeHtml(v.url)}">${v.requirement}</a>` : v.requirement} ${escapeHtml(v.rule)}: ${escapeHtml(v.message)}</div>`).join("");
  return (
    `<tr id="m-${m.index}" class="${m.from}${violations.length > 0 ? " violation" : ""}" data-method="${escapeHtml(m.method)}" data-session="${escapeHtml(m.session)}" data-trace="${escapeHtml(m.traceId)}" data-dir="${m.from}" data-violation="${violations.length > 0}">` +
    `<td>${m.index}</td><td>${m.t.toFixed(1)}</td><td>${m.fromName !== "" ? `${escapeHtml(m.fromName)} → ${escapeHtml(m.toName)}` : m.from === "client" ? "client → agent" : "agent → client"}</td><td>${escapeHtml(m.kind.replace("_", " "))}${m.error !== undefined && m.kind === "response" ? ` ${m.error}` : ""}</td>` +
    `<td>${escapeHtml(m.id)}</td><td>${escapeHtml(m.method)}</td><td>${escapeHtml(m.session)}</td><td class="trace">${escapeHtml(m.traceId)}</td><td>${answer}</td>` +
    `<td>${marks}<details><summary>${escapeHtml(excerpt)}</summary><pre>${escapeHtml(pretty)}</pre></details></td></tr>`
  );
}

/** One session's requests as bars on a shared time axis (start to last message). */
function timeline(model: ReportModel, session: string): string {
  const end = Math.max(1, model.messages.at(-1)?.t ?? 1);
  const bars = model.messages
    .filter((m) => m.session === session && (m.kind === "request" || m.kind === "notification"))
    .map((m) => {
      const left = (m.t / end) * 100;
      const width = m.kind === "request" ? Math.max(0.3, ((m.ms ?? end - m.t) / end) * 100) : 0.3;
      const label = `${m.method} #${m.index}${m.ms !== undefined ? ` ${m.ms.toFixed(1)} ms` : m.kind === "request" ? " unanswered" : ""}`;
      return `<a class="bar ${m.from}${m.kind === "notification" ? " note" : ""}" href="#m-${m.index}" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%" title="${escapeHtml(label)}"></a>`;
    });
  return `<div class="session" data-session="${escapeHtml(session)}"><div class="name">${escapeHtml(session)}</div><div class="track">${bars.join("")}</div></div>`;
}
