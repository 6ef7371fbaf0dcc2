/**
 * Renders docs/real-clients.md from the `check --client` reports of
 * scorecard.ts: a summary table, then per client its command, the rows check
 * judged (rows without a probe, and rows the catalogue marks not observable,
 * are counted, not listed), the notes, how each
 * of the four client runs ended, and the violations found. Paths of this
 * machine are replaced by `<repo>`, `<install>` and `<scratch>`.
 */
import { tally } from "../check/score.ts";
import { renderSectionsMarkdown } from "../check/sections.ts";
import { requirementLines } from "../real-agents/requirement.ts";
import { UNPROBED, type ClientReport } from "../check-client/main.ts";

/** One client's outcome: its report, or why check produced none. */
export interface ClientResult {
  readonly client: RealClient;
  readonly exit: number | null;
  readonly seconds: number;
  readonly report?: ClientReport;
  readonly error?: string;
}

const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
/** Scratch folders of check (`<tmp>/acp-check-client-<scenario>-XXXXXX`) and any absolute path under a home or work folder. */
export const scrub = (t: string) => t.replace(/\/[^\s"']*\/acp-check-client-[a-z]+-[A-Za-z0-9]+/g, "<scratch>").replace(/\/(?:work|home|root|Users)\/[^\s"']+/g, "<path>");

/** Rows of `outcome`, each fact once: a row one observation decided together with another counts there (tally). */
const count = (r: ClientReport, o: string) => tally(r.rows).counts.get(o) ?? 0;

/** How `check --client` judges, for the end of the page. */
const HOW = [
  "## How a client is scored",
  "",
  "The rows are the client-side requirements of [`conformance-catalogue.json`](conformance-catalogue.json) (side `client` or `both`). The scripted agent answers `initialize` with protocol version 1, no optional capability and no authentication method, `session/new` with a fresh session id, and every other request with -32601. Inspect's monitor watches the client's traffic in every run (gated methods called, lines that are not JSON, schema breaches); check judges the rest itself:",
  "",
  "- **handshake** (first run): `initialize` is the first request (ACP-INIT-101), carries an integer `protocolVersion` (ACP-INIT-104), `clientInfo` with name and version (ACP-INIT-102, SHOULD) and `clientCapabilities` (ACP-INIT-108, SHOULD); `session/new` and `session/prompt` come after it (ACP-SESSION-102, ACP-PROMPT-102); prompt content stays text or resource_link, since no promptCapabilities are advertised (ACP-AGENTCAP-101, every run). Shutdown (ACP-SHUTDOWN-101): the agent exits 300 ms after its stdin closes; the client must close it and exit only after that exit.",
  "- **updates**: one sample of every v1 `session/update` kind (tools/mock-agent/updates.ts; kinds that need a client capability only when it is advertised) (ACP-PROMPT-105), an update of an unknown kind (ACP-EXT-104), a `_meta`-laden update (ACP-META-102), an update for an unknown session (ACP-SESSION-108) and a 1 MiB `agent_message_chunk` (ACP-TRANSPORT-106). After each, the client must still be connected 300 ms later; a client that exits fails that row, and the later rows are not run.",
  "- **permission**: a `session/request_permission` must get an outcome naming an offered option, or `cancelled` (ACP-PERM-103, within the timeout). Then, for what the client advertised, `fs/write_text_file` of a new file in the client's scratch folder (checked on disk: ACP-FS-102), `fs/read_text_file`, and `terminal/create` of `echo` with `wait_for_exit`, `output` and `release`: each must be answered, never -32601 (ACP-CLIENTCAP-103).",
  "- **cancel**: a running tool call and (when the client answered the earlier permission request) a new permission request, then SIGINT to the client's process group after 500 ms. The client must send `session/cancel` for the session (ACP-CANCEL-110), as a notification (ACP-CANCEL-205); a permission request still pending must then be answered `cancelled` (ACP-PERM-101, ACP-PERM-102: n/a when the client had already answered it); a `tool_call_update` sent after the cancel must not end the client (ACP-CANCEL-103). The agent then answers the prompt `cancelled`.",
  "- **offers** (v1 clients): check's agent advertises `sessionCapabilities.list` and offers an auth method without a type, and a terminal auth method only to a client that advertised `auth.terminal`. A terminal method passed to `authenticate` fails ACP-AUTH-101/102 (MUST NOT); what the client does with the type-less method is noted (ACP-AUTH-103, tier none). `session/list` is answered with an opaque `nextCursor`; a cursor sent back changed fails ACP-LIST-106, one sent after the last page fails ACP-LIST-105.",
  "- **request ids** (updates run): check's agent sends requests with ids 2^53−1, −(2^53−1), 0 and a string, which every JSON implementation holds exactly; an answer with another id fails ACP-JSONRPC-001 (MUST). Ids beyond ±(2^53−1) (2^53+1 and its negative) are an interoperability finding in a section of each card of its own, never counted: the schema's RequestId annotates the number int64, a note generated from a Rust type that no spec sentence adopts, and RFC 8259 §6 lets JSON implementations limit numbers to the interoperable range. acp-router itself refuses such an id with -32600 and id null; that is acp-router's own policy, not the spec's (`--strict-ids` judges them as ACP-JSONRPC-001 again). In the cancel run a `terminal/wait_for_exit` left pending at the client's shutdown must be answered -32800 (ACP-CANCEL-109, SHOULD: a request cancelled internally). A failed write of a new file is compared with a write of an existing one (ACP-FS-102).",
  "- **version** (last run): `initialize` is answered with protocol version 65535, which no client speaks; the client should close the connection (ACP-INIT-105, SHOULD): pass when it closes or exits without another request (a repeated `initialize` is negotiation), fail when it goes on (`session/new`…) or does neither before the run's bound. Whether it informs the user is not judged. Only this row is judged on that run.",
  "- **answers** (every run, except version): each answer repeats a request id of the agent exactly (ids alternate between numbers and strings: ACP-JSONRPC-001), carries result or error (ACP-JSONRPC-002), an integer error code (ACP-ERROR-101), and no request is answered twice (ACP-JSONRPC-104). The gate rows (ACP-AGENTCAP-103/105/107/111/113/114) pass when no run called `session/load`, `resume`, `close`, `list`, `delete` or `logout`, none of which is advertised.",
  "",
  "Each run is bounded (five timeouts plus 10 s; the version run two timeouts plus 5 s); the client is then ended with its process group. The clients here start with `--fresh-dir`, in a fresh temporary folder (their working directory), so neither they nor the fs probes write into a project (without it, `check --client` runs the client in the current folder). A client that offers protocol version 2 is scored on the v2 client-side rows instead (see docs/tools.md).",
  "",
];

/** The page. */
export function renderPage(results: readonly ClientResult[], timeoutS: number): string {
  const lines = [
    "# Real clients under `acp-router check --client`",
    "",
    "<!-- Generated by `npm run real-clients -- INSTALL_DIR` (tools/real-clients/scorecard.ts). Do not edit by hand. -->",
    "",
    `\`acp-router check --client -- <client command with {agent}>\` runs a client once per scenario (handshake, updates, permission, cancel, offers (v1: check's agent offers auth methods, a terminal one only to a client that advertised auth.terminal, and a paged session list), version, and version-down for a client that offers protocol version 2), each time with \`{agent}\` replaced by a command that connects the client's stdio to a scripted ACP agent inside the check process (a small bridge over 127.0.0.1), and \`{prompt}\` by the prompt text (default \`hello\`). A user's cancel is SIGINT to the client's process group, as Ctrl-C in a terminal sends it; the bridge ignores it, as an agent must live on to receive \`session/cancel\`. How each row is judged is below the scorecards. check's agent answers \`initialize\` with the version the client offers when it speaks it (1 or 2), so a client that offers 2 is scored on the v2 client-side rows (docs/conformance-catalogue-v2.json) and one that offers 1 on the v1 rows; each client's notes say which version it offered and which was negotiated.`,
    "",
    `Each run here is offline: check and the client run in a network namespace with loopback alone (\`unshare -n sh -c 'ip link set lo up; exec …'\`), with \`HOME\` an empty temporary folder, and \`--timeout ${timeoutS}\`. Third-party clients are installed outside the repository (\`npm install --no-audit --no-fund pkg@version\` in \`<install>/<name>\`).`,
    "",
    "| client | pass | fail | n/a | not observable | not run | MUST failed | check exit | seconds |",
    "|---|---:|---:|---:|---:|---:|---|---:|---:|",
  ];
  for (const r of results) {
    if (r.report === undefined) lines.push(`| ${r.client.name} | – | – | – | – | – | no scorecard | ${String(r.exit)} | ${r.seconds} |`);
    else lines.push(`| ${r.client.name} | ${count(r.report, "pass")} | ${count(r.report, "fail")} | ${count(r.report, "n/a")} | ${count(r.report, "not observable")} | ${count(r.report, "not run")} | ${r.report.passed ? "no" : "**yes**"} | ${String(r.exit)} | ${r.seconds} |`);
  }
  lines.push("");
  for (const r of results) {
    lines.push(`## ${r.client.name}`, "", `Command: \`acp-router check --client --timeout ${timeoutS} -- ${r.client.shown}\`${r.client.pkg ? ` (${r.client.pkg.name}@${r.client.pkg.version}, offline)` : " (offline)"}`, "");
    if (r.report === undefined) {
      lines.push(`No scorecard: ${cell(scrub(r.error ?? ""))}`, "");
      continue;
    }
    const rep = r.report;
    // A row linked to another (sameAs) is the same fact: counted and listed once, under the row that carries the evidence.
    const fails = rep.rows.filter((x) => x.outcome === "fail" && x.sameAs === undefined);
    const noProbe = rep.rows.filter((x) => x.outcome === "not run" && x.evidence === UNPROBED).length;
    const linked = tally(rep.rows).linked;
    lines.push(
      `${count(rep, "pass")} pass, ${fails.length} fail, ${count(rep, "n/a")} n/a, ${count(rep, "not observable")} not observable, ${count(rep, "not run")} not run (${noProbe} of them: no probe)${linked === 0 ? "" : ` (${linked} more row${linked === 1 ? "" : "s"} decided by an observation counted with another row)`}; check exited ${String(r.exit)} after ${r.seconds} s.`,
      "",
    );
    if (fails.length === 0) lines.push("**Violations found: none** on the rows check judged.", "");
    else {
      lines.push("**Violations found** (each: what check's agent sent and saw, then the requirement, and the spec's own words with their source and date):", "");
      for (const f of fails) {
        lines.push(`- **${f.id}** (${f.tier}): ${cell(scrub(f.evidence ?? ""))}`);
        for (const line of requirementLines(f.id)) lines.push(`  - ${line}`);
      }
      lines.push("");
    }
    lines.push(...renderSectionsMarkdown(rep.sections ?? [], (t) => cell(scrub(t))));
    lines.push("| outcome | requirement | tier | evidence |", "|---|---|---|---|");
    for (const row of rep.rows) if (!(row.outcome === "not run" && row.evidence === UNPROBED) && row.outcome !== "not observable") lines.push(`| ${row.outcome} | ${row.id} | ${row.tier} | ${cell(scrub(row.evidence ?? ""))} |`);
    lines.push("", "Runs (how the client exited, its last lines):", "");
    for (const run of rep.runs) lines.push(`- ${run.scenario}: ${run.exit}${run.tail.trim() ? `; \`${cell(scrub(run.tail.trim().split("\n").slice(-2).join(" / "))).slice(0, 200)}\`` : ""}`);
    if (rep.notes.length > 0) lines.push("", "Notes:", "", ...rep.notes.map((n) => `- ${cell(scrub(n))}`));
    lines.push("");
  }
  lines.push(...HOW);
  lines.push(
    "## Clients without a command line",
    "",
    '- **acp-factory** (npm, 0.1.14) is scored above, but only through a script: it is a library "for spawning and managing agents through the Agent Client Protocol" (its package has `main` and `exports`, depends on `@agentclientprotocol/sdk` ^0.18.0, and has no `bin`), so it cannot be driven from a command line as is. `tools/real-clients/acp-factory-client.mjs` registers `{agent}` as a custom agent type, spawns it with `permissionMode: "auto-approve"`, sends one prompt, calls `session.cancel()` on SIGINT and closes the agent.',
    "- **acp-http-client** (npm, 0.4.2): a client library for ACP over Streamable HTTP only, with no command-line entry; `check --client` drives stdio clients, so it does not apply.",
    "",
  );
  return lines.join("\n");
}

/** One client: how it is shown on the page and the command check runs (`{agent}`, `{prompt}` left in). */
export interface RealClient {
  readonly name: string;
  /** npm package and version for a third-party client, installed in INSTALL_DIR/<folder>. */
  readonly pkg?: { readonly name: string; readonly version: string; readonly folder: string };
  /** The command as the page shows it (`<repo>/`, `<install>/` for the folders). */
  readonly shown: string;
  command(dir: string): string[];
}
