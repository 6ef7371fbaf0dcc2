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
import { objectLines } from "./ndjson.ts";
import type { Sender, Violation } from "./rules.ts";
import { componentRank as componentRankOf, hopName, hopSender, isRustTrace, readRustTrace } from "./rust-trace.ts";

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
  | {
      readonly type: "message";
      readonly t: number;
      readonly from: Sender;
      readonly msg: unknown;
      readonly line: string;
      /** Read from a Rust-format trace (rust-trace.ts): the hop the message crossed (`Client ↔ Proxy(0)`), its sender's and receiver's names, and whether it is an MCP message the conductor unwrapped from `mcp/message`. */
      readonly hop?: { readonly name: string; readonly from: string; readonly to: string; readonly mcp: boolean };
    }
  | { readonly type: "raw"; readonly t: number; readonly from: Sender; readonly line: string }
  | { readonly type: "violation"; readonly t: number; readonly violation: Violation }
  | { readonly type: "end"; readonly t: number; readonly exit: number };

/**
 * Parses a recording's text; lines that are not entries are skipped. A trace
 * in the Rust conductor's format (rust-trace.ts) is read too: each event
 * becomes a message entry with its hop, the side nearer the client being
 * the hop's `client`.
 */
export function readRecording(text: string): RecordEntry[] {
  if (isRustTrace(text)) {
    return readRustTrace(text).map((e) => ({
      type: "message",
      t: e.t,
      from: hopSender(e.from, e.to),
      msg: e.msg,
      line: JSON.stringify(e.msg),
      hop: { name: hopName(e.from, e.to), from: e.from, to: e.to, mcp: e.protocol === "mcp" },
    }));
  }
  const out: RecordEntry[] = [];
  for (const e of objectLines(text)) {
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

/**
 * The entries of the hop nearest the client, MCP messages left out: what a
 * client wrote and was answered, which is what `replay` plays back. A
 * recording of inspect's own format is one hop, returned whole.
 */
export function clientHop(entries: readonly RecordEntry[]): RecordEntry[] {
  let nearest: string | undefined;
  let rank = Number.POSITIVE_INFINITY;
  for (const e of entries) {
    if (e.type !== "message" || e.hop === undefined) continue;
    const r = Math.min(componentRankOf(e.hop.from), componentRankOf(e.hop.to));
    if (r < rank) {
      rank = r;
      nearest = e.hop.name;
    }
  }
  if (nearest === undefined) return [...entries];
  return entries.filter((e) => e.type !== "message" || (e.hop?.name === nearest && !e.hop.mcp));
}
