// Faults of a proxy hosted in the conductor's process stay in their hop: a hook that throws or rejects answers
// its request with -32603 naming the proxy, and the chain goes on serving; a proxy whose initialize fails ends
// the chain with a clear message and leaves no process; a module that is no proxy starts nothing. The process
// table is read after each.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { connectClient, type RpcError, type ClientHandler } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { allGone } from "../support/process-group.ts";
import { runProcess } from "../support/process.ts";
import { scratch } from "../tools/support.ts";
import { bin, exampleAgent } from "./fixtures.ts";

const module = (name: string) => new URL(`./modules/${name}`, import.meta.url).pathname;
const handler: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

/** Every process below `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** What a rejected call carried: its code, message and data. */
async function rejection(call: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await call;
  } catch (error) {
    const e = error as RpcError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error("the call did not fail");
}

describe("a hosted proxy's hook that fails", () => {
  it("answers its request with -32603 naming the proxy, throw or reject; an RpcError goes on as it is; the chain keeps serving and ends whole", async () => {
    const [command, ...args] = bin("conduct", "--verbose", "--proxy-module", module("faulty.ts"), "--", ...exampleAgent()) as [string, ...string[]];
    const conductor = spawnAgent(command, args, { stderr: "capture" });
    const conn = connectClient(handler, conductor.transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    const prompt = (text: string) => conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] });
    const named = { code: -32603, message: "Internal error in proxy proxy 0 (faulty.ts)", data: { proxy: "proxy 0 (faulty.ts)" } };
    expect(await rejection(prompt("throw"))).toEqual(named);
    expect(await rejection(prompt("reject"))).toEqual(named);
    expect(await rejection(prompt("refuse"))).toEqual({ code: -32042, message: "refused by the proxy", data: undefined });
    expect((await prompt("hello")).stopReason).toBe("end_turn");
    const below = descendants(conductor.child.pid as number);
    expect(below.length).toBeGreaterThanOrEqual(1);
    conn.close();
    expect((await conductor.exited).code).toBe(0);
    expect(await allGone([conductor.child.pid as number, ...below])).toEqual([]);
    // What the hook threw reaches the conductor's diagnostics, never the client.
    expect(conductor.stderrTail()).toMatch(/proxy 0 \(faulty\.ts\): its prompt hook failed: the hook threw/);
    expect(conductor.stderrTail()).toMatch(/proxy 0 \(faulty\.ts\): its prompt hook failed: the hook rejected/);
  }, 60_000);
});

describe("a hosted proxy whose initialize fails", () => {
  it("answers the client's initialize with its error, ends the chain with a clear message (exit 1), and leaves no process", async () => {
    const [command, ...args] = bin("conduct", "--proxy-module", module("failing-initialize.ts"), "--", ...exampleAgent()) as [string, ...string[]];
    const conductor = spawnAgent(command, args, { stderr: "capture" });
    const conn = connectClient(handler, conductor.transport);
    // The agent is started before anything is initialized: it is there to be ended.
    const started = Date.now();
    while (descendants(conductor.child.pid as number).length === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
    const below = descendants(conductor.child.pid as number);
    expect(below.length).toBeGreaterThanOrEqual(1);
    expect(await rejection(conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} }))).toEqual({ code: -32603, message: "Internal error in proxy proxy 0 (failing-initialize.ts)", data: { proxy: "proxy 0 (failing-initialize.ts)" } });
    const exit = await conductor.exited;
    expect(exit.code).toBe(1);
    expect(conductor.stderrTail()).toContain("acp-router conduct: proxy 0 (failing-initialize.ts) failed to initialize: Internal error in proxy proxy 0 (failing-initialize.ts); the chain ended");
    expect(await allGone([conductor.child.pid as number, ...below])).toEqual([]);
  }, 60_000);
});

describe("a --proxy-module that is not a proxy", () => {
  it("is refused before anything starts: exit 2, saying what the default export must be", async () => {
    const run = await runProcess(bin()[0] as string, [...bin("conduct", "--proxy-module", module("not-a-proxy.ts"), "--", ...exampleAgent()).slice(1)], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not-a-proxy.ts: its default export must be what defineProxy(...) returns");
    expect(run.stdout).toBe("");
  }, 60_000);
});
