/**
 * The live readable trace of `inspect --log FILE`: one line per message
 * (time, direction, kind, id, method, latency of answers, the start of the
 * JSON) and one indented line per violation, coloured when FILE is a terminal.
 */
import type { Observed } from "./monitor.ts";
import type { Violation } from "./rules.ts";

/** Longest JSON excerpt shown per message: 160 characters keeps one message per terminal line or two. */
export const TRACE_EXCERPT = 160;

const COLOURS = { dim: "\x1b[2m", red: "\x1b[31m", green: "\x1b[32m", yellow: "\x1b[33m", cyan: "\x1b[36m", reset: "\x1b[0m" } as const;

/** Formats one observed message (and its violations) as trace lines, ending with a newline. */
export function traceLines(o: Observed, line: string, colour: boolean): string {
  const c = (name: keyof typeof COLOURS, text: string) => (colour ? `${COLOURS[name]}${text}${COLOURS.reset}` : text);
  const arrow = o.from === "client" ? "client → agent" : "agent → client";
  const time = `${o.t.toFixed(3).padStart(10)} ms`;
  const id = o.id === undefined ? "" : ` #${JSON.stringify(o.id)}`;
  let what: string;
  switch (o.kind) {
    case "request":
      what = `request${id} ${c("cyan", o.method ?? "")}`;
      break;
    case "notification":
      what = `notify ${c("cyan", o.method ?? "")}`;
      break;
    case "response":
      what = o.answers ? `${o.answers.error === undefined ? c("green", "result") : c("yellow", `error ${o.answers.error}`)}${id} ${o.answers.method} (${o.answers.ms.toFixed(2)} ms)` : `answer${id}`;
      break;
    default:
      what = o.kind.replace("_", " ") + id;
  }
  const excerpt = line.length > TRACE_EXCERPT ? `${line.slice(0, TRACE_EXCERPT)}…` : line;
  if (o.mcp !== undefined) what += ` [${o.mcp}]`;
  let out = `${c("dim", time)}  ${arrow}  ${what}  ${c("dim", excerpt)}\n`;
  for (const v of o.violations) out += violationLine(v, colour);
  return out;
}

/** One violation as a trace line. */
export function violationLine(v: Violation, colour: boolean): string {
  const text = `${" ".repeat(15)}✗ ${v.requirement} ${v.rule}: ${v.message}`;
  return `${colour ? `${COLOURS.red}${text}${COLOURS.reset}` : text}\n`;
}
