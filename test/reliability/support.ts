/**
 * Shared pieces of the reliability suite: a corpus of valid ACP messages,
 * the expected-answer oracle written from DESIGN §4.3 (not from src/),
 * hostile-input arbitraries, and small helpers. The raw wire, the counting
 * handlers and the async helpers come from test/support/ (re-exported here).
 */
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { runProcess, type Ran } from "../support/process.ts";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

// ── raw transport: test/support/raw-peer.ts ───────────────────────

export { rawWire, type RawWire, type WireLine as Answer } from "../support/raw-peer.ts";
import type { WireLine as Answer } from "../support/raw-peer.ts";

// ── handlers: test/support/handlers.ts ─────────────────────────────

export { allAgentCapabilities, allClientCapabilities, countingAgent, countingClient, type Calls } from "../support/handlers.ts";

// ── corpus of valid messages ──────────────────────────────────────────

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const text = { type: "text", text: "hello" };

/** Valid messages a client sends an agent (requests carry id 1; tests replace ids). */
export const agentInbound: readonly JsonObject[] = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: true }, clientInfo: { name: "fuzz", version: "1" } } },
  { jsonrpc: "2.0", id: 1, method: "authenticate", params: { methodId: "token" } },
  { jsonrpc: "2.0", id: 1, method: "logout", params: {} },
  { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [{ name: "m", command: "/bin/m", args: ["-x"], env: [{ name: "A", value: "1" }] }] } },
  { jsonrpc: "2.0", id: 1, method: "session/load", params: { sessionId: "s1", cwd: "/tmp", mcpServers: [] } },
  { jsonrpc: "2.0", id: 1, method: "session/list", params: { cwd: "/tmp" } },
  { jsonrpc: "2.0", id: 1, method: "session/resume", params: { sessionId: "s1", cwd: "/tmp", mcpServers: [] } },
  { jsonrpc: "2.0", id: 1, method: "session/close", params: { sessionId: "s1" } },
  { jsonrpc: "2.0", id: 1, method: "session/delete", params: { sessionId: "s1" } },
  { jsonrpc: "2.0", id: 1, method: "session/set_mode", params: { sessionId: "s1", modeId: "code" } },
  { jsonrpc: "2.0", id: 1, method: "session/set_config_option", params: { sessionId: "s1", configId: "model", value: "fast" } },
  {
    jsonrpc: "2.0",
    id: 1,
    method: "session/prompt",
    params: {
      sessionId: "s1",
      prompt: [text, { type: "resource_link", uri: "file:///a.txt", name: "a.txt" }, { type: "resource", resource: { uri: "file:///b.txt", text: "b" } }],
      _meta: { trace: { depth: [1, 2, 3] } },
    },
  },
  { jsonrpc: "2.0", id: 1, method: "_example.com/echo", params: { any: ["thing"] } },
  { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } },
  { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 1 } },
  { jsonrpc: "2.0", method: "_example.com/note", params: { n: 1 } },
  { jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "cancelled" } } },
  { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
];

/** Valid messages an agent sends a client. */
export const clientInbound: readonly JsonObject[] = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "session/request_permission",
    params: { sessionId: "s1", toolCall: { toolCallId: "t1", title: "Edit", kind: "edit", status: "pending" }, options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }] },
  },
  { jsonrpc: "2.0", id: 1, method: "fs/read_text_file", params: { sessionId: "s1", path: "/tmp/a.txt", line: 1, limit: 10 } },
  { jsonrpc: "2.0", id: 1, method: "fs/write_text_file", params: { sessionId: "s1", path: "/tmp/a.txt", content: "x" } },
  { jsonrpc: "2.0", id: 1, method: "terminal/create", params: { sessionId: "s1", command: "ls", args: ["-l"], env: [{ name: "A", value: "1" }] } },
  { jsonrpc: "2.0", id: 1, method: "terminal/output", params: { sessionId: "s1", terminalId: "t1" } },
  { jsonrpc: "2.0", id: 1, method: "terminal/kill", params: { sessionId: "s1", terminalId: "t1" } },
  { jsonrpc: "2.0", id: 1, method: "_example.com/echo", params: {} },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: text } } },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "plan", entries: [{ content: "a", priority: "high", status: "pending" }] } } },
  {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", kind: "read", status: "pending", locations: [{ path: "/a" }], content: [{ type: "content", content: text }] } },
  },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "usage_update", used: 1, size: 2 } } },
  { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 1 } },
  { jsonrpc: "2.0", id: 0, result: { stopReason: "end_turn" } },
];

// ── the oracle ───────────────────────────────────────────────────────

export interface Expected {
  /** Ids that must each be echoed by exactly one answer (one entry per request line). */
  readonly ids: (string | number)[];
  /** Answers with `id: null` (parse errors, batches, unidentified and unknown messages). */
  nulls: number;
}

