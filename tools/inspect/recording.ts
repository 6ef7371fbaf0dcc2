/**
 * The NDJSON recording of `inspect --record FILE`, read back by `report` and
 * `replay`. One JSON object per line:
 *
 * - `{"type":"start","t":0,"time":"<ISO date>","command":[...],"format":1}` first;
 * - `{"t":<ms>,"from":"client"|"agent","msg":<the message exactly as sent>}`
 *   per JSON line (the line is embedded verbatim, not re-serialised);
 * - `{"t":<ms>,"from":...,"raw":"<text>"}` for a line that is not JSON;
 * - `{"t":<ms>,"violation":{rule,requirement,by,message,index}}` after the
 *   message it was found on (`index` counts messages from 0);
 * - `{"type":"end","t":<ms>,"exit":<code>}` last.
 *
 * `t` is milliseconds since inspect started, read when the chunk arrived.
 */
import type { Observed } from "./monitor.ts";
import type { Sender, Violation } from "./rules.ts";

/** Version of this format, in the start line. */
export const RECORDING_FORMAT = 1;

export function startLine(command: readonly string[], time: Date): string {
  return `${JSON.stringify({ type: "start", t: 0, time: time.toISOString(), command, format: RECORDING_FORMAT })}\n`;
}

/** The recording lines for one observed message and its violations. */
export function recordLines(o: Observed, line: string): string {
  const t = Math.round(o.t * 1000) / 1000;
  let out = o.kind === "non_json" ? `{"t":${t},"from":"${o.from}","raw":${JSON.stringify(line)}}\n` : `{"t":${t},"from":"${o.from}","msg":${line}}\n`;
  for (const v of o.violations) out += violationRecord(v);
  return out;
}

export function violationRecord(v: Violation): string {
  return `${JSON.stringify({ t: Math.round(v.t * 1000) / 1000, violation: v })}\n`;
}

export function endLine(t: number, exit: number): string {
  return `${JSON.stringify({ type: "end", t: Math.round(t * 1000) / 1000, exit })}\n`;
}

/** One entry of a recording, as read back. */
export type RecordEntry =
  | { readonly type: "start"; readonly t: number; readonly time: string; readonly command: readonly string[] }
  | { readonly type: "message"; readonly t: number; readonly from: Sender; readonly msg: unknown; readonly line: string }
  | { readonly type: "raw"; readonly t: number; readonly from: Sender; readonly line: string }
  | { readonly type: "violation"; readonly t: number; readonly violation: Violation }
  | { readonly type: "end"; readonly t: number; readonly exit: number };

/** Parses a recording's text; lines that are not entries are skipped. */
export function readRecording(text: string): RecordEntry[] {
  const out: RecordEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const t = typeof e.t === "number" ? e.t : 0;
    if (e.type === "start") out.push({ type: "start", t, time: String(e.time), command: Array.isArray(e.command) ? e.command.map(String) : [] });
    else if (e.type === "end") out.push({ type: "end", t, exit: typeof e.exit === "number" ? e.exit : 0 });
    else if (e.violation !== undefined) out.push({ type: "violation", t, violation: e.violation as Violation });
    else if (e.from === "client" || e.from === "agent") {
      if (typeof e.raw === "string") out.push({ type: "raw", t, from: e.from, line: e.raw });
      else out.push({ type: "message", t, from: e.from, msg: e.msg, line: JSON.stringify(e.msg) });
    }
  }
  return out;
}
