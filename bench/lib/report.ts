/**
 * Turns the figures' JSON into the printed report: one table per figure
 * (medians, then ours' ratio to each other peer), the targets with
 * pass/fail (printed, never asserted), and the machine it ran on.
 */
import { cpus, loadavg, release, type } from "node:os";
import type { FigureResult, Measurement } from "./harness.ts";

/** The number in a table cell: thousands separators, decimals only for small values. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 1 : 2;
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const ratio = (r: number, digits = 2): string => (Number.isFinite(r) ? `${r.toFixed(digits)}×` : "n/a");

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
}

/** The table of one figure: a row per case, a column per peer, then each of our variants' ratio to each other peer. */
export function table(fig: FigureResult): string {
  const peers = [...new Set(fig.results.map((r) => r.peer))];
  const cases = [...new Set(fig.results.map((r) => r.case))];
  const ours = peers.filter((p) => p.startsWith("ours"));
  const pairs = ours.flatMap((o) => peers.filter((p) => !p.startsWith("ours")).map((p) => [o, p] as const));
  const head = ["case", ...peers.map((p) => `${p} (${fig.unit})`), ...pairs.map(([o, p]) => `${o}/${p}`)];
  const rows = cases.map((c) => {
    const v = (p: string) => fig.results.find((r) => r.case === c && r.peer === p)?.value ?? Number.NaN;
    return [c, ...peers.map((p) => formatValue(v(p))), ...pairs.map(([o, p]) => ratio(v(o) / v(p)))];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const lines = [pad(head, widths), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map((r) => pad(r, widths))];
  const better = fig.better === "higher" ? "higher is better" : "lower is better";
  return [`${fig.title} — ${better}; medians of ${fig.rounds} round(s)${fig.quick ? " [quick]" : ""}`, ...lines, ...fig.notes.map((n) => `  note: ${n}`)].join("\n");
}

/** One of the targets, evaluated on this run. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean | undefined;
}

/** Looks up a median; NaN when the figure or row is missing. */
function find(figs: FigureResult[], figure: string, caseStart: string, peer: string): number {
  const fig = figs.find((f) => f.figure === figure);
  const row: Measurement | undefined = fig?.results.find((r) => r.case.startsWith(caseStart) && r.peer === peer);
  return row?.value ?? Number.NaN;
}

function check(target: string, value: number, goal: (v: number) => boolean, measured: string): TargetCheck {
  return { target, measured, pass: Number.isFinite(value) ? goal(value) : undefined };
}

/** The targets. */
export function targets(figs: FigureResult[]): TargetCheck[] {
  const out: TargetCheck[] = [];
  for (const [label, c, goal] of [
    ["prompt", "session/prompt", 0.6],
    ["update", "session/update", 0.85],
  ] as const) {
    // The median of same-round ratios to the floor when the figure has it; else the ratio of the medians.
    const of = (peer: string) => {
      const paired = find(figs, "ingest", `ratio to floor (same round), ${c}`, peer);
      return Number.isFinite(paired) ? paired : find(figs, "ingest", c, peer) / find(figs, "ingest", c, "floor");
    };
    const ours = of("ours");
    const how = Number.isFinite(find(figs, "ingest", `ratio to floor (same round), ${c}`, "ours")) ? ", median of same-round ratios" : "";
    out.push(check(`ingest ${label}, full validation: ≥ ${goal.toFixed(2)}× the floor`, ours, (v) => v >= goal, `ours ${ratio(ours, 3)} of floor${how} (sdk ${ratio(of("sdk"), 3)})`));
  }
  // The same reference agent / client as separate processes over real stdio pipes.
  // Figure 10 has two cases: 1 KB prompts, and small messages (a "hello" prompt per session, two updates and the answer each).
  const stdio = [
    ["stdio-agent", "session/prompt (1 KB", "stdio agent process, 1 KB prompts, prompts/s", 0.9],
    ["stdio-agent", 'session/prompt "hello"', "stdio agent process, small messages, prompts/s", 0.85],
    ["stdio-client", "session/", "stdio client, session/updates/s", 0.85],
  ] as const;
  for (const [figure, c, what, goal] of stdio) {
    // The median of same-round ratios to the floor when the figure has it; else the ratio of the medians.
    const of = (peer: string) => {
      const paired = find(figs, figure, `ratio to floor (same round), ${c}`, peer);
      return Number.isFinite(paired) ? paired : find(figs, figure, c, peer) / find(figs, figure, c, "floor");
    };
    const ours = of("ours");
    const how = Number.isFinite(find(figs, figure, `ratio to floor (same round), ${c}`, "ours")) ? ", median of same-round ratios" : "";
    out.push(check(`${what}: ≥ ${goal.toFixed(2)}× the floor`, ours, (v) => v >= goal, `ours ${ratio(ours, 3)} of floor${how} (sdk ${ratio(of("sdk"), 3)})`));
  }
  // The agent behind `acp-router inspect` against the same agent behind a bare byte relay process (figure 8).
  const inspect = find(figs, "inspect", "ratio to relay (same round)", "ours (behind inspect)");
  const inspectDirect = find(figs, "inspect", "ratio to direct (same round)", "ours (behind inspect)");
  out.push(check("inspect, prompts/s: ≥ 0.9× behind a bare relay process", inspect, (v) => v >= 0.9, `ours ${ratio(inspect, 3)} of the relay, median of same-round ratios (${ratio(inspectDirect, 3)} of direct)`));
  // Figure 16: the same, saturated (256 sessions of small prompts on two cores), with the parse floor beside it.
  const saturated = find(figs, "inspect-saturated", "ratio to relay (same round)", "ours (inspect)");
  const parseFloor = find(figs, "inspect-saturated", "ratio to relay (same round)", "parse floor (relay + JSON.parse on a thread)");
  out.push(check("inspect saturated (figure 16), prompts/s: ≥ 0.9× behind a bare relay process", saturated, (v) => v >= 0.9, `ours ${ratio(saturated, 3)} of the relay, median of same-round ratios (a relay that only JSON.parses each line on a thread: ${ratio(parseFloor, 3)})`));
  // Figure 15: a chain with one pass-through proxy against the same agent behind one bare relay, with three relays in a row beside it.
  const chain = find(figs, "proxy", "ratio to relay (same round)", "ours (conduct + one proxy)");
  const relays = find(figs, "proxy", "ratio to relay (same round)", "three relays");
  out.push(check("proxy chain (figure 15), prompts/s: ≥ 0.6× behind a bare relay process", chain, (v) => v >= 0.6, `ours ${ratio(chain, 3)} of the relay, median of same-round ratios (three bare relays in a row: ${ratio(relays, 3)})`));
  const invalid = find(figs, "ingest", "invalid", "ours") / find(figs, "ingest", "invalid", "sdk");
  out.push(check("ingest invalid session/prompt: ≥ 5× the SDK", invalid, (v) => v >= 5, `ours ${ratio(invalid, 3)} the sdk`));
  const rt = find(figs, "roundtrip", "session/prompt", "ours") / find(figs, "roundtrip", "session/prompt", "sdk");
  out.push(check("round trips (prompt, 256 in flight): ≥ 3× the SDK pair", rt, (v) => v >= 3, `ours ${ratio(rt, 3)} the sdk`));
  // Figure 17: the SDK's reference agent on the compatibility package against the same agent on the SDK (issue 38: "several times faster").
  const dropIn = find(figs, "sdk-drop-in", "ratio to sdk (same round), session/prompt (1 KB", "sdk on the compatibility package");
  const dropInHeap = find(figs, "sdk-drop-in", "heap per held session/prompt (1 KB", "sdk on the compatibility package") / find(figs, "sdk-drop-in", "heap per held session/prompt (1 KB", "sdk");
  out.push(check("SDK agent on the compatibility package (figure 17), stdio prompts/s: ≥ 3× on the SDK", dropIn, (v) => v >= 3, `${ratio(dropIn, 3)} the sdk, median of same-round ratios (heap per held 1 KB prompt ${ratio(dropInHeap, 3)} the sdk's)`));
  const heapOurs = find(figs, "heap", "session/prompt (1 KB", "ours");
  const heapSdk = find(figs, "heap", "session/prompt (1 KB", "sdk");
  const heap = heapOurs / heapSdk;
  out.push(check("heap per held in-flight prompt: ≤ 0.5× the SDK", heap, (v) => v <= 0.5, `ours ${Math.round(heapOurs)} B vs sdk ${Math.round(heapSdk)} B = ${ratio(heap, 3)}`));
  for (const mode of ["ingest", "round trips"]) {
    // The median of per-round ratios (16 and 4,096 timed in the same round) when the figure has it; else the ratio of the medians.
    const of = (peer: string) => {
      const paired = find(figs, "scaling", `ratio 4096/16, ${mode}`, peer);
      return Number.isFinite(paired) ? paired : find(figs, "scaling", `${mode}, 4096`, peer) / find(figs, "scaling", `${mode}, 16 `, peer);
    };
    const scale = of("ours");
    const others = ["sdk", "floor"].filter((p) => Number.isFinite(of(p))).map((p) => `${p} ${ratio(of(p), 3)}`);
    const how = Number.isFinite(find(figs, "scaling", `ratio 4096/16, ${mode}`, "ours")) ? ", median of per-round ratios" : "";
    out.push(check(`throughput at 4,096 in flight ≥ 0.9× at 16 (${mode})`, scale, (v) => v >= 0.9, `ours ${ratio(scale, 3)}${how} (${others.join(", ")})`));
  }
  // Remote servers, each in its own process, driven by the lean load generators (figure 13).
  for (const transport of ["HTTP/1.1", "WebSocket"]) {
    const wall = `round trips/s (wall), ${transport}, load generator`;
    const cpu = `round trips per server CPU second, ${transport}, load generator`;
    const server = find(figs, "remote-server", wall, "ours") / find(figs, "remote-server", wall, "sdk");
    const capacity = find(figs, "remote-server", cpu, "ours") / find(figs, "remote-server", cpu, "sdk");
    out.push(check(`remote server, ${transport}, round trips/s: ≥ 3× the SDK's server`, server, (v) => v >= 3, `ours ${ratio(server, 3)} the sdk (per server CPU second: ${ratio(capacity, 3)})`));
  }
  const idle = find(figs, "remote", "heap per idle session (", "ours");
  out.push(check("remote server heap per idle session (10,000 sessions): ≤ 10 KB", idle, (v) => v <= 10_240, `ours ${Math.round(idle)} B (sdk ${Math.round(find(figs, "remote", "heap per idle session (", "sdk"))} B)`));
  // Issue 28: the minimal v1 agent's esbuild bundle (figure 7; the agent half only), the SDK's beside it.
  for (const [what, limit] of [
    ["minified", 110_000],
    ["minified + gzip", 40_000],
  ] as const) {
    const bytes = find(figs, "size", `minimal v1 agent bundle: ${what}`, "ours");
    const sdk = find(figs, "size", `minimal v1 agent bundle: ${what}`, "sdk");
    out.push(check(`minimal v1 agent bundle, ${what}: ≤ ${limit / 1000} KB`, bytes, (v) => v <= limit, `ours ${formatValue(bytes)} B (sdk ${formatValue(sdk)} B)`));
  }
  const imp = find(figs, "import", "import", "ours") / find(figs, "import", "import", "sdk");
  out.push(check("import time: ≤ 1/3 of the SDK's", imp, (v) => v <= 1 / 3, `ours ${formatValue(find(figs, "import", "import", "ours"))} ms vs sdk ${formatValue(find(figs, "import", "import", "sdk"))} ms = ${ratio(imp, 3)}`));
  return out;
}

export function summary(checks: TargetCheck[]): string {
  const mark = (p: boolean | undefined) => (p === undefined ? "n/a " : p ? "PASS" : "FAIL");
  const width = Math.max(...checks.map((c) => c.target.length));
  return checks.map((c) => `  ${mark(c.pass)}  ${c.target.padEnd(width)}  ${c.measured}`).join("\n");
}

/** The machine line: OS, CPU model, cores, load, Node. */
export function machine(): string[] {
  const cpu = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  return [`os: ${type()} ${release()} (${process.platform}/${process.arch})`, `cpu: ${cpu[0]?.model ?? "unknown"} × ${cpu.length} cores; load average ${load}`, `node: ${process.version}`];
}

/**
 * The markers around the part of `docs/performance.md` a full run writes. The part is kept as the
 * run writes it (`prettier-ignore`), so a run leaves `npm run format:check` clean.
 */
export const PAGE_START = "<!-- written by npm run bench: start -->\n<!-- prettier-ignore-start -->";
export const PAGE_END = "<!-- prettier-ignore-end -->\n<!-- written by npm run bench: end -->";

/** What a full run puts on the figures page: when, where, the targets and every figure's table. */
export function performanceBlock(run: { date: string; wallSeconds: number; loadAtStart: string; machine: string[]; versions: string; checks: TargetCheck[]; figures: FigureResult[] }): string {
  const mark = (p: boolean | undefined) => (p === undefined ? "n/a" : p ? "pass" : "**not met**");
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  return [
    PAGE_START,
    "",
    `Run of ${run.date}: \`npm run bench\`, ${run.wallSeconds} s; at the start ${run.loadAtStart.replace(/^cpu: /, "")}; at the end ${(run.machine[1] ?? "").replace(/^cpu: /, "")}.`,
    `${run.machine.filter((l) => !l.startsWith("cpu:")).join("; ")}; ${run.versions}.`,
    "",
    "| target | measured | |",
    "|---|---|---|",
    ...run.checks.map((c) => `| ${cell(c.target)} | ${cell(c.measured)} | ${mark(c.pass)} |`),
    "",
    "Every figure of the run (medians; ratios are ours to each other peer):",
    "",
    "```text",
    ...run.figures
      .map((f) => table(f))
      .join("\n\n")
      .split("\n"),
    "```",
    "",
    PAGE_END,
  ].join("\n");
}

/** `page` with the text between the markers replaced by `block` (appended when the page has no markers yet). */
export function replaceBlock(page: string, block: string): string {
  const start = page.indexOf(PAGE_START);
  const end = page.indexOf(PAGE_END);
  if (start === -1 || end === -1 || end < start) return `${page.trimEnd()}\n\n${block}\n`;
  return `${page.slice(0, start)}${block}${page.slice(end + PAGE_END.length)}`;
}