const isRequestId = (id: unknown): id is string | number => typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Nesting depth of a valid JSON text, counted by brackets outside strings: `0` is 0, `{}` and `[]` are 1. */
export function depthOf(json: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34 /* " */) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        i = json.indexOf('"', i + 1);
        let slashes = 0;
        while (json.charCodeAt(i - 1 - slashes) === 92 /* \\ */) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * What a conforming connection answers to one line (DESIGN §4.1–4.3, batches
 * rejected): requests echo their id, everything unanswerable-but-wrong gets
 * one `id: null` error, notifications and responses get nothing.
 */
export function expectLine(line: string, into: Expected, limits: { maxDepth: number; maxMessageBytes: number } = { maxDepth: 128, maxMessageBytes: 32 * 1024 * 1024 }): void {
  // A trailing "\r" is not part of the line; a leading byte-order mark is ignored (RFC 8259 §8.1).
  const body = (line.endsWith("\r") ? line.slice(0, -1) : line).replace(/^\ufeff/, "");
  if (body.length > limits.maxMessageBytes) {
    into.nulls++;
    return;
  }
  if (body.trim().length === 0) return;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    into.nulls++;
    return;
  }
  if (depthOf(body) > limits.maxDepth || Array.isArray(value) || typeof value !== "object" || value === null) {
    into.nulls++;
    return;
  }
  const m = value as Record<string, unknown>;
  if (typeof m.method === "string") {
    if (!own(m, "id")) return; // notification: never answered
    if (isRequestId(m.id)) into.ids.push(m.id);
    else into.nulls++;
    return;
  }
  const hasResult = own(m, "result");
  const hasError = own(m, "error");
  if (hasResult || hasError) return; // a response (known or not) or response-shaped: never answered
  into.nulls++;
}

/** Expected answers to a whole chunk of text (lines split on `\n`; a final unterminated segment counts too). */
export function expectText(text: string, limits?: { maxDepth: number; maxMessageBytes: number }): Expected {
  const into: Expected = { ids: [], nulls: 0 };
  for (const line of text.split("\n")) expectLine(line, into, limits);
  return into;
}

/**
 * Checks the answers the connection wrote against the oracle; returns a
 * description of the first problem, or undefined. Every answer must be a
 * well-formed JSON-RPC response; ids must match one for one.
 */
export function answerProblem(answers: readonly Answer[], expected: Expected): string | undefined {
  const want = new Map<string, number>();
  for (const id of expected.ids) want.set(JSON.stringify(id), (want.get(JSON.stringify(id)) ?? 0) + 1);
  let nulls = 0;
  for (const a of answers) {
    if (a.jsonrpc !== "2.0") return `answer without jsonrpc "2.0": ${JSON.stringify(a)}`;
    if (a.method !== undefined) return `unexpected outbound message: ${JSON.stringify(a)}`;
    if (!own(a, "id")) return `answer without id: ${JSON.stringify(a)}`;
    if (own(a, "result") === own(a, "error")) return `answer must have exactly one of result/error: ${JSON.stringify(a)}`;
    if (a.error !== undefined && (!Number.isInteger(a.error.code) || typeof a.error.message !== "string")) return `malformed error object: ${JSON.stringify(a)}`;
    if (a.id === null) {
      if (a.error === undefined || (a.error.code !== -32700 && a.error.code !== -32600)) return `id:null answer that is not -32700/-32600: ${JSON.stringify(a)}`;
      nulls++;
      continue;
    }
    const key = JSON.stringify(a.id);
    const left = want.get(key) ?? 0;
    if (left === 0) return `answer echoes id ${key}, which no request line carried (or was answered twice)`;
    want.set(key, left - 1);
  }
  for (const [key, left] of want) if (left > 0) return `request id ${key} was not answered`;
  if (nulls !== expected.nulls) return `expected ${expected.nulls} id:null answers, got ${nulls}`;
  return undefined;
}

// ── misc helpers ─────────────────────────────────────────────────────

/** Resolves after every queued microtask and one macrotask turn. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Records unhandled rejections while installed. */
export function rejectionSpy(): { readonly seen: unknown[]; install(): void; uninstall(): void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => {
    seen.push(reason);
  };
  return {
    seen,
    install: () => process.on("unhandledRejection", onRejection),
    uninstall: () => process.off("unhandledRejection", onRejection),
  };
}

/** Runs `node <args>` in the repo root to completion (killed after `deadlineMs`): test/support/process.ts. */
export const runNode = (args: readonly string[], deadlineMs: number): Promise<Ran> => runProcess(process.execPath, args, { timeoutMs: deadlineMs });

export { deferred, within, type Deferred } from "../support/async.ts";

// ── fast-check arbitraries for hostile inbound traffic ─────────────────

/** Request ids, valid and not: safe integers, strings, and the values DESIGN §4.3 says are not ids. */
export const anyId: fc.Arbitrary<Json> = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constantFrom<Json>(null, true, false, 1.5, -0.25, 2 ** 53, -(2 ** 53), 9007199254740993, 1e300, "", "1", 0, -1), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>);

/** Method names: real ones, extension ones, prototype names, and junk. */
export const anyMethod: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    "initialize",
    "authenticate",
    "logout",
    "session/new",
    "session/load",
    "session/list",
    "session/prompt",
    "session/cancel",
    "session/set_mode",
    "session/update",
    "session/request_permission",
    "fs/read_text_file",
    "terminal/create",
    "$/cancel_request",
    "_example.com/echo",
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "rpc.discover",
    "",
  ),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
);

