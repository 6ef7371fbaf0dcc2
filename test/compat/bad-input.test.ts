// Bad input through the compatibility package, over real stdio: an SDK-built agent on the package
// and the same agent on acp-router's core are fed the same lines — parse errors, a line nested too
// deep, invalid requests, an id-only message, an oversized line, unknown methods, wrong params,
// a notification with wrong params — each followed by a working request. The package answers each
// as the core does (code, message, id), answers nothing the core does not, keeps serving, and
// ends with exit code 0 and nothing on stderr but the SDK's own log line for the dropped
// notification (no crash, no unhandled rejection).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const agent = fileURLToPath(new URL("./fixtures/bad-input-agent.ts", import.meta.url));
const hook = fileURLToPath(new URL("../../compat/sdk/dev/register.mjs", import.meta.url));

const request = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const init = (id: number) => request(id, "initialize", { protocolVersion: 1, clientCapabilities: {} });
const newSession = (id: number) => request(id, "session/new", { cwd: "/", mcpServers: [] });

/** Each bad line, then a request that must still be answered. */
const CASES: [string, string][] = [
  ["not JSON", "{oops"],
  ["nested deeper than 128", `${"[".repeat(200)}${"]".repeat(200)}`],
  ["id null", JSON.stringify({ jsonrpc: "2.0", id: null, method: "session/new", params: { cwd: "/", mcpServers: [] } })],
  ["jsonrpc 1.0", JSON.stringify({ jsonrpc: "1.0", id: 50, method: "session/new", params: {} })],
  ["method not a string", JSON.stringify({ jsonrpc: "2.0", method: 1, params: "bar" })],
  ["id only", JSON.stringify({ id: 77 })],
  ["a line over maxMessageBytes", request(51, "session/new", { cwd: "x".repeat(8000), mcpServers: [] })],
  ["an unknown method", request(52, "foo/bar", {})],
  ["wrong params (cwd a number)", request(53, "session/new", { cwd: 5, mcpServers: [] })],
  ["wrong params (no sessionId)", request(54, "session/prompt", { prompt: [] })],
  ["a notification with wrong params", JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: 5 } })],
  ["an array of numbers", "[1,2,3]"],
  ["a bare string", '"hello"'],
];

interface Run {
  /** Each case's answers (what came before its follow-up request's answer). */
  readonly answers: Record<string, unknown>[][];
  /** Whether each follow-up request was answered with a result. */
  readonly served: boolean[];
  readonly code: number | null;
  readonly stderr: string;
}

/** Feeds the cases to the agent (`core`, or `sdk` on the package), one at a time, each with a follow-up `session/new`. */
async function run(build: "core" | "sdk"): Promise<Run> {
  const { NODE_OPTIONS: _inherited, ...env } = process.env;
  const args = ["--import", "tsx", ...(build === "sdk" ? ["--import", hook] : []), agent, build];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines: Record<string, unknown>[] = [];
  let waiter: { id: number; resolve: () => void } | undefined;
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => {
    pending += t;
    for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
      const message = JSON.parse(pending.slice(0, i)) as Record<string, unknown>;
      pending = pending.slice(i + 1);
      lines.push(message);
      if (waiter !== undefined && message.id === waiter.id) waiter.resolve();
    }
  });
  const answered = (id: number, line: string) =>
    new Promise<void>((resolve) => {
      waiter = { id, resolve };
      child.stdin.write(`${line}\n`);
    });
  await answered(1, init(1));
  const answers: Record<string, unknown>[][] = [];
  const served: boolean[] = [];
  let id = 100;
  for (const [, line] of CASES) {
    const from = lines.length;
    child.stdin.write(`${line}\n`);
    const follow = ++id;
    await answered(follow, newSession(follow));
    const got = lines.slice(from);
    served.push(got.some((m) => m.id === follow && m.result !== undefined));
    answers.push(got.filter((m) => m.id !== follow));
  }
  child.stdin.end();
  return { answers, served, code: await exited, stderr };
}

/** An answer with what a client reads of it: id, code, message and `data.reason` when there. */
const shape = (m: Record<string, unknown>) => {
  const error = m.error as { code?: unknown; message?: unknown; data?: { reason?: unknown } } | undefined;
  return { id: m.id, code: error?.code, message: error?.message, reason: error?.data?.reason };
};

describe("bad input through the compatibility package, against the core", () => {
  it("answers every bad line as the core does, keeps serving, and exits cleanly", async () => {
    const [core, sdk] = await Promise.all([run("core"), run("sdk")]);
    CASES.forEach(([name], i) => {
      const expected = (core.answers[i] ?? []).map(shape);
      // A method outside the table reaches the SDK layer (the SDK accepts handlers for any method name), which
      // answers it -32601 with the SDK's own message, as SDK 2.4.0 does (docs/sdk-drop-in.md, "Method not found").
      if (name === "an unknown method") for (const e of expected) e.message = `"Method not found": foo/bar`;
      expect({ name, answers: (sdk.answers[i] ?? []).map(shape) }).toEqual({ name, answers: expected });
    });
    // Every request with a readable id but an error got one answer; the core answers these:
    expect(core.answers.map((a) => a.map((m) => (m.error as { code: number }).code))).toEqual([[-32700], [-32700], [-32600], [-32600], [-32600], [-32600], [-32700], [-32601], [-32602], [-32602], [], [-32600], [-32600]]);
    expect(sdk.served).toEqual(CASES.map(() => true));
    expect(core.served).toEqual(CASES.map(() => true));
    expect(sdk.code).toBe(0);
    expect(core.code).toBe(0);
    // The only stderr: the SDK's own log line for the dropped notification (docs/sdk-drop-in.md).
    expect(sdk.stderr.trim().split("\n")).toEqual(["Error handling notification { method: 'session/cancel', code: -32602, message: 'Invalid params' }"]);
    expect(core.stderr).toBe("");
  });
});