/** Objects shaped like JSON-RPC messages, any field possibly missing or of the wrong type. */
export const messageShaped: fc.Arbitrary<JsonObject> = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant<Json>("2.0"), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>),
    id: anyId,
    method: anyMethod,
    params: fc.oneof(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, fc.dictionary(fc.constantFrom("sessionId", "requestId", "cwd", "prompt", "_meta"), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>)),
    result: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }) as fc.Arbitrary<Json>, fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>),
  },
  { requiredKeys: [] },
);

/** One mutation step; `pick` chooses the location among the message's paths. */
export type Mutation =
  | { readonly op: "drop"; readonly pick: number }
  | { readonly op: "retype"; readonly pick: number; readonly value: Json }
  | { readonly op: "nest"; readonly pick: number; readonly depth: number }
  | { readonly op: "huge"; readonly pick: number; readonly length: number }
  | { readonly op: "dupKey"; readonly key: string; readonly value: Json; readonly atEnd: boolean }
  | { readonly op: "setId"; readonly value: Json }
  | { readonly op: "setMethod"; readonly value: Json };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("drop" as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("retype" as const), pick: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("nest" as const), pick: fc.nat(), depth: fc.integer({ min: 1, max: 160 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("huge" as const), pick: fc.nat(), length: fc.oneof({ weight: 19, arbitrary: fc.integer({ min: 1_000, max: 20_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 1_000_000 }) }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("dupKey" as const), key: fc.constantFrom("id", "method", "params", "jsonrpc", "result", "error"), value: anyId, atEnd: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("setId" as const), value: anyId }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("setMethod" as const), value: anyMethod }) },
);

type Path = readonly (string | number)[];

/** Every location inside `value` (the root excluded). */
export function pathsOf(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  if (typeof value !== "object" || value === null) return out;
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    const p = [...prefix, k];
    out.push(p);
    pathsOf(v, p, out);
  }
  return out;
}

function parentOf(root: Json, path: Path): { parent: Record<string | number, Json>; key: string | number } {
  let node = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, Json>;
  return { parent: node, key: path[path.length - 1] as string | number };
}

function nested(depth: number): Json {
  let v: Json = 0;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { n: v };
  return v;
}

/** Applies mutations to a copy of `message` and returns the line text (no newline). */
export function mutate(message: JsonObject, steps: readonly Mutation[]): string {
  const copy = structuredClone(message) as JsonObject;
  const dups: string[] = [];
  const dupsAtStart: string[] = [];
  for (const step of steps) {
    switch (step.op) {
      case "setId":
        copy.id = step.value;
        break;
      case "setMethod":
        copy.method = step.value;
        break;
      case "dupKey":
        (step.atEnd ? dups : dupsAtStart).push(`${JSON.stringify(step.key)}:${JSON.stringify(step.value)}`);
        break;
      default: {
        const paths = pathsOf(copy);
        if (paths.length === 0) break;
        const { parent, key } = parentOf(copy, paths[step.pick % paths.length] as Path);
        if (step.op === "drop") {
          if (Array.isArray(parent)) parent.splice(key as number, 1);
          else delete parent[key];
        } else if (step.op === "retype") parent[key] = step.value;
        else if (step.op === "nest") parent[key] = nested(step.depth);
        else parent[key] = "x".repeat(step.length);
      }
    }
  }
  let line = JSON.stringify(copy);
  if (dupsAtStart.length > 0) line = `{${dupsAtStart.join(",")}${line.length > 2 ? "," : ""}${line.slice(1)}`;
  if (dups.length > 0) line = `${line.slice(0, -1)}${line.length > 2 ? "," : ""}${dups.join(",")}}`;
  return line;
}

/** A mutated message from `corpus`, as line text. */
export function mutatedFrom(corpus: readonly JsonObject[]): fc.Arbitrary<string> {
  return fc.tuple(fc.nat(corpus.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([i, steps]) => mutate(corpus[i] as JsonObject, steps));
}

/** A line of any kind: valid, mutated, message-shaped, arbitrary JSON, or junk text. */
export function anyLine(corpus: readonly JsonObject[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.nat(corpus.length - 1).map((i) => JSON.stringify(corpus[i])) },
    { weight: 3, arbitrary: mutatedFrom(corpus) },
    { weight: 2, arbitrary: messageShaped.map((m) => JSON.stringify(m)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "   ", "\t", "[]", "[1,2]", "{", "}", "null", '"\\u0000"', "\u00a0", "\ufeff{}", '\ufeff{"jsonrpc":"2.0","id":"bom","method":"initialize","params":{"protocolVersion":1}}') },
  );
}

/** Splits `bytes` at the given cut points (taken modulo its length). */
export function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  if (bytes.length === 0) return [bytes];
  const points = [...new Set(cuts.map((c) => c % bytes.length))].filter((c) => c > 0).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    out.push(bytes.subarray(start, p));
    start = p;
  }
  out.push(bytes.subarray(start));
  return out;
}
